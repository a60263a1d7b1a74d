//! The logic behind the `ncdump`, `ncgen` and `nccopy` binaries.

pub mod copy;
pub mod dump;
pub mod gen;
