//! The bytes of a zip archive (PKWARE APPNOTE 6.3: sections 4.3.6 local header, 4.3.12 central
//! directory header, 4.3.14–4.3.16 (ZIP64) end of central directory, 4.5.3 ZIP64 extra field).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use crate::{Result, StoreError};

const LOCAL_SIG: u32 = 0x0403_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const EOCD_SIG: u32 = 0x0605_4b50;
const EOCD64_SIG: u32 = 0x0606_4b50;
const EOCD64_LOCATOR_SIG: u32 = 0x0706_4b50;
const ZIP64_EXTRA: u16 = 0x0001;
/// 1980-01-01, the earliest MS-DOS date: entries carry no meaningful time.
const DOS_DATE: u16 = 0x0021;

/// Where one entry's data is and how it is stored.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    /// 0 stored, 8 deflated.
    pub(super) method: u16,
    /// Stored (compressed) size.
    pub(super) csize: u64,
    /// Uncompressed size.
    pub(super) size: u64,
    /// CRC-32 of the uncompressed data.
    pub(super) crc32: u32,
    /// Offset of the local header.
    pub(super) local: u64,
}

fn corrupt(what: impl Into<String>, place: impl Into<String>) -> StoreError {
    StoreError::Corrupt {
        what: what.into(),
        place: place.into(),
    }
}

fn read_at(file: &std::fs::File, at: u64, buf: &mut [u8], name: &str) -> Result<()> {
    #[cfg(unix)]
    let r = {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, at)
    };
    #[cfg(not(unix))]
    let r = {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = file;
        f.seek(SeekFrom::Start(at)).and_then(|_| f.read_exact(buf))
    };
    r.map_err(|e| StoreError::Io {
        key: format!("{name} at offset {at}"),
        source: e,
    })
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(a)
}

/// Reads the central directory: every entry by its full name in the archive.
pub(super) fn read_central_directory(
    file: &std::fs::File,
    name: &str,
) -> Result<BTreeMap<String, Entry>> {
    let len = file
        .metadata()
        .map_err(|e| StoreError::Io {
            key: name.to_string(),
            source: e,
        })?
        .len();
    if len < 22 {
        return Err(corrupt("not a zip archive (too short)", name));
    }
    // The end record is the last 22 bytes plus a comment of at most 65,535 bytes.
    let tail_len = len.min(22 + 65_535);
    let tail_start = len - tail_len;
    let mut tail = vec![0u8; tail_len as usize];
    read_at(file, tail_start, &mut tail, name)?;
    let eocd = (0..=tail.len() - 22)
        .rev()
        .find(|&i| u32_at(&tail, i) == EOCD_SIG)
        .ok_or_else(|| corrupt("not a zip archive (no end of central directory)", name))?;
    let e = &tail[eocd..];
    let mut count = u64::from(u16_at(e, 10));
    let mut cd_size = u64::from(u32_at(e, 12));
    let mut cd_offset = u64::from(u32_at(e, 16));
    let eocd_at = tail_start + eocd as u64;
    if (count == 0xFFFF || cd_size == 0xFFFF_FFFF || cd_offset == 0xFFFF_FFFF) && eocd_at >= 20 {
        let mut loc = [0u8; 20];
        read_at(file, eocd_at - 20, &mut loc, name)?;
        if u32_at(&loc, 0) == EOCD64_LOCATOR_SIG {
            let at = u64_at(&loc, 8);
            let mut r = [0u8; 56];
            if at.checked_add(56).is_none_or(|end| end > len) {
                return Err(corrupt("ZIP64 end record outside the file", name));
            }
            read_at(file, at, &mut r, name)?;
            if u32_at(&r, 0) != EOCD64_SIG {
                return Err(corrupt(
                    "bad ZIP64 end record signature",
                    format!("{name} at {at}"),
                ));
            }
            count = u64_at(&r, 32);
            cd_size = u64_at(&r, 40);
            cd_offset = u64_at(&r, 48);
        }
    }
    if cd_offset.checked_add(cd_size).is_none_or(|end| end > len) || count > cd_size / 46 + 1 {
        return Err(corrupt("central directory outside the file", name));
    }
    let mut cd = vec![0u8; cd_size as usize];
    read_at(file, cd_offset, &mut cd, name)?;
    let mut entries = BTreeMap::new();
    let mut i = 0usize;
    for _ in 0..count {
        let place = || format!("{name}: central directory offset {}", cd_offset + i as u64);
        if i + 46 > cd.len() || u32_at(&cd, i) != CENTRAL_SIG {
            return Err(corrupt("bad central directory entry", place()));
        }
        let h = &cd[i..];
        let flags = u16_at(h, 8);
        let method = u16_at(h, 10);
        let crc32 = u32_at(h, 16);
        let mut csize = u64::from(u32_at(h, 20));
        let mut size = u64::from(u32_at(h, 24));
        let (nlen, elen, clen) = (
            usize::from(u16_at(h, 28)),
            usize::from(u16_at(h, 30)),
            usize::from(u16_at(h, 32)),
        );
        let mut local = u64::from(u32_at(h, 42));
        let end = i + 46 + nlen + elen + clen;
        if end > cd.len() {
            return Err(corrupt(
                "central directory entry runs past its end",
                place(),
            ));
        }
        let raw_name = &cd[i + 46..i + 46 + nlen];
        let mut extra = &cd[i + 46 + nlen..i + 46 + nlen + elen];
        while extra.len() >= 4 {
            let (id, n) = (u16_at(extra, 0), usize::from(u16_at(extra, 2)));
            let body = extra.get(4..4 + n).unwrap_or(&[]);
            if id == ZIP64_EXTRA {
                let mut f = body.chunks_exact(8).map(|c| u64_at(c, 0));
                if size == 0xFFFF_FFFF {
                    size = f.next().unwrap_or(size);
                }
                if csize == 0xFFFF_FFFF {
                    csize = f.next().unwrap_or(csize);
                }
                if local == 0xFFFF_FFFF {
                    local = f.next().unwrap_or(local);
                }
            }
            extra = extra.get(4 + n..).unwrap_or(&[]);
        }
        if flags & 1 != 0 {
            return Err(corrupt("encrypted entries are not supported", place()));
        }
        if let Ok(n) = std::str::from_utf8(raw_name) {
            entries.insert(
                n.trim_start_matches("./").to_string(),
                Entry {
                    method,
                    csize,
                    size,
                    crc32,
                    local,
                },
            );
        }
        i = end;
    }
    Ok(entries)
}

/// Reads an entry's stored bytes (after its local header).
pub(super) fn read_entry_data(file: &std::fs::File, e: &Entry, key: &str) -> Result<Vec<u8>> {
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut h = [0u8; 30];
    read_at(file, e.local, &mut h, key)?;
    if u32_at(&h, 0) != LOCAL_SIG {
        return Err(corrupt("bad local header signature", key));
    }
    let header = 30 + u64::from(u16_at(&h, 26)) + u64::from(u16_at(&h, 28));
    let data = e.local.saturating_add(header);
    if data.checked_add(e.csize).is_none_or(|end| end > len) {
        return Err(corrupt("entry data runs past the end of the archive", key));
    }
    let mut buf = vec![0u8; e.csize as usize];
    read_at(file, data, &mut buf, key)?;
    Ok(buf)
}

/// Writes a whole archive of stored entries to `path`, through a temporary file renamed over it
/// (synced first when `durable`).
pub(super) fn write_archive(
    path: &Path,
    objects: &[(String, Vec<u8>)],
    durable: bool,
) -> Result<()> {
    let name = path.display().to_string();
    let io = |e: std::io::Error| StoreError::Io {
        key: name.clone(),
        source: e,
    };
    let mut out: Vec<u8> = Vec::new();
    let mut central: Vec<u8> = Vec::new();
    for (key, data) in objects {
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let size = data.len() as u64;
        let offset = out.len() as u64;
        let big = size >= 0xFFFF_FFFF || offset >= 0xFFFF_FFFF;
        let needed: u16 = if big { 45 } else { 20 };
        let clamp = |v: u64| if big { 0xFFFF_FFFF } else { v as u32 };
        let nlen = key.len() as u16;
        // Local header.
        out.extend_from_slice(&LOCAL_SIG.to_le_bytes());
        out.extend_from_slice(&needed.to_le_bytes());
        out.extend_from_slice(&0x0800u16.to_le_bytes()); // UTF-8 names
        out.extend_from_slice(&0u16.to_le_bytes()); // stored
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&DOS_DATE.to_le_bytes());
        out.extend_from_slice(&crc.sum().to_le_bytes());
        out.extend_from_slice(&clamp(size).to_le_bytes());
        out.extend_from_slice(&clamp(size).to_le_bytes());
        out.extend_from_slice(&nlen.to_le_bytes());
        out.extend_from_slice(&(if big { 20u16 } else { 0 }).to_le_bytes());
        out.extend_from_slice(key.as_bytes());
        if big {
            out.extend_from_slice(&ZIP64_EXTRA.to_le_bytes());
            out.extend_from_slice(&16u16.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
        }
        out.extend_from_slice(data);
        // Central directory header.
        central.extend_from_slice(&CENTRAL_SIG.to_le_bytes());
        central.extend_from_slice(&(0x0300 | needed).to_le_bytes()); // made by Unix
        central.extend_from_slice(&needed.to_le_bytes());
        central.extend_from_slice(&0x0800u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&DOS_DATE.to_le_bytes());
        central.extend_from_slice(&crc.sum().to_le_bytes());
        central.extend_from_slice(&clamp(size).to_le_bytes());
        central.extend_from_slice(&clamp(size).to_le_bytes());
        central.extend_from_slice(&nlen.to_le_bytes());
        central.extend_from_slice(&(if big { 28u16 } else { 0 }).to_le_bytes());
        central.extend_from_slice(&[0u8; 6]); // comment length, disk, internal attributes
        central.extend_from_slice(&(0o100_644u32 << 16).to_le_bytes());
        central.extend_from_slice(&clamp(offset).to_le_bytes());
        central.extend_from_slice(key.as_bytes());
        if big {
            central.extend_from_slice(&ZIP64_EXTRA.to_le_bytes());
            central.extend_from_slice(&24u16.to_le_bytes());
            central.extend_from_slice(&size.to_le_bytes());
            central.extend_from_slice(&size.to_le_bytes());
            central.extend_from_slice(&offset.to_le_bytes());
        }
    }
    let cd_offset = out.len() as u64;
    let cd_size = central.len() as u64;
    out.extend_from_slice(&central);
    let count = objects.len() as u64;
    let big = count >= 0xFFFF || cd_offset >= 0xFFFF_FFFF || cd_size >= 0xFFFF_FFFF;
    if big {
        let at = out.len() as u64;
        out.extend_from_slice(&EOCD64_SIG.to_le_bytes());
        out.extend_from_slice(&44u64.to_le_bytes());
        out.extend_from_slice(&0x032Du16.to_le_bytes());
        out.extend_from_slice(&45u16.to_le_bytes());
        out.extend_from_slice(&[0u8; 8]);
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&cd_size.to_le_bytes());
        out.extend_from_slice(&cd_offset.to_le_bytes());
        out.extend_from_slice(&EOCD64_LOCATOR_SIG.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&at.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
    }
    let c16 = if big { 0xFFFF } else { count as u16 };
    let c32 = |v: u64| if big { 0xFFFF_FFFF } else { v as u32 };
    out.extend_from_slice(&EOCD_SIG.to_le_bytes());
    out.extend_from_slice(&[0u8; 4]);
    out.extend_from_slice(&c16.to_le_bytes());
    out.extend_from_slice(&c16.to_le_bytes());
    out.extend_from_slice(&c32(cd_size).to_le_bytes());
    out.extend_from_slice(&c32(cd_offset).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());

    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let tmp = dir
        .unwrap_or_else(|| Path::new("."))
        .join(format!(".tmp.{}.zip", std::process::id()));
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(&out)?;
            if durable {
                f.sync_all()?;
            }
            Ok(())
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(())
}
