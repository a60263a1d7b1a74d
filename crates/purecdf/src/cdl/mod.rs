//! CDL, the netCDF text language: lexer, parser and semantic analysis (ncgen's input) and the
//! printer (ncdump's output). See `../shared/spec/ncgen-features.md` and `ncdump-conventions.md`.
pub mod print;
