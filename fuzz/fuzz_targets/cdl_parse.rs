//! Fuzzes the CDL parser (the language of `../shared/spec/ncgen-features.md`) and the program
//! generators behind `ncgen -l c|f77|java` (§7): arbitrary bytes must parse or give an error,
//! and whatever parses must generate or give an error, never panic, hang or allocate without
//! bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use purecdf::cdl::codegen::{c, f77, java, parse_classic_model, CodegenOptions};

fuzz_target!(|data: &[u8]| {
    let opts = CodegenOptions {
        file_name: "fuzz.nc".into(),
        ..Default::default()
    };
    if let Ok(ds) = purecdf::cdl::parse(data) {
        let _ = c::generate(&ds, &opts);
    }
    let parse_opts = purecdf::cdl::ParseOptions {
        file_name: "fuzz.cdl".into(),
        ..Default::default()
    };
    if let Ok(ds) = parse_classic_model(data, &parse_opts) {
        let _ = f77::generate(&ds, &opts);
        let _ = java::generate(&ds, &opts);
    }
});
