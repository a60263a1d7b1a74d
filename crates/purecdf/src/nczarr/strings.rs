//! String arrays: fixed-length byte strings (`|Sn`, NUL-padded), fixed-length UTF-32 strings
//! (`<Un`), and numcodecs' `vlen-utf8` encoding of `|O` arrays (a little-endian u32 item count,
//! then each item as a u32 byte length and its UTF-8 bytes).

use super::dtype::Dtype;
use super::meta::{ArrayMeta, Fill};
use super::read::{chunk_parts, for_each_chunk, for_each_run};
use crate::error::{Error, ErrorKind, Result};
use crate::selection::Hyperslab;

fn bad(key: &str, what: impl std::fmt::Display) -> Error {
    Error::with_detail(ErrorKind::Nczarr, format!("{key}: {what}"))
}

fn trim_nuls(b: &[u8]) -> &[u8] {
    let end = b.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
    &b[..end]
}

/// Decodes the elements of one decoded chunk.
fn elements(dtype: Dtype, data: &[u8], n: usize, key: &str) -> Result<Vec<Option<String>>> {
    match dtype {
        Dtype::FixedBytes(len) => {
            if data.len() != n * len {
                return Err(bad(
                    key,
                    format!("chunk of {} bytes, not {}", data.len(), n * len),
                ));
            }
            Ok(data
                .chunks_exact(len)
                .map(|e| Some(String::from_utf8_lossy(trim_nuls(e)).into_owned()))
                .collect())
        }
        Dtype::FixedUnicode { len, big_endian } => {
            let size = len * 4;
            if data.len() != n * size {
                return Err(bad(
                    key,
                    format!("chunk of {} bytes, not {}", data.len(), n * size),
                ));
            }
            Ok(data
                .chunks_exact(size)
                .map(|e| {
                    let s: String = e
                        .chunks_exact(4)
                        .map(|c| {
                            let c = [c[0], c[1], c[2], c[3]];
                            if big_endian {
                                u32::from_be_bytes(c)
                            } else {
                                u32::from_le_bytes(c)
                            }
                        })
                        .take_while(|&c| c != 0)
                        .map(|c| char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER))
                        .collect();
                    Some(s)
                })
                .collect())
        }
        Dtype::VlenUtf8 => {
            let word = |at: usize| -> Result<usize> {
                data.get(at..at + 4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
                    .ok_or_else(|| bad(key, "vlen-utf8 data ends early"))
            };
            let count = word(0)?;
            if count != n {
                return Err(bad(
                    key,
                    format!("vlen-utf8 chunk of {count} items, not {n}"),
                ));
            }
            let mut at = 4;
            let mut out = Vec::with_capacity(n);
            for _ in 0..n {
                let len = word(at)?;
                at += 4;
                let b = data
                    .get(at..at.saturating_add(len))
                    .ok_or_else(|| bad(key, "vlen-utf8 item runs past the chunk"))?;
                out.push(Some(String::from_utf8_lossy(b).into_owned()));
                at += len;
            }
            Ok(out)
        }
        _ => Err(Error::new(ErrorKind::BadType)),
    }
}

/// Fetches and decodes one chunk of a string array; `None` when it is missing.
pub(crate) fn read_string_chunk(
    store: &dyn purecdf_store::Store,
    meta: &ArrayMeta,
    coords: &[u64],
) -> Result<Option<Vec<Option<String>>>> {
    let Some((key, stored)) = meta.fetch_chunk(store, coords)? else {
        return Ok(None);
    };
    let per_chunk = meta.chunk_elements();
    // Decoded strings are bounded (1 GiB a chunk) against decompression bombs.
    let data = meta
        .chain
        .decode(stored, 1 << 30)
        .map_err(|e| bad(&key, e))?;
    elements(meta.dtype, &data, per_chunk, &key).map(Some)
}

/// numcodecs' `vlen-utf8` encoding of a chunk's strings (a NULL string as the empty one).
pub(crate) fn encode_vlen_utf8(items: &[Option<String>]) -> Vec<u8> {
    let total: usize = items
        .iter()
        .map(|s| s.as_ref().map_or(0, String::len) + 4)
        .sum();
    let mut out = Vec::with_capacity(total + 4);
    out.extend((items.len() as u32).to_le_bytes());
    for s in items {
        let b = s.as_deref().unwrap_or("").as_bytes();
        out.extend((b.len() as u32).to_le_bytes());
        out.extend_from_slice(b);
    }
    out
}

/// Reads a hyperslab of a string array; `chunk` gives a chunk's strings, or `None` for a
/// missing one (read as the fill value).
pub(crate) fn read_strings(
    meta: &ArrayMeta,
    slab: &Hyperslab,
    chunk: impl Fn(&[u64]) -> Result<Option<Vec<Option<String>>>> + Sync,
) -> Result<Vec<Option<String>>> {
    let n = usize::try_from(slab.num_elements()).map_err(|_| Error::new(ErrorKind::NoMem))?;
    let fill = match &meta.fill {
        Fill::String(s) => s.clone(),
        _ => Some(String::new()),
    };
    let mut out = crate::alloc::zeroed::<Option<String>>(n)?;
    let parts = chunk_parts(&meta.chunks, slab);
    for_each_chunk(
        &parts,
        |part| chunk(&part.coords),
        |part, chunk| {
            match chunk {
                Some(c) => for_each_run(meta, slab, part, |o, i, k| {
                    out[o..o + k].clone_from_slice(&c[i..i + k]);
                }),
                None => for_each_run(meta, slab, part, |o, _, k| {
                    for e in &mut out[o..o + k] {
                        e.clone_from(&fill);
                    }
                }),
            }
            Ok(())
        },
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        let b = elements(Dtype::FixedBytes(3), b"ab\0xyz", 2, "k").unwrap();
        assert_eq!(b, vec![Some("ab".into()), Some("xyz".into())]);
        let mut u = Vec::new();
        for c in ['h', 'é', '\0', 'x', 'y', 'z'] {
            u.extend((c as u32).to_le_bytes());
        }
        let s = elements(
            Dtype::FixedUnicode {
                len: 3,
                big_endian: false,
            },
            &u,
            2,
            "k",
        )
        .unwrap();
        assert_eq!(s, vec![Some("hé".into()), Some("xyz".into())]);
        let mut v = 2u32.to_le_bytes().to_vec();
        for item in ["a", "bcd"] {
            v.extend((item.len() as u32).to_le_bytes());
            v.extend(item.as_bytes());
        }
        let s = elements(Dtype::VlenUtf8, &v, 2, "k").unwrap();
        assert_eq!(s, vec![Some("a".into()), Some("bcd".into())]);
        assert_eq!(encode_vlen_utf8(&s), v);
        assert!(elements(Dtype::VlenUtf8, &v[..v.len() - 1], 2, "k").is_err());
        assert!(elements(Dtype::VlenUtf8, &v, 3, "k").is_err());
        let huge = [0xff, 0xff, 0xff, 0x7f];
        assert!(elements(Dtype::VlenUtf8, &huge, 1, "k").is_err());
    }
}
