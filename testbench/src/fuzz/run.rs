//! Running a generated program on a backend. A golden-model run must end cleanly: any error
//! (UB, deadlock, step limit) of a legal-by-construction program is a generator or model bug.

use super::Program;
use smsync_sim::config::Config;
use smsync_sim::exec::{self, Launch, RunOptions, RunResult};
use smsync_sim::units::GoldenUnits;

/// Warp-instruction limit of one fuzz run (the programs are small; hitting it means a livelock).
pub const MAX_STEPS: u64 = 20_000_000;
/// RTL cycle limit of one cosim fuzz run: generated programs take 10^4..10^6 cycles; more means
/// a livelock or a stuck top, reported (and shrunk) as a failure instead of running for hours.
pub const MAX_CYCLES: u64 = 5_000_000;

/// Parse the rendered program back (as a user would run the saved files).
pub fn load(program: &Program) -> Result<(smsync_sim::ptx::ir::Module, Launch), String> {
    let r = program.render();
    let file = format!("{}.ptx", program.kernel_name());
    let module = exec::parse_module(&r.module("smsync fuzz"), &file)?;
    let launch =
        Launch::from_yaml(&r.launch_yaml).map_err(|e| format!("{}.launch.yaml: {e}", program.kernel_name()))?;
    Ok((module, launch))
}

/// How the golden model picks the next warp and PC group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Lowest PC first, round-robin warps (the default of `smsync run`).
    Deterministic,
    /// Seeded interleaving driven by the program's seed (explores more orders; see the
    /// "Random programs" chapter for the divergent-collective case the model rejects).
    Seeded,
    /// The SM timing model's interleaving (`smsync run --timing`): warps issue by cycles and
    /// sync answers arrive when the golden units' timing back end says.
    Timed,
}

/// Run on the golden model.
pub fn run_golden(program: &Program, config: &Config, schedule: Schedule) -> Result<RunResult, String> {
    let (module, launch) = load(program)?;
    let seed = match schedule {
        Schedule::Deterministic | Schedule::Timed => None,
        Schedule::Seeded => Some(program.seed),
    };
    let timing = schedule == Schedule::Timed;
    let opts = RunOptions { seed, trace: false, max_steps: MAX_STEPS, timing };
    if timing {
        let mut unit = smsync_sim::timing::TimedUnits::new(config);
        return exec::run(&module, &launch, config, &mut unit, opts).map_err(|e| e.to_string());
    }
    let mut unit = GoldenUnits::new(config);
    exec::run(&module, &launch, config, &mut unit, opts).map_err(|e| e.to_string())
}

/// Features the RTL gets wrong today, taken out of generated programs before a cosim run (the
/// suite test `gen/tests/fuzz_cosim.rs` and `smsync fuzz --backend cosim` unless
/// `--keep-rtl-bugs`): (feature, why, reproducer directory under `testbench/fuzz-repro/`).
/// Each reproducer must still fail under cosim (checked by the suite test), so an entry goes as
/// soon as the RTL is fixed.
pub const RTL_EXCLUSIONS: &[(&str, &str, &str)] = &[];

/// Generated features the RTL does not build yet (or that are not yet run under cosim): cleared
/// by [`without_golden_only`] before every cosim run, bugs kept or not. (feature, why). Feature
/// names: `tensor.swizzle` (swizzled tensor maps), `tensor.by_value` (a map passed by value),
/// `plain.by_value` (a by-value struct parameter), `plain.ordinary` (carry chain, sad, bmsk),
/// `atomics.half2` (f16x2 / bf16x2 adds).
///
/// Empty: the RTL copy engine builds the tile-mode swizzle and the cosim runs all of these
/// (`fuzz_cosim`, both configs).
pub const GOLDEN_ONLY: &[(&str, &str)] = &[];

/// `program` without the features of [`GOLDEN_ONLY`] (the seed still names it: those choices do
/// not move the generator's main stream, so the result is the program the seed gave before they
/// existed).
pub fn without_golden_only(mut program: Program) -> Program {
    for (feature, _) in GOLDEN_ONLY {
        clear_feature(&mut program, feature);
    }
    program
}

/// Takes the generated feature `feature` (a name of [`GOLDEN_ONLY`]) out of `program`.
pub fn clear_feature(program: &mut Program, feature: &str) {
    use super::blocks::{AtomClass, Block};
    for b in &mut program.blocks {
        match (feature, b) {
            ("tensor.swizzle", Block::Tensor(t)) => t.swizzle = 0,
            ("tensor.by_value", Block::Tensor(t)) => t.by_value = false,
            ("plain.by_value", Block::Plain(p)) => p.by_value = None,
            ("plain.ordinary", Block::Plain(p)) => p.ordinary = false,
            // half2 ops come in addition to at least one other op: the block keeps one
            ("atomics.half2", Block::Atomics(a)) => a.ops.retain(|o| o.class != AtomClass::Half2),
            _ => {}
        }
    }
}

/// Generated blocks the RTL cannot run under the **timed** cosim yet (`smsync fuzz --backend
/// cosim --timing`), each with why: (block, why). The SM timing model lets a diverged warp's
/// lane groups reach collectives at different cycles and queues many warps' requests for the
/// top's one port, which the untimed cosim's schedule never does. Taken out by
/// [`without_timed_rtl_exclusions`] unless `--keep-rtl-bugs`.
/// Empty since the warp network keeps `rendezvous_per_warp` records per warp and parks a
/// partial data op's lanes (it kept one record and one staging buffer: 16-22 of seeds
/// 1000..1099 on fpga-small failed with warp collectives).
pub const TIMED_RTL_EXCLUSIONS: &[(&str, &str)] = &[];

/// `program` without the blocks of [`TIMED_RTL_EXCLUSIONS`] (and without
/// [`without_rtl_exclusions`]'s features).
pub fn without_timed_rtl_exclusions(program: Program) -> Program {
    let mut program = without_rtl_exclusions(program);
    for (block, _) in TIMED_RTL_EXCLUSIONS {
        program.blocks.retain(|b| b.kind() != *block);
    }
    program
}

/// `program` without the features of [`RTL_EXCLUSIONS`] and [`GOLDEN_ONLY`] (otherwise the same
/// program, so its seed still names it). Feature names: `cp_async.by_mbarrier` (cp.async blocks
/// completed through cp.async.mbarrier.arrive instead of wait_group).
pub fn without_rtl_exclusions(program: Program) -> Program {
    let mut program = without_golden_only(program);
    for (feature, _, _) in RTL_EXCLUSIONS {
        if *feature == "cp_async.by_mbarrier" {
            for b in &mut program.blocks {
                if let super::blocks::Block::CpAsync(c) = b {
                    c.by_mbarrier = false;
                }
            }
        }
    }
    program
}

/// Run golden model and Verilated RTL in lockstep (`crate::cosim`): any divergence, UB or
/// deadlock is a failure. The executor uses its deterministic schedule; the RTL resolves races.
pub fn run_cosim(program: &Program, config: &Config) -> Result<RunResult, String> {
    run_cosim_report(program, config).map(|report| report.result)
}

/// [`run_cosim`] with the whole cosim report (cycles, per-unit counts, wall time).
pub fn run_cosim_report(program: &Program, config: &Config) -> Result<crate::cosim::CosimReport, String> {
    run_cosim_on(program, config, &CosimTarget::default())
}

/// Which RTL a cosim run drives and where a divergence's VCD goes (`smsync fuzz --rtl DIR`).
#[derive(Clone, Debug, Default)]
pub struct CosimTarget {
    /// A checked directory of Verilog; `None` = the Verilog generated for the config.
    pub rtl_dir: Option<std::sync::Arc<crate::rtl_dir::RtlDir>>,
    /// On a divergence, the top's ports over the last cycles are written here.
    pub vcd: Option<std::path::PathBuf>,
    /// The timed cosim (`smsync fuzz --backend cosim --timing`): the SM timing model issues and
    /// the top is clocked one cycle per SM cycle (`crate::cosim::CosimOptions::timed`).
    pub timed: bool,
}

/// [`run_cosim_report`] on `target`'s RTL.
pub fn run_cosim_on(
    program: &Program,
    config: &Config,
    target: &CosimTarget,
) -> Result<crate::cosim::CosimReport, String> {
    let (module, launch) = load(program)?;
    let opts = crate::cosim::CosimOptions {
        max_steps: MAX_STEPS,
        rtl_dir: target.rtl_dir.clone(),
        vcd: target.vcd.clone(),
        timed: target.timed,
        ..Default::default()
    };
    crate::cosim::run_cosim_bounded(&module, &launch, config, &opts, MAX_CYCLES).map_err(|f| f.to_string())
}
