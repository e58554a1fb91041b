//! The cosim: one executor runs a PTX kernel, every sync request goes to the golden model AND
//! the Verilated RTL top, every response is compared when it arrives, and the final buffers are
//! compared at the end. The RTL's answers drive the executor; the first divergence stops the run
//! with the instruction's file:line (docs/ARCHITECTURE.md, chapter "Cosim", has the policy).
//!
//! * [`unit`]    — `CosimUnit`, the `SyncUnit` that drives both backends and compares;
//! * [`compare`] — the comparison of one response pair and of final buffers (tolerances);
//! * [`rtl`]     — the only caller of `RtlSyncUnit`, plus the per-config model pool;
//! * [`report`]  — counts and the summary.
//!
//! Library entry (the fuzzer calls it for every generated program; the Verilator model is built
//! once per config and reused, reset, across calls):
//!
//! ```no_run
//! # use smsync_testbench::cosim::{run_cosim, CosimOptions};
//! # fn f(module: &smsync_sim::ptx::ir::Module, launch: &smsync_sim::exec::Launch, config: &smsync_sim::config::Config) {
//! match run_cosim(module, launch, config, &CosimOptions::default()) {
//!     Ok(report) => print!("{}", report.summary()),
//!     Err(failure) => eprintln!("{failure}"),
//! }
//! # }
//! ```

pub mod compare;
pub mod report;
pub mod rtl;
pub mod unit;

pub use report::{CosimReport, PerUnit, UnitCounts};
pub use rtl::{BackendKind, RtlSetup};
pub use unit::CosimUnit;

use smsync_sim::config::Config;
use smsync_sim::exec::{self, ExecError, Launch, RunOptions};
use smsync_sim::ptx::ir::Module;
use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

/// Knobs of one cosim run.
#[derive(Clone, Debug)]
pub struct CosimOptions {
    /// Cycles the harness takes to answer the top's global-memory reads.
    pub gm_latency: u32,
    /// TEST ONLY: corrupt the RTL's warp-network results (shows the comparator can fail).
    pub fault_inject: bool,
    /// On a divergence, write the top's ports over the last `vcd_cycles` cycles here.
    pub vcd: Option<PathBuf>,
    pub vcd_cycles: usize,
    /// Executor step limit (warp-instructions).
    pub max_steps: u64,
    /// Which RTL: the Verilated top (default), or a board top-level behind the UART bridge.
    pub backend: BackendKind,
    /// Build the Verilated top with the C++ compiled at -O0: a sooner build, a slower run.
    pub fast_build: bool,
    /// The Verilated top from a directory of Verilog ([`crate::rtl_dir::RtlDir`], checked against
    /// its manifest) instead of the Verilog generated for the config.
    pub rtl_dir: Option<std::sync::Arc<crate::rtl_dir::RtlDir>>,
    /// Timed cosim (`--timing`): the SM timing model drives the run and the top is clocked one
    /// cycle per SM cycle ([`CosimUnit::timed`]); the report's `result.timing` has the SM's
    /// cycles and statistics. The Verilated top only.
    pub timed: bool,
}

/// RTL cycle limit of [`run_cosim`] (see [`run_cosim_bounded`]).
pub const DEFAULT_MAX_CYCLES: u64 = 100_000_000;

impl Default for CosimOptions {
    fn default() -> Self {
        CosimOptions {
            gm_latency: 20,
            fault_inject: false,
            vcd: None,
            vcd_cycles: 2000,
            max_steps: 20_000_000,
            backend: BackendKind::Verilator,
            fast_build: false,
            rtl_dir: None,
            timed: false,
        }
    }
}

/// Why a cosim run failed.
#[derive(Clone, Debug, PartialEq)]
pub enum FailureKind {
    /// Golden and RTL differ (a response, a poll that cannot be justified, an answer only one
    /// side gave, or a final buffer).
    Divergence,
    /// The RTL model could not be built or loaded.
    Setup,
    /// The program itself failed the same way on both (UB, deadlock, step limit, bad launch).
    Program,
}

#[derive(Clone, Debug)]
pub struct CosimFailure {
    pub kind: FailureKind,
    /// The report: for a divergence the instruction (file:line), CTA, warp, lanes, the request,
    /// expected vs actual and the RTL cycle.
    pub message: String,
    /// The VCD written for a divergence (when `CosimOptions::vcd` was set).
    pub vcd: Option<PathBuf>,
    /// RTL cycles run before the failure.
    pub cycles: u64,
}

impl fmt::Display for CosimFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            FailureKind::Divergence => "cosim FAILED (golden and RTL diverge)",
            FailureKind::Setup => "cosim could not start the RTL model",
            FailureKind::Program => "cosim: the program failed (on both backends)",
        };
        writeln!(f, "{what}")?;
        write!(f, "{}", self.message)?;
        if let Some(p) = &self.vcd {
            write!(f, "\nVCD of the top's ports over the last cycles: {}", p.display())?;
        }
        Ok(())
    }
}

impl std::error::Error for CosimFailure {}

/// Run `module` with `launch` on `config` under the cosim (at most [`DEFAULT_MAX_CYCLES`] RTL
/// cycles).
pub fn run_cosim(
    module: &Module,
    launch: &Launch,
    config: &Config,
    opts: &CosimOptions,
) -> Result<CosimReport, CosimFailure> {
    run_cosim_bounded(module, launch, config, opts, DEFAULT_MAX_CYCLES)
}

/// [`run_cosim`] that fails (a divergence report naming what still waits) once the run reaches
/// `max_cycles` RTL cycles (0 = no limit). Without a bound, a livelock or a top that never goes
/// idle would spin for hours: the executor's idle loop allows a million idle ticks of up to
/// `unit::IDLE_CYCLE_BUDGET` cycles each.
pub fn run_cosim_bounded(
    module: &Module,
    launch: &Launch,
    config: &Config,
    opts: &CosimOptions,
    max_cycles: u64,
) -> Result<CosimReport, CosimFailure> {
    if opts.timed && opts.backend != BackendKind::Verilator {
        return Err(CosimFailure {
            kind: FailureKind::Setup,
            message: "the timed cosim drives the Verilated top's ports (--backend verilator): the UART bridge takes one request at a time".into(),
            vcd: None,
            cycles: 0,
        });
    }
    let setup_start = Instant::now();
    let setup = RtlSetup {
        gm_latency: opts.gm_latency,
        fault_inject: opts.fault_inject,
        backend: opts.backend.clone(),
        fast_build: opts.fast_build,
        rtl_dir: opts.rtl_dir.clone(),
    };
    let mut backend = rtl::checkout(config, &setup).map_err(|message| CosimFailure {
        kind: FailureKind::Setup,
        message,
        vcd: None,
        cycles: 0,
    })?;
    if opts.vcd.is_some() {
        if let Some(h) = backend.harness() {
            h.record_history(opts.vcd_cycles);
        }
    }
    let setup_seconds = setup_start.elapsed().as_secs_f64();

    let start = Instant::now();
    let mut unit = CosimUnit::new(config, backend);
    if opts.timed {
        unit = unit.timed();
    }
    unit.max_cycles = max_cycles;
    let run_opts = RunOptions { seed: None, trace: false, max_steps: opts.max_steps, timing: opts.timed };
    let result = exec::run(module, launch, config, &mut unit, run_opts);
    let outcome = match result {
        Ok(result) => {
            unit.finish().and_then(|()| compare_final_buffers(module, launch, config, &result, &unit)).map(|()| result)
        }
        Err(e @ ExecError::Backend { .. }) => Err(e.to_string()),
        Err(e) if unit.failed() => Err(format!("{e}\n{}", unit.finish().err().unwrap_or_default())),
        Err(e) if unit.unconfirmed_rtl_error().is_some() => {
            Err(format!("{e}\n{}", unit.unconfirmed_rtl_error().unwrap_or_default()))
        }
        Err(e) => {
            let cycles = unit.cycles();
            rtl::checkin(unit.rtl);
            return Err(CosimFailure { kind: FailureKind::Program, message: e.to_string(), vcd: None, cycles });
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let cycles = unit.cycles();
    match outcome {
        Ok(result) => {
            let report = CosimReport { result, counts: unit.counts.clone(), cycles, seconds, setup_seconds };
            rtl::checkin(unit.rtl);
            Ok(report)
        }
        Err(message) => {
            let mut vcd = None;
            let mut message = message;
            if let Some(path) = &opts.vcd {
                match unit.rtl.harness().map(|h| h.write_history_vcd(path)) {
                    Some(Ok(())) => vcd = Some(path.clone()),
                    Some(Err(e)) => message.push_str(&format!("\n(VCD not written: {e})")),
                    None => message.push_str("\n(VCD not written: the UART backends have no port history)"),
                }
            }
            rtl::checkin(unit.rtl);
            Err(CosimFailure { kind: FailureKind::Divergence, message, vcd, cycles })
        }
    }
}

/// The executor's final buffers (golden memory) against the same bytes of the RTL mirror.
fn compare_final_buffers(
    module: &Module,
    launch: &Launch,
    config: &Config,
    result: &exec::RunResult,
    unit: &CosimUnit,
) -> Result<(), String> {
    if !unit.mirror_ready() {
        return Ok(());
    }
    let layout = exec::loader::load(module, launch, config).map_err(|e| e.to_string())?;
    let mut diffs = Vec::new();
    for ((name, ty, golden), &addr) in result.buffers.iter().zip(&layout.buffer_addr) {
        let rtl = unit.mirror.global.slice(addr, golden.len()).unwrap_or(&[]);
        if let Err(e) = compare::compare_buffer(name, *ty, golden, rtl) {
            diffs.push(e);
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "cosim divergence in the final buffers (golden memory = expected, RTL global-memory mirror = actual):\n{}",
            diffs.join("\n")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One corpus kernel under the cosim on fpga-small, from the library (the full corpus runs in
    /// `gen/tests/cosim_corpus.rs`). Opt-in: it builds the top's Verilator model.
    /// `SMSYNC_COSIM_KERNEL=name cargo test -p smsync-testbench --lib cosim -- --ignored --nocapture`
    #[test]
    #[ignore = "builds the fpga-small top with Verilator (minutes)"]
    fn one_corpus_kernel_on_fpga_small() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let config = Config::from_file(&root.join("../configs/fpga-small.yaml")).unwrap();
        let names = std::env::var("SMSYNC_COSIM_KERNEL").unwrap_or_else(|_| "vote_ballot".into());
        for name in names.split(',') {
            let file = format!("{name}.ptx");
            let text = std::fs::read_to_string(root.join("ptx").join(&file)).unwrap();
            let module = exec::parse_module(&text, &file).unwrap();
            let launch = Launch::from_file(&root.join(format!("ptx/{name}.launch.yaml"))).unwrap();
            let t = Instant::now();
            match run_cosim(&module, &launch, &config, &CosimOptions::default()) {
                Ok(r) => eprintln!("{name}: {:.1} s\n{}", t.elapsed().as_secs_f64(), r.summary()),
                Err(f) => eprintln!("{name}: {:.1} s\n{f}", t.elapsed().as_secs_f64()),
            }
            let opts = CosimOptions { fault_inject: true, ..CosimOptions::default() };
            match run_cosim(&module, &launch, &config, &opts) {
                Ok(_) => eprintln!("{name} with fault_inject: passed"),
                Err(f) => eprintln!("{name} with fault_inject:\n{f}"),
            }
        }
    }
}
