//! HDF5 files from other writers (`../shared/conformance/hdf5-wild`): each one shows a class of
//! divergence from netcdf-c once found in our reader (old layout messages, continuation order,
//! extensible-array indexes, virtual datasets, external links, odd names, szip, dimension scales,
//! Fletcher-32, cache images, consistency flags…). Beside each file is netcdf-c 4.9.0's
//! `ncdump -s` output (`STEM.dmp`, made in that folder), and the folder's README gives netcdf-c's
//! exit status where it refused the file. Our `ncdump -s`, run the same way, must print exactly
//! the same and exit the same; this needs no reference tools, only `../shared`.
//!
//! The other modes are compared with the live `/usr/bin/ncdump` by `netcdf4_reference`, which
//! walks this folder too.

mod support;

use std::collections::HashMap;

/// Files not yet dumped as netcdf-c dumps them, with the reason. A listed file that passes
/// fails the test, so the list only shrinks.
const PENDING: &[(&str, &str)] = &[];
use std::path::PathBuf;
use std::process::Command;

/// netcdf-c's exit status per file, from the README's table (last column; blank means 0).
fn reference_exits(readme: &str) -> HashMap<String, i32> {
    let mut out = HashMap::new();
    for line in readme.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        let Some(code) = cells.last().and_then(|c| c.parse::<i32>().ok()) else {
            continue;
        };
        for name in cells[0].split(", ") {
            out.insert(name.to_string(), code);
        }
    }
    out
}

#[test]
fn hdf5_wild_files_dump_as_netcdf_c() {
    let Some(dir) = support::hdf5_wild_data() else {
        return;
    };
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let exits = reference_exits(&readme);
    assert!(exits.len() >= 10, "README table not understood");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.with_extension("dmp").is_file() && p.extension().is_some_and(|x| x != "dmp"))
        .collect();
    files.sort();
    assert!(files.len() >= 60, "found only {} files", files.len());
    let mut failed = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let want = std::fs::read(f.with_extension("dmp")).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_ncdump"))
            .args(["-s", &name])
            .current_dir(&dir)
            .output()
            .unwrap();
        let want_exit = exits.get(&name).copied().unwrap_or(0);
        if out.stdout != want || out.status.code() != Some(want_exit) {
            let at = out
                .stdout
                .iter()
                .zip(&want)
                .position(|(a, b)| a != b)
                .unwrap_or(out.stdout.len().min(want.len()));
            failed.push(format!(
                "{name}: exit {:?} (netcdf-c {want_exit}), stdout differs at byte {at}: {:?}; stderr {:?}",
                out.status.code(),
                String::from_utf8_lossy(&out.stdout[at.saturating_sub(40)..(at + 60).min(out.stdout.len())]),
                String::from_utf8_lossy(&out.stderr),
            ));
        }
    }
    let pending = |line: &String| {
        PENDING
            .iter()
            .any(|(f, _)| line.starts_with(&format!("{f}:")))
    };
    let (known, new): (Vec<String>, Vec<String>) = failed.into_iter().partition(pending);
    println!(
        "{} passed, {} failed ({} pending)",
        files.len() - known.len() - new.len(),
        known.len() + new.len(),
        known.len()
    );
    for (f, why) in PENDING {
        assert!(
            known.iter().any(|l| l.starts_with(&format!("{f}:"))),
            "{f} now dumps as netcdf-c does: take it off PENDING ({why})"
        );
    }
    assert!(new.is_empty(), "{}", new.join("\n"));
}
