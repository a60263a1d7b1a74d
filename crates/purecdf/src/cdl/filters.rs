//! The `_Filter` attribute's text (`ncgen-features.md` §3), read by [`crate::filter_spec`] as
//! netcdf-c's ncgen reads it (`ncaux_h5filterspec_parselist`).

/// Parses a filter list; `None` when it is malformed.
pub(crate) fn parse_filter_spec(text: &str) -> Option<Vec<(u32, Vec<u32>)>> {
    let (_, list) = crate::filter_spec::parse_filter_list(text).ok()?;
    Some(list.into_iter().map(|f| (f.id, f.params)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_lists() {
        assert_eq!(
            parse_filter_spec("307,9|1,5").unwrap(),
            vec![(307, vec![9]), (1, vec![5])]
        );
        assert_eq!(
            parse_filter_spec("32015,1.5f,-1,3s").unwrap(),
            vec![(32015, vec![1.5f32.to_bits(), u32::MAX, 3])]
        );
        assert_eq!(parse_filter_spec("x,1"), None);
    }
}
