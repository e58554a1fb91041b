//! The conformance checklist (docs/conformance-items.tsv, the project's conformance checklist) must be
//! covered: every item has at least one test named `cNNN_...`, and docs/CONFORMANCE.md is the
//! current map from items to tests.

use std::process::Command;

#[test]
fn conformance_map_is_complete() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = Command::new("python3")
        .arg(format!("{root}/scripts/conformance.py"))
        .arg("--check")
        .output()
        .expect("python3 runs scripts/conformance.py");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}
