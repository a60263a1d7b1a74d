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
