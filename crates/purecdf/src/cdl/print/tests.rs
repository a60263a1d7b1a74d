//! Printer tests over an in-memory backend: chunked reads that split rows, hostile names, read
//! failures part way, and enhanced-model pieces that need no file reader.

use std::collections::HashMap;

use super::{write_cdl, DumpOptions};
use crate::backend::{Backend, Format};
use crate::error::{Error, ErrorKind, Result};
use crate::file::File;
use crate::model::{NcType, Schema, Values, VarId, ROOT};
use crate::selection::Hyperslab;

/// A dataset held in memory: a schema and each variable's values (row-major, whole variable).
struct Mem {
    schema: Schema,
    data: HashMap<usize, Values>,
    format: Format,
    /// Reads touching an element at or past this index fail with NC_ETRUNC.
    fail_at: Option<u64>,
}

impl Backend for Mem {
    fn format(&self) -> Format {
        self.format
    }
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn read_raw(&self, _var: VarId, _slab: &Hyperslab, _out: &mut [u8]) -> Result<()> {
        Err(Error::new(ErrorKind::NotBuilt))
    }
    fn read_values(&self, var: VarId, slab: &Hyperslab) -> Result<Values> {
        let shape = self.schema.shape(var);
        let all = &self.data[&var.0];
        let mut idx: Vec<u64> = Vec::new();
        // Row-major walk over the selection.
        let n = slab.num_elements();
        let mut cur = slab.start.clone();
        for _ in 0..n {
            let mut flat = 0u64;
            for (d, &c) in cur.iter().enumerate() {
                flat = flat * shape[d] + c;
            }
            if self.fail_at.is_some_and(|f| flat >= f) {
                return Err(Error::with_detail(ErrorKind::Trunc, "test truncation"));
            }
            idx.push(flat);
            for d in (0..cur.len()).rev() {
                cur[d] += 1;
                if cur[d] < slab.start[d] + slab.count[d] {
                    break;
                }
                cur[d] = slab.start[d];
            }
        }
        let pick = |i: &u64| *i as usize;
        Ok(match all {
            Values::Char(v) => Values::Char(idx.iter().map(|i| v[pick(i)]).collect()),
            Values::Int(v) => Values::Int(idx.iter().map(|i| v[pick(i)]).collect()),
            Values::Double(v) => Values::Double(idx.iter().map(|i| v[pick(i)]).collect()),
            Values::String(v) => Values::String(idx.iter().map(|i| v[pick(i)].clone()).collect()),
            Values::User(t, v) => {
                Values::User(*t, idx.iter().map(|i| v[pick(i)].clone()).collect())
            }
            _ => return Err(Error::new(ErrorKind::BadType)),
        })
    }
}

fn dump(mem: Mem, opts: &DumpOptions) -> (String, Result<()>) {
    let file = File::from_backend(Box::new(mem), "mem.nc".into());
    let mut out = Vec::new();
    let r = write_cdl(&file, opts, &mut out);
    (String::from_utf8_lossy(&out).into_owned(), r)
}

fn one_var(typ: NcType, len: u64, values: Values) -> Mem {
    let mut s = Schema::default();
    let d = s.add_dim(ROOT, "n", len, false).unwrap();
    let v = s.add_var(ROOT, "v", typ, &[d]).unwrap();
    Mem {
        schema: s,
        data: HashMap::from([(v.0, values)]),
        format: Format::Classic,
        fail_at: None,
    }
}

#[test]
fn char_row_split_across_reads_keeps_inner_nuls() {
    // 5 MiB of text in one row: read in two slabs; NULs straddle the boundary.
    let n = 5 << 20;
    let mut text = vec![b'a'; n];
    let boundary = 4 << 20;
    for b in &mut text[boundary - 2..boundary + 3] {
        *b = 0;
    }
    text[n - 1] = 0; // trailing NUL: dropped
    let (out, r) = dump(
        one_var(NcType::Char, n as u64, Values::Char(text)),
        &DumpOptions::new("m"),
    );
    r.unwrap();
    let body = format!(
        "\"{}{}{}\"",
        "a".repeat(boundary - 2),
        "\\000".repeat(5),
        "a".repeat(n - 1 - (boundary + 3))
    );
    let want = format!(
        "netcdf m {{\ndimensions:\n\tn = {n} ;\nvariables:\n\tchar v(n) ;\ndata:\n\n v = {body} ;\n}}\n"
    );
    assert!(out == want, "lengths {} vs {}", out.len(), want.len());
}

#[test]
fn numbers_split_across_reads_wrap_as_one_row() {
    let n: u64 = 700_000; // 5.6 MB of doubles: two reads
    let vals: Vec<f64> = (0..n).map(|i| (i % 10) as f64).collect();
    let (out, r) = dump(
        one_var(NcType::Double, n, Values::Double(vals)),
        &DumpOptions::new("m"),
    );
    r.unwrap();
    let data = &out[out.find(" v = ").unwrap()..];
    // Every line fits in 80 columns and the values come back in order.
    assert!(data.lines().all(|l| l.len() <= 80));
    let joined: String = data[5..].split_whitespace().collect();
    let expect: String = (0..n).map(|i| format!("{},", i % 10)).collect();
    assert_eq!(
        joined.trim_end_matches(";}").trim_end_matches(','),
        expect.trim_end_matches(',')
    );
}

#[test]
fn read_failure_part_way_keeps_earlier_output() {
    let n: u64 = 1_200_000;
    let mut mem = one_var(NcType::Int, n, Values::Int(vec![7; n as usize]));
    mem.fail_at = Some(1_100_000);
    let (out, r) = dump(mem, &DumpOptions::new("m"));
    assert_eq!(r.unwrap_err().kind(), ErrorKind::Trunc);
    assert!(out.starts_with("netcdf m {\ndimensions:\n\tn = 1200000 ;"));
    assert!(out.contains(" v = 7, 7, 7,"));
    assert!(!out.ends_with("}\n"));
}

#[test]
fn names_are_escaped_or_refused() {
    let mut s = Schema::default();
    let d = s.add_dim(ROOT, "d", 1, false).unwrap();
    // Bypass name checks the way a hostile file could.
    let v = s.add_var(ROOT, "x", NcType::Int, &[d]).unwrap();
    s.vars[v.0].name = "a\u{1}b c".into();
    let mem = Mem {
        schema: s.clone(),
        data: HashMap::from([(v.0, Values::Int(vec![1]))]),
        format: Format::Classic,
        fail_at: None,
    };
    let (out, r) = dump(mem, &DumpOptions::new("m"));
    r.unwrap();
    assert!(out.contains("\tint a\\%01b\\ c(d) ;\n"), "{out}");
    s.vars[v.0].name = " lead".into();
    let mem = Mem {
        schema: s,
        data: HashMap::from([(v.0, Values::Int(vec![1]))]),
        format: Format::Classic,
        fail_at: None,
    };
    let (out, r) = dump(mem, &DumpOptions::new("m"));
    assert_eq!(r.unwrap_err().kind(), ErrorKind::BadName);
    assert!(out.ends_with("variables:\n\tint "), "{out}");
    // A dataset name is refused before anything is printed.
    let (out, r) = dump(
        one_var(NcType::Int, 1, Values::Int(vec![1])),
        &DumpOptions::new("\tx"),
    );
    assert!(r.is_err() && out.is_empty());
}

#[test]
fn strings_nil_and_empty_fill_in_netcdf4() {
    let mut mem = one_var(
        NcType::String,
        3,
        Values::String(vec![Some("a\"b".into()), None, Some(String::new())]),
    );
    mem.format = Format::Netcdf4;
    let (out, r) = dump(mem, &DumpOptions::new("m"));
    r.unwrap();
    assert!(out.contains("\tstring v(n) ;\n"));
    assert!(out.contains(" v = \"a\\\"b\", NIL, _ ;\n"), "{out}");
}
