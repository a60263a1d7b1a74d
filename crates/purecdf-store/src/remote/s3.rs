//! The S3 REST calls a Zarr store and a byte-range reader need — `GetObject` (whole or a
//! `Range`), `PutObject`, `DeleteObject`, `HeadObject` and `ListObjectsV2` — in path style,
//! signed with SigV4 when there are credentials and anonymous otherwise.

use super::credentials::{AwsProfile, Credentials};
use super::http::{status_error, HttpClient, HttpRequest, HttpResponse, HttpSettings};
use super::s3url::S3Url;
use super::sigv4::{self, uri_encode, SignInput, EMPTY_SHA256};
use super::xml;
use crate::{ByteRange, Result, StoreError};

/// A client for one bucket of one S3 service.
#[derive(Debug, Clone)]
pub struct S3Client {
    http: HttpClient,
    url: S3Url,
    credentials: Option<Credentials>,
}

/// One page of a listing: object keys and common prefixes (with their trailing `/`).
#[derive(Debug, Default)]
pub(crate) struct Listing {
    pub(crate) keys: Vec<String>,
    pub(crate) prefixes: Vec<String>,
}

impl S3Client {
    /// A client for the bucket of `url`, with these credentials (`None`: anonymous).
    pub fn new(url: S3Url, credentials: Option<Credentials>, settings: HttpSettings) -> S3Client {
        S3Client {
            http: HttpClient::new(settings),
            url,
            credentials,
        }
    }

    /// A client for `url` with the credentials and region of the environment and AWS profile.
    ///
    /// # Errors
    /// As [`S3Url::parse`].
    pub fn from_url(url: &str) -> Result<S3Client> {
        let profile = AwsProfile::from_environment();
        let parsed = S3Url::parse(url, &profile)?;
        Ok(S3Client::new(
            parsed,
            profile.credentials,
            HttpSettings::default(),
        ))
    }

    /// The same client (service, bucket, credentials) pointing at the object `key`.
    pub fn with_key(&self, key: &str) -> S3Client {
        let mut c = self.clone();
        c.url.key = key.to_string();
        c
    }

    /// Where this client points.
    pub fn url(&self) -> &S3Url {
        &self.url
    }

    /// The URL of an object (for messages).
    pub fn object_url(&self, key: &str) -> String {
        format!(
            "{}/{}/{}",
            self.url.endpoint,
            self.url.bucket,
            uri_encode(key, true)
        )
    }

    /// Sends one request to `/bucket/key` (`key` may be empty: the bucket) with query
    /// parameters and extra headers, signed.
    fn request<'b>(
        &self,
        method: &'static str,
        key: &str,
        query: &[(String, String)],
        headers: Vec<(String, String)>,
        body: &'b [u8],
    ) -> Result<(HttpRequest<'b>, HttpResponse)> {
        let path = if key.is_empty() {
            format!("/{}", uri_encode(&self.url.bucket, false))
        } else {
            format!(
                "/{}/{}",
                uri_encode(&self.url.bucket, false),
                uri_encode(key, true)
            )
        };
        let query_string = query
            .iter()
            .map(|(k, v)| format!("{}={}", uri_encode(k, false), uri_encode(v, false)))
            .collect::<Vec<_>>()
            .join("&");
        let url = if query_string.is_empty() {
            format!("{}{path}", self.url.endpoint)
        } else {
            format!("{}{path}?{query_string}", self.url.endpoint)
        };
        let payload = if body.is_empty() {
            EMPTY_SHA256.to_string()
        } else {
            sigv4::sha256_hex(body)
        };
        let request = HttpRequest {
            method,
            url,
            headers,
            body,
        };
        let sign = |r: &HttpRequest<'_>| match &self.credentials {
            None => Vec::new(),
            Some(creds) => sigv4::sign(
                &SignInput {
                    method: r.method,
                    host: self.url.host(),
                    path: &path,
                    query,
                    headers: &r.headers,
                    payload_sha256: &payload,
                    amz_date: &sigv4::amz_date_now(),
                    region: &self.url.region,
                },
                creds,
            ),
        };
        let response = self.http.send(&request, &sign)?;
        Ok((request, response))
    }

    /// The whole object, or `None` when it does not exist.
    ///
    /// # Errors
    /// [`StoreError::Remote`] for any other failure (403 included).
    pub fn get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        let (req, r) = self.request("GET", key, &[], Vec::new(), &[])?;
        match r.status {
            200 => Ok(Some(r.body)),
            404 => Ok(None),
            _ => Err(status_error(&req, &r)),
        }
    }

    /// Bytes `start..end` of an object (or the whole object, if the server ignores `Range`) and
    /// the object's whole length.
    ///
    /// # Errors
    /// [`StoreError::Remote`] when the object is missing or the server sends another range.
    pub fn get_range(&self, key: &str, start: u64, end: u64) -> Result<super::range::Fetched> {
        let range = vec![("range".to_string(), format!("bytes={start}-{}", end - 1))];
        let (req, r) = self.request("GET", key, &[], range, &[])?;
        super::range::check_range_response(&req, r, start, end)
    }

    /// Part of an object and the object's whole length, or `None` when it does not exist: one
    /// signed `GET` with a `Range` header (RFC 9110, section 14; a suffix range for
    /// [`ByteRange::Last`]). A server that ignores the range sends the whole object, which is
    /// cut here; an empty part costs a whole `GET` (only the length is wanted then).
    ///
    /// # Errors
    /// [`StoreError::Remote`] for any other failure, or a range other than the one asked.
    pub fn get_part(&self, key: &str, range: ByteRange) -> Result<Option<(Vec<u8>, u64)>> {
        let spec = match range {
            ByteRange::From { start, len } if len > 0 => {
                format!("bytes={start}-{}", start.saturating_add(len - 1))
            }
            ByteRange::Last(n) if n > 0 => format!("bytes=-{n}"),
            _ => return Ok(self.get(key)?.map(|all| (Vec::new(), all.len() as u64))),
        };
        let (req, r) = self.request("GET", key, &[], vec![("range".into(), spec)], &[])?;
        let total_of = |r: &HttpResponse| {
            r.content_range
                .as_deref()
                .and_then(|c| c.rsplit('/').next())
                .and_then(|t| t.trim().parse::<u64>().ok())
        };
        match r.status {
            404 => Ok(None),
            200 => {
                let total = r.body.len() as u64;
                let want = range.within(total);
                Ok(Some((
                    r.body[want.start as usize..want.end as usize].to_vec(),
                    total,
                )))
            }
            206 => {
                let cr = r.content_range.as_deref().unwrap_or("");
                let parsed = super::range::parse_content_range(cr);
                match parsed {
                    Some((a, b, total))
                        if {
                            let want = range.within(total);
                            a == want.start
                                && b.checked_add(1) == Some(want.end)
                                && r.body.len() as u64 == want.end - want.start
                        } =>
                    {
                        Ok(Some((r.body, total)))
                    }
                    _ => Err(StoreError::Remote {
                        url: super::http::printable_url(&req.url).to_string(),
                        what: format!(
                            "asked for {range:?}, got Content-Range {cr:?} with {} bytes",
                            r.body.len()
                        ),
                        status: Some(206),
                    }),
                }
            }
            // A range starting at or past the end of the object: nothing of it.
            416 => match total_of(&r) {
                Some(total) => Ok(Some((Vec::new(), total))),
                None => Err(status_error(&req, &r)),
            },
            _ => Err(status_error(&req, &r)),
        }
    }

    /// Writes an object.
    ///
    /// # Errors
    /// [`StoreError::Remote`] unless the server answers 200.
    pub fn put(&self, key: &str, body: &[u8]) -> Result<()> {
        let headers = vec![(
            "content-type".to_string(),
            "application/octet-stream".to_string(),
        )];
        let (req, r) = self.request("PUT", key, &[], headers, body)?;
        match r.status {
            200 | 201 | 204 => Ok(()),
            _ => Err(status_error(&req, &r)),
        }
    }

    /// Deletes an object (deleting a missing one is not an error, as in S3).
    ///
    /// # Errors
    /// [`StoreError::Remote`] on failure.
    pub fn delete(&self, key: &str) -> Result<()> {
        let (req, r) = self.request("DELETE", key, &[], Vec::new(), &[])?;
        match r.status {
            200 | 204 | 404 => Ok(()),
            _ => Err(status_error(&req, &r)),
        }
    }

    /// True when the object exists (`HeadObject`).
    ///
    /// # Errors
    /// [`StoreError::Remote`] on failure.
    pub fn exists(&self, key: &str) -> Result<bool> {
        let (req, r) = self.request("HEAD", key, &[], Vec::new(), &[])?;
        match r.status {
            200 => Ok(true),
            404 => Ok(false),
            _ => Err(status_error(&req, &r)),
        }
    }

    /// Every key and (with a delimiter) common prefix under `prefix`, following continuation
    /// tokens: one request per 1,000 names.
    ///
    /// # Errors
    /// [`StoreError::Remote`] on failure or a malformed answer.
    pub(crate) fn list(&self, prefix: &str, delimiter: Option<&str>) -> Result<Listing> {
        let mut out = Listing::default();
        let mut token: Option<String> = None;
        // A server that keeps answering "truncated" with tokens it gave before (the same one, or
        // A, B, A, ...) would loop forever: a token seen before ends the listing (as a repeated
        // one always did here); a listing that never ends is an error after a million pages.
        let mut seen = std::collections::HashSet::new();
        for _page in 0..1_000_000 {
            let mut query = vec![
                ("list-type".to_string(), "2".to_string()),
                ("prefix".to_string(), prefix.to_string()),
            ];
            if let Some(d) = delimiter {
                query.push(("delimiter".to_string(), d.to_string()));
            }
            if let Some(t) = &token {
                query.push(("continuation-token".to_string(), t.clone()));
            }
            let (req, r) = self.request("GET", "", &query, Vec::new(), &[])?;
            if r.status != 200 {
                return Err(status_error(&req, &r));
            }
            let text = String::from_utf8_lossy(&r.body);
            let Some((page, next)) = parse_listing_page(&text) else {
                return Err(StoreError::Remote {
                    url: super::http::printable_url(&req.url).to_string(),
                    what: "the listing is not a ListBucketResult".into(),
                    status: Some(r.status),
                });
            };
            out.keys.extend(page.keys);
            out.prefixes.extend(page.prefixes);
            match next {
                Some(t) if seen.insert(t.clone()) => token = Some(t),
                _ => return Ok(out),
            }
        }
        Err(StoreError::Remote {
            url: self.object_url(prefix),
            what: "the listing goes on past a million pages".into(),
            status: None,
        })
    }
}

/// One page of a ListObjectsV2 answer: its keys and common prefixes, and the continuation
/// token when the page says the listing is truncated; `None` when `text` is not a
/// `ListBucketResult`.
pub(crate) fn parse_listing_page(text: &str) -> Option<(Listing, Option<String>)> {
    if !text.contains("<ListBucketResult") {
        return None;
    }
    let mut page = Listing::default();
    for block in xml::blocks(text, "Contents") {
        page.keys.extend(xml::element_text(block, "Key"));
    }
    for block in xml::blocks(text, "CommonPrefixes") {
        page.prefixes.extend(xml::element_text(block, "Prefix"));
    }
    let truncated = xml::element_text(text, "IsTruncated").as_deref() == Some("true");
    let next = xml::element_text(text, "NextContinuationToken").filter(|_| truncated);
    Some((page, next))
}
