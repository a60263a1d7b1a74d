//! A file dropped without `close` is complete when the drop returns: reopened at once, every
//! string written reads back, even while rayon's pool is busy with other work (the chunks go to
//! the file from that pool, and the drop's flush must wait for them).

#[test]
fn strings_written_then_dropped_read_back_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for round in 0..4 {
        let path = dir.path().join(format!("s{round}.nc"));
        {
            let mut file = netcdf::create(&path).unwrap();
            file.add_unlimited_dimension("x").unwrap();
            file.add_dimension("y", 2).unwrap();
            let var = &mut file
                .add_variable_with_type("str", &["x"], &netcdf::types::NcVariableType::String)
                .unwrap();
            var.put_string("Hello world!", 0).unwrap();
            var.put_string("a longer string, to see how that goes", [2])
                .unwrap();
            var.put_string("ßæøå", [3]).unwrap();
            let var = &mut file.add_variable::<i32>("y", &[]).unwrap();
            var.put_value(42i32, ()).unwrap();
            // Busy pool threads: the file's chunk writes queue behind these.
            for _ in 0..rayon::current_num_threads() {
                rayon::spawn(|| std::thread::sleep(std::time::Duration::from_millis(300)));
            }
        }
        let file = netcdf::open(&path).unwrap();
        let var = file.variable("str").unwrap();
        assert_eq!(
            var.get_string([0]).unwrap(),
            "Hello world!",
            "round {round}"
        );
        assert_eq!(var.get_string([1]).unwrap(), "");
        assert_eq!(
            var.get_string([2]).unwrap(),
            "a longer string, to see how that goes"
        );
        assert_eq!(var.get_string([3]).unwrap(), "ßæøå");
        assert_eq!(
            file.variable("y").unwrap().get_value::<i32, _>(()).unwrap(),
            42
        );
    }
}
