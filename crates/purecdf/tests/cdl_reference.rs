//! The netCDF-4 (enhanced) model that `purecdf::cdl::parse_with` builds, against what netcdf-c
//! makes of the same CDL: `/usr/bin/ncgen -k nc4` writes the file, a small C program (compiled
//! here against libnetcdf) lists its groups, dimensions, variables and user types (compound
//! layouts, enum members, vlen and opaque types), and the listing must equal ours. Runs when
//! ncgen, a C compiler and netcdf.h are installed; required with `PURECDF_REQUIRE_REFERENCE=1`.

#[path = "common/shared.rs"]
mod shared;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use purecdf::cdl::{parse_with, CdlDataset, ParseOptions};
use purecdf::model::{GroupId, UserTypeKind, Value};
use purecdf::{Format, NcType, Values, VarId};

const LISTER: &str = r#"
#include <netcdf.h>
#include <stdio.h>
#include <string.h>
static void tname(int g, nc_type t, char* out) { nc_inq_type(g, t, out, NULL); }
static void atts(int g, int v, const char* path, const char* owner) {
  (void)0;
  int na; char an[NC_MAX_NAME + 1], tn[NC_MAX_NAME + 1];
  nc_inq_varnatts(g, v, &na);
  for (int a = 0; a < na; a++) {
    nc_type t; size_t len;
    nc_inq_attname(g, v, a, an); nc_inq_att(g, v, an, &t, &len); tname(g, t, tn);
    printf("%s att %s:%s %s %zu", path, owner, an, tn, len);
    if (t == NC_STRING) {
      char* sv[4096];
      if (len <= 4096 && nc_get_att_string(g, v, an, sv) == 0) {
        printf(" =");
        for (size_t k = 0; k < len; k++) {
          if (!sv[k]) { printf("|NIL"); continue; }
          printf("|");
          for (const unsigned char* c = (const unsigned char*)sv[k]; *c; c++) printf("%02x", *c);
        }
        nc_free_string(len, sv);
      }
    } else if (t <= NC_UINT64) {
      unsigned char buf[65536]; size_t sz; nc_inq_type(g, t, NULL, &sz);
      if (len * sz <= sizeof buf && nc_get_att(g, v, an, buf) == 0) {
        printf(" =");
        for (size_t k = 0; k < len * sz; k++) printf("%02x", buf[k]);
      }
    }
    printf("\n");
  }
}
static void walk(int g, const char* path) {
  int n, ids[4096];
  char name[NC_MAX_NAME + 1], tn[NC_MAX_NAME + 1];
  nc_inq_dimids(g, &n, ids, 0);
  int unl[4096], nu; nc_inq_unlimdims(g, &nu, unl);
  for (int i = 0; i < n; i++) {
    size_t len; int u = 0; nc_inq_dim(g, ids[i], name, &len);
    for (int k = 0; k < nu; k++) if (unl[k] == ids[i]) u = 1;
    printf("%s dim %s %zu%s\n", path, name, len, u ? " unlimited" : "");
  }
  nc_inq_typeids(g, &n, ids);
  for (int i = 0; i < n; i++) {
    size_t size, nf; nc_type base; int cls;
    nc_inq_user_type(g, ids[i], name, &size, &base, &nf, &cls);
    printf("%s type %s", path, name);
    if (cls == NC_COMPOUND) {
      printf(" compound %zu", size);
      for (size_t f = 0; f < nf; f++) {
        char fn[NC_MAX_NAME + 1]; size_t off; nc_type ft; int nd, dims[NC_MAX_VAR_DIMS];
        nc_inq_compound_field(g, ids[i], f, fn, &off, &ft, &nd, dims);
        tname(g, ft, tn); printf(" %s:%s@%zu", fn, tn, off);
        for (int d = 0; d < nd; d++) printf("[%d]", dims[d]);
      }
    } else if (cls == NC_ENUM) {
      tname(g, base, tn); printf(" enum %s", tn);
      for (size_t m = 0; m < nf; m++) {
        char mn[NC_MAX_NAME + 1]; long long v = 0;
        nc_inq_enum_member(g, ids[i], m, mn, &v);
        if (base == NC_UBYTE) v = *(unsigned char*)&v; else if (base == NC_BYTE) v = *(signed char*)&v;
        else if (base == NC_SHORT) v = *(short*)&v; else if (base == NC_USHORT) v = *(unsigned short*)&v;
        else if (base == NC_INT) v = *(int*)&v; else if (base == NC_UINT) v = *(unsigned int*)&v;
        printf(" %s=%lld", mn, v);
      }
    } else if (cls == NC_VLEN) {
      tname(g, base, tn); printf(" vlen %s", tn);
    } else if (cls == NC_OPAQUE) {
      printf(" opaque %zu", size);
    }
    printf("\n");
  }
  nc_inq_varids(g, &n, ids);
  for (int i = 0; i < n; i++) {
    nc_type t; int nd, dims[NC_MAX_VAR_DIMS];
    nc_inq_var(g, ids[i], name, &t, &nd, dims, NULL);
    tname(g, t, tn); printf("%s var %s %s", path, name, tn);
    size_t total = 1;
    for (int d = 0; d < nd; d++) {
      char dn[NC_MAX_NAME + 1]; size_t len;
      nc_inq_dim(g, dims[d], dn, &len); total *= len; printf(" %s", dn);
    }
    if (t == NC_STRING && total <= 4096) {
      char* sv[4096];
      if (nc_get_var_string(g, ids[i], sv) == 0) {
        printf(" =");
        for (size_t k = 0; k < total; k++) {
          if (!sv[k]) { printf("|NIL"); continue; }
          printf("|");
          for (const unsigned char* c = (const unsigned char*)sv[k]; *c; c++) printf("%02x", *c);
        }
        nc_free_string(total, sv);
      }
    } else {
      int cls = NC_INT;
      if (t > NC_STRING) nc_inq_user_type(g, t, NULL, NULL, NULL, NULL, &cls);
      static unsigned char buf[1 << 20]; size_t sz; nc_inq_type(g, t, NULL, &sz);
      if ((t <= NC_UINT64 || cls == NC_ENUM || cls == NC_OPAQUE)
          && total * sz <= sizeof buf && nc_get_var(g, ids[i], buf) == 0) {
        printf(" =");
        for (size_t k = 0; k < total * sz; k++) printf("%02x", buf[k]);
      }
    }
    printf("\n");
    atts(g, ids[i], path, name);
  }
  atts(g, NC_GLOBAL, path, "");
  nc_inq_grps(g, &n, ids);
  for (int i = 0; i < n; i++) {
    char sub[8192]; nc_inq_grpname(ids[i], name);
    snprintf(sub, sizeof sub, "%s%s%s", path, strcmp(path, "/") ? "/" : "", name);
    walk(ids[i], sub);
  }
}
int main(int argc, char** argv) { int nc; if (nc_open(argv[1], 0, &nc)) return 2; walk(nc, "/"); return 0; }
"#;

/// Our listing, in the same form as the C program's.
fn listing(ds: &CdlDataset) -> String {
    let s = &ds.schema;
    let mut out = String::new();
    let tn = |t: NcType| s.type_name(t).to_string();
    let mut stack = vec![GroupId(0)];
    while let Some(g) = stack.pop() {
        let path = s.group_path(g);
        let grp = s.group(g);
        for d in &grp.dims {
            let d = s.dim(*d);
            let u = if d.unlimited { " unlimited" } else { "" };
            let _ = writeln!(out, "{path} dim {} {}{u}", d.name, d.len);
        }
        for t in &grp.types {
            let ut = s.user_type(*t);
            let _ = write!(out, "{path} type {}", ut.name);
            match &ut.kind {
                UserTypeKind::Compound { size, fields } => {
                    let _ = write!(out, " compound {size}");
                    for f in fields {
                        let _ = write!(out, " {}:{}@{}", f.name, tn(f.typ), f.offset);
                        for d in &f.dims {
                            let _ = write!(out, "[{d}]");
                        }
                    }
                }
                UserTypeKind::Enum { base, members } => {
                    let _ = write!(out, " enum {}", tn(*base));
                    for (m, v) in members {
                        let _ = write!(out, " {m}={v}");
                    }
                }
                UserTypeKind::Vlen { base } => {
                    let _ = write!(out, " vlen {}", tn(*base));
                }
                UserTypeKind::Opaque { size } => {
                    let _ = write!(out, " opaque {size}");
                }
            }
            out.push('\n');
        }
        for vid in &grp.vars {
            let v = s.var(*vid);
            let _ = write!(out, "{path} var {} {}", v.name, tn(v.typ));
            for d in &v.dims {
                let _ = write!(out, " {}", s.dim(*d).name);
            }
            out.push_str(&var_hex(ds, *vid));
            out.push('\n');
            for a in &v.atts {
                let t = tn(a.values.nc_type());
                let h = att_hex(&a.values);
                let _ = writeln!(
                    out,
                    "{path} att {}:{} {t} {}{h}",
                    v.name,
                    a.name,
                    a.values.len()
                );
            }
        }
        for a in &grp.atts {
            let t = tn(a.values.nc_type());
            let h = att_hex(&a.values);
            let _ = writeln!(out, "{path} att :{} {t} {}{h}", a.name, a.values.len());
        }
        stack.extend(grp.groups.iter().rev());
    }
    out
}

/// A listing less the values of variables whose data is undefined: `_NoFill` variables the CDL
/// gives no data for (netcdf-c returns whatever its read buffer held, e.g. `ref_ncgenF.cdl`
/// where the filters are available).
fn without_undefined_data(ds: &CdlDataset, listing: &str) -> String {
    let s = &ds.schema;
    let undefined: Vec<String> = (0..s.vars.len())
        .map(VarId)
        .filter(|&v| s.var(v).no_fill && matches!(ds.var_values(v), Ok(None)))
        .map(|v| format!("{} var {} ", s.group_path(s.var(v).group), s.var(v).name))
        .collect();
    listing
        .lines()
        .map(
            |l| match undefined.iter().any(|p| l.starts_with(p.as_str())) {
                true => l.split(" =").next().unwrap_or(l),
                false => l,
            },
        )
        .fold(String::new(), |mut o, l| {
            o.push_str(l);
            o.push('\n');
            o
        })
}

/// ` =hex` of a variable's values (atomic types only; fill values where the CDL gives none).
fn var_hex(ds: &CdlDataset, v: VarId) -> String {
    let var = ds.schema.var(v);
    if let NcType::User(t) = var.typ {
        // Enum and opaque data as raw bytes; other user types are not listed.
        let total: u64 = ds.shape(v).iter().product();
        let (base_size, is_enum) = match &ds.schema.user_type(t).kind {
            UserTypeKind::Enum { base, .. } => (base.atomic_size().unwrap_or(1), true),
            UserTypeKind::Opaque { size } => (*size, false),
            _ => return String::new(),
        };
        if total * base_size as u64 > 1 << 20 {
            return String::new();
        }
        let fill = ds.fill_value(v);
        let vals = match ds.var_values(v) {
            Ok(Some(Values::User(_, vals))) => vals,
            Ok(_) => vec![fill; total as usize],
            Err(e) => return format!(" error {e}"),
        };
        let mut out = String::from(" =");
        for x in vals {
            let bytes = match x {
                Value::Enum(e) if is_enum => e.to_le_bytes()[..base_size].to_vec(),
                Value::Opaque(b) => b,
                _ => return String::new(),
            };
            for b in bytes {
                let _ = write!(out, "{b:02x}");
            }
        }
        return out;
    }
    let total: u64 = ds.shape(v).iter().product();
    let size = var.typ.atomic_size().unwrap_or(1) as u64;
    let limit = if var.typ == NcType::String {
        4096
    } else {
        (1 << 20) / size
    };
    if total > limit {
        return String::new();
    }
    let values = match ds.var_values(v) {
        Ok(Some(vals)) => vals,
        Ok(None) => {
            let one = match ds.fill_value(v) {
                Value::Byte(x) => Values::Byte(vec![x]),
                Value::Char(x) => Values::Char(vec![x]),
                Value::Short(x) => Values::Short(vec![x]),
                Value::Int(x) => Values::Int(vec![x]),
                Value::Float(x) => Values::Float(vec![x]),
                Value::Double(x) => Values::Double(vec![x]),
                Value::UByte(x) => Values::UByte(vec![x]),
                Value::UShort(x) => Values::UShort(vec![x]),
                Value::UInt(x) => Values::UInt(vec![x]),
                Value::Int64(x) => Values::Int64(vec![x]),
                Value::UInt64(x) => Values::UInt64(vec![x]),
                Value::String(x) => Values::String(vec![x]),
                _ => return String::new(),
            };
            let n = usize::try_from(total).unwrap();
            match one {
                Values::String(x) => Values::String(vec![x[0].clone(); n]),
                other => {
                    let b = other.to_ne_bytes().unwrap();
                    purecdf::Values::from_ne_bytes(var.typ, &b.repeat(n)).unwrap()
                }
            }
        }
        Err(e) => return format!(" error {e}"),
    };
    att_hex(&values)
}

/// ` =hex` of an attribute's values as the C lister prints them (atomic types only).
fn att_hex(v: &Values) -> String {
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    match v {
        Values::String(ss) => {
            let mut out = String::from(" =");
            for s in ss {
                match s {
                    None => out.push_str("|NIL"),
                    Some(s) => {
                        out.push('|');
                        out.push_str(&hex(s.as_bytes()));
                    }
                }
            }
            out
        }
        Values::User(..) => String::new(),
        other => match other.to_ne_bytes() {
            Ok(b) => format!(" ={}", hex(&b)),
            Err(_) => String::new(),
        },
    }
}

fn tools_available(tmp: &Path) -> Option<PathBuf> {
    let required = std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() == Ok("1");
    let have = Path::new("/usr/bin/ncgen").exists() && Path::new("/usr/include/netcdf.h").exists();
    if have {
        let src = tmp.join("lister.c");
        std::fs::write(&src, LISTER).unwrap();
        let exe = tmp.join("lister");
        let ok = Command::new("cc")
            .arg("-o")
            .arg(&exe)
            .arg(&src)
            .arg("-lnetcdf")
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Some(exe);
        }
    }
    assert!(
        !required,
        "ncgen, cc and netcdf.h are required but not usable"
    );
    None
}

#[test]
fn enhanced_model_matches_netcdf_c() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(lister) = tools_available(tmp.path()) else {
        return;
    };
    let Some(root) = shared::netcdf_c_data() else {
        return;
    };
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "cdl")
                && !p.file_name().unwrap().to_string_lossy().starts_with("big")
            {
                files.push(p);
            }
        }
    }
    files.sort();
    // ref_typescope: its variables use opaque types that equal other opaque types; reading the
    // HDF5 file back, netcdf-c names a variable's type by the first equal committed type, not
    // the one ncgen used, so the listing cannot show the CDL's resolution.
    let skip = ["ref_typescope.cdl"];
    let out = tmp.path().join("r.nc");
    let mut compared = 0;
    for f in &files {
        if skip.iter().any(|n| f.ends_with(n)) {
            continue;
        }
        let _ = std::fs::remove_file(&out);
        let ok = Command::new("/usr/bin/ncgen")
            .args(["-k", "nc4", "-b", "-o"])
            .arg(&out)
            .arg(f)
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            continue;
        }
        let r = Command::new(&lister).arg(&out).output().unwrap();
        if !r.status.success() {
            continue;
        }
        let want = String::from_utf8_lossy(&r.stdout).into_owned();
        let opts = ParseOptions {
            file_name: f.display().to_string(),
            kind: Some(Format::Netcdf4),
            dataset_name: None,
        };
        let src = std::fs::read(f).unwrap();
        let ds = parse_with(&src, &opts).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let (ours, want) = (listing(&ds), without_undefined_data(&ds, &want));
        assert_eq!(without_undefined_data(&ds, &ours), want, "{}", f.display());
        compared += 1;
    }
    assert!(compared > 100, "only {compared} files compared");
}
