//! `purecdf::cdl::parse`: hand-written CDL with exact expected schema, values and messages, and
//! hostile input (truncations, mutations, deep nesting, huge sizes) that must give errors, never
//! panics or huge allocations.

#[path = "common/shared.rs"]
mod shared;

use purecdf::cdl::{parse, parse_with, CdlDataset, ParseOptions};
use purecdf::model::{UserTypeKind, Value, ROOT};
use purecdf::{Format, NcType, Values, VarId};

fn ok(src: &str) -> CdlDataset {
    match parse(src.as_bytes()) {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    }
}

fn err(src: &str) -> String {
    let opts = ParseOptions {
        file_name: "t.cdl".into(),
        ..ParseOptions::default()
    };
    match parse_with(src.as_bytes(), &opts) {
        Ok(_) => panic!("no error for {src}"),
        Err(e) => e.ncgen_line("ncgen"),
    }
}

fn var(d: &CdlDataset, name: &str) -> VarId {
    d.schema.find_var(ROOT, name).unwrap()
}

fn values(d: &CdlDataset, name: &str) -> Values {
    d.var_values(var(d, name)).unwrap().unwrap()
}

#[test]
fn classic_schema_and_attributes() {
    let d = ok(r#"netcdf simple {
dimensions:
    x = 3, t = UNLIMITED ;
variables:
    float temp(t, x) ;
        temp:units = "K" ;
        temp:valid_range = 0.f, 400.f ;
        temp:_FillValue = -1.f ;
    int n ;
    :title = "a", "b" ;
    :shorts = 1s, -2s ;
    :mixed = 1b, 2 ;
    :d = 1, 2.5 ;
    :e = ;
data:
    temp = 1, 2, 3, 4 ;
}"#);
    assert_eq!(d.name, "simple");
    assert_eq!(d.format, Format::Classic);
    let s = &d.schema;
    assert_eq!(s.dims.len(), 2);
    assert_eq!(
        (s.dims[0].name.as_str(), s.dims[0].len, s.dims[0].unlimited),
        ("x", 3, false)
    );
    // Two records: 4 values over rows of 3.
    assert_eq!((s.dims[1].len, s.dims[1].unlimited), (2, true));
    let t = s.var(var(&d, "temp"));
    assert_eq!(t.typ, NcType::Float);
    assert_eq!(t.atts[0].values, Values::Char(b"K".to_vec()));
    assert_eq!(t.atts[1].values, Values::Float(vec![0.0, 400.0]));
    assert_eq!(t.atts[2].values, Values::Float(vec![-1.0]));
    let g = &s.group(ROOT).atts;
    let names: Vec<_> = g.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["title", "shorts", "mixed", "d", "e"]);
    assert_eq!(g[0].values, Values::Char(b"ab".to_vec()));
    assert_eq!(g[1].values, Values::Short(vec![1, -2]));
    assert_eq!(g[2].values, Values::Int(vec![1, 2]));
    assert_eq!(g[3].values, Values::Double(vec![1.0, 2.5]));
    // An empty text attribute is written as one NUL, as ncgen does.
    assert_eq!(g[4].values, Values::Char(vec![0]));
    assert_eq!(
        values(&d, "temp"),
        Values::Float(vec![1.0, 2.0, 3.0, 4.0, -1.0, -1.0])
    );
    assert_eq!(d.var_values(var(&d, "n")).unwrap(), None);
}

#[test]
fn constants_and_char_data() {
    let d = ok(r#"netcdf c {
dimensions: n = 4 ; m = 3 ;
variables: byte b(n) ; short s(n) ; char c(n, m) ; char one ; int i(n) ;
data:
 b = 010, 0x1Fs, 255b, 'A' ;
 s = 65535s, _, 0x01, 3.9 ;
 c = "ab", "", 'x', 'y' ;
 one = "zz" ;
 i = 1, 2 ;
}"#);
    assert_eq!(values(&d, "b"), Values::Byte(vec![8, 31, -1, 65]));
    // `0x01` is an opaque constant: its bytes read as a little-endian short.
    assert_eq!(values(&d, "s"), Values::Short(vec![-1, -32767, 1, 3]));
    assert_eq!(
        values(&d, "c"),
        Values::Char(b"ab\0\0\0\0xy\0\0\0\0".to_vec())
    );
    assert_eq!(values(&d, "one"), Values::Char(b"z".to_vec()));
    assert_eq!(
        values(&d, "i"),
        Values::Int(vec![1, 2, -2147483647, -2147483647])
    );
}

#[test]
fn enhanced_model() {
    let d = ok(r#"netcdf e {
types:
  compound cmp_t { char c ; double d ; short s(2) ; } ;
  byte enum color_t { RED = 1, GREEN = 2 } ;
  int(*) vl_t ;
  opaque(3) op_t ;
dimensions: n = 2 ;
variables:
  cmp_t c(n) ;
  color_t k(n) ;
  vl_t v(n) ;
  op_t o ;
  string s(n) ;
  color_t k:a = GREEN ;
data:
  c = {'a', 1.5, {1, 2}}, {'b', 2.5} ;
  k = RED, color_t.GREEN ;
  v = {1, 2, 3}, {} ;
  o = 0xABC ;
  s = "one", NIL ;
group: g {
  variables: int x ;
  data: x = 5 ;
}
}"#);
    assert_eq!(d.format, Format::Netcdf4);
    assert_eq!(d.enhanced.as_deref(), Some("netCDF4 type: COMPOUND"));
    let s = &d.schema;
    let (_, cmp) = &s.types[0];
    match &cmp.kind {
        UserTypeKind::Compound { size, fields } => {
            assert_eq!(*size, 24);
            let offs: Vec<_> = fields.iter().map(|f| f.offset).collect();
            assert_eq!(offs, [0, 8, 16]);
            assert_eq!(fields[2].dims, vec![2]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        values(&d, "c"),
        Values::User(
            purecdf::TypeId(0),
            vec![
                Value::Compound(vec![
                    Value::Char(b'a'),
                    Value::Double(1.5),
                    Value::Array(vec![Value::Short(1), Value::Short(2)])
                ]),
                Value::Compound(vec![
                    Value::Char(b'b'),
                    Value::Double(2.5),
                    Value::Array(vec![Value::Short(-32767), Value::Short(-32767)])
                ]),
            ]
        )
    );
    assert_eq!(
        values(&d, "k"),
        Values::User(purecdf::TypeId(1), vec![Value::Enum(1), Value::Enum(2)])
    );
    assert_eq!(
        s.var(var(&d, "k")).atts[0].values,
        Values::User(purecdf::TypeId(1), vec![Value::Enum(2)])
    );
    assert_eq!(
        values(&d, "v"),
        Values::User(
            purecdf::TypeId(2),
            vec![
                Value::Vlen(vec![Value::Int(1), Value::Int(2), Value::Int(3)]),
                Value::Vlen(vec![])
            ]
        )
    );
    assert_eq!(
        values(&d, "o"),
        Values::User(purecdf::TypeId(3), vec![Value::Opaque(vec![0xab, 0xc0, 0])])
    );
    assert_eq!(
        values(&d, "s"),
        Values::String(vec![Some("one".into()), None])
    );
    let g = s.find_group(ROOT, "g").unwrap();
    assert_eq!(s.group_path(g), "/g");
    let x = s.find_var(g, "x").unwrap();
    assert_eq!(d.var_values(x).unwrap(), Some(Values::Int(vec![5])));
}

#[test]
fn specials_are_recorded() {
    let d = ok(r#"netcdf s {
dimensions: n = 4 ;
variables:
  int v(n) ;
    v:_ChunkSizes = 2 ;
    v:_DeflateLevel = 5 ;
    v:_Shuffle = "true" ;
    v:_Endianness = "big" ;
    v:_NoFill = 1 ;
    v:_Filter = "307,9" ;
  :_NCProperties = "version=2" ;
}"#);
    assert_eq!(d.format, Format::Netcdf4);
    assert_eq!(d.special_count, 7);
    let v = d.schema.var(var(&d, "v"));
    assert_eq!(v.storage.chunk_sizes, Some(vec![2]));
    assert_eq!(v.storage.big_endian, Some(true));
    assert_eq!(
        v.storage.filters,
        vec![(2, vec![]), (1, vec![5]), (307, vec![9])]
    );
    assert!(v.no_fill);
    assert!(v.atts.is_empty());
    assert_eq!(d.globals.nc_properties.as_deref(), Some("version=2"));
}

#[test]
fn format_selection() {
    let fmt = |src: &str, kind: Option<Format>| {
        let o = ParseOptions {
            kind,
            ..ParseOptions::default()
        };
        parse_with(src.as_bytes(), &o).map(|d| d.format)
    };
    assert_eq!(fmt("netcdf a { }", None), Ok(Format::Classic));
    assert_eq!(
        fmt("netcdf a { :_Format = \"cdf5\" ; }", None),
        Ok(Format::Cdf5)
    );
    assert_eq!(
        fmt("netcdf a { :_Format = \"cdf5\" ; }", Some(Format::Offset64)),
        Ok(Format::Offset64)
    );
    assert_eq!(fmt("netcdf a { group: g { } }", None), Ok(Format::Netcdf4));
    let e = fmt("netcdf a { group: g { } }", Some(Format::Classic)).unwrap_err();
    assert_eq!(e.message, "-k or _Format conflicts with enhanced CDL input");
    assert_eq!(e.exit_code, 0);
    // With -k netCDF-4 the unsigned keywords exist; without it `ubyte` is a name.
    assert!(fmt("netcdf a { variables: ubyte u ; }", Some(Format::Netcdf4)).is_ok());
}

#[test]
fn messages() {
    assert_eq!(
        err("netcdf x {\n dimensions:\n d = 2\n e = 3 ; }"),
        "ncgen: t.cdl line 4: syntax error, unexpected IDENT, expecting ';'"
    );
    assert_eq!(
        err("netcdf x { variables: int v ; data: v = 1, 2 }"),
        "ncgen: t.cdl line 1: syntax error, unexpected '}', expecting ';'"
    );
    assert_eq!(
        err("netcdf x {\n/* two\nlines */ :a = 1 }"),
        "ncgen: t.cdl line 2: syntax error, unexpected '}', expecting ';'"
    );
    assert_eq!(
        err("netcdf x { :a = 1u, -2 ; :b = -1u ; }"),
        "ncgen: t.cdl line 1: Unsigned integer cannot be signed: -1"
    );
    assert_eq!(
        err("netcdf x { dimensions: d = 1 ; variables: int v(d, q) ; }"),
        "Undefined or forward referenced dimension: q"
    );
    assert_eq!(
        err("netcdf x { types: compound c { int a ; int a ; } ; }"),
        "ncgen: t.cdl line 1: duplicate field declaration for a"
    );
    assert_eq!(
        err("netcdf x { variables: int v ; data: v = NIL ; }"),
        "ncgen: t.cdl line 1: NIL data can only be assigned to variables or attributes of type string"
    );
    assert_eq!(
        err("netcdf x { types: int enum e { a = 1 } ; variables: e v ; data: v = b ; }"),
        "ncgen: t.cdl line 1: Undefined enum constant: b"
    );
}

/// Parsing never panics: truncations and byte mutations of real CDL, deep nesting, huge sizes.
#[test]
fn hostile_input() {
    let deep = format!(
        "netcdf x {{ :a = {}1{} ; }}",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    assert!(parse(deep.as_bytes()).is_err());
    let groups = format!("netcdf x {{ {} }}", "group: g { ".repeat(10_000));
    assert!(parse(groups.as_bytes()).is_err());
    // A huge dimension allocates nothing until data is expanded, and expansion is refused.
    let d = ok("netcdf x { dimensions: n = 4000000000 ; variables: byte v(n, n) ; data: v = 1 ; }");
    assert!(d.var_values(var(&d, "v")).is_err());
    let d = ok("netcdf x { types: compound c { int a(4000000000) ; } ; variables: c v ; data: v = {{1}} ; }");
    assert!(d.var_values(var(&d, "v")).is_err());
    // Nested arrays multiply: refused rather than expanded.
    let d = ok("netcdf x { types: compound a { int x(100000) ; } ; compound b { a y(100000) ; } ; variables: b v ; data: v = _ ; }");
    assert!(d.var_values(var(&d, "v")).is_err());
    // Attribute values of big compound types are bounded the same way.
    let many = "{}, ".repeat(200);
    let src =
        format!("netcdf x {{ types: compound a {{ int x(1000000) ; }} ; a :g = {many}{{}} ; }}");
    assert!(parse(src.as_bytes()).is_err());
    // A long chain of nested compound types: layout and fills without deep recursion.
    let mut chain = String::from("netcdf x { types: compound c0 { int a ; } ;");
    for i in 1..5000 {
        chain.push_str(&format!(" compound c{i} {{ c{} a ; }} ;", i - 1));
    }
    chain.push_str(" variables: c4999 v ; data: v = _ ; }");
    let d = ok(&chain);
    let _ = d.var_values(var(&d, "v"));
    for src in [
        "netcdf x { variables: char c(1000000000000) ; data: c = \"a\" ; }",
        "netcdf x { dimensions: u = unlimited ; n = 0 ; variables: int v(u, n) ; data: v = 1, 2 ; }",
        "netcdf x { types: opaque(2000000000) o ; variables: o v ; data: v = 0x1 ; }",
        "netcdf x { types: compound c { char s(4000000000) ; } ; variables: c v ; data: v = {{\"a\"}} ; }",
        "netcdf x { data: v = time(\"99999999-01-01\") ; }",
        "netcdf",
        "netcdf x",
        "netcdf x { :a = '",
        "netcdf x { :a = \"abc",
        "netcdf x { :a = 0x",
        "\u{feff}",
        "",
    ] {
        if let Ok(d) = parse(src.as_bytes()) {
            for i in 0..d.schema.vars.len() {
                let _ = d.var_values(VarId(i));
            }
        }
    }
    let Some(corpus) = shared::netcdf_c_data().map(|d| d.join("ncdump/cdl")) else {
        return;
    };
    let Ok(dir) = std::fs::read_dir(corpus) else {
        return;
    };
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for e in dir.flatten() {
        let src = std::fs::read(e.path()).unwrap();
        if src.len() > 200_000 {
            continue;
        }
        let step = (src.len() / 40).max(1);
        for cut in (0..src.len()).step_by(step) {
            let _ = parse(&src[..cut]);
        }
        for _ in 0..40 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut m = src.clone();
            let at = (seed as usize) % m.len().max(1);
            if let Some(b) = m.get_mut(at) {
                *b = (seed >> 32) as u8;
            }
            if let Ok(d) = parse(&m) {
                for i in 0..d.schema.vars.len() {
                    let _ = d.var_values(VarId(i));
                }
            }
        }
    }
}
