//! A small synchronous HTTP/1.1 client over `ureq`: requests with time limits, retries with
//! exponential backoff for failures that may pass (connection errors, 5xx, 429), and errors that
//! name the URL but never a credential.

use std::time::Duration;

use crate::{Result, StoreError};

/// How long to wait and how often to retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpSettings {
    /// Time allowed to connect, and then between any two reads or writes on the connection.
    pub timeout: Duration,
    /// Further attempts after a failure that may pass (so `retries + 1` attempts in all).
    pub retries: u32,
    /// Wait before the first retry; doubled before each further one.
    pub backoff: Duration,
}

impl Default for HttpSettings {
    /// 30 s time limit, 4 retries from 100 ms (100, 200, 400, 800 ms). `PURECDF_HTTP_TIMEOUT`
    /// (seconds, fractions allowed) and `PURECDF_HTTP_RETRIES` override the first two.
    fn default() -> Self {
        let env_f64 = |k: &str| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.trim().parse::<f64>().ok())
        };
        let timeout = env_f64("PURECDF_HTTP_TIMEOUT")
            .filter(|s| s.is_finite() && *s > 0.0)
            .map_or(Duration::from_secs(30), Duration::from_secs_f64);
        let retries = env_f64("PURECDF_HTTP_RETRIES")
            .filter(|r| (0.0..=20.0).contains(r))
            .map_or(4, |r| r as u32);
        HttpSettings {
            timeout,
            retries,
            backoff: Duration::from_millis(100),
        }
    }
}

/// One request: method, URL and headers (all of which are sent; the signer adds its own).
#[derive(Debug, Clone)]
pub struct HttpRequest<'a> {
    /// `GET`, `HEAD`, `PUT` or `DELETE`.
    pub method: &'static str,
    /// The full URL, already percent-encoded.
    pub url: String,
    /// Header names (lower case) and values.
    pub headers: Vec<(String, String)>,
    /// The body of a `PUT`.
    pub body: &'a [u8],
}

/// A response: status, the headers we use, and the whole body.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// `Content-Range` when present.
    pub content_range: Option<String>,
    /// The body (empty for `HEAD`).
    pub body: Vec<u8>,
}

/// A shareable client: one connection pool, used from any thread.
#[derive(Debug, Clone)]
pub struct HttpClient {
    agent: ureq::Agent,
    settings: HttpSettings,
}

impl HttpClient {
    /// A client with these settings.
    pub fn new(settings: HttpSettings) -> HttpClient {
        let t = Some(settings.timeout);
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(t)
            .timeout_per_read(t)
            .timeout_per_write(t)
            .timeout_recv_response(t)
            .max_redirects(5)
            .max_idle_connections_per_host(16)
            .user_agent(concat!("purecdf/", env!("CARGO_PKG_VERSION")));
        #[cfg(feature = "https")]
        let config = match extra_roots() {
            Some(roots) => {
                config.tls_config(ureq::tls::TlsConfig::builder().root_certs(roots).build())
            }
            None => config,
        };
        let config = config.build();
        HttpClient {
            agent: config.into(),
            settings,
        }
    }

    /// The settings in force.
    pub fn settings(&self) -> HttpSettings {
        self.settings
    }

    /// Sends a request, retrying failures that may pass: connection errors, timeouts,
    /// truncated bodies, status 500–599 and 429. `sign` is called before each attempt (a
    /// signature carries the time). Other statuses are returned to the caller.
    ///
    /// # Errors
    /// [`StoreError::Remote`] naming the URL once the retries are spent.
    pub fn send(
        &self,
        request: &HttpRequest<'_>,
        sign: &dyn Fn(&HttpRequest<'_>) -> Vec<(String, String)>,
    ) -> Result<HttpResponse> {
        let mut wait = self.settings.backoff;
        let mut attempt = 0;
        loop {
            let outcome = self.send_once(request, &sign(request));
            let retry = match &outcome {
                Ok(r) => r.status >= 500 || r.status == 429,
                Err(_) => true,
            };
            if !retry || attempt >= self.settings.retries {
                return match outcome {
                    Ok(r) if r.status >= 500 || r.status == 429 => Err(status_error(request, &r)),
                    Ok(r) => Ok(r),
                    Err(why) => Err(remote_error(request, why)),
                };
            }
            attempt += 1;
            std::thread::sleep(wait);
            wait = wait.saturating_mul(2);
        }
    }

    fn send_once(
        &self,
        request: &HttpRequest<'_>,
        extra: &[(String, String)],
    ) -> std::result::Result<HttpResponse, String> {
        let headers = request.headers.iter().chain(extra);
        let result = match request.method {
            "PUT" => {
                let mut b = self.agent.put(&request.url);
                for (k, v) in headers {
                    b = b.header(k.as_str(), v.as_str());
                }
                b.send(request.body)
            }
            method => {
                let mut b = match method {
                    "HEAD" => self.agent.head(&request.url),
                    "DELETE" => self.agent.delete(&request.url),
                    _ => self.agent.get(&request.url),
                };
                for (k, v) in headers {
                    b = b.header(k.as_str(), v.as_str());
                }
                b.call()
            }
        };
        let mut response = result.map_err(|e| describe(&e))?;
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_range = header("content-range");
        let declared = header("content-length").and_then(|v| v.trim().parse::<u64>().ok());
        let body = if request.method == "HEAD" {
            Vec::new()
        } else {
            response
                .body_mut()
                .with_config()
                .limit(u64::MAX)
                .read_to_vec()
                .map_err(|e| format!("reading the body: {}", describe(&e)))?
        };
        if let Some(n) = declared.filter(|_| request.method != "HEAD") {
            if body.len() as u64 != n {
                return Err(format!(
                    "truncated body: {} of {n} bytes received",
                    body.len()
                ));
            }
        }
        Ok(HttpResponse {
            status,
            content_range,
            body,
        })
    }
}

/// Root certificates from the PEM file named by `PURECDF_CA_BUNDLE`, `SSL_CERT_FILE` or
/// `CURL_CA_BUNDLE` (as curl, so netcdf-c, takes them), in place of the built-in Mozilla roots:
/// for servers with a private certificate authority. An unreadable file keeps the built-in roots.
#[cfg(feature = "https")]
fn extra_roots() -> Option<ureq::tls::RootCerts> {
    let path = ["PURECDF_CA_BUNDLE", "SSL_CERT_FILE", "CURL_CA_BUNDLE"]
        .iter()
        .find_map(|k| std::env::var_os(k).filter(|v| !v.is_empty()))?;
    let pem = std::fs::read(path).ok()?;
    let certs: Vec<_> = ureq::tls::parse_pem(&pem)
        .filter_map(|item| match item {
            Ok(ureq::tls::PemItem::Certificate(c)) => Some(c),
            _ => None,
        })
        .collect();
    (!certs.is_empty()).then(|| certs.into())
}

/// A ureq error as text, without anything from the request's headers.
fn describe(e: &ureq::Error) -> String {
    match e {
        ureq::Error::Timeout(t) => format!("timed out ({t})"),
        ureq::Error::Io(io) => io.to_string(),
        ureq::Error::HostNotFound => "host not found".to_string(),
        ureq::Error::ConnectionFailed => "connection failed".to_string(),
        other => other.to_string(),
    }
}

/// The URL without its query string (which could hold a pre-signed credential).
pub(crate) fn printable_url(url: &str) -> &str {
    url.split_once('?').map_or(url, |(u, _)| u)
}

fn remote_error(request: &HttpRequest<'_>, why: String) -> StoreError {
    StoreError::Remote {
        url: printable_url(&request.url).to_string(),
        what: format!("{} failed: {why}", request.method),
        status: None,
    }
}

/// An error for a response with an unexpected status, with S3's error code when the body has
/// one (`<Code>NoSuchBucket</Code>`).
pub(crate) fn status_error(request: &HttpRequest<'_>, r: &HttpResponse) -> StoreError {
    let body = String::from_utf8_lossy(&r.body[..r.body.len().min(4096)]);
    let code = super::xml::element_text(&body, "Code");
    let what = match code {
        Some(code) => format!("{} answered {} {code}", request.method, r.status),
        None => format!("{} answered {}", request.method, r.status),
    };
    StoreError::Remote {
        url: printable_url(&request.url).to_string(),
        what,
        status: Some(r.status),
    }
}
