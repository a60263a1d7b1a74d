//! Decoders for the object header messages (HDF5 File Format Specification v3.0, section IV.A.2),
//! one file per message.

pub mod attribute;
pub mod dataspace;
pub mod datatype;
pub mod external;
pub mod fill_value;
pub mod filter_pipeline;
pub mod layout;
pub mod links;
pub mod shared;
