//! `ncgen -l c`: a C program that makes the dataset with the netCDF C API, as netcdf-c 4.9's
//! ncgen writes it (netcdf-c `ncgen/genc.c` for the program, `cdata.c` for constants,
//! `generate.c` for how data is cut into `nc_put_vara` calls).
//!
//! The text is reproduced byte for byte, quirks included: some statements are followed by
//! `CHECK_ERR` on the same line, the `nc_set_fill` statement of `-x` is never printed,
//! `nc_def_var_quantize` always names `NC_NOQUANTIZE`, and opaque constants repeat the rest of
//! their hex digits after each `\x`.
mod data;

use super::{c_create_mode, escape_str, nc_type_macro, CodegenOptions, Fqns, Generated};
use crate::cdl::CdlDataset;
use crate::model::{GroupId, NcType, TypeId, UserTypeKind, VarId};

/// Generates the C program for `ds`.
pub fn generate(ds: &CdlDataset, opts: &CodegenOptions) -> Generated {
    let mut g = CGen {
        ds,
        opts,
        names: Fqns::new(ds),
        classic: ds.format.is_classic_model(),
        out: Vec::with_capacity(4096),
        uid: 0,
        vlen_decls: Vec::new(),
        messages: Vec::new(),
    };
    let error = g.program().err();
    Generated {
        code: g.out,
        messages: g.messages,
        error,
    }
}

struct CGen<'a> {
    ds: &'a CdlDataset,
    opts: &'a CodegenOptions,
    names: Fqns,
    classic: bool,
    out: Vec<u8>,
    /// ncgen's `c_uid`: bumped by every list begun, it numbers the `vlen_N` arrays.
    uid: u32,
    /// Declarations of the vlen arrays the pending statement refers to.
    vlen_decls: Vec<Vec<u8>>,
    messages: Vec<u8>,
}

/// The C type of an atomic netCDF type.
pub(super) fn c_type(t: NcType) -> &'static str {
    match t {
        NcType::Char => "char",
        NcType::Byte => "signed char",
        NcType::Short => "short",
        NcType::Int => "int",
        NcType::Float => "float",
        NcType::Double => "double",
        NcType::UByte => "unsigned char",
        NcType::UShort => "unsigned short",
        NcType::UInt => "unsigned int",
        NcType::Int64 => "signed long long",
        NcType::UInt64 => "unsigned long long",
        NcType::String => "char*",
        NcType::User(_) => "void",
    }
}

pub(super) const INDENT: &[u8] = b"    ";

impl CGen<'_> {
    fn line(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
        self.out.push(b'\n');
    }

    fn indented(&mut self, text: &str) {
        self.out.extend_from_slice(INDENT);
        self.line(text);
    }

    fn text(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
    }

    fn check(&mut self) {
        self.indented("CHECK_ERR(stat);");
    }

    fn group_id(&self, g: GroupId) -> String {
        if self.classic {
            "ncid".into()
        } else {
            format!("{}_grp", self.names.group(g))
        }
    }

    fn var_name(&self, v: VarId) -> String {
        self.names.var(self.ds, v)
    }

    /// The C type name of any netCDF type (`ctypename`).
    fn type_name(&self, t: NcType) -> String {
        match t {
            NcType::User(id) => self.names.user_type(self.ds, id),
            t => c_type(t).into(),
        }
    }

    /// The expression naming a type's id in the program (`typencid`).
    fn type_id(&self, t: NcType) -> String {
        match t {
            NcType::User(id) => format!("{}_typ", self.names.user_type(self.ds, id)),
            t => nc_type_macro(t).into(),
        }
    }

    /// The type code ncgen switches on: an enum's is its base type's.
    fn type_code(&self, t: NcType) -> NcType {
        match t {
            NcType::User(id) => match &self.ds.schema.user_type(id).kind {
                UserTypeKind::Enum { base, .. } => *base,
                _ => t,
            },
            t => t,
        }
    }

    fn program(&mut self) -> Result<(), crate::cdl::CdlError> {
        let ds = self.ds;
        let s = &ds.schema;
        self.line("#include <stdio.h>");
        self.line("#include <stdlib.h>");
        self.line("#include <netcdf.h>");
        self.line("");
        if ds.special_constants {
            self.line("");
            for def in [
                "#define nanf (0.0f/0.0f)",
                "#define nan  (0.0/0.0)",
                "#define inff (1.0f/0.0f)",
                "#define inf  (1.0/0.0)",
                "#define infinityf inff",
                "#define infinity  inf",
            ] {
                self.line(def);
            }
            self.line("");
        }
        self.line("");
        if !ds.type_order.is_empty() {
            for &t in &ds.type_order {
                self.c_typedef(t);
            }
            self.line("");
        }
        if !self.classic {
            self.static_parameters();
            self.line("");
        }
        self.line("void");
        self.line("check_err(const int stat, int line, const char* file, const char* func) {");
        self.indented("if (stat != NC_NOERR) {");
        self.line("        (void)fprintf(stderr,\"line %d of %s.%s: %s\\n\", line, file, func, nc_strerror(stat));");
        self.line("        fflush(stderr);");
        self.line("        exit(1);");
        self.indented("}");
        self.line("}");
        self.line("");
        self.line("#define CHECK_ERR(err) check_err(err, __LINE__, __FILE__, __func__)");
        self.line("");
        self.line("int");
        let header = format!(
            "{}() {{/* create {} */",
            self.opts.main_name, self.opts.file_name
        );
        self.line(&header);
        self.line("");
        self.indented("int  stat;  /* return status */");
        self.indented("int  ncid;  /* netCDF id */");
        self.declarations();
        if let Some(level) = self.opts.log_level.filter(|l| *l >= 0) {
            self.line("");
            self.text(&format!(
                "    nc_set_log_level({level}); /* set log level */"
            ));
            self.line("");
        }
        self.line("");
        self.indented("/* enter define mode */");
        let mode = match c_create_mode(ds.format) {
            Some(m) => m,
            None => {
                self.messages.extend_from_slice(b"unknown cmode modifier\n");
                "NC_CLOBBER"
            }
        };
        let create = format!(
            "    stat = nc_create(\"{}\", {mode}, &ncid);",
            self.opts.file_name
        );
        self.line(&create);
        self.check();
        if !self.classic {
            let root = self.group_id(GroupId(0));
            self.line(&format!("    {root} = ncid;"));
            for (i, grp) in s.groups.iter().enumerate().skip(1) {
                let parent = self.group_id(grp.parent.unwrap_or(GroupId(0)));
                let me = self.group_id(GroupId(i));
                self.line(&format!(
                    "    stat = nc_def_grp({parent}, \"{}\", &{me});",
                    ds.spelled(&grp.name)
                ));
                self.check();
            }
        }
        if !ds.type_order.is_empty() {
            self.line("");
            for &t in &ds.type_order {
                self.define_type(t);
                self.line("");
            }
        }
        self.define_dims();
        self.define_vars();
        self.attributes()?;
        if self.opts.no_fill {
            self.indented("/* don't initialize variables with fill values */");
            self.check();
        }
        self.line("");
        self.indented("/* leave define mode */");
        let root = self.group_id(GroupId(0));
        self.line(&format!("    stat = nc_enddef ({root});"));
        self.check();
        if !self.opts.header_only && !s.vars.is_empty() {
            self.line("");
            self.indented("/* assign variable data */");
            for v in 0..s.vars.len() {
                self.var_data(VarId(v))?;
            }
            self.line("");
        }
        self.line(&format!("    stat = nc_close({root});"));
        self.check();
        self.indented("return 0;");
        self.line("}");
        Ok(())
    }

    /// The C declaration of a user type (`definectype`).
    fn c_typedef(&mut self, t: TypeId) {
        let ds = self.ds;
        let name = self.names.user_type(ds, t);
        match &ds.schema.user_type(t).kind {
            UserTypeKind::Opaque { size } => {
                self.line(&format!("typedef unsigned char {name}[{size}];"));
            }
            UserTypeKind::Enum { base, members } => {
                for (member, value) in members {
                    let id = self.names.nested(ds, t, member);
                    let mut c = Vec::new();
                    self.enum_constant(*base, *value, &mut c);
                    let line = format!("#define {id} (({}){})", c_type(*base), lossy(&c));
                    self.line(&line);
                }
                self.line(&format!("typedef {} {name};", c_type(*base)));
            }
            UserTypeKind::Vlen { .. } => self.line(&format!("typedef nc_vlen_t {name};")),
            UserTypeKind::Compound { fields, .. } => {
                self.line(&format!("typedef struct {name} {{"));
                for f in fields {
                    let mut decl = format!(
                        "    {} {}",
                        self.type_name(f.typ),
                        self.names.nested(ds, t, &f.name)
                    );
                    for d in &f.dims {
                        decl.push_str(&format!("[{d}]"));
                    }
                    decl.push(';');
                    self.line(&decl);
                }
                self.line(&format!("}} {name};"));
            }
        }
    }

    /// The static chunk-size and filter-parameter arrays of netCDF-4 variables.
    fn static_parameters(&mut self) {
        let ds = self.ds;
        for v in 0..ds.schema.vars.len() {
            let sp = &ds.specials[v];
            let name = self.var_name(VarId(v));
            if let Some(chunks) = sp.chunk_sizes.as_ref().filter(|c| !c.is_empty()) {
                let list: Vec<String> = chunks.iter().map(|c| c.to_string()).collect();
                self.line(&format!(
                    "static size_t {name}_chunksizes[{}] = {{{}}} ;",
                    chunks.len(),
                    list.join(", ")
                ));
            }
            for (k, (_, params)) in sp.filters.iter().enumerate() {
                if params.is_empty() {
                    continue;
                }
                let list: Vec<String> = params.iter().map(|p| format!("{p}U")).collect();
                self.line(&format!(
                    "static unsigned int {name}_{k}_filterparams[{}] = {{{}}} ;",
                    params.len(),
                    list.join(", ")
                ));
            }
        }
    }

    fn declarations(&mut self) {
        let ds = self.ds;
        let s = &ds.schema;
        if !self.classic {
            self.line("");
            self.indented("/* group ids */");
            for g in 0..s.groups.len() {
                let id = self.group_id(GroupId(g));
                self.line(&format!("    int {id};"));
            }
            if !ds.type_order.is_empty() {
                self.line("");
                self.indented("/* type ids */");
                for &t in &ds.type_order {
                    let id = self.type_id(NcType::User(t));
                    self.line(&format!("    int {id};"));
                }
            }
        }
        if !s.dims.is_empty() {
            self.line("");
            self.indented("/* dimension ids */");
            for d in 0..s.dims.len() {
                let name = self.names.dim(ds, crate::model::DimId(d));
                self.line(&format!("    int {name}_dim;"));
            }
            self.line("");
            self.indented("/* dimension lengths */");
            for (d, dim) in s.dims.iter().enumerate() {
                let name = self.names.dim(ds, crate::model::DimId(d));
                if dim.unlimited {
                    self.line(&format!("    size_t {name}_len = NC_UNLIMITED;"));
                } else {
                    self.line(&format!("    size_t {name}_len = {};", dim.len));
                }
            }
        }
        if !s.vars.is_empty() {
            self.line("");
            self.indented("/* variable ids */");
            for v in 0..s.vars.len() {
                let name = self.var_name(VarId(v));
                self.line(&format!("    int {name}_id;"));
            }
            self.line("");
            self.indented("/* rank (number of dimensions) for each variable */");
            for (v, var) in s.vars.iter().enumerate() {
                let name = self.var_name(VarId(v));
                self.line(&format!("#   define RANK_{name} {}", var.dims.len()));
            }
            if s.vars.iter().any(|v| !v.dims.is_empty()) {
                self.line("");
                self.indented("/* variable shapes */");
                for (v, var) in s.vars.iter().enumerate() {
                    if !var.dims.is_empty() {
                        let name = self.var_name(VarId(v));
                        self.line(&format!("    int {name}_dims[RANK_{name}];"));
                    }
                }
            }
        }
    }

    /// The API calls defining a user type (`genc_deftype`).
    fn define_type(&mut self, t: TypeId) {
        let ds = self.ds;
        let (g, ut) = &ds.schema.types[t.0];
        let grp = self.group_id(*g);
        let tid = self.type_id(NcType::User(t));
        match &ut.kind {
            UserTypeKind::Opaque { size } => {
                self.line(&format!(
                    "    stat = nc_def_opaque({grp}, {size}, \"{}\", &{tid});",
                    ds.spelled(&ut.name)
                ));
                self.check();
            }
            UserTypeKind::Enum { base, members } => {
                self.indented("{");
                self.line(&format!("    {} econst;", c_type(*base)));
                self.line(&format!(
                    "    stat = nc_def_enum({grp}, {}, \"{}\", &{tid});",
                    nc_type_macro(*base),
                    ds.spelled(&ut.name)
                ));
                self.check();
                for (member, value) in members {
                    let mut c = Vec::new();
                    self.enum_constant(*base, *value, &mut c);
                    self.line(&format!("    econst = {};", lossy(&c)));
                    self.line(&format!(
                        "    stat = nc_insert_enum({grp}, {tid}, \"{}\", &econst);",
                        lossy(&escape_str(ds.spelled(member).as_bytes()))
                    ));
                }
                self.indented("}");
            }
            UserTypeKind::Vlen { base } => {
                self.text(&format!(
                    "    stat = nc_def_vlen({grp}, \"{}\", {}, &{tid});",
                    lossy(&escape_str(ds.spelled(&ut.name).as_bytes())),
                    self.type_id(*base)
                ));
                self.check();
            }
            UserTypeKind::Compound { fields, .. } => {
                let cname = self.names.user_type(ds, t);
                self.text(&format!(
                    "    stat = nc_def_compound({grp}, sizeof({cname}), \"{}\", &{tid});",
                    lossy(&escape_str(ds.spelled(&ut.name).as_bytes()))
                ));
                self.check();
                self.indented("{");
                for f in fields.iter().filter(|f| !f.dims.is_empty()) {
                    let dims: Vec<String> = f.dims.iter().map(|d| d.to_string()).collect();
                    self.text(&format!(
                        "    static int {}_dims[{}] = {{\n{}}};",
                        self.names.nested(ds, t, &f.name),
                        f.dims.len(),
                        dims.join(", ")
                    ));
                }
                for f in fields {
                    let field = self.names.nested(ds, t, &f.name);
                    let fname = lossy(&escape_str(ds.spelled(&f.name).as_bytes()));
                    let offset = format!("NC_COMPOUND_OFFSET({cname},{field})");
                    let ftype = self.type_id(f.typ);
                    if f.dims.is_empty() {
                        self.text(&format!(
                            "    stat = nc_insert_compound({grp}, {tid}, \"{fname}\", {offset}, {ftype});"
                        ));
                    } else {
                        self.text(&format!(
                            "    stat = nc_insert_array_compound({grp}, {tid}, \"{fname}\", {offset}, {ftype}, {}, {field}_dims);",
                            f.dims.len()
                        ));
                    }
                    self.check();
                }
                self.indented("}");
            }
        }
    }

    fn define_dims(&mut self) {
        let ds = self.ds;
        if ds.schema.dims.is_empty() {
            return;
        }
        self.line("");
        self.indented("/* define dimensions */");
        for (d, dim) in ds.schema.dims.iter().enumerate() {
            let name = self.names.dim(ds, crate::model::DimId(d));
            let grp = self.group_id(dim.group);
            self.line(&format!(
                "    stat = nc_def_dim({grp}, \"{}\", {name}_len, &{name}_dim);",
                lossy(&escape_str(ds.spelled(&dim.name).as_bytes()))
            ));
            self.check();
        }
    }

    fn define_vars(&mut self) {
        let ds = self.ds;
        if ds.schema.vars.is_empty() {
            return;
        }
        self.line("");
        self.indented("/* define variables */");
        for (v, var) in ds.schema.vars.iter().enumerate() {
            let name = self.var_name(VarId(v));
            let grp = self.group_id(var.group);
            self.line("");
            for (i, d) in var.dims.iter().enumerate() {
                let dim = self.names.dim(ds, *d);
                self.line(&format!("    {name}_dims[{i}] = {dim}_dim;"));
            }
            let dims = if var.dims.is_empty() {
                "0".to_string()
            } else {
                format!("{name}_dims")
            };
            self.line(&format!(
                "    stat = nc_def_var({grp}, \"{}\", {}, RANK_{name}, {dims}, &{name}_id);",
                lossy(&escape_str(ds.spelled(&var.name).as_bytes())),
                self.type_id(var.typ)
            ));
            self.check();
            if !self.classic {
                self.var_specials(VarId(v), &grp, &name);
            }
        }
    }

    /// `genc_definespecialattributes`.
    fn var_specials(&mut self, v: VarId, grp: &str, name: &str) {
        use crate::cdl::StorageKind;
        let sp = &self.ds.specials[v.0];
        let storage = match (sp.storage, &sp.chunk_sizes) {
            (Some(StorageKind::Contiguous), _) => Some("NC_CONTIGUOUS"),
            (Some(StorageKind::Compact), _) => Some("NC_COMPACT"),
            (Some(StorageKind::Chunked), _) | (None, Some(_)) => Some("NC_CHUNKED"),
            (None, None) => None,
        };
        if let Some(storage) = storage {
            let chunks = match &sp.chunk_sizes {
                Some(c) if !c.is_empty() => format!("{name}_chunksizes"),
                _ => "NULL".into(),
            };
            self.line(&format!(
                "    stat = nc_def_var_chunking({grp}, {name}_id, {storage}, {chunks});"
            ));
            self.check();
        }
        if let Some(on) = sp.fletcher32 {
            self.line(&format!(
                "    stat = nc_def_var_fletcher32({grp}, {name}_id, {});",
                i32::from(on)
            ));
            self.check();
        }
        if sp.deflate_level.is_some() || sp.shuffle.is_some() {
            let level = sp.deflate_level.unwrap_or(-1);
            self.line(&format!(
                "    stat = nc_def_var_deflate({grp}, {name}_id, {}, {}, {});",
                if sp.shuffle == Some(true) {
                    "NC_SHUFFLE"
                } else {
                    "NC_NOSHUFFLE"
                },
                i32::from(level >= 0),
                level.max(0)
            ));
            self.check();
        }
        if let Some(big) = sp.big_endian {
            self.line(&format!(
                "    stat = nc_def_var_endian({grp}, {name}_id, {});",
                if big {
                    "NC_ENDIAN_BIG"
                } else {
                    "NC_ENDIAN_LITTLE"
                }
            ));
            self.check();
        }
        if let Some(no_fill) = sp.no_fill {
            self.line(&format!(
                "    stat = nc_def_var_fill({grp}, {name}_id, {}, NULL);",
                if no_fill { "NC_NOFILL" } else { "NC_FILL" }
            ));
            self.check();
        }
        for (k, (id, params)) in sp.filters.iter().enumerate() {
            let list = if params.is_empty() {
                "NULL".to_string()
            } else {
                format!("{name}_{k}_filterparams")
            };
            self.line(&format!(
                "    stat = nc_def_var_filter({grp}, {name}_id, {id}, {}, {list});",
                params.len()
            ));
            self.check();
        }
        if let Some((_, nsd)) = sp.quantize {
            // netcdf-c 4.9's switch falls through to its default: the algorithm printed is
            // always NC_NOQUANTIZE.
            self.line(&format!(
                "    stat = nc_def_var_quantize({grp}, {name}_id, NC_NOQUANTIZE, {nsd});"
            ));
            self.check();
        }
    }
}

/// `bytes` as text for a format argument (names are UTF-8; data bytes pass through
/// [`escape_str`] first, so this never loses anything ncgen would print as a byte).
pub(super) fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
