//! S3 URLs as netcdf-c reads them (`../shared/spec/nczarr.md`, "Addressing Style" and
//! Appendix D): path style `https://s3.<region>.amazonaws.com/<bucket>/<key>`, virtual-host style
//! `https://<bucket>.s3.<region>.amazonaws.com/<key>`, `s3://<bucket>/<key>` (sent to
//! `AWS_ENDPOINT_URL` when set, else to AWS), and any other host — an S3-compatible server such
//! as `http://127.0.0.1:9000/<bucket>/<key>` — in path style. Internally everything is path
//! style, as in netcdf-c.

use super::credentials::AwsProfile;
use crate::{Result, StoreError};

/// An S3 object or key prefix and the service that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct S3Url {
    /// `scheme://host[:port]` of the service, without a trailing `/`.
    pub endpoint: String,
    /// The bucket.
    pub bucket: String,
    /// The object's key or the dataset's prefix, without leading or trailing `/`, decoded.
    pub key: String,
    /// The region: from an AWS host name, else the profile's, else `us-east-1`.
    pub region: String,
}

impl S3Url {
    /// Parses `url` (its fragment and query, if any, are ignored).
    ///
    /// # Errors
    /// [`StoreError::Remote`] for a URL that names no bucket or has an unknown scheme.
    pub fn parse(url: &str, profile: &AwsProfile) -> Result<S3Url> {
        let bad = |what: &str| StoreError::Remote {
            url: url.split(['#', '?']).next().unwrap_or(url).to_string(),
            what: what.to_string(),
            status: None,
        };
        let body = url.split(['#', '?']).next().unwrap_or("");
        let (scheme, rest) = body.split_once("://").ok_or_else(|| bad("not a URL"))?;
        let scheme = scheme.to_ascii_lowercase();
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let path = crate::percent_decode(path);
        let profile_region = profile.region.clone();
        let default_region = || profile_region.clone().unwrap_or_else(|| "us-east-1".into());
        let split_bucket = |p: &str| -> Result<(String, String)> {
            let p = p.trim_start_matches('/');
            let (b, k) = p.split_once('/').unwrap_or((p, ""));
            if b.is_empty() {
                return Err(bad("no bucket in the URL"));
            }
            Ok((b.to_string(), k.trim_matches('/').to_string()))
        };
        match scheme.as_str() {
            "s3" => {
                let bucket = authority.to_string();
                if bucket.is_empty() {
                    return Err(bad("no bucket in the URL"));
                }
                let region = default_region();
                let endpoint = match &profile.endpoint_url {
                    Some(e) => e.trim_end_matches('/').to_string(),
                    None => format!("https://s3.{region}.amazonaws.com"),
                };
                Ok(S3Url {
                    endpoint,
                    bucket,
                    key: path.trim_matches('/').to_string(),
                    region,
                })
            }
            "http" | "https" => {
                if authority.is_empty() {
                    return Err(bad("no host in the URL"));
                }
                let host = authority.rsplit('@').next().unwrap_or(authority);
                let host_only = host.split(':').next().unwrap_or(host).to_ascii_lowercase();
                match aws_host(&host_only) {
                    Some(AwsHost { bucket, region }) => {
                        let region = region.unwrap_or_else(default_region);
                        let endpoint = format!("{scheme}://s3.{region}.amazonaws.com");
                        let (bucket, key) = match bucket {
                            Some(b) => (b, path.trim_matches('/').to_string()),
                            None => split_bucket(&path)?,
                        };
                        Ok(S3Url {
                            endpoint,
                            bucket,
                            key,
                            region,
                        })
                    }
                    None => {
                        let (bucket, key) = split_bucket(&path)?;
                        Ok(S3Url {
                            endpoint: format!("{scheme}://{host}"),
                            bucket,
                            key,
                            region: default_region(),
                        })
                    }
                }
            }
            _ => Err(bad("not an http, https or s3 URL")),
        }
    }

    /// The `Host` header's value.
    pub fn host(&self) -> &str {
        self.endpoint
            .split_once("://")
            .map_or(self.endpoint.as_str(), |(_, h)| h)
    }

    /// The same bucket with `key` below this URL's key (the empty key: this URL's key).
    pub fn child(&self, key: &str) -> String {
        if key.is_empty() {
            self.key.clone()
        } else {
            crate::join_key(&self.key, key)
        }
    }
}

/// What an AWS host name says: `s3.amazonaws.com`, `s3.<region>.amazonaws.com`,
/// `s3-<region>.amazonaws.com` (path style), `<bucket>.s3[.-]<region>.amazonaws.com` (virtual).
struct AwsHost {
    bucket: Option<String>,
    region: Option<String>,
}

fn aws_host(host: &str) -> Option<AwsHost> {
    let stem = host.strip_suffix(".amazonaws.com")?;
    let region_of = |s3: &str| -> Option<Option<String>> {
        if s3 == "s3" {
            return Some(None);
        }
        let r = s3.strip_prefix("s3.").or_else(|| s3.strip_prefix("s3-"))?;
        Some(Some(r.to_string()).filter(|r| r != "external-1"))
    };
    if let Some(region) = region_of(stem) {
        return Some(AwsHost {
            bucket: None,
            region,
        });
    }
    // Virtual host: the bucket (which may itself contain dots) before `.s3`.
    let at = stem
        .rfind(".s3.")
        .or_else(|| stem.rfind(".s3-"))
        .or_else(|| stem.ends_with(".s3").then(|| stem.len() - 3))?;
    let region = region_of(&stem[at + 1..])?;
    Some(AwsHost {
        bucket: Some(stem[..at].to_string()),
        region,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(url: &str) -> S3Url {
        S3Url::parse(url, &AwsProfile::default()).unwrap()
    }

    #[test]
    fn addressing_styles() {
        let parts = |u: &S3Url| [&u.endpoint, &u.bucket, &u.key, &u.region].map(|s| s.to_string());
        let cases = [
            (
                "https://s3.us-west-2.amazonaws.com/bkt/a/b.zarr#mode=nczarr,s3",
                [
                    "https://s3.us-west-2.amazonaws.com",
                    "bkt",
                    "a/b.zarr",
                    "us-west-2",
                ],
            ),
            (
                "https://my.bkt.s3.eu-west-1.amazonaws.com/x/y.nc#mode=bytes",
                [
                    "https://s3.eu-west-1.amazonaws.com",
                    "my.bkt",
                    "x/y.nc",
                    "eu-west-1",
                ],
            ),
        ];
        for (url, want) in cases {
            assert_eq!(parts(&p(url)), want.map(str::to_string), "{url}");
        }
        let u = p("https://bkt.s3.amazonaws.com/k");
        assert_eq!((u.bucket.as_str(), u.region.as_str()), ("bkt", "us-east-1"));
        let u = p("https://s3.amazonaws.com/noaa-goes16/a%20b.nc");
        assert_eq!(
            (u.bucket.as_str(), u.key.as_str()),
            ("noaa-goes16", "a b.nc")
        );
        let u = p("http://127.0.0.1:9000/bkt/root/ds.zarr/#mode=nczarr,s3");
        assert_eq!(
            (
                u.endpoint.as_str(),
                u.bucket.as_str(),
                u.key.as_str(),
                u.host()
            ),
            (
                "http://127.0.0.1:9000",
                "bkt",
                "root/ds.zarr",
                "127.0.0.1:9000"
            )
        );
        let u = p("s3://bkt/ds#mode=nczarr,s3");
        assert_eq!(u.endpoint, "https://s3.us-east-1.amazonaws.com");
        let profile = AwsProfile {
            endpoint_url: Some("http://localhost:1234/".into()),
            region: Some("eu-north-1".into()),
            ..AwsProfile::default()
        };
        let u = S3Url::parse("s3://bkt/ds", &profile).unwrap();
        assert_eq!(
            (
                u.endpoint.as_str(),
                u.region.as_str(),
                u.child(".zgroup").as_str()
            ),
            ("http://localhost:1234", "eu-north-1", "ds/.zgroup")
        );
        assert_eq!(u.child(""), "ds");
        for bad in [
            "s3:///x",
            "http://host/",
            "ftp://h/b/k",
            "nourl",
            "https:///b/k",
        ] {
            assert!(S3Url::parse(bad, &AwsProfile::default()).is_err(), "{bad}");
        }
    }
}
