//! Progress of the long runs (`smsync fuzz`, `explore`, `synth`) when stderr is not a terminal,
//! as in a CI log: plain lines with done / total appear, `--quiet` prints none of them, and the
//! results do not depend on either. The real binary on tiny runs: 3 fuzz programs, a 2-point
//! sweep that only generates Verilog, one small module through yosys' xilinx-7 estimate.
//!
//! The terminal bar itself is checked by hand (`script -qc 'smsync fuzz ...' /dev/null`): its
//! drawing is indicatif's.

use smsync_testbench::verilator::rtl_tools_skipped;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

/// A fresh directory under the system temp dir.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("smsync-progress-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run `smsync ARGS` with stdout and stderr piped: (success, stdout, stderr).
fn smsync(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_smsync")).args(args).current_dir(workspace()).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The progress lines of `label` in `stderr` (`smsync fuzz: 2/3 programs (66%), ...`).
fn progress_lines<'a>(stderr: &'a str, label: &str) -> Vec<&'a str> {
    stderr.lines().filter(|l| l.starts_with(&format!("{label}: ")) && l.contains(" elapsed")).collect()
}

/// Every `done/total unit` count must appear in some line.
fn assert_counts(lines: &[&str], total: u64, unit: &str, stderr: &str) {
    for done in 1..=total {
        let count = format!(": {done}/{total} {unit} (");
        assert!(lines.iter().any(|l| l.contains(&count)), "no line with {done}/{total} {unit}:\n{stderr}");
    }
}

#[test]
fn fuzz_prints_a_line_per_program_of_a_short_campaign_and_none_when_quiet() {
    if std::env::var("SMSYNC_SKIP_PTXAS").as_deref() == Ok("1") {
        eprintln!("SMSYNC_SKIP_PTXAS=1: skipped (smsync fuzz needs ptxas)");
        return;
    }
    let dir = temp_dir("fuzz");
    let out = dir.join("failures");
    let args = ["fuzz", "--seed", "1", "--count", "3", "--config", "configs/fpga-small.yaml", "--out"];
    let run = |quiet: bool| {
        let mut a: Vec<&str> = args.to_vec();
        a.push(out.to_str().unwrap());
        if quiet {
            a.push("--quiet");
        }
        smsync(&a)
    };

    let (ok, stdout, stderr) = run(false);
    assert!(ok, "fuzz failed:\n{stdout}\n{stderr}");
    let lines = progress_lines(&stderr, "smsync fuzz");
    assert_counts(&lines, 3, "programs", &stderr);
    let result = "smsync fuzz: config fpga-small, seeds 1..3: 3 passed, 0 failed, 0 rejected by ptxas;";
    assert!(stdout.starts_with(result), "result line changed:\n{stdout}");

    let (ok, quiet_stdout, quiet_stderr) = run(true);
    assert!(ok, "fuzz --quiet failed:\n{quiet_stdout}\n{quiet_stderr}");
    assert!(quiet_stderr.trim().is_empty(), "--quiet printed on stderr:\n{quiet_stderr}");
    // The same result, up to the wall time at its end.
    let upto_time = |s: &str| s.split(" sync requests;").next().unwrap().to_string();
    assert_eq!(upto_time(&quiet_stdout), upto_time(&stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explore_prints_each_point_and_stage_and_none_when_quiet() {
    let dir = temp_dir("explore");
    let sweep = dir.join("tiny.yaml");
    // No workloads, no targets, no lint: each point is `smsync gen` only (seconds; not a cached stage).
    std::fs::write(&sweep, "name: tiny\nbase: fpga-small\naxes:\n  match_impl: [iterative, parallel]\n").unwrap();
    let run = |out: &Path, quiet: bool| {
        let mut a = vec!["explore", sweep.to_str().unwrap(), "--out", out.to_str().unwrap(), "--no-lint", "-j", "2"];
        if quiet {
            a.push("-q");
        }
        smsync(&a)
    };

    let out = dir.join("out");
    let (ok, _, stderr) = run(&out, false);
    assert!(ok, "explore failed:\n{stderr}");
    let lines = progress_lines(&stderr, "smsync explore");
    assert_counts(&lines, 2, "points", &stderr);
    for stage in ["point 0 (match_impl=iterative): gen", "point 1 (match_impl=parallel): gen"] {
        assert!(lines.iter().any(|l| l.ends_with(stage)), "no line for `{stage}`:\n{stderr}");
    }
    assert!(stderr.contains("2/2 done: 0 stage(s) computed"), "no final line:\n{stderr}");

    let quiet_out = dir.join("quiet");
    let (ok, _, quiet_stderr) = run(&quiet_out, true);
    assert!(ok, "explore --quiet failed:\n{quiet_stderr}");
    assert!(progress_lines(&quiet_stderr, "smsync explore").is_empty(), "--quiet printed progress:\n{quiet_stderr}");
    // The final line (where the results are) still prints, and the results are the same.
    assert_eq!(quiet_stderr.lines().count(), 1, "{quiet_stderr}");
    assert!(quiet_stderr.contains("2/2 done: 0 stage(s) computed"), "{quiet_stderr}");
    let read = |o: &Path| std::fs::read_to_string(o.join("results.csv")).unwrap();
    assert_eq!(read(&quiet_out), read(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn synth_names_the_module_and_tool_phase_and_prints_none_when_quiet() {
    if rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: skipped");
        return;
    }
    let dir = temp_dir("synth");
    // The mbarrier ALU through yosys' xilinx-7 estimate: the smallest unit, about 20 s.
    let run = |out: &Path, quiet: bool| {
        let mut a = vec![
            "synth",
            "--config",
            "configs/fpga-small.yaml",
            "--target",
            "xilinx-7",
            "--module",
            "mbarrier_alu",
            "--out",
            out.to_str().unwrap(),
        ];
        if quiet {
            a.push("--quiet");
        }
        smsync(&a)
    };
    let out = dir.join("plain");
    let (ok, stdout, stderr) = run(&out, false);
    assert!(ok, "synth failed:\n{stdout}\n{stderr}");
    let lines = progress_lines(&stderr, "smsync synth");
    assert!(
        lines.iter().any(|l| l.contains(": 0/1 modules (") && l.ends_with(": mbarrier_alu: yosys (xilinx-7)")),
        "no line for the yosys phase:\n{stderr}"
    );
    assert_counts(&lines, 1, "modules", &stderr);
    assert!(stdout.contains("mbarrier_alu"), "no report on stdout:\n{stdout}");

    let quiet = dir.join("quiet");
    let (ok, quiet_stdout, quiet_stderr) = run(&quiet, true);
    assert!(ok, "synth --quiet failed:\n{quiet_stdout}\n{quiet_stderr}");
    assert!(quiet_stderr.trim().is_empty(), "--quiet printed on stderr:\n{quiet_stderr}");
    // The report's module row (counts and notes; the command line and times differ by nature).
    let row = |s: &str| s.lines().find(|l| l.starts_with("| mbarrier_alu")).map(str::to_string);
    assert!(row(&stdout).is_some(), "no module row in the report:\n{stdout}");
    assert_eq!(row(&quiet_stdout), row(&stdout), "the report must not depend on --quiet");
    let _ = std::fs::remove_dir_all(&dir);
}
