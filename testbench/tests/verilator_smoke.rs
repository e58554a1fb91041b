//! The whole RTL tool flow on the example block (`smsync_hdl::common::ExampleCounter`):
//! rust-hdl -> Verilog -> `verilator --lint-only -Wall` clean -> yosys structural check ->
//! Verilator shared library -> Rust drives clock, reset and ports and reads outputs.
//!
//! Fails (does not skip) when Verilator or yosys is missing, unless SMSYNC_SKIP_RTL_TOOLS=1.
//! Prints build and simulation speed; run with `--nocapture` to see them.

use smsync_hdl::common::{try_verilog_named, ExampleCounter};
use smsync_testbench::verilator::{rtl_tools_skipped, verilator_lint, yosys_check, BuildOptions, Harness};
use std::time::Instant;

const TOP: &str = "example_counter";
const ECHO_BITS: usize = 100;

fn skip() -> bool {
    if rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: RTL tool flow not exercised");
        return true;
    }
    false
}

fn example_verilog() -> String {
    try_verilog_named(&mut ExampleCounter::<ECHO_BITS>::default(), TOP).unwrap()
}

#[test]
fn example_block_lints_clean() {
    if skip() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("smsync-smoke-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{TOP}.v"));
    std::fs::write(&file, example_verilog()).unwrap();
    verilator_lint(&file, TOP).unwrap_or_else(|e| panic!("{e}"));
    yosys_check(&file, TOP).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A lint gate that cannot fail is worthless: a latch and an undriven net must be reported.
#[test]
fn lint_gates_reject_bad_verilog() {
    if skip() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("smsync-smoke-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.v");
    std::fs::write(
        &file,
        "module bad(input wire en, input wire d, output reg q, output wire u);\n\
         always @(*) if (en) q = d;\n\
         wire floating;\n\
         assign u = floating;\n\
         endmodule\n",
    )
    .unwrap();
    assert!(verilator_lint(&file, "bad").is_err(), "verilator -Wall accepted a latch and an undriven wire");
    let e = yosys_check(&file, "bad").expect_err("yosys accepted a latch and an undriven wire");
    assert!(e.contains("Latch") || e.contains("no driver") || e.contains("undriven"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The top's lint-by-build (`lint_build_options`: the cosim build with `-Wall` and the waivers)
/// must report what `--lint-only -Wall` reports: an unused input is found in the build log,
/// and the model still builds (warnings are not fatal).
#[test]
fn lint_build_reports_warnings_in_its_build_log() {
    if skip() {
        return;
    }
    let verilog = "module unused_in(input wire clock, input wire spare, input wire d, output reg q);\n\
                   always @(posedge clock) q <= d;\n\
                   endmodule\n";
    let opts = smsync_testbench::verilator::builder::lint_build_options(BuildOptions::default());
    let h = Harness::from_verilog(verilog, "unused_in", &opts).expect("warnings must not stop the build");
    let warnings = h.built().verilator_warnings().expect("the build log is kept beside the library");
    assert!(
        warnings.iter().any(|w| w.contains("UNUSED") && w.contains("spare")),
        "the unused input `spare` is not in the build log's warnings: {warnings:?}"
    );
}

#[test]
fn example_block_runs_under_verilator() {
    if skip() {
        return;
    }
    let verilog = example_verilog();
    let t0 = Instant::now();
    let mut h = Harness::from_verilog(&verilog, TOP, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "model build: {:.2} s ({})",
        t0.elapsed().as_secs_f64(),
        if h.built().cached { "cached" } else { "cold" }
    );
    assert_eq!(h.width("echo_in"), ECHO_BITS);
    assert_eq!(h.width("count"), 16);

    h.reset();
    assert_eq!(h.get_u64("count"), 0);
    h.set_bit("enable", true);
    h.ticks(5);
    assert_eq!(h.get_u64("count"), 5);
    h.set_bit("enable", false);
    h.ticks(3);
    assert_eq!(h.get_u64("count"), 5, "count must hold while enable is low");

    // Echo: 100-bit value through a register, low 16 bits XOR-ed with the count (5).
    let value = [0xdead_beef, 0x0123_4567, 0x89ab_cdef, 0xf];
    h.set("echo_in", &value);
    assert_ne!(
        h.get("echo_out"),
        vec![0xdead_beef ^ 5, 0x0123_4567, 0x89ab_cdef, 0xf],
        "registered, not combinational"
    );
    h.tick();
    assert_eq!(h.get("echo_out"), vec![0xdead_beef ^ 5, 0x0123_4567, 0x89ab_cdef, 0xf]);
    // Bits above the port width are dropped on the way in.
    h.set("echo_in", &[0, 0, 0, 0xffff_fff0]);
    h.tick();
    assert_eq!(h.get("echo_out"), vec![5, 0, 0, 0]);

    // Reset clears the counter even while enabled; counting resumes after.
    h.set_bit("enable", true);
    h.reset();
    assert_eq!(h.get_u64("count"), 0);
    h.tick();
    assert_eq!(h.get_u64("count"), 1);

    // The counter wraps at 16 bits: proves many cycles really run.
    let cycles = 1u32 << 16;
    let t1 = Instant::now();
    h.ticks(cycles);
    let secs = t1.elapsed().as_secs_f64();
    assert_eq!(h.get_u64("count"), 1);
    eprintln!("simulation: {:.2} M cycles/s through the Harness", cycles as f64 / secs / 1e6);

    // Cached reload: a second harness from the same Verilog loads without building.
    let t2 = Instant::now();
    let again = Harness::from_verilog(&verilog, TOP, &BuildOptions::default()).unwrap();
    assert!(again.built().cached);
    eprintln!("cached load: {:.3} s", t2.elapsed().as_secs_f64());
}

#[test]
fn wrong_port_names_are_errors_naming_the_ports() {
    if skip() {
        return;
    }
    let mut h = Harness::from_verilog(&example_verilog(), TOP, &BuildOptions::default()).unwrap();
    let e = h.try_set("enabel", &[1]).unwrap_err();
    assert!(e.contains("enabel") && e.contains("enable"), "{e}");
    let e = h.try_set("count", &[1]).unwrap_err();
    assert!(e.contains("output"), "{e}");
}

#[test]
fn vcd_trace_is_written_when_built_with_trace() {
    if skip() {
        return;
    }
    let opts = BuildOptions { trace: true, ..Default::default() };
    let mut h = Harness::from_verilog(&example_verilog(), TOP, &opts).unwrap_or_else(|e| panic!("{e}"));
    let vcd = std::env::temp_dir().join(format!("smsync-smoke-{}.vcd", std::process::id()));
    h.trace_to(&vcd).unwrap();
    h.reset();
    h.set_bit("enable", true);
    h.ticks(4);
    h.trace_flush();
    drop(h);
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$var") && text.contains("count"), "VCD without the count signal");
    let _ = std::fs::remove_file(&vcd);

    // Without --trace, asking for a trace is an error, not a silent no-op.
    let mut plain = Harness::from_verilog(&example_verilog(), TOP, &BuildOptions::default()).unwrap();
    assert!(plain.trace_to(&vcd).is_err());
}
