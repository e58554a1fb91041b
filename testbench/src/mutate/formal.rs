//! The unit's formal properties (`smsync prove`'s checkers, `smsync_hdl::formal`) against a
//! mutant that the cosim checks did not kill: a property that fails kills it.
//!
//! The checker instantiates the unit by its own module name (`mbarrier_alu`, `barrier_file`)
//! and talks to it through its ports only; the top's copy of the unit (`sync_unit$core$mbar`)
//! has the same ports (the same block for the same config). So yosys applies the one mutation
//! (no `mutsel`) to the top's copy, renames it to the checker's module name, and the prover runs
//! as `smsync prove` does: the properties whose proof closes (`Property::closes`), k-induction
//! else BMC to the depth; then the others by BMC alone to a shallow depth ([`PropertySet`]).

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

/// Which of the checker's properties run on a mutant, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertySet {
    /// The properties whose proof closes (`Property::closes`): k-induction, else BMC to the
    /// depth, as `smsync prove` runs them.
    Closing,
    /// The others, by BMC alone to the (shallow) depth: a counterexample is a real trace of
    /// the mutant breaking the PTX ISA's rule, so it kills; passing decides nothing (the
    /// barrier file's four open properties take 21 s together at depth 8 on fpga-small, 339 s
    /// at depth 10).
    OpenBounded,
}

/// The properties of `set` on `mutation` (mutant `k`) of the target; files go to
/// `<work>/formal-<k>/` (closing) or `<work>/formal-<k>-open/`. `None` when the checker has no
/// property of that set.
#[allow(clippy::too_many_arguments)]
pub fn check_mutant(
    work: &Path,
    target: Target,
    formal: &FormalUnit,
    config: &Config,
    mutation: &Mutation,
    k: u32,
    set: PropertySet,
    depth: usize,
) -> Option<FormalOutcome> {
    let properties: Vec<&str> =
        formal.properties.iter().filter(|p| p.closes == (set == PropertySet::Closing)).map(|p| p.name).collect();
    if properties.is_empty() {
        return None;
    }
    let verilog = match mutant_verilog(work, target, formal, mutation, k) {
        Ok(v) => v,
        Err(e) => return Some(FormalOutcome::Error(e)),
    };
    let checker = (formal.checker)(config);
    let dir = match set {
        PropertySet::Closing => work.join(format!("formal-{k}")),
        PropertySet::OpenBounded => work.join(format!("formal-{k}-open")),
    };
    let job = ProofJob {
        unit_verilog: &verilog,
        checker: &checker,
        checker_top: formal.checker_top,
        properties,
        dir: &dir,
        depth,
        bmc_only: set == PropertySet::OpenBounded || !formal.induction,
    };
    Some(match prove(&job) {
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
    })
}

/// The mutant's unit as the checker's module (`<work>/formal-<k>.v`, rewritten by each call:
/// a work directory may hold another run's mutant `k`).
fn mutant_verilog(
    work: &Path,
    target: Target,
    formal: &FormalUnit,
    mutation: &Mutation,
    k: u32,
) -> Result<String, String> {
    let file = format!("formal-{k}.v");
    let path = work.join(&file);
    let apply = if mutation.mode == "none" { String::new() } else { format!("{}\n", mutation.command) };
    let script = format!(
        "{}{apply}rename {} {}\nwrite_verilog -noattr {file}\n",
        prep_script(target),
        target.unit.module,
        formal.module
    );
    yosys(work, &format!("formal-{k}"), &script, Duration::from_secs(300))?;
    std::fs::read_to_string(&path).map_err(|e| format!("{file}: {e}"))
}
