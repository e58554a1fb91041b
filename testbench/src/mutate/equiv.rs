//! Is a surviving mutant equivalent to the original unit? yosys answers in two steps, each
//! bounded in time:
//!
//! 1. **Proof** (`equiv_make`, `equiv_simple`, `equiv_induct`): the original and the mutated
//!    unit (flattened, memories mapped to flip-flops) are paired signal by signal by name, and
//!    every pair is proven equal by induction assuming all pairs equal one cycle before. When
//!    every pair holds, the mutant is equivalent in every reachable state: no test can kill it.
//!    The pairing is by name, so a mutant that changes a register which never reaches an output
//!    is not proven equivalent (sound, not complete).
//! 2. **Counterexample** (`miter -equiv`, `sat -tempinduct-baseonly`): from all registers zero,
//!    does some input sequence of at most `depth` cycles make an output of the unit differ?
//!    If so the mutant is observable at the unit's ports: its survival is a gap of the checks
//!    (or the inputs it needs cannot come from the top, which this does not decide).
//!
//! Neither answers: the survivor is left unclassified, and the report says so.

use super::netlist::{prep_script, yosys, Mutation, Target};
use std::path::Path;
use std::time::Duration;

/// What yosys found for one mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Equivalence {
    /// Equal to the original in every reachable state (proof 1 closed).
    Proven,
    /// An output of the unit differs after `cycles` cycles from the all-zero state.
    Differs { cycles: u32 },
    /// No proof and no counterexample within the depth, or a timeout: the reason.
    Unknown(String),
}

impl Equivalence {
    pub fn label(&self) -> String {
        match self {
            Equivalence::Proven => "equivalent (proven by yosys equiv_induct)".into(),
            Equivalence::Differs { cycles } => {
                format!("not equivalent: an output of the unit differs after {cycles} cycle(s) (yosys sat)")
            }
            Equivalence::Unknown(why) => format!("not classified: {why}"),
        }
    }
}

/// The yosys commands that leave module `gold` (the original unit) and module `gate` (with
/// `mutation` applied), flattened, with memories as flip-flops.
fn gold_and_gate(target: Target, mutation: &Mutation) -> String {
    let flat = "flatten\nmemory_map\nopt_clean\n";
    let apply = if mutation.mode == "none" { String::new() } else { format!("{}\n", mutation.command) };
    format!(
        "{prep}design -save orig\n{apply}{flat}rename {m} gate\ndesign -stash gate\n\
         design -load orig\n{flat}rename {m} gold\ndesign -copy-from gate -as gate gate\n",
        prep = prep_script(target),
        m = target.unit.module
    )
}

/// Classify `mutation` (mutant `k`, for the file names) of the target; scripts and logs go to
/// `work` (which holds [`super::netlist::SOURCE`]).
pub fn classify(
    work: &Path,
    target: Target,
    mutation: &Mutation,
    k: u32,
    depth: u32,
    timeout: Duration,
) -> Equivalence {
    let setup = gold_and_gate(target, mutation);
    let proof = format!(
        "{setup}equiv_make gold gate equiv\nhierarchy -top equiv\nequiv_simple -seq 2\nequiv_induct -seq 2\nequiv_status -assert\n"
    );
    let proof_result = yosys(work, &format!("equiv-{k}"), &proof, timeout);
    if proof_result.is_ok() {
        return Equivalence::Proven;
    }
    let bmc = format!(
        "{setup}miter -equiv -flatten -make_assert -ignore_gold_x gold gate miter\nhierarchy -top miter\n\
         sat -verify -prove-asserts -set-init-zero -tempinduct -tempinduct-baseonly -maxsteps {depth} miter\n"
    );
    let why_no_proof = match &proof_result {
        Err(e) if e.starts_with("timeout") => format!("the proof timed out ({} s)", timeout.as_secs()),
        _ => "the proof did not close".to_string(),
    };
    match yosys(work, &format!("bmc-{k}"), &bmc, timeout) {
        Ok(_) => {
            Equivalence::Unknown(format!("{why_no_proof}; no difference at the unit's outputs within {depth} cycles"))
        }
        Err(e) if e.starts_with("timeout") => Equivalence::Unknown(format!(
            "{why_no_proof}; the search for a difference timed out ({} s)",
            timeout.as_secs()
        )),
        Err(e) => {
            let log = std::fs::read_to_string(work.join(format!("bmc-{k}.log"))).unwrap_or_default();
            match counterexample_length(&log) {
                Some(cycles) => Equivalence::Differs { cycles },
                None => Equivalence::Unknown(format!(
                    "{why_no_proof}; yosys sat failed: {}",
                    e.lines().next().unwrap_or("")
                )),
            }
        }
    }
}

/// The length of the base-case counterexample in a `sat -tempinduct` log: one more than the
/// last proven length (`Base case for induction length N proven.`), when the log reports a
/// failed base case.
fn counterexample_length(log: &str) -> Option<u32> {
    if !log.contains("model found for base case: FAIL") {
        return None;
    }
    let proven = log
        .lines()
        .filter_map(|l| {
            l.strip_prefix("Base case for induction length ")?.strip_suffix(" proven.")?.parse::<u32>().ok()
        })
        .max()
        .unwrap_or(0);
    Some(proven + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counterexample_length_is_one_past_the_last_proven_base_case() {
        let log = "Base case for induction length 1 proven.\nInduction step failed.\n\
                   Base case for induction length 2 proven.\nSAT temporal induction proof finished - model found for base case: FAIL!\n";
        assert_eq!(counterexample_length(log), Some(3));
        assert_eq!(counterexample_length("Base case for induction length 1 proven.\n"), None);
    }
}
