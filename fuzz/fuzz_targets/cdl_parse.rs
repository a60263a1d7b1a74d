//! Fuzzes the CDL parser (the language of `../shared/spec/ncgen-features.md`): arbitrary bytes
//! must parse or give an error, never panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = purecdf::cdl::parse(data);
});
