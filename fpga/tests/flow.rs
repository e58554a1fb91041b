//! End to end: `smsync synth`'s flow on fpga-small for real tools.
//!
//! * `ice40_flow_places_and_routes_one_unit`: yosys + nextpnr-ice40 (native, the fastest real
//!   place-and-route here) on the mbarrier ALU inside its registered-I/O wrapper (~1 min).
//! * `ice40_refuses_the_fpga_small_top_before_running_tools`: the pre-check (no tool runs).
//! * ignored (tens of minutes): the whole fpga-small config on ECP5 — the command is in docs/FPGA.md.
//!
//! A missing tool fails the test (run scripts/setup-tools.sh), unless SMSYNC_SKIP_RTL_TOOLS=1.

use smsync_fpga::flow::{run, FlowOptions};
use smsync_fpga::target::Target;
use smsync_sim::config::Config;
use std::path::PathBuf;
use std::time::Duration;

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("smsync-fpga-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn options(target: Target, out: PathBuf, modules: &[&str], timeout_s: u64) -> FlowOptions {
    FlowOptions {
        target,
        out,
        modules: modules.iter().map(|s| s.to_string()).collect(),
        timeout: Duration::from_secs(timeout_s),
        no_pnr: false,
        seed: smsync_fpga::toolchain::nextpnr::SEED,
        command: "fpga/tests/flow.rs".into(),
        progress: smsync_progress::Mode::Lines,
    }
}

fn skipped() -> bool {
    std::env::var("SMSYNC_SKIP_RTL_TOOLS").is_ok_and(|v| v == "1")
}

#[test]
fn ice40_flow_places_and_routes_one_unit() {
    if skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: not run");
        return;
    }
    let out = out_dir("ice40");
    // A seed other than the default (`smsync synth --seed`), to see it reach the report.
    let opts = FlowOptions { seed: 7, ..options(Target::Ice40Up5k, out.clone(), &["mbarrier_alu"], 150) };
    let report = run(&Config::fpga_small(), &opts).unwrap_or_else(|e| panic!("flow failed: {e}"));
    assert_eq!(report.modules.len(), 1);
    let m = &report.modules[0];
    assert!(m.error.is_none(), "{:?}", m.error);
    assert!(m.fit.refused.is_empty());
    let synth = m.synth.expect("yosys counts");
    assert!(synth.luts > 100 && synth.ffs > 100, "implausibly small mbarrier ALU: {synth:?}");
    let pnr = m.pnr.as_ref().expect("place-and-route ran");
    // After place-and-route the wrapper is included: at least one FF per port bit plus the unit's.
    let lcs = pnr.utilisation.get("ICESTORM_LC").expect("ICESTORM_LC utilisation").used;
    assert!(lcs >= synth.luts.max((m.input_bits + m.output_bits) as u64), "{lcs} logic cells");
    let fmax = pnr.fmax_mhz.expect("an Fmax for the clock");
    assert!(fmax > 1.0 && fmax < 1000.0, "Fmax {fmax} MHz");
    assert!(!pnr.critical_path.is_empty());
    // Versions and the seed are pinned into the report.
    assert_eq!(report.seed, Some(7));
    assert!(report.tools.iter().any(|t| t.tool == "yosys" && t.version.contains("Yosys")));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["modules"][0]["module"], "mbarrier_alu");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("| mbarrier_alu"), "{md}");
    assert!(md.contains("nextpnr seed 7"), "{md}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn ice40_refuses_the_fpga_small_top_before_running_tools() {
    let out = out_dir("refuse");
    let err = match run(&Config::fpga_small(), &options(Target::Ice40Up5k, out.clone(), &[], 10)) {
        Ok(_) => panic!("fpga-small's top cannot fit an UP5K"),
        Err(e) => e,
    };
    assert!(err.contains("shared memory is 2 x 16384 bytes = 256 Kbit"), "{err}");
    assert!(err.contains("Nothing was run"), "{err}");
    assert!(!out.join("work").join("mbarrier_alu_regio.v").exists());
    let _ = std::fs::remove_dir_all(&out);
}

/// The whole fpga-small config on the ECP5-85F (minutes to tens of minutes).
/// `cargo test -p smsync-fpga --test flow -- --ignored ecp5`
#[test]
#[ignore]
fn ecp5_fpga_small_all_modules() {
    let out = out_dir("ecp5");
    let report = run(&Config::fpga_small(), &options(Target::Ecp5_85k, out, &[], 3600)).unwrap();
    for m in &report.modules {
        assert!(m.error.is_none(), "{}: {:?}", m.module, m.error);
        // Each module is either placed (with an Fmax) or refused with the resource it exceeds
        // (the fpga-small top and its warp network exceed the LFE5U-85F's LUTs: docs/FPGA.md).
        let placed = m.pnr.as_ref().and_then(|p| p.fmax_mhz).is_some();
        assert!(placed == m.fit.refused.is_empty(), "{}: placed {placed}, refused {:?}", m.module, m.fit.refused);
        assert!(m.synth.is_some_and(|r| r.luts > 0), "{}: no yosys counts", m.module);
    }
    let top = report.modules.iter().find(|m| m.unit.is_none()).expect("the top is in the report");
    assert!(!top.parts.is_empty(), "the top's units are counted apart");
    println!("{}", report.to_markdown());
}
