//! What the store targets do with a dataset they could open.

/// Reads every variable of `file` whole when it is small (at most 65,536 elements), then its
/// first element alone (a read that touches one chunk, or one inner chunk of a Zarr v3 shard).
/// Errors are ignored: the targets look for panics, hangs and unbounded allocations.
pub fn read_small_variables(file: &purecdf::File) {
    let ids: Vec<_> = (0..file.schema().vars.len()).map(purecdf::VarId).collect();
    for id in ids {
        let v = file.variable_by_id(id);
        if v.len() <= 1 << 16 {
            let _ = v.get_typed_values(..);
        }
        let rank = v.dimensions().len();
        let (start, count) = (vec![0usize; rank], vec![1usize; rank]);
        let _ = v.get_typed_values((start.as_slice(), count.as_slice()));
    }
}
