//! Semantic analysis after parsing (netcdf-c `ncgen/semantics.c` `processsemantics`;
//! `ncgen-features.md` §3, §5, §6): output format selection, classic-model variable fixes,
//! attribute type inference and conversion, enum constant resolution and the sizes of unlimited
//! dimensions from the data.

use super::ast::{CdlDataset, CdlError, Const, ConstKind, ErrorStyle, StorageKind};
use super::constants::{convert_any, pack};
use super::parser::Parsed;
use crate::backend::Format;
use crate::model::{DimId, GroupId, NcType, Schema, UserTypeKind, Value, Values, ROOT};

fn located(file: &str, line: u32, msg: impl Into<String>) -> CdlError {
    CdlError {
        message: msg.into(),
        style: ErrorStyle::Located(line),
        file: file.to_string(),
        kind: crate::ErrorKind::Inval,
        exit_code: 1,
        preamble: String::new(),
    }
}

/// Chooses the output format as ncgen's `main` does after parsing.
pub(crate) fn choose_format(
    requested: Option<Format>,
    p: &Parsed,
    file: &str,
) -> Result<Format, CdlError> {
    let mut k = requested.or(p.globals.format);
    if p.enhanced.is_some() {
        match k {
            None => k = Some(Format::Netcdf4),
            Some(Format::Netcdf4 | Format::Cdf5) => {}
            Some(_) => {
                return Err(CdlError {
                    message: "-k or _Format conflicts with enhanced CDL input".into(),
                    style: ErrorStyle::Plain,
                    file: file.to_string(),
                    kind: crate::ErrorKind::Inval,
                    exit_code: 0,
                    preamble: String::new(),
                })
            }
        }
    }
    if p.special_count > 0 && k.is_none() {
        k = Some(Format::Netcdf4);
    }
    Ok(k.unwrap_or(Format::Classic))
}

/// Full name of an object for messages (`/name` in the root, `/g/name` in a group).
fn fullname(s: &Schema, g: GroupId, name: &str) -> String {
    if g == ROOT {
        format!("/{name}")
    } else {
        format!("{}/{name}", s.group_path(g))
    }
}

/// Runs the semantic passes and builds the dataset.
pub(crate) fn analyse(mut p: Parsed, format: Format, file: &str) -> Result<CdlDataset, CdlError> {
    let classic = format != Format::Netcdf4;
    // processvars
    for i in 0..p.schema.vars.len() {
        let line = p.var_lines.get(i).copied().unwrap_or(0);
        let var = &mut p.schema.vars[i];
        if classic && var.typ == NcType::Int64 {
            var.typ = NcType::Int;
        }
        let unlim_later = var
            .dims
            .iter()
            .skip(1)
            .any(|d| p.schema.dims[d.0].unlimited);
        if classic && unlim_later {
            let var = &p.schema.vars[i];
            return Err(located(
                file,
                line,
                format!(
                    "Variable: {}: UNLIMITED must be in first dimension only",
                    fullname(&p.schema, var.group, &var.name)
                ),
            ));
        }
        let typ = p.schema.vars[i].typ;
        if let Some(d) = &p.data[i] {
            if typ != NcType::String {
                check_nil(d, file)?;
            }
        }
    }
    // Attributes: globals first, then variables' (gattdefs before attdefs).
    let atts = std::mem::take(&mut p.atts);
    let mut order = Vec::with_capacity(atts.len());
    let mut deferred = Vec::new();
    let mut superseded = Vec::new();
    let mut constants = Vec::with_capacity(atts.len());
    let mut budget = ATT_BUDGET;
    for pass in [true, false] {
        for a in atts.iter().filter(|a| a.var.is_none() == pass) {
            let mut data = a.data.clone();
            resolve_enums(&p.schema, &mut data, a.typ, file)?;
            // `_FillValue` takes its variable's final type (after the classic int64 -> int).
            let fill_type = match (a.var, a.name.as_str()) {
                (Some(v), "_FillValue") => Some(p.schema.vars[v.0].typ),
                _ => None,
            };
            let typ = match fill_type.or(a.typ) {
                Some(t) => t,
                None if data.is_empty() => NcType::Char,
                None => infer_type(&data).ok_or_else(|| {
                    located(
                        file,
                        a.line,
                        format!(
                            "Non-simple list of values for untyped attribute: {}",
                            fullname(&p.schema, a.group, &a.name)
                        ),
                    )
                })?,
            };
            if data.is_empty() && typ != NcType::Char {
                return Err(located(
                    file,
                    a.line,
                    "Empty datalist can only be assigned to attributes of type char",
                ));
            }
            if typ != NcType::String {
                check_nil(&data, file)?;
            }
            if let (Some(v), "_FillValue") = (a.var, a.name.as_str()) {
                p.specials[v.0].fill_char = match data.first().map(|c| &c.kind) {
                    Some(ConstKind::Str(s)) => s.first().copied().unwrap_or(0),
                    _ => 0,
                };
            }
            // Values are made when ncgen generates the attribute, after the whole file is
            // analysed and the dimensions and variables defined: keep a failure for then.
            let name = crate::model::normalize_name(&a.name).map_err(|e| CdlError {
                message: e.kind().nc_message().to_string(),
                style: ErrorStyle::Library,
                file: file.to_string(),
                kind: e.kind(),
                exit_code: 1,
                preamble: String::new(),
            })?;
            let index = order.len();
            order.push((a.group, a.var, name.clone(), a.line));
            constants.push(a.data.len());
            match att_values(&p.schema, typ, &data, file, &mut budget) {
                Ok(values) => {
                    let atts = p.schema.atts(a.group, a.var);
                    if let Some(old) = atts.iter().find(|x| x.name == name) {
                        let earlier = order[..index]
                            .iter()
                            .rposition(|(g, v, n, _)| *g == a.group && *v == a.var && *n == name);
                        if let Some(earlier) = earlier {
                            superseded.push((earlier, old.values.clone()));
                        }
                    }
                    let _ = p.schema.put_att(a.group, a.var, &name, values);
                }
                Err(e) => deferred.push((index, e)),
            }
        }
    }
    // Enum constants in variable data.
    for i in 0..p.data.len() {
        let typ = p.schema.vars[i].typ;
        if let Some(mut d) = p.data[i].take() {
            resolve_enums(&p.schema, &mut d, Some(typ), file)?;
            p.data[i] = Some(d);
        }
    }
    let type_order = sort_types(&mut p.schema);
    let mut warnings = std::mem::take(&mut p.warnings);
    unlimited_sizes(&mut p, file, &mut warnings)?;
    p.warnings = warnings;
    // Specials into the model.
    for (i, sp) in p.specials.iter().enumerate() {
        let var = &mut p.schema.vars[i];
        if let Some(nf) = sp.no_fill {
            var.no_fill = nf;
        }
        let st = &mut var.storage;
        st.chunk_sizes.clone_from(&sp.chunk_sizes);
        st.compact = sp.storage == Some(StorageKind::Compact);
        if sp.fletcher32 == Some(true) {
            st.filters.push((3, Vec::new()));
        }
        if sp.shuffle == Some(true) {
            st.filters.push((2, Vec::new()));
        }
        if let Some(level) = sp.deflate_level {
            st.filters.push((1, vec![level as u32]));
        }
        st.filters.extend(sp.filters.iter().cloned());
        st.big_endian = sp.big_endian;
    }
    Ok(CdlDataset {
        name: p.name,
        schema: p.schema,
        data: p.data,
        specials: p.specials,
        globals: p.globals,
        format,
        enhanced: p.enhanced,
        special_count: p.special_count,
        warnings: p.warnings,
        attribute_order: order,
        superseded_attributes: superseded,
        attribute_constants: constants,
        deferred_errors: deferred,
        type_order,
        special_constants: p.special_constants,
        spellings: p.spellings,
    })
}

/// The order ncgen defines user types in (`processtypes`): first opaque and enum types, vlens of
/// atomic types and compounds of atomic fields, in declaration order; then, repeatedly, vlens
/// whose base is already placed and every remaining compound (netcdf-c's test for compound
/// fields always passes). Each group's `types` list is put in that order.
fn sort_types(s: &mut Schema) -> Vec<crate::model::TypeId> {
    use crate::model::TypeId;
    let n = s.types.len();
    let mut placed = vec![false; n];
    let mut order: Vec<TypeId> = Vec::with_capacity(n);
    let atomic = |t: &NcType| !matches!(t, NcType::User(_));
    for (i, (_, ut)) in s.types.iter().enumerate() {
        let keep = match &ut.kind {
            UserTypeKind::Opaque { .. } | UserTypeKind::Enum { .. } => true,
            UserTypeKind::Vlen { base } => atomic(base),
            UserTypeKind::Compound { fields, .. } => fields.iter().all(|f| atomic(&f.typ)),
        };
        if keep {
            placed[i] = true;
            order.push(TypeId(i));
        }
    }
    loop {
        let mut added = false;
        for i in 0..n {
            if placed[i] {
                continue;
            }
            let keep = match &s.types[i].1.kind {
                UserTypeKind::Vlen {
                    base: NcType::User(b),
                } => placed[b.0],
                UserTypeKind::Vlen { .. } => true,
                _ => true,
            };
            if keep {
                placed[i] = true;
                order.push(TypeId(i));
                added = true;
            }
        }
        if !added {
            break;
        }
    }
    let rank: Vec<usize> = {
        let mut r = vec![0; n];
        for (k, t) in order.iter().enumerate() {
            r[t.0] = k;
        }
        r
    };
    for g in &mut s.groups {
        g.types.sort_by_key(|t| rank[t.0]);
    }
    order
}

fn check_nil(data: &[Const], file: &str) -> Result<(), CdlError> {
    for c in data {
        match &c.kind {
            ConstKind::Nil => {
                return Err(located(
                    file,
                    c.line,
                    "NIL data can only be assigned to variables or attributes of type string",
                ))
            }
            ConstKind::List(l) => check_nil(l, file)?,
            _ => {}
        }
    }
    Ok(())
}

/// `inferattributetype1`: all text → char; any double → double; any float → float; else the
/// integer type chosen by ncgen's `infertype` walk. `None` for a non-simple list.
fn infer_type(data: &[Const]) -> Option<NcType> {
    use ConstKind as K;
    let mut text = 0;
    for c in data {
        match c.kind {
            K::Str(_) => text += 1,
            K::Byte(_)
            | K::Short(_)
            | K::Int(_)
            | K::UByte(_)
            | K::UShort(_)
            | K::UInt(_)
            | K::Int64(_)
            | K::UInt64(_)
            | K::Float(_)
            | K::Double(_) => {}
            _ => return None,
        }
    }
    if text > 0 {
        return (text == data.len()).then_some(NcType::Char);
    }
    if data.iter().any(|c| matches!(c.kind, K::Double(_))) {
        return Some(NcType::Double);
    }
    if data.iter().any(|c| matches!(c.kind, K::Float(_))) {
        return Some(NcType::Float);
    }
    if data
        .iter()
        .any(|c| matches!(c.kind, K::UInt64(v) if v > i64::MAX as u64))
    {
        return Some(NcType::UInt64);
    }
    let code = |t: NcType| t.code().unwrap_or(0);
    let signed = |t: NcType| match t {
        NcType::UByte => NcType::Byte,
        NcType::UShort => NcType::Short,
        NcType::UInt => NcType::Int,
        NcType::UInt64 => NcType::Int64,
        o => o,
    };
    let mut result: Option<NcType> = None;
    for c in data {
        let t = match c.kind {
            K::Byte(_) => NcType::Byte,
            K::Short(_) => NcType::Short,
            K::Int(_) => NcType::Int,
            K::UByte(_) => NcType::UByte,
            K::UShort(_) => NcType::UShort,
            K::UInt(_) => NcType::UInt,
            K::Int64(_) => NcType::Int64,
            _ => NcType::UInt64,
        };
        result = Some(match result {
            None => t,
            Some(prior) if prior == t => t,
            Some(prior) => {
                if code(signed(prior)) <= code(signed(t)) {
                    t
                } else {
                    prior
                }
            }
        });
    }
    result
}

/// Converts an attribute's data list to values of type `typ` (`generate_attrdata`).
/// All attributes of a dataset together may hold at most this many values (compound fields
/// counted individually), so hostile CDL cannot make parsing allocate without bound.
const ATT_BUDGET: u64 = 1 << 22;

fn att_values(
    s: &Schema,
    typ: NcType,
    data: &[Const],
    file: &str,
    budget: &mut u64,
) -> Result<Values, CdlError> {
    if typ == NcType::Char {
        let mut bytes = Vec::new();
        for c in data {
            match &c.kind {
                ConstKind::Str(b) => bytes.extend_from_slice(b),
                ConstKind::Byte(b) => bytes.push(*b as u8),
                ConstKind::UByte(b) => bytes.push(*b),
                _ => {
                    return Err(located(
                        file,
                        c.line,
                        "Encountered non-string and non-char constant in datalist",
                    ))
                }
            }
        }
        if bytes.is_empty() {
            // genbin_writeattr: an empty text attribute is written as one NUL.
            bytes.push(0);
        }
        return Ok(Values::Char(bytes));
    }
    // Atomic values are bounded by the input's size; compound ones may hold large arrays.
    if matches!(typ, NcType::User(_)) {
        let weight = super::data::value_weight(s, typ);
        *budget = budget.saturating_sub((data.len() as u64).saturating_mul(weight));
    }
    if *budget == 0 {
        let line = data.first().map_or(0, |c| c.line);
        return Err(CdlError {
            kind: crate::ErrorKind::NoMem,
            ..located(file, line, "attribute value too large")
        });
    }
    let mut out: Vec<Value> = Vec::with_capacity(data.len());
    for c in data {
        out.push(convert_any(s, &c.kind, typ, None, 0).map_err(|m| located(file, c.line, m))?);
    }
    Ok(pack(typ, out))
}

/// All enum types in pre-order (group order, then definition order).
fn enum_types(s: &Schema) -> Vec<crate::model::TypeId> {
    let mut out = Vec::new();
    let mut stack = vec![ROOT];
    while let Some(g) = stack.pop() {
        for t in &s.group(g).types {
            if matches!(s.user_type(*t).kind, UserTypeKind::Enum { .. }) {
                out.push(*t);
            }
        }
        stack.extend(s.group(g).groups.iter().rev());
    }
    out
}

fn member(s: &Schema, t: crate::model::TypeId, name: &str) -> Option<i128> {
    match &s.user_type(t).kind {
        UserTypeKind::Enum { members, .. } => {
            members.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
        }
        _ => None,
    }
}

/// Replaces enum constant references with their values (`processeconstrefs`).
fn resolve_enums(
    s: &Schema,
    data: &mut [Const],
    target: Option<NcType>,
    file: &str,
) -> Result<(), CdlError> {
    for c in data.iter_mut() {
        let line = c.line;
        match &mut c.kind {
            ConstKind::List(l) => resolve_enums(s, l, None, file)?,
            ConstKind::EnumRef { path, name, .. } => {
                let found = find_econst(s, path.as_deref(), name, target);
                match found {
                    Some((t, v)) => c.kind = ConstKind::Enum(t, v),
                    None => {
                        return Err(located(
                            file,
                            line,
                            format!("Undefined enum constant: {name}"),
                        ))
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn find_econst(
    s: &Schema,
    path: Option<&[String]>,
    name: &str,
    target: Option<NcType>,
) -> Option<(crate::model::TypeId, i128)> {
    if let Some(NcType::User(t)) = target {
        if let Some(v) = member(s, t, name) {
            return Some((t, v));
        }
    }
    let enums = enum_types(s);
    // `enum.const` (possibly under a group path).
    if let Some(dot) = name.rfind('.') {
        let (tname, cname) = (&name[..dot], &name[dot + 1..]);
        let group = match path {
            Some(p) => {
                let mut g = ROOT;
                for part in p {
                    g = s.find_group(g, part)?;
                }
                Some(g)
            }
            None => None,
        };
        for t in &enums {
            let (tg, ut) = &s.types[t.0];
            if ut.name == tname && group.is_none_or(|g| g == *tg) {
                if let Some(v) = member(s, *t, cname) {
                    return Some((*t, v));
                }
            }
        }
    }
    let hits: Vec<_> = enums
        .iter()
        .filter_map(|t| member(s, *t, name).map(|v| (*t, v)))
        .collect();
    if hits.len() == 1 {
        return hits.into_iter().next();
    }
    None
}

/// `processunlimiteddims`: each unlimited dimension gets the largest length any variable's data
/// implies.
fn unlimited_sizes(p: &mut Parsed, file: &str, warn: &mut String) -> Result<(), CdlError> {
    for i in 0..p.schema.vars.len() {
        let Some(data) = p.data[i].as_ref() else {
            continue;
        };
        let dims = p.schema.vars[i].dims.clone();
        let ischar = p.schema.vars[i].typ == NcType::Char;
        let Some(first) = dims.iter().position(|d| p.schema.dims[d.0].unlimited) else {
            continue;
        };
        if first == 0 {
            compute_unlim(&mut p.schema, &dims, 0, data, ischar, (file, &mut *warn), 0)?;
        } else {
            for c in data {
                match &c.kind {
                    ConstKind::List(l) => compute_unlim(
                        &mut p.schema,
                        &dims,
                        first,
                        l,
                        ischar,
                        (file, &mut *warn),
                        0,
                    )?,
                    _ => {
                        return Err(located(
                            file,
                            c.line,
                            "UNLIMITED dimension (other than first) must be enclosed in {}",
                        ))
                    }
                }
            }
        }
    }
    Ok(())
}

fn compute_unlim(
    s: &mut Schema,
    dims: &[DimId],
    idx: usize,
    data: &[Const],
    ischar: bool,
    (file, warn): (&str, &mut String),
    depth: usize,
) -> Result<(), CdlError> {
    if depth > 256 {
        return Err(located(file, 0, "memory exhausted"));
    }
    let rank = dims.len();
    let next = (idx + 1..rank)
        .find(|i| s.dims[dims[*i].0].unlimited)
        .unwrap_or(rank);
    let xproduct: u64 = dims[idx + 1..next]
        .iter()
        .map(|d| s.dims[d.0].len)
        .fold(1u64, |a, b| a.saturating_mul(b));
    let length: u64 = if next != rank || !ischar {
        data.len() as u64
    } else {
        let line = data.first().map_or(0, |c| c.line);
        let mut n = 0u64;
        for c in data {
            n += match &c.kind {
                ConstKind::Str(b) => b.len() as u64,
                ConstKind::Byte(_) | ConstKind::UByte(_) => 1,
                other => {
                    // semwarn in computeunlimitedsizes, with ncgen's type codes.
                    let msg = match other {
                        ConstKind::List(_) => "Expected character constant, found {...}".into(),
                        k => format!("Illegal character constant: {}", const_code(k)),
                    };
                    warn.push_str(&format!("ncgen: {file} line {line}: {msg}\n"));
                    0
                }
            };
        }
        n
    };
    let size = if xproduct == 0 {
        0
    } else {
        length.div_ceil(xproduct)
    };
    let d = &mut s.dims[dims[idx].0];
    d.len = d.len.max(size);
    if next != rank {
        for c in data {
            match &c.kind {
                ConstKind::List(l) => {
                    compute_unlim(s, dims, next, l, ischar, (file, &mut *warn), depth + 1)?
                }
                _ => {
                    return Err(located(
                        file,
                        c.line,
                        "UNLIMITED dimension (other than first) must be enclosed in {}",
                    ))
                }
            }
        }
    }
    Ok(())
}

/// ncgen's type code for a constant (`NCConstant.nctype`), as its warnings print it.
fn const_code(k: &ConstKind) -> i32 {
    match k {
        ConstKind::Byte(_) => 1,
        ConstKind::Short(_) => 3,
        ConstKind::Int(_) => 4,
        ConstKind::Float(_) => 5,
        ConstKind::Double(_) => 6,
        ConstKind::UByte(_) => 7,
        ConstKind::UShort(_) => 8,
        ConstKind::UInt(_) => 9,
        ConstKind::Int64(_) => 10,
        ConstKind::UInt64(_) => 11,
        ConstKind::Str(_) => 12,
        ConstKind::Opaque(_) => 14,
        ConstKind::List(_) => 16,
        ConstKind::Fill => 31,
        ConstKind::Nil => 32,
        ConstKind::EnumRef { .. } | ConstKind::Enum(..) => 105,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(kind: ConstKind) -> Const {
        Const { kind, line: 1 }
    }

    #[test]
    fn inference() {
        use ConstKind as K;
        assert_eq!(infer_type(&[c(K::Int(1)), c(K::Str(b"a".to_vec()))]), None);
        assert_eq!(infer_type(&[c(K::Str(b"a".to_vec()))]), Some(NcType::Char));
        assert_eq!(
            infer_type(&[c(K::Int(1)), c(K::Float(1.0))]),
            Some(NcType::Float)
        );
        assert_eq!(
            infer_type(&[c(K::Float(1.0)), c(K::Double(1.0))]),
            Some(NcType::Double)
        );
        assert_eq!(
            infer_type(&[c(K::Byte(1)), c(K::Short(1))]),
            Some(NcType::Short)
        );
        assert_eq!(
            infer_type(&[c(K::Int(1)), c(K::UInt(3_000_000_000))]),
            Some(NcType::UInt)
        );
        assert_eq!(
            infer_type(&[c(K::UInt(3_000_000_000)), c(K::Int(1))]),
            Some(NcType::Int)
        );
        assert_eq!(infer_type(&[c(K::Byte(97))]), Some(NcType::Byte));
    }
}
