//! CDL, the netCDF text language: lexer, parser and semantic analysis (ncgen's input) and the
//! printer (ncdump's output). See `../shared/spec/ncgen-features.md` and `ncdump-conventions.md`.
mod ast;
mod attrs;
pub mod codegen;
mod constants;
mod data;
mod entry;
mod escapes;
mod filters;
mod lexer;
mod parser;
pub mod print;
mod semantics;
mod tokens;
mod types;
pub use ast::{
    CdlDataset, CdlError, Const, ConstKind, ErrorStyle, GlobalSpecials, Quantize, StorageKind,
    VarSpecials,
};
pub use data::MAX_EXPAND;
pub use entry::{format_from_kind_name, parse, parse_with, ParseOptions};
pub use tokens::Special;
