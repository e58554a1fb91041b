//! Board top-levels and the UART host bridge (docs/FPGA.md, "Board top-levels and the UART
//! host bridge"):
//!
//! * `board_tops_are_lint_clean`: the ULX3S and Arty tops for fpga-small, generated at the
//!   default 115200 baud and the config's core clock, pass `verilator --lint-only -Wall` (with
//!   the project's waivers; the vendor PLL primitives from their simulation-only stand-ins), and
//!   their ports are the names the constraint files use.
//! * `uart_sim_corpus_fpga_small`: the conformance corpus (`testbench/ptx`) under the cosim
//!   with the `uart-sim` backend: the ULX3S top Verilated, driven only through its UART pins by
//!   the host half over the bit-level 8N1 line model, against the golden model. The kernels the
//!   RTL itself cannot run yet are the same as in `cosim_corpus.rs`, each still required to fail
//!   at the same instruction.
//!
//! `cargo test -p smsync --test board_uart -- --nocapture`; SMSYNC_CORPUS_FILTER=substring
//! runs a subset of the corpus. The quick tier runs [`QUICK_KERNELS`] (6 of the 30 kernels); the
//! full tier (`SMSYNC_TIER=full`, `./scripts/test.sh --full`) runs the whole corpus (326 s plus
//! the model build, docs/BENCHMARKS.md).

use smsync_boards::pll::SIM_PRIMITIVES;
use smsync_boards::{board_verilog, core_clock, cycles_per_bit, Board};
use smsync_sim::config::Config;
use smsync_sim::exec::{self, Launch};
use smsync_testbench::cosim::{run_cosim, BackendKind, CosimOptions};
use smsync_testbench::uart_host::sim::SIM_CYCLES_PER_BIT;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Copied from `cosim_corpus.rs` (the RTL top's own gaps; the bridge adds none). Keep in step.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fpga_small() -> Config {
    Config::from_file(&root().join("configs/fpga-small.yaml")).unwrap_or_else(|e| panic!("{e}"))
}

/// `verilator --lint-only -Wall` with the project's waivers and the board crate's own
/// (fpga/boards/lint-waivers.vlt, each with its reason). Ok only without any warning.
fn lint(file: &Path, top: &str) -> Result<(), String> {
    smsync_testbench::verilator::lint::verilator_lint_with(file, top, &[&root().join("fpga/boards/lint-waivers.vlt")])
}

#[test]
fn board_tops_are_lint_clean() {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: board lint not run");
        return;
    }
    let config = fpga_small();
    let dir = std::env::temp_dir().join(format!("smsync-board-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for board in Board::ALL {
        let t = Instant::now();
        let clock = core_clock(board, &config).unwrap_or_else(|e| panic!("{e}"));
        let verilog = board_verilog(board, &config, cycles_per_bit(clock.fout_hz(), 115_200))
            .unwrap_or_else(|e| panic!("{}: {e}", board.name()));
        // The synthesis output instantiates the vendor PLL and does not define it.
        assert!(verilog.contains(&format!("{} #(", board.pll_rules().primitive)), "{}: no PLL", board.name());
        assert!(!verilog.contains("module EHXPLLL") && !verilog.contains("module PLLE2_BASE"));
        let file = dir.join(format!("{}.v", board.module()));
        std::fs::write(&file, verilog.clone() + SIM_PRIMITIVES).unwrap();
        // The constraint file names every top-level port.
        let constraints = std::fs::read_to_string(root().join("constraints").join(board.constraints())).unwrap();
        let ports = smsync_hdl::common::ports_of(&verilog, board.module()).expect("top module present");
        for p in &ports {
            assert!(
                constraints.contains(&p.name),
                "{}: port `{}` is not in constraints/{}",
                board.name(),
                p.name,
                board.constraints()
            );
        }
        lint(&file, board.module()).unwrap_or_else(|e| panic!("{e}"));
        eprintln!(
            "{}: generated and linted in {:.1} s ({} ports)",
            board.name(),
            t.elapsed().as_secs_f64(),
            ports.len()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The clocking through the real ECP5 tools (the full top does not fit the LFE5U-85F yet): the
/// PLL-and-counter design `Ulx3sPllCheck` at 100 MHz through the board flow (yosys with the
/// ECP5 cell library, nextpnr-ecp5 with the generated constraints, ecppack). nextpnr computes
/// the PLL's output frequency from the EHXPLLL's dividers itself and warns ("Overriding derived
/// constraint") when the constraint file states another: no such warning means the solver's
/// dividers give the stated 100 MHz by nextpnr's own PLL model. ~15 s.
#[test]
fn pll_check_top_is_timed_at_the_pll_clock_on_the_ulx3s() {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: not run");
        return;
    }
    let config = Config { core_clock_mhz: 100, ..fpga_small() };
    let clock = core_clock(Board::Ulx3s, &config).unwrap_or_else(|e| panic!("{e}"));
    let verilog = smsync_boards::board::pll_check_verilog(&config).unwrap_or_else(|e| panic!("{e}"));
    // Under the target directory: the WebAssembly nextpnr does not see the host's /tmp.
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pll-check-{}", std::process::id()));
    let constraints = Board::Ulx3s.constraints_for(&clock);
    let input = smsync_fpga::board_flow::BoardInput {
        board: "ulx3s",
        top: "ulx3s_pll_check",
        verilog: &verilog,
        constraints_name: "ulx3s.lpf",
        constraints: &constraints,
        clock_mhz: clock.fout,
        clock: clock.describe(),
        config: "fpga-small",
        out: out.clone(),
        timeout: std::time::Duration::from_secs(600),
        seed: smsync_fpga::toolchain::nextpnr::SEED,
        command: "gen/tests/board_uart.rs".into(),
        progress: smsync_progress::Mode::Quiet,
    };
    let report = smsync_fpga::board_flow::run(&input).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{}", report.to_markdown());
    assert!(report.error.is_none(), "{:?}", report.error);
    assert!(report.bitstream.as_ref().is_some_and(|b| b.exists()), "no bitstream");
    let pnr = report.pnr.as_ref().expect("placed");
    assert_eq!(pnr.utilisation.get("EHXPLLL").map(|u| u.used), Some(1), "{:?}", pnr.utilisation);
    // The generated line names the PLL's output net, and the one clock domain (the counter's; its
    // global net takes the counter's name) is timed at 100 MHz.
    let log = std::fs::read_to_string(out.join("work/ulx3s_pll_check.nextpnr.log")).unwrap();
    assert!(log.contains("constraining clock net 'pll.clock_out' to 100.00 MHz"), "{log}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("work/ulx3s_pll_check.pnr.json")).unwrap()).unwrap();
    let fmax = json["fmax"].as_object().expect("fmax per clock");
    assert_eq!(fmax.len(), 1, "{fmax:?}");
    assert!(fmax.values().all(|c| c["constraint"].as_f64() == Some(100.0)), "{fmax:?}");
    assert!(log.contains("Input frequency of PLL"), "nextpnr did not see the PLL's input clock");
    assert!(!log.contains("Overriding derived constraint"), "nextpnr derives another PLL frequency:\n{log}");
    let _ = std::fs::remove_dir_all(&out);
}

/// The kernels the quick tier runs through the bridge (the whole corpus costs more UART time than
/// the quick tier's budget; the full tier, `./scripts/test.sh --full`, runs every kernel). Chosen
/// to cover every frame type: responses with per-lane and uniform values, wakes, both
/// global-memory ports (reads and writes), barrier-release bursts and partial rendezvous.
const QUICK_KERNELS: &[&str] = &[
    "atomics_float",      // atom.global: the atomic ALU's port (AG_READ / AG_WRITE), per-lane values
    "bar_red",            // bar.red: released warps in a burst (RESPONSE_UNIFORM)
    "cp_async_zfill",     // cp.async: the copy engine's port (GM_READ / GM_WRITE)
    "shfl_modes",         // per-lane values (RESPONSE)
    "tensor_2d_load",     // tensor map reads, mbarrier try_wait
    "vote_match_partial", // partial rendezvous: lanes answered when the rendezvous fires
];

/// The corpus through the simulated ULX3S top's UART pins: [`QUICK_KERNELS`] in the quick tier,
/// every kernel in the full tier.
#[test]
fn uart_sim_corpus_fpga_small() {
    match smsync_testkit::tier() {
        smsync_testkit::Tier::Quick => run_uart_corpus(Some(QUICK_KERNELS)),
        smsync_testkit::Tier::Full => run_uart_corpus(None),
    }
}

fn run_uart_corpus(only: Option<&[&str]>) {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: UART corpus not run");
        return;
    }
    let config = fpga_small();
    let filter = std::env::var("SMSYNC_CORPUS_FILTER").unwrap_or_default();
    let dir = root().join("testbench/ptx");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".launch.yaml")).map(String::from))
        .filter(|n| n.contains(&filter))
        .filter(|n| only.is_none_or(|list| list.contains(&n.as_str())))
        .collect();
    names.sort();
    if let Some(list) = only {
        for k in list {
            assert!(
                dir.join(format!("{k}.launch.yaml")).exists() || !filter.is_empty(),
                "suite kernel {k} is not in testbench/ptx"
            );
        }
    }
    let opts = CosimOptions {
        max_steps: 200_000,
        backend: BackendKind::UartSim { cycles_per_bit: SIM_CYCLES_PER_BIT },
        ..CosimOptions::default()
    };
    let start = Instant::now();
    let mut problems = Vec::new();
    let mut passed = 0;
    for name in &names {
        let file = format!("{name}.ptx");
        let module = exec::parse_module(&std::fs::read_to_string(dir.join(&file)).unwrap(), &file)
            .unwrap_or_else(|e| panic!("{e}"));
        let launch =
            Launch::from_file(&dir.join(format!("{name}.launch.yaml"))).unwrap_or_else(|e| panic!("{name}: {e}"));
        let t = Instant::now();
        let outcome = run_cosim(&module, &launch, &config, &opts);
        let known = KNOWN_FAILURES.iter().find(|(k, _)| k == name);
        match (&outcome, known) {
            (Ok(r), None) => {
                passed += 1;
                eprintln!(
                    "uart-sim/{name}: ok, {} board cycles, {} requests, {:.2} s",
                    r.cycles,
                    r.counts.requests(),
                    t.elapsed().as_secs_f64()
                );
            }
            (Ok(_), Some(_)) => problems.push(format!(
                "{name} passes through the bridge but is a known failure of the top: update KNOWN_FAILURES"
            )),
            (Err(f), Some((_, at))) if f.message.contains(at) => eprintln!("uart-sim/{name}: known failure at `{at}`"),
            (Err(f), _) => {
                eprintln!("uart-sim/{name}: FAILED\n{f}");
                problems.push(format!("{name}: {}", f.message.lines().take(3).collect::<Vec<_>>().join(" | ")));
            }
        }
    }
    eprintln!("uart-sim: {passed} kernels passed in {:.1} s", start.elapsed().as_secs_f64());
    assert!(problems.is_empty(), "UART corpus on fpga-small:\n{}", problems.join("\n"));
    assert!(passed > 0 || names.is_empty(), "no kernel passed");
}
