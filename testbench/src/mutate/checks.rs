//! The checks a mutant must survive, and running them on one mutant (in the child process the
//! parent starts with [`super::MUTANT_ENV`] set).
//!
//! A check is a corpus kernel (`testbench/ptx/<name>.ptx` with its launch file), a UB kernel
//! (`testbench/ptx/ub/`, [`crate::ub_corpus`]: it must stop with its expected undefined-behaviour
//! report, so a mutant that runs it to the end, stops it with another report or diverges on it is
//! killed), a corpus kernel under the timed cosim (the SM timing model issues the requests, so
//! the thread's later instructions run while its asynchronous copies move: an async-group wait
//! answered before its copies landed shows there, where the untimed cosim, which lets each
//! request finish before the next, cannot see it) or a generated program (`smsync fuzz`'s generator, by seed, with the features the
//! cosim does not run taken out), run under the cosim against the mutated directory; or a
//! random request stream ([`crate::top_streams`]: every unit's stream of legal requests straight
//! into the top, divergent barrier arrivals and operand corners the kernels rarely reach, then
//! the memories), compared request by request with the golden units. Expected
//! values are the golden model's, never the RTL's. Each check carries an RTL cycle bound (from the unmutated run), so
//! a mutant that stalls the top fails in seconds instead of running to the cosim's default bound
//! of 10^8 cycles.

use crate::cosim::{run_cosim_bounded, CosimOptions, FailureKind};
use crate::fuzz::{run as fuzz_run, Program};
use crate::rtl_dir::RtlDir;
use crate::rtl_unit::RtlOptions;
use crate::top_streams::run_streams;
use crate::ub_corpus::{ptx_files, UbExpectation};
use serde_json::{json, Value};
use smsync_sim::exec::{self, Launch};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// One check.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    Kernel {
        name: String,
        ptx: PathBuf,
        launch: PathBuf,
    },
    /// A corpus kernel under the timed cosim ([`CosimOptions::timed`]).
    TimedKernel {
        name: String,
        ptx: PathBuf,
        launch: PathBuf,
    },
    /// A UB kernel: passes when the run stops with `expect`'s report on both backends.
    UbKernel {
        name: String,
        ptx: PathBuf,
        launch: PathBuf,
        expect: UbExpectation,
    },
    Program {
        seed: u64,
    },
    /// [`crate::top_streams::run_streams`] on `seed`, `requests` per unit. Its bound is the
    /// top's own per-request timeouts (`rtl_unit::READY_TIMEOUT`, `IDLE_TIMEOUT`), not a cycle
    /// bound.
    Stream {
        seed: u64,
        requests: usize,
    },
}

impl Check {
    pub fn name(&self) -> String {
        match self {
            Check::Kernel { name, .. } => name.clone(),
            Check::TimedKernel { name, .. } => format!("timed:{name}"),
            Check::UbKernel { name, .. } => format!("ub:{name}"),
            Check::Program { seed } => format!("fuzz seed {seed}"),
            Check::Stream { seed, requests } => format!("stream seed {seed} ({requests} per unit)"),
        }
    }

    pub fn to_json(&self) -> Value {
        match self {
            Check::Kernel { name, ptx, launch } => json!({"kernel": name, "ptx": ptx, "launch": launch}),
            Check::TimedKernel { name, ptx, launch } => json!({"timed_kernel": name, "ptx": ptx, "launch": launch}),
            Check::UbKernel { name, ptx, launch, expect } => json!({
                "ub_kernel": name, "ptx": ptx, "launch": launch, "rule": expect.rule, "at": expect.at
            }),
            Check::Program { seed } => json!({"program_seed": seed}),
            Check::Stream { seed, requests } => json!({"stream_seed": seed, "stream_requests": requests}),
        }
    }

    pub fn from_json(v: &Value) -> Result<Check, String> {
        if let Some(seed) = v.get("program_seed").and_then(Value::as_u64) {
            return Ok(Check::Program { seed });
        }
        if let Some(seed) = v.get("stream_seed").and_then(Value::as_u64) {
            let requests = v
                .get("stream_requests")
                .and_then(Value::as_u64)
                .ok_or_else(|| format!("stream without `stream_requests`: {v}"))?;
            return Ok(Check::Stream { seed, requests: requests as usize });
        }
        let field = |k: &str| v.get(k).and_then(Value::as_str).ok_or_else(|| format!("check without `{k}`: {v}"));
        if let Some(name) = v.get("ub_kernel").and_then(Value::as_str) {
            let expect = UbExpectation { rule: field("rule")?.into(), at: field("at")?.into() };
            return Ok(Check::UbKernel {
                name: name.into(),
                ptx: field("ptx")?.into(),
                launch: field("launch")?.into(),
                expect,
            });
        }
        if let Some(name) = v.get("timed_kernel").and_then(Value::as_str) {
            return Ok(Check::TimedKernel {
                name: name.into(),
                ptx: field("ptx")?.into(),
                launch: field("launch")?.into(),
            });
        }
        Ok(Check::Kernel { name: field("kernel")?.into(), ptx: field("ptx")?.into(), launch: field("launch")?.into() })
    }
}

/// The corpus kernels of `dir` (every `<name>.ptx` with a `<name>.launch.yaml`), by name,
/// keeping those in `only` when it is not empty (an unknown name is an error).
pub fn corpus(dir: &Path, only: &[String]) -> Result<Vec<Check>, String> {
    let mut out = Vec::new();
    for (name, ptx) in ptx_files(dir, only, "--corpus names the directory of .ptx kernels and launch files")? {
        let launch = dir.join(format!("{name}.launch.yaml"));
        if launch.is_file() {
            out.push(Check::Kernel { name, ptx, launch });
        }
    }
    out.sort_by_key(Check::name);
    let missing: Vec<&String> = only.iter().filter(|o| !out.iter().any(|c| &c.name() == *o)).collect();
    if !missing.is_empty() {
        return Err(format!("no kernel {missing:?} (a .ptx with its .launch.yaml) in {}", dir.display()));
    }
    if out.is_empty() && only.is_empty() {
        return Err(format!("no kernel (a .ptx with its .launch.yaml) in {}", dir.display()));
    }
    Ok(out)
}

/// How one check ended on one mutant.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckResult {
    pub check: String,
    /// `pass`, `divergence` (golden and RTL differ, or the cycle bound was hit), `program` (the
    /// program failed the same way on both sides), `setup` (the model could not be built). A UB
    /// kernel passes when it stops with its expected report; else `no-ub` (it ran to its end),
    /// `other-report` (it stopped the same way on both sides, but not with the expected report)
    /// or `divergence`.
    pub outcome: String,
    pub message: String,
    pub cycles: u64,
    pub seconds: f64,
}

impl CheckResult {
    pub fn to_json(&self) -> Value {
        json!({"check": self.check, "outcome": self.outcome, "message": self.message, "cycles": self.cycles, "seconds": self.seconds})
    }

    pub fn from_json(v: &Value) -> Option<CheckResult> {
        Some(CheckResult {
            check: v.get("check")?.as_str()?.into(),
            outcome: v.get("outcome")?.as_str()?.into(),
            message: v.get("message")?.as_str().unwrap_or_default().into(),
            cycles: v.get("cycles")?.as_u64()?,
            seconds: v.get("seconds")?.as_f64()?,
        })
    }
}

/// Run `check` under the cosim on `rtl` (the mutant is whatever the environment selects),
/// failing at `max_cycles` RTL cycles.
pub fn run_check(check: &Check, rtl: &Arc<RtlDir>, fast_build: bool, max_cycles: u64) -> CheckResult {
    let start = Instant::now();
    if let Check::Stream { seed, requests } = check {
        let options = RtlOptions {
            rtl_dir: Some(rtl.clone()),
            build: fast_build.then(crate::rtl_unit::fast_build_options),
            ..Default::default()
        };
        return match run_streams(&rtl.config, *seed, *requests, &options) {
            Ok((_, cycles)) => result(check, "pass", String::new(), cycles, start),
            Err(message) => result(check, "divergence", message, 0, start),
        };
    }
    let loaded = match check {
        Check::Kernel { ptx, launch, .. }
        | Check::TimedKernel { ptx, launch, .. }
        | Check::UbKernel { ptx, launch, .. } => load_kernel(ptx, launch),
        Check::Stream { .. } => unreachable!("run above"),
        Check::Program { seed } => {
            let program = Program::generate(*seed, &rtl.config);
            fuzz_run::load(&fuzz_run::without_rtl_exclusions(fuzz_run::without_golden_only(program)))
        }
    };
    let (module, launch) = match loaded {
        Ok(x) => x,
        Err(message) => return result(check, "setup", message, 0, start),
    };
    let opts = CosimOptions {
        max_steps: fuzz_run::MAX_STEPS,
        rtl_dir: Some(rtl.clone()),
        fast_build,
        timed: matches!(check, Check::TimedKernel { .. }),
        ..Default::default()
    };
    let outcome = run_cosim_bounded(&module, &launch, &rtl.config, &opts, max_cycles);
    if let Check::UbKernel { expect, .. } = check {
        return ub_result(check, expect, outcome, start);
    }
    match outcome {
        Ok(report) => result(check, "pass", String::new(), report.cycles, start),
        Err(f) => {
            let outcome = match f.kind {
                FailureKind::Divergence => "divergence",
                FailureKind::Program => "program",
                FailureKind::Setup => "setup",
            };
            result(check, outcome, f.message, f.cycles, start)
        }
    }
}

/// A UB kernel's outcome: `pass` only for the expected report, both backends agreeing.
fn ub_result(
    check: &Check,
    expect: &UbExpectation,
    outcome: Result<crate::cosim::CosimReport, crate::cosim::CosimFailure>,
    start: Instant,
) -> CheckResult {
    match outcome {
        Ok(report) => result(check, "no-ub", "ran to its end without the expected report".into(), report.cycles, start),
        Err(f) => match f.kind {
            FailureKind::Program => match expect.check(&f.message) {
                Ok(()) => result(check, "pass", f.message, f.cycles, start),
                Err(why) => result(check, "other-report", why, f.cycles, start),
            },
            FailureKind::Divergence => result(check, "divergence", f.message, f.cycles, start),
            FailureKind::Setup => result(check, "setup", f.message, f.cycles, start),
        },
    }
}

fn load_kernel(ptx: &Path, launch: &Path) -> Result<(smsync_sim::ptx::ir::Module, Launch), String> {
    let file = ptx.display().to_string();
    let text = std::fs::read_to_string(ptx).map_err(|e| format!("{file}: {e}"))?;
    let module = exec::parse_module(&text, &file)?;
    let launch = Launch::from_file(launch).map_err(|e| format!("{}: {e}", launch.display()))?;
    Ok((module, launch))
}

fn result(check: &Check, outcome: &str, message: String, cycles: u64, start: Instant) -> CheckResult {
    CheckResult {
        check: check.name(),
        outcome: outcome.into(),
        message,
        cycles,
        seconds: start.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_check_survives_its_json() {
        let checks = [
            Check::Kernel { name: "k".into(), ptx: "k.ptx".into(), launch: "k.launch.yaml".into() },
            Check::TimedKernel { name: "k".into(), ptx: "k.ptx".into(), launch: "k.launch.yaml".into() },
            Check::UbKernel {
                name: "u".into(),
                ptx: "u.ptx".into(),
                launch: "u.launch.yaml".into(),
                expect: UbExpectation { rule: "r".into(), at: "u.ptx:1:1".into() },
            },
            Check::Program { seed: 7 },
            Check::Stream { seed: 3, requests: 500 },
        ];
        for c in checks {
            assert_eq!(Check::from_json(&c.to_json()).unwrap(), c);
        }
        assert_eq!(Check::Stream { seed: 3, requests: 500 }.name(), "stream seed 3 (500 per unit)");
        let timed = Check::TimedKernel { name: "k".into(), ptx: "k.ptx".into(), launch: "k.launch.yaml".into() };
        assert_eq!(timed.name(), "timed:k");
    }
}
