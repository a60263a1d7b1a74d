//! `#[derive(NcType)]`: implements purecdf's `NcTypeDescriptor` for a Rust type, so that
//! variables of the matching netCDF user type read and write as values of it.
//!
//! - A struct with named fields and `#[repr(C)]` (optionally `packed`) and no padding becomes a
//!   compound type; its fields must implement `NcTypeDescriptor` themselves: numbers, arrays of
//!   numbers of up to three dimensions, other derived types. Padding is refused at compile time.
//! - A fieldless enum with `#[repr(i8)]`, `u8`, `i16`, `u16`, `i32`, `u32`, `i64` or `u64`
//!   becomes an enum type over that integer type.
//! - `#[netcdf(rename = "name")]` on the type, a field or a variant sets its name in the file.
//!
//! Use it through purecdf's `derive` feature, as `purecdf::NcType`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{parse_macro_input, Attribute, Data, DeriveInput, Fields, LitStr};

/// Derives `NcTypeDescriptor` for a `#[repr(C)]` struct (a netCDF compound type) or an enum
/// with an integer `repr` (a netCDF enum type). See the crate documentation.
#[proc_macro_derive(NcType, attributes(netcdf))]
pub fn derive_nctype(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// The path of the purecdf crate as the user's `Cargo.toml` names it.
fn krate() -> TokenStream {
    use proc_macro_crate::{crate_name, FoundCrate};
    match crate_name("purecdf") {
        Ok(FoundCrate::Name(n)) => {
            let id = syn::Ident::new(&n, Span::call_site());
            quote!(::#id)
        }
        _ => quote!(::purecdf),
    }
}

/// The `rename` of `#[netcdf(...)]` attributes, refusing anything else.
fn rename(attrs: &[Attribute]) -> syn::Result<Option<String>> {
    let mut name = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("netcdf")) {
        a.parse_nested_meta(|m| {
            if m.path.is_ident("rename") {
                name = Some(m.value()?.parse::<LitStr>()?.value());
                Ok(())
            } else {
                Err(m.error("NcType knows only #[netcdf(rename = \"...\")]"))
            }
        })?;
    }
    Ok(name)
}

/// The identifiers listed in `#[repr(...)]`.
fn reprs(attrs: &[Attribute]) -> syn::Result<Vec<String>> {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        a.parse_nested_meta(|m| {
            if let Some(id) = m.path.get_ident() {
                out.push(id.to_string());
            }
            // `packed(N)`, `align(N)`: skip the argument.
            if m.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in m.input);
                let _: TokenStream = content.parse()?;
            }
            Ok(())
        })?;
    }
    Ok(out)
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "NcType cannot be derived for a generic type",
        ));
    }
    let ident = &input.ident;
    let name = rename(&input.attrs)?.unwrap_or_else(|| ident.to_string());
    let reprs = reprs(&input.attrs)?;
    let k = krate();
    let body = match &input.data {
        Data::Struct(s) => {
            if !reprs.iter().any(|r| r == "C") {
                return Err(syn::Error::new_spanned(
                    ident,
                    "NcType needs #[repr(C)] on a struct (its layout must be C's)",
                ));
            }
            let Fields::Named(fields) = &s.fields else {
                return Err(syn::Error::new_spanned(
                    ident,
                    "NcType needs a struct with named fields",
                ));
            };
            let mut names = Vec::new();
            let mut idents = Vec::new();
            let mut types = Vec::new();
            for f in &fields.named {
                let id = f.ident.clone().expect("named field");
                names.push(rename(&f.attrs)?.unwrap_or_else(|| id.to_string()));
                idents.push(id);
                types.push(f.ty.clone());
            }
            quote! {
                const _: () = assert!(
                    ::core::mem::size_of::<#ident>() == 0 #(+ ::core::mem::size_of::<#types>())*,
                    "NcType: the struct has padding; reorder its fields or add #[repr(C, packed)]"
                );
                let fields = ::std::vec![#(
                    #k::types::CompoundTypeField {
                        name: ::std::string::String::from(#names),
                        basetype: <#types as #k::types::NcTypeDescriptor>::type_descriptor(),
                        arraydims: <#types as #k::types::NcTypeDescriptor>::ARRAY_ELEMENTS
                            .as_dims()
                            .map(<[usize]>::to_vec),
                        offset: ::core::mem::offset_of!(#ident, #idents),
                    }
                ),*];
                #k::types::NcVariableType::Compound(#k::types::CompoundType {
                    name: ::std::string::String::from(#name),
                    size: ::core::mem::size_of::<#ident>(),
                    fields,
                })
            }
        }
        Data::Enum(e) => {
            const INTS: [&str; 8] = ["i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"];
            let Some(int) = reprs.iter().find(|r| INTS.contains(&r.as_str())) else {
                return Err(syn::Error::new_spanned(
                    ident,
                    "NcType needs an integer repr on an enum, such as #[repr(i32)]",
                ));
            };
            let int = syn::Ident::new(int, Span::call_site());
            let mut names = Vec::new();
            let mut variants = Vec::new();
            for v in &e.variants {
                if !matches!(v.fields, Fields::Unit) {
                    return Err(syn::Error::new_spanned(
                        v,
                        "NcType needs an enum whose variants hold no data",
                    ));
                }
                names.push(rename(&v.attrs)?.unwrap_or_else(|| v.ident.to_string()));
                variants.push(v.ident.clone());
            }
            quote! {
                #k::types::NcVariableType::Enum(#k::types::EnumType {
                    name: ::std::string::String::from(#name),
                    fieldnames: ::std::vec![#(::std::string::String::from(#names)),*],
                    fieldvalues: ::std::vec![#(#ident::#variants as #int),*].into(),
                })
            }
        }
        Data::Union(_) => {
            return Err(syn::Error::new_spanned(
                ident,
                "NcType cannot be derived for a union",
            ))
        }
    };
    Ok(quote! {
        // SAFETY: the description lists every field at its offset (no padding, checked above)
        // or every discriminant of the enum.
        unsafe impl #k::types::NcTypeDescriptor for #ident {
            fn type_descriptor() -> #k::types::NcVariableType {
                #body
            }
        }
    })
}
