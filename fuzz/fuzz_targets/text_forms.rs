//! Fuzzes the parsers of short texts a user or a server hands purecdf: dataset names (Zarr URLs
//! with mode words, `#mode=bytes` URLs, plain paths), `_Filter` / `nccopy -F` filter lists and
//! single filters, S3 URLs, store keys (checks and percent-decoding), and S3 listing pages. The
//! first byte picks the parser; the rest is the text (lossy UTF-8). Errors are fine; panics,
//! hangs and unbounded allocations are not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use purecdf::store::remote::{fuzzing, AwsProfile, S3Url};

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    match which % 6 {
        0 => {
            std::hint::black_box(purecdf::fuzzing::parse_dataset_name(&text));
        }
        1 => {
            let _ = purecdf::filter_spec::parse_filter_list(&text);
        }
        2 => {
            let _ = purecdf::filter_spec::parse_filter(&text);
        }
        3 => {
            let profile = AwsProfile::from_env_map(&Default::default());
            if let Ok(url) = S3Url::parse(&text, &profile) {
                let _ = url.host();
                let _ = url.child("a/b");
            }
        }
        4 => {
            let _ = purecdf::store::check_key(&text);
            let _ = purecdf::store::percent_decode(&text);
        }
        _ => {
            std::hint::black_box(fuzzing::s3_listing_page(&text));
        }
    }
});
