//! `smsync mutate` (issue 20, mutation coverage), quick tier, fpga-small.
//!
//! * `a_known_fault_is_killed_and_mutant_zero_passes`: mbarrier_alu with three mutations of our
//!   own, against one corpus kernel (`mbar_arrive_drop`) and one UB kernel
//!   (`ub/mb_pending_underflow`, refused with error code 11): the response error register's bit 0
//!   inverted (every mbarrier answer carries a wrong error code) must be killed by a divergence;
//!   its bit 5 inverted when bit 0 is set (only a refusal with an odd code changes, which no legal
//!   kernel makes) must survive the corpus kernel and be killed by the UB kernel; `-mode none`
//!   (mutant selected, nothing changed) must survive, hold the mbarrier ALU's formal properties
//!   and be proven equivalent by yosys; mutant 0 (the unmutated netlist) must pass both kernels
//!   (the UB one by stopping with its expected report; the campaign stops otherwise); the
//!   report's counts must add up and its kill rate must be killed / non-equivalent. The one
//!   Verilator build this costs is the mutated top's, with `--fast-build`.
//! * `a_forwarding_fault_is_killed_by_a_bounded_open_property`: the barrier file's forwarded
//!   round word (`fw_meta`, read when a request hits the barrier its predecessor of the cycle
//!   before wrote) with its kind's low bit inverted. The top never sends the barrier file two
//!   requests in consecutive cycles, so the corpus kernel (`bar_red`) and the UB kernel of a mixed
//!   round (`ub/bar_red_mixed`) pass; the properties
//!   that close hold (`answered_once`); one that does not close (`release_exact` first) fails
//!   within the `--formal-open-depth` steps (a bar.sync after a bar.sync on one barrier refused
//!   as a mixed round, so the round never releases, PTX ISA §9.7.13.1): killed by the formal
//!   step, not by the cosim.
//! * `errors_name_the_units_and_the_missing_tool`: a bad unit name lists the units; without
//!   yosys on PATH the command says what to install. No build.
//!
//! `cargo test -p smsync --test mutate -- --nocapture`

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn smsync(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smsync")).args(args).current_dir(root()).output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The response error register of the mbarrier ALU, bit 0 inverted.
const ERROR_BIT: &str = "-mode inv -module sync_unit$core$mbar -cell o_error -port q -portbit 0";

/// Its bit 5 inverted whenever bit 0 is set: only refusals with an odd error code change.
const REFUSAL_BIT: &str = "-mode cnot1 -module sync_unit$core$mbar -cell o_error -port q -portbit 5 -ctrlbit 0";

/// The UB kernel the test runs: `mbarrier.arrive` with a count above the pending count.
const UB_KERNEL: &str = "mb_pending_underflow";

fn mutant<'a>(report: &'a Value, needle: &str) -> &'a Value {
    report["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["yosys_command"].as_str().unwrap().contains(needle))
        .unwrap_or_else(|| panic!("no mutant with `{needle}` in {report:#}"))
}

#[test]
fn a_known_fault_is_killed_and_mutant_zero_passes() {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: smsync mutate not run");
        return;
    }
    let out = std::env::temp_dir().join(format!("smsync-mutate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let t = Instant::now();
    let o = smsync(&[
        "mutate",
        "--unit",
        "mbarrier_alu",
        // Only the two mutations below: a sampled one (`--count N`) is picked by yosys' cell
        // names, which shift whenever any unit of the top changes, so its classification time
        // (a 20-step equivalence BMC for some) is not a property of this test.
        "--count",
        "0",
        // The mutations below name a register's instance, a cell of rust-hdl's hierarchy.
        "--netlist",
        "rtl",
        "--mutation",
        ERROR_BIT,
        "--mutation",
        REFUSAL_BIT,
        "--mutation",
        "-mode none",
        "--kernels",
        "mbar_arrive_drop",
        "--ub-kernels",
        UB_KERNEL,
        "--programs",
        "0",
        "--streams",
        "0",
        "--fast-build",
        // The proof for `-mode none` takes ~20 s on an idle machine; the bound is for a loaded one
        // (a timeout would leave it "not classified" and fail the test for the wrong reason).
        "--equiv-timeout",
        "900",
        "--out",
        out.to_str().unwrap(),
    ]);
    eprintln!("smsync mutate: {:.0} s\n{}", t.elapsed().as_secs_f64(), text(&o));
    assert!(o.status.success(), "{}", text(&o));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();

    // Mutant 0 passed both kernels: the baseline lists them as passed, the UB kernel with the
    // refusal its expectation names (PTX ISA §9.7.13.15.2: the pending count cannot go below 0).
    let checks = report["checks"].as_array().unwrap();
    let baseline = |name: &str| {
        checks.iter().find(|c| c["check"] == name).unwrap_or_else(|| panic!("no check {name} in {report:#}"))
    };
    assert_eq!(checks.len(), 2, "{report:#}");
    assert_eq!(baseline("mbar_arrive_drop")["outcome"], "pass");
    let ub = baseline(&format!("ub:{UB_KERNEL}"));
    assert_eq!(ub["outcome"], "pass", "{ub:#}");
    assert!(ub["message"].as_str().unwrap().contains("arrive count exceeds the pending count"), "{ub:#}");

    let killed = mutant(&report, "-portbit 0");
    assert_eq!(killed["status"], "killed", "{killed:#}");
    assert_eq!(killed["killed_by"]["how"], "divergence", "{killed:#}");
    assert!(killed["message"].as_str().unwrap().contains("answered differently"), "{killed:#}");

    // Only a refusal shows it: the legal kernel passes, the UB kernel kills it.
    let refusal = mutant(&report, "-portbit 5");
    assert_eq!(refusal["status"], "killed", "{refusal:#}");
    assert_eq!(refusal["killed_by"]["check"], format!("ub:{UB_KERNEL}"), "{refusal:#}");
    assert_eq!(refusal["killed_by"]["how"], "divergence", "{refusal:#}");

    // Nothing changed: it survives the kernel, the formal properties hold on it (proven, not
    // failed), and yosys proves it equivalent.
    let none = mutant(&report, "-mode none");
    assert_eq!(none["status"], "equivalent", "{none:#}");
    let run: Vec<&str> = none["checks_run"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(run.contains(&"mbar_arrive_drop") && run.contains(&"ub:mb_pending_underflow"), "{none:#}");
    let formal = none["formal"].as_str().unwrap();
    assert!(formal.contains("phase_completion: proven") && !formal.contains("FAIL"), "{none:#}");

    let c = &report["counts"];
    let n = |k: &str| c[k].as_u64().unwrap();
    assert_eq!(n("total"), 3, "{report:#}");
    assert_eq!(n("killed") + n("survived") + n("equivalent"), n("total"), "{c:#}");
    let statuses: Vec<&str> =
        report["mutants"].as_array().unwrap().iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == "killed").count() as u64, n("killed"), "{report:#}");
    let rate = n("killed") as f64 / (n("total") - n("equivalent")) as f64;
    assert!((c["kill_rate"].as_f64().unwrap() - rate).abs() < 1e-9, "{c:#}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("| 3 |"), "{md}");
    let _ = std::fs::remove_dir_all(&out);
}

/// The barrier file's forwarded round word, the kind's low bit (`META_KIND` = 1) inverted.
const FORWARDED_KIND_BIT: &str = "-mode inv -module sync_unit$core$barrier -cell fw_meta -port q -portbit 1";

#[test]
fn a_forwarding_fault_is_killed_by_a_bounded_open_property() {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: smsync mutate not run");
        return;
    }
    let out = std::env::temp_dir().join(format!("smsync-mutate-open-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let t = Instant::now();
    let o = smsync(&[
        "mutate",
        "--unit",
        "barrier_file",
        "--count",
        "0",
        "--netlist",
        "rtl",
        "--mutation",
        FORWARDED_KIND_BIT,
        "--kernels",
        "bar_red",
        "--ub-kernels",
        "bar_red_mixed",
        "--programs",
        "0",
        "--streams",
        "0",
        "--fast-build",
        "--no-equiv",
        "--out",
        out.to_str().unwrap(),
    ]);
    eprintln!("smsync mutate: {:.0} s\n{}", t.elapsed().as_secs_f64(), text(&o));
    assert!(o.status.success(), "{}", text(&o));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let m = mutant(&report, "-cell fw_meta");
    assert_eq!(m["status"], "killed", "{m:#}");
    assert_eq!(m["killed_by"]["how"], "formal", "{m:#}");
    // (the first of them to fail: the refused arrival is also a round that never releases)
    let by = m["killed_by"]["check"].as_str().unwrap();
    let open = ["release_exact", "release_once", "round_reset", "responses"];
    assert!(open.iter().any(|p| by == format!("formal property {p}")), "{m:#}");
    let run: Vec<&str> = m["checks_run"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(run.contains(&"bar_red") && run.contains(&"ub:bar_red_mixed"), "the kernels ran and passed first: {m:#}");
    let formal = m["formal"].as_str().unwrap();
    assert!(formal.contains("answered_once: proven") && formal.contains("FAILS at step"), "{m:#}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn errors_name_the_units_and_the_missing_tool() {
    let o = smsync(&["mutate", "--unit", "mbar"]);
    assert!(!o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    for unit in ["barrier_file", "mbarrier_alu", "atomic_alu", "warp_network", "copy_engine", "sync_unit"] {
        assert!(err.contains(unit), "{err}");
    }
    let o = Command::new(env!("CARGO_BIN_EXE_smsync"))
        .args(["mutate", "--unit", "mbarrier_alu"])
        .current_dir(root())
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert!(!o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("needs yosys") && err.contains("apt-get install yosys"), "{err}");
}
