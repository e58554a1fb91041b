//! The instruction table (`sim/src/ptx/forms.rs`) against the parser: every example parses when
//! its row says smsync decodes the form and is refused as "not supported" when it says not, and
//! docs/CONFORMANCE.md, which renders the table, is the current rendering.

use smsync_sim::ptx;
use smsync_sim::ptx::forms::{Support, FORMS};

fn module(body: &str) -> String {
    format!(
        ".version 8.8\n.target sm_100a\n.address_size 64\n.func f()\n{{\n ret;\n}}\n\
         .visible .entry k(.param .u64 p)\n{{\n\
         .reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n.reg .f32 %f<4>;\n.reg .f64 %fd<4>;\n.reg .b16 %h<8>;\n\
         .shared .align 8 .b64 bar;\nL:\n{body}\n}}\n"
    )
}

#[test]
fn every_example_behaves_as_its_row_says() {
    let mut problems = Vec::new();
    for f in FORMS {
        let r = ptx::parse(&module(f.example), "forms.ptx");
        match (f.support, r) {
            (Support::Yes, Err(e)) => problems.push(format!("{} (decoded) fails: {e}", f.name)),
            (Support::No, Ok(_)) => problems.push(format!("{} (not supported) parses: {}", f.name, f.example)),
            (Support::No, Err(e)) if !e.message.contains("not supported by smsync") => {
                problems.push(format!("{} (not supported) fails otherwise: {e}", f.name))
            }
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{} rows disagree with the parser:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn an_opcode_outside_the_table_is_unknown() {
    let e = ptx::parse(&module("frobnicate.b32 %r0, %r1;"), "forms.ptx").unwrap_err();
    assert!(e.message.contains("unknown instruction `frobnicate`"), "{e}");
    // rows are unique per (support, name), and every section is cited as PTX ISA §...
    for (i, a) in FORMS.iter().enumerate() {
        assert!(a.section.is_empty() || a.section.starts_with('§'), "{}: section `{}`", a.name, a.section);
        for b in &FORMS[i + 1..] {
            assert!(!(a.name == b.name && a.support == b.support), "duplicate row {}", a.name);
        }
    }
}

#[test]
fn conformance_document_renders_the_current_table() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = std::process::Command::new("python3")
        .arg(format!("{root}/scripts/conformance.py"))
        .arg("--check")
        .output()
        .expect("python3 runs scripts/conformance.py");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}
