//! Remote storage (feature `remote`): S3 buckets as Zarr stores and single remote objects read
//! with HTTP `Range` requests (`#mode=bytes`), as netcdf-c reaches them
//! (`../shared/spec/nczarr.md`, "Amazon S3 Storage", "Addressing Style", Appendices C and D).
//!
//! The client is synchronous, built on `ureq` (blocking, small, no async runtime to start inside
//! a library whose API is synchronous); `https://` needs feature `https` (rustls). Requests are
//! signed with AWS Signature Version 4 ([`sigv4`]) when credentials are found ([`credentials`]),
//! and sent anonymously otherwise. Failures that may pass (connection errors, 5xx, 429,
//! truncated bodies) are retried with exponential backoff; every error names the URL (without
//! its query string) and never a credential.

pub mod credentials;
pub mod http;
pub mod range;
pub mod s3;
pub mod s3store;
pub mod s3url;
pub mod sigv4;
mod xml;

pub use credentials::{AwsProfile, Credentials};
pub use http::{HttpClient, HttpSettings};
pub use range::{HttpObject, RangeFetch, RangeReader, S3Object};
pub use s3::S3Client;
pub use s3store::S3Store;
pub use s3url::S3Url;

/// Entry points for the fuzz targets (`fuzz/`): the parsers of servers' answers, which touch
/// nothing. Not part of the API; they may change at any time.
#[doc(hidden)]
pub mod fuzzing {
    use super::http::{HttpRequest, HttpResponse};
    use super::range::Fetched;

    /// One page of an S3 listing: keys, common prefixes and the continuation token.
    pub fn s3_listing_page(text: &str) -> Option<(Vec<String>, Vec<String>, Option<String>)> {
        super::s3::parse_listing_page(text).map(|(page, next)| (page.keys, page.prefixes, next))
    }

    /// The check a range request's answer goes through (status, `Content-Range`, body length)
    /// before its bytes are used, for a request of bytes `start..end`.
    ///
    /// # Errors
    /// As the reader's own check: the answer does not match the request.
    pub fn range_answer(
        status: u16,
        content_range: Option<String>,
        body: Vec<u8>,
        start: u64,
        end: u64,
    ) -> crate::Result<Fetched> {
        let request = HttpRequest {
            method: "GET",
            url: "http://127.0.0.1/fuzz".into(),
            headers: Vec::new(),
            body: &[],
        };
        let answer = HttpResponse {
            status,
            content_range,
            body,
        };
        super::range::check_range_response(&request, answer, start, end)
    }
}
