//! Mutation coverage of the checks (issue 20, `smsync mutate`): how many single faults of a
//! unit's RTL the cosim corpus and the generated programs catch.
//!
//! The technique is YosysHQ mcy's: yosys `mutate -list N -seed S` samples N bit-level mutations
//! of the unit's modules as they sit inside the generated `sync_unit.v` (inverted signal,
//! stuck-at-0/1, and the conditional inversions `cnot0`/`cnot1`, which flip a bit when another
//! bit of the same cell is 0/1), then ONE netlist carries all of them behind a control signal
//! (`mutate -ctrl mutsel W k`). Mutant k is active when `mutsel == k`; 0 is the unmutated
//! design. So one Verilator build serves every mutant (a build of the fpga-small top takes
//! minutes, a run of a mutant seconds).
//!
//! * [`netlist`] — the unit's modules, the yosys scripts (list, build), the mutated RTL
//!   directory (a `smsync gen` directory whose `sync_unit.v` holds the mutated modules);
//! * [`checks`]  — the checks a mutant must survive (corpus kernels, generated programs) and
//!   running them on a mutant, stopping at the first failure;
//! * [`equiv`]   — yosys equivalence of a surviving mutant against the original unit;
//! * [`report`]  — outcomes, kill rate, the JSON and Markdown report.
//!
//! How a run selects its mutant without touching the top's ports (the cosim checks them against
//! the manifest): the mutated unit's `mutsel` input becomes an internal wire driven by
//! [`SELECT_MODULE`], which under Verilator reads the environment variable [`MUTANT_ENV`] once
//! at time 0 (`$c32`, Verilator's inline C++). Each mutant runs in a child process with that
//! variable set, which also keeps a mutant that crashes or hangs the simulator from taking the
//! campaign down.

pub mod checks;
pub mod equiv;
pub mod formal;
pub mod netlist;
pub mod report;

/// The environment variable the mutated netlist reads its mutant number from (0 or unset: none).
pub const MUTANT_ENV: &str = "SMSYNC_MUTANT";

/// Name of the control signal yosys adds (`mutate -ctrl`).
pub const CTRL: &str = "mutsel";

/// Width of the control signal: room for 65,535 mutants.
pub const CTRL_WIDTH: u32 = 16;

/// The module that drives `mutsel` inside the mutated unit.
pub const SELECT_MODULE: &str = "smsync_mutant_select";

/// A unit of the `sync_unit` top that `smsync mutate --unit` takes: its name on the command
/// line and the module of the top that holds it (with its submodules, `<module>$...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub name: &'static str,
    pub module: &'static str,
}

/// The top's own logic: module `sync_unit` and its submodules other than the five units.
pub const TOP_UNIT: Unit = Unit { name: "sync_unit", module: "sync_unit" };

/// Every unit, in the order the docs list them.
pub const UNITS: &[Unit] = &[
    Unit { name: "barrier_file", module: "sync_unit$core$barrier" },
    Unit { name: "mbarrier_alu", module: "sync_unit$core$mbar" },
    Unit { name: "atomic_alu", module: "sync_unit$core$atom" },
    Unit { name: "warp_network", module: "sync_unit$core$wnet" },
    Unit { name: "copy_engine", module: "sync_unit$core$copy" },
    TOP_UNIT,
];

/// The unit called `name`, or an error listing the allowed names.
pub fn unit(name: &str) -> Result<Unit, String> {
    UNITS.iter().copied().find(|u| u.name == name).ok_or_else(|| {
        let names: Vec<&str> = UNITS.iter().map(|u| u.name).collect();
        format!("unknown unit `{name}`; --unit takes one of: {}", names.join(", "))
    })
}

/// The five unit modules inside the top (not [`TOP_UNIT`]): blackboxed when the top's own
/// logic is mutated.
pub fn unit_modules() -> Vec<&'static str> {
    UNITS.iter().filter(|u| **u != TOP_UNIT).map(|u| u.module).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_unit_name_lists_the_allowed_ones() {
        assert_eq!(unit("mbarrier_alu").unwrap().module, "sync_unit$core$mbar");
        let e = unit("mbar").unwrap_err();
        assert!(e.contains("unknown unit `mbar`"), "{e}");
        for u in UNITS {
            assert!(e.contains(u.name), "{e}");
        }
    }
}
