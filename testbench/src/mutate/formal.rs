//! The unit's formal properties (`smsync prove`'s checkers, `smsync_hdl::formal`) against a
//! mutant that the cosim checks did not kill: a property that fails kills it.
//!
//! The checker instantiates the unit by its own module name (`mbarrier_alu`, `barrier_file`)
//! and talks to it through its ports only; the top's copy of the unit (`sync_unit$core$mbar`)
//! has the same ports (the same block for the same config). So yosys applies the one mutation
//! (no `mutsel`) to the top's copy, renames it to the checker's module name, and the prover runs
//! as `smsync prove` does: the properties whose proof closes (`Property::closes`), k-induction
//! else BMC to the depth.

use super::netlist::{prep_script, yosys, Mutation, Target};
use super::Unit;
use smsync_hdl::formal::{formal_units, FormalUnit};
use smsync_rtl_tools::prove::{prove, ProofJob, Verdict};
use smsync_sim::config::Config;
use std::path::Path;
use std::time::Duration;

/// The formal checker of `unit`, when it has one.
pub fn formal_unit_of(unit: Unit) -> Option<FormalUnit> {
    formal_units().into_iter().find(|f| f.module == unit.name)
}

/// What the properties said about one mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormalOutcome {
    /// `property` fails (the mutant is killed).
    Failed { property: String, step: usize },
    /// Every checked property holds: their verdicts, one line.
    Held(String),
    /// The mutant's Verilog or the prover could not run.
    Error(String),
}

/// The closing properties of `formal` on `mutation` (mutant `k`) of the target; files go to
/// `<work>/formal-<k>/`.
pub fn check_mutant(
    work: &Path,
    target: Target,
    formal: &FormalUnit,
    config: &Config,
    mutation: &Mutation,
    k: u32,
    depth: usize,
) -> FormalOutcome {
    let file = format!("formal-{k}.v");
    let apply = if mutation.mode == "none" { String::new() } else { format!("{}\n", mutation.command) };
    let script = format!(
        "{}{apply}rename {} {}\nwrite_verilog -noattr {file}\n",
        prep_script(target),
        target.unit.module,
        formal.module
    );
    if let Err(e) = yosys(work, &format!("formal-{k}"), &script, Duration::from_secs(300)) {
        return FormalOutcome::Error(e);
    }
    let verilog = match std::fs::read_to_string(work.join(&file)) {
        Ok(v) => v,
        Err(e) => return FormalOutcome::Error(format!("{file}: {e}")),
    };
    let checker = (formal.checker)(config);
    let dir = work.join(format!("formal-{k}"));
    let job = ProofJob {
        unit_verilog: &verilog,
        checker: &checker,
        checker_top: formal.checker_top,
        properties: formal.properties.iter().filter(|p| p.closes).map(|p| p.name).collect(),
        dir: &dir,
        depth,
        bmc_only: !formal.induction,
    };
    match prove(&job) {
        Err(e) => FormalOutcome::Error(e),
        Ok(outcome) => {
            let failed = outcome.verdicts.iter().find_map(|(p, v)| match v {
                Verdict::Failed { step, .. } => Some((p.clone(), *step)),
                _ => None,
            });
            match failed {
                Some((property, step)) => FormalOutcome::Failed { property, step },
                None => FormalOutcome::Held(
                    outcome.verdicts.iter().map(|(p, v)| format!("{p}: {v}")).collect::<Vec<_>>().join("; "),
                ),
            }
        }
    }
}
