//! Cargo finds no test file by itself (`autotests = false`): every file in
//! `tests/` must belong to a group (or be a `[[test]]` of its own in Cargo.toml),
//! or its tests would silently never run.

use std::fs;
use std::path::Path;

#[test]
fn every_test_file_runs_in_exactly_one_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut homes = String::new();
    for entry in fs::read_dir(root.join("tests/groups")).expect("tests/groups") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            homes.push_str(&fs::read_to_string(&path).expect("group file"));
        }
    }
    let cargo = fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let mut files = 0;
    for entry in fs::read_dir(root.join("tests")).expect("tests") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !name.ends_with(".rs") {
            continue;
        }
        files += 1;
        let in_groups = homes.matches(&format!("#[path = \"../{name}\"]")).count();
        let own_binary = cargo.matches(&format!("path = \"tests/{name}\"")).count();
        assert_eq!(
            in_groups + own_binary,
            1,
            "tests/{name} must be named by exactly one group in tests/groups/ or one [[test]] in Cargo.toml"
        );
    }
    assert!(files > 30, "only {files} test files found");
}
