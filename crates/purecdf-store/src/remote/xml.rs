//! Just enough XML for S3's answers (`ListBucketResult`, `Error`): the text of named elements,
//! with the five predefined entities and numeric character references decoded. S3 answers
//! never nest an element inside one of the same name, which is all this relies on.

/// The decoded text of the first `<tag>...</tag>`.
pub(crate) fn element_text(xml: &str, tag: &str) -> Option<String> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&close)?;
    Some(unescape(&xml[start..start + end]))
}

/// The raw (undecoded) contents of every `<tag>...</tag>`: for elements holding elements.
pub(crate) fn blocks<'a>(xml: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find(&open) {
        let body = &rest[start + open.len()..];
        let Some(end) = body.find(&close) else { break };
        out.push(&body[..end]);
        rest = &body[end + close.len()..];
    }
    out
}

/// Decodes `&amp; &lt; &gt; &quot; &apos; &#N; &#xH;`; anything else is kept as written.
pub(crate) fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let decoded = tail.find(';').and_then(|j| {
            let name = &tail[1..j];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => name
                    .strip_prefix("#x")
                    .or_else(|| name.strip_prefix("#X"))
                    .map(|h| u32::from_str_radix(h, 16))
                    .or_else(|| name.strip_prefix('#').map(str::parse::<u32>))
                    .and_then(|r| r.ok())
                    .and_then(char::from_u32),
            }?;
            Some((c, j + 1))
        });
        match decoded {
            Some((c, used)) => {
                out.push(c);
                rest = &tail[used..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_result() {
        let xml = "<ListBucketResult><IsTruncated>true</IsTruncated>\
            <Contents><Key>a/b&amp;c</Key><Size>3</Size></Contents>\
            <Contents><Key>a/&#x3C;d&#62;</Key></Contents>\
            <CommonPrefixes><Prefix>a/g/</Prefix></CommonPrefixes>\
            <NextContinuationToken>t&lt;1</NextContinuationToken></ListBucketResult>";
        assert_eq!(element_text(xml, "IsTruncated").as_deref(), Some("true"));
        let keys: Vec<String> = blocks(xml, "Contents")
            .into_iter()
            .filter_map(|b| element_text(b, "Key"))
            .collect();
        assert_eq!(keys, vec!["a/b&c", "a/<d>"]);
        let prefixes: Vec<String> = blocks(xml, "CommonPrefixes")
            .into_iter()
            .filter_map(|b| element_text(b, "Prefix"))
            .collect();
        assert_eq!(prefixes, vec!["a/g/"]);
        assert_eq!(
            element_text(xml, "NextContinuationToken").as_deref(),
            Some("t<1")
        );
        assert_eq!(
            unescape("x &bogus; & y &#99999999;"),
            "x &bogus; & y &#99999999;"
        );
        assert_eq!(element_text("<a>unclosed", "a"), None);
    }
}
