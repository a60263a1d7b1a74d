//! The HDF5 on-disk structures, one file per structure: parse (and later encode) only, no policy.
//! Section numbers refer to the HDF5 File Format Specification v3.0.

pub mod btree_v1;
pub mod btree_v2;
pub mod btree_v2_write;
pub mod cache_image;
pub mod checksum;
pub mod chunk_index;
pub mod cursor;
pub mod encode;
pub mod fractal_heap;
pub mod fractal_heap_write;
pub mod global_heap;
pub mod local_heap;
pub mod messages;
pub mod name;
pub mod object_header;
pub mod sohm;
pub mod superblock;
pub mod vds;
