//! The corpus of undefined-behaviour kernels (`testbench/ptx/ub/`): each kernel makes one unit
//! refuse one op, and both backends must stop with the same report. Legal programs never make a
//! unit refuse, so without these kernels a fault in which error code a refusal carries is never
//! seen (docs/VERIFICATION.md, "Mutation coverage").
//!
//! A kernel is `<name>.ptx` with `<name>.launch.yaml` and `<name>.expect.yaml`:
//!
//! ```yaml
//! rule: "8-byte aligned"            # a piece of the rule the golden report must name
//! at: "mb_misaligned.ptx:15:5"      # the refused instruction, file:line:col
//! ```
//!
//! The expectation is written by hand from the PTX ISA rule the kernel breaks (the kernel's
//! header cites the section), never copied from the model's output.

use std::path::{Path, PathBuf};

/// One UB kernel and its expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct UbKernel {
    pub name: String,
    pub ptx: PathBuf,
    pub launch: PathBuf,
    pub expect_file: PathBuf,
    pub expect: UbExpectation,
}

/// What the golden report of a UB kernel must contain.
#[derive(Clone, Debug, PartialEq)]
pub struct UbExpectation {
    /// A piece of the rule's text.
    pub rule: String,
    /// The refused instruction, `file:line:col` (the file name without its directory).
    pub at: String,
}

impl UbExpectation {
    /// Read `<name>.expect.yaml`: both fields, non-empty strings.
    pub fn from_file(path: &Path) -> Result<UbExpectation, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e} (each UB kernel needs its expectation file)", path.display()))?;
        let doc: serde_json::Value =
            serde_saphyr::from_str(&text).map_err(|e| format!("{}: not valid YAML: {e}", path.display()))?;
        let field = |k: &str| -> Result<String, String> {
            match doc.get(k).and_then(|v| v.as_str()) {
                Some(s) if !s.trim().is_empty() => Ok(s.to_string()),
                _ => Err(format!("{}: field `{k}` (a non-empty string) is missing", path.display())),
            }
        };
        Ok(UbExpectation { rule: field("rule")?, at: field("at")? })
    }

    /// Does a run's report name this rule at this instruction? `Err` says what is missing.
    pub fn check(&self, report: &str) -> Result<(), String> {
        if !report.contains("undefined behaviour") {
            return Err(format!("not an undefined-behaviour report: {}", first_line(report)));
        }
        if !report.contains(&self.rule) {
            return Err(format!("the report does not name the rule `{}`: {}", self.rule, first_line(report)));
        }
        // `at <dir>/<file>:<line>:<col> (` or `at <file>:<line>:<col> (`.
        let at_here = [format!("at {} (", self.at), format!("/{} (", self.at)];
        if !at_here.iter().any(|a| report.contains(a)) {
            return Err(format!("the report is not at `{}`: {}", self.at, first_line(report)));
        }
        Ok(())
    }
}

/// The `<name>.ptx` files of `dir` as (name, path), those named in `only` when it is not
/// empty; `what` says what the directory is for, in the error of an unreadable one. Shared by
/// the UB corpus and the mutation checks' corpus (`mutate::checks::corpus`).
pub fn ptx_files(dir: &Path, only: &[String], what: &str) -> Result<Vec<(String, PathBuf)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e} ({what})", dir.display()))?;
    let mut out = Vec::new();
    for entry in entries {
        let ptx = entry.map_err(|e| e.to_string())?.path();
        let Some(name) = ptx.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".ptx")) else {
            continue;
        };
        if only.is_empty() || only.iter().any(|o| o == name) {
            out.push((name.to_string(), ptx.clone()));
        }
    }
    Ok(out)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Every UB kernel of `dir`, by name, keeping those in `only` when it is not empty. Every
/// `<name>.ptx` must have its launch and expectation files: a missing one is an error naming it.
pub fn ub_kernels(dir: &Path, only: &[String]) -> Result<Vec<UbKernel>, String> {
    let mut out = Vec::new();
    for (name, ptx) in ptx_files(dir, only, "the directory of UB kernels: <name>.ptx, .launch.yaml, .expect.yaml")? {
        let name = name.as_str();
        let launch = dir.join(format!("{name}.launch.yaml"));
        if !launch.is_file() {
            return Err(format!("UB kernel {}: no launch file {}", ptx.display(), launch.display()));
        }
        let expect_file = dir.join(format!("{name}.expect.yaml"));
        let expect = UbExpectation::from_file(&expect_file)?;
        out.push(UbKernel { name: name.to_string(), ptx: ptx.clone(), launch, expect_file, expect });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    let missing: Vec<&String> = only.iter().filter(|o| !out.iter().any(|k| &k.name == *o)).collect();
    if !missing.is_empty() {
        return Err(format!("no UB kernel {missing:?} in {}", dir.display()));
    }
    if out.is_empty() && only.is_empty() {
        return Err(format!("no UB kernel (a .ptx with its .launch.yaml and .expect.yaml) in {}", dir.display()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("smsync-ub-corpus-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_missing_expectation_file_is_named() {
        let d = scratch("missing");
        std::fs::write(d.join("k.ptx"), "").unwrap();
        std::fs::write(d.join("k.launch.yaml"), "").unwrap();
        let e = ub_kernels(&d, &[]).unwrap_err();
        assert!(e.contains("k.expect.yaml") && e.contains("expectation file"), "{e}");
        std::fs::write(d.join("k.expect.yaml"), "rule: \"x\"\n").unwrap();
        let e = ub_kernels(&d, &[]).unwrap_err();
        assert!(e.contains("field `at`"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn the_check_needs_the_rule_and_the_instruction() {
        let x = UbExpectation { rule: "8-byte aligned".into(), at: "k.ptx:15:5".into() };
        let good = "undefined behaviour: mbarrier address must be 8-byte aligned in shared::cta at /d/k.ptx:15:5 (`x`), CTA (0, 0, 0), warp 0, lane 0";
        assert_eq!(x.check(good), Ok(()));
        assert!(x.check(&good.replace("15:5", "16:5")).unwrap_err().contains("not at"));
        assert!(x.check(&good.replace("8-byte", "4-byte")).unwrap_err().contains("rule"));
        assert!(x.check("deadlock: no warp can run").unwrap_err().contains("not an undefined"));
        // Another kernel whose name ends the same is not this one.
        assert!(x.check(&good.replace("/d/k.ptx", "/d/xk.ptx")).is_err());
    }
}
