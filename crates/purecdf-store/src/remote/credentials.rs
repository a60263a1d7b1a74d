//! Credentials and region as the AWS command-line tools and SDKs find them: the environment
//! (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`,
//! `AWS_DEFAULT_REGION`), then the profile `AWS_PROFILE` (else `default`) of the shared files
//! `~/.aws/credentials` and `~/.aws/config` (or `AWS_SHARED_CREDENTIALS_FILE` and
//! `AWS_CONFIG_FILE`). No credentials means anonymous access (unsigned requests), which public
//! buckets allow (netcdf-c's `../shared/spec/nczarr.md`, "Amazon S3 Storage").

use std::collections::HashMap;
use std::path::PathBuf;

/// An access key. `Debug` never prints the secret or the token.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The access key id (`AKIA...`).
    pub access_key_id: String,
    /// The secret access key.
    pub secret_access_key: String,
    /// A session token for temporary credentials.
    pub session_token: Option<String>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &"<hidden>")
            .field(
                "session_token",
                &self.session_token.as_ref().map(|_| "<hidden>"),
            )
            .finish()
    }
}

/// What the environment and the shared files say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AwsProfile {
    /// The credentials, if any.
    pub credentials: Option<Credentials>,
    /// The region, if any.
    pub region: Option<String>,
    /// `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` (or `endpoint_url` in the profile): where
    /// `s3://` URLs go instead of AWS.
    pub endpoint_url: Option<String>,
}

impl AwsProfile {
    /// Reads the process environment and the shared files.
    pub fn from_environment() -> AwsProfile {
        let env: HashMap<String, String> = std::env::vars()
            .filter(|(k, _)| k.starts_with("AWS_") || k == "HOME")
            .collect();
        Self::from_env_map(&env)
    }

    /// As [`AwsProfile::from_environment`], with the variables given (for tests).
    pub fn from_env_map(env: &HashMap<String, String>) -> AwsProfile {
        let get = |k: &str| env.get(k).filter(|v| !v.is_empty()).cloned();
        let home = get("HOME").map(PathBuf::from);
        let file = |var: &str, name: &str| {
            get(var)
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|h| h.join(".aws").join(name)))
        };
        let profile = get("AWS_PROFILE").unwrap_or_else(|| "default".into());
        let read = |p: Option<PathBuf>| p.and_then(|p| std::fs::read_to_string(p).ok());
        // In `credentials` a section is the profile's name; in `config` it is `profile NAME`
        // (except `default`). Either file may hold keys.
        let creds_file = read(file("AWS_SHARED_CREDENTIALS_FILE", "credentials"))
            .map(|t| section(&t, &profile))
            .unwrap_or_default();
        let config_name = if profile == "default" {
            profile.clone()
        } else {
            format!("profile {profile}")
        };
        let config_file = read(file("AWS_CONFIG_FILE", "config"))
            .map(|t| {
                let s = section(&t, &config_name);
                if s.is_empty() {
                    section(&t, &profile)
                } else {
                    s
                }
            })
            .unwrap_or_default();
        let from_files = |k: &str| {
            creds_file
                .get(k)
                .or_else(|| config_file.get(k))
                .filter(|v| !v.is_empty())
                .cloned()
        };
        let credentials = match (get("AWS_ACCESS_KEY_ID"), get("AWS_SECRET_ACCESS_KEY")) {
            (Some(id), Some(secret)) => Some(Credentials {
                access_key_id: id,
                secret_access_key: secret,
                session_token: get("AWS_SESSION_TOKEN"),
            }),
            _ => match (
                from_files("aws_access_key_id"),
                from_files("aws_secret_access_key"),
            ) {
                (Some(id), Some(secret)) => Some(Credentials {
                    access_key_id: id,
                    secret_access_key: secret,
                    session_token: from_files("aws_session_token"),
                }),
                _ => None,
            },
        };
        AwsProfile {
            credentials,
            region: get("AWS_REGION")
                .or_else(|| get("AWS_DEFAULT_REGION"))
                .or_else(|| from_files("region")),
            endpoint_url: get("AWS_ENDPOINT_URL_S3")
                .or_else(|| get("AWS_ENDPOINT_URL"))
                .or_else(|| from_files("endpoint_url")),
        }
    }
}

/// The `key = value` pairs of section `[name]` of an INI file (keys lower-cased).
fn section(text: &str, name: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with(';') || line.is_empty() {
            continue;
        }
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = header.trim() == name;
            continue;
        }
        if inside {
            if let Some((k, v)) = line.split_once('=') {
                out.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_then_profiles() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".aws")).unwrap();
        std::fs::write(
            dir.path().join(".aws/credentials"),
            "[default]\naws_access_key_id = D\naws_secret_access_key = DS\n\
             [work]\naws_access_key_id=W\naws_secret_access_key=WS\naws_session_token=T\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join(".aws/config"),
            "[default]\nregion = eu-west-1\n[profile work]\nregion=ap-south-1\n\
             endpoint_url = http://127.0.0.1:9000\n",
        )
        .unwrap();
        let mut env = HashMap::from([("HOME".to_string(), dir.path().display().to_string())]);
        let p = AwsProfile::from_env_map(&env);
        assert_eq!(p.credentials.as_ref().unwrap().access_key_id, "D");
        assert_eq!(p.region.as_deref(), Some("eu-west-1"));
        assert_eq!(p.endpoint_url, None);
        env.insert("AWS_PROFILE".into(), "work".into());
        let p = AwsProfile::from_env_map(&env);
        let c = p.credentials.unwrap();
        assert_eq!(
            (c.access_key_id.as_str(), c.session_token.as_deref()),
            ("W", Some("T"))
        );
        assert_eq!(p.region.as_deref(), Some("ap-south-1"));
        assert_eq!(p.endpoint_url.as_deref(), Some("http://127.0.0.1:9000"));
        assert!(!format!("{c:?}").contains("WS"));
        env.insert("AWS_ACCESS_KEY_ID".into(), "E".into());
        env.insert("AWS_SECRET_ACCESS_KEY".into(), "ES".into());
        env.insert("AWS_REGION".into(), "us-west-2".into());
        let p = AwsProfile::from_env_map(&env);
        assert_eq!(p.credentials.unwrap().access_key_id, "E");
        assert_eq!(p.region.as_deref(), Some("us-west-2"));
        let p = AwsProfile::from_env_map(&HashMap::new());
        assert_eq!(p, AwsProfile::default());
    }
}
