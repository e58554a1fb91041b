//! Formal checkers the generator emits beside the units (`smsync prove`, issue 20).
//!
//! A unit's checker is a SystemVerilog wrapper module that instantiates the unit, `assume`s the
//! protocol of its inputs, keeps a small reference model of the state the properties talk about,
//! and `assert`s the properties. Rust writes its text per config (the op codes, error codes and
//! ranges come from `smsync_contract`), like the units' own Verilog; nothing here is hand-written
//! design logic. The prover (`smsync_rtl_tools::prove`) runs yosys-smtbmc on it.
//!
//! Every assertion is labelled `<property>__<n>`, so the prover can tell which property failed.
//! Every property has at least one [`Fault`]: a one-place edit of the unit's generated Verilog
//! that makes the property fail (the tests check that it does), so no property is vacuous.

use smsync_contract::config::Config;
use smsync_contract::encoding::Unit;

use crate::{barrier_file, copy_engine, mbarrier_alu, warp_network};

/// One property of a unit's checker.
pub struct Property {
    /// The assertion label prefix (`<name>__<n>`); also the name `smsync prove` prints.
    pub name: &'static str,
    /// What it states, with the PTX ISA section it comes from.
    pub statement: &'static str,
    /// The proof closes (k-induction, or BMC to the depth) within minutes on fpga-small.
    /// `smsync prove` checks only these unless one is named with `--property`; an open one
    /// still has its fault (it can fail) and is listed as not checked, never as proven.
    pub closes: bool,
    /// The BMC depth `smsync prove` uses for it where induction does not close, unless
    /// `--depth` is given: at least [`MIN_DEPTH`], and deep enough for its fault to show (the
    /// warp network's redux answers 30-odd cycles after its header on fpga-small). A job checks
    /// its properties to the largest of their depths.
    pub depth: fn(&Config) -> usize,
}

/// A deliberate bug for the tests: the unit's generated Verilog with `find` replaced by
/// `replace` (exactly one occurrence, in the whole text or in the module `within`) must make
/// `property` fail.
pub struct Fault {
    pub name: &'static str,
    pub property: &'static str,
    /// The bug, in words.
    pub bug: &'static str,
    /// The Verilog module the edit is in (from `module <name>(` to its `endmodule`), when `find`
    /// is not unique in the whole text: rust-hdl writes one module per instance of a block, all
    /// with the same body, so an edit of one instance names its module.
    pub within: Option<&'static str>,
    pub find: &'static str,
    pub replace: &'static str,
}

impl Fault {
    /// The unit's Verilog with this fault, or why it cannot be applied (the generator's text
    /// changed: the fault must be updated with it).
    pub fn apply(&self, verilog: &str) -> Result<String, String> {
        let (start, end) = match self.within {
            None => (0, verilog.len()),
            Some(module) => {
                let header = format!("module {module}(");
                let start = verilog.find(&header).ok_or_else(|| {
                    format!("fault `{}`: the unit's Verilog has no module `{module}`; update the fault", self.name)
                })?;
                let end = verilog[start..].find("endmodule").map_or(verilog.len(), |e| start + e);
                (start, end)
            }
        };
        let scope = &verilog[start..end];
        match scope.matches(self.find).count() {
            1 => Ok(format!("{}{}{}", &verilog[..start], scope.replacen(self.find, self.replace, 1), &verilog[end..])),
            n => Err(format!(
                "fault `{}`: the unit's Verilog has {n} occurrences of `{}`{} (want exactly 1); update the fault",
                self.name,
                self.find,
                self.within.map(|m| format!(" in module `{m}`")).unwrap_or_default()
            )),
        }
    }
}

/// A unit with a formal checker.
pub struct FormalUnit {
    pub unit: Unit,
    /// The unit's module (and `smsync gen` file stem).
    pub module: &'static str,
    /// The checker's top module.
    pub checker_top: &'static str,
    pub properties: &'static [Property],
    pub faults: &'static [Fault],
    /// The checker's SystemVerilog for a config.
    pub checker: fn(&Config) -> String,
    /// k-induction is tried (up to `MAX_K`) before BMC. False where no property has closed by
    /// induction (the warp network: its records and operand store start unconstrained in the
    /// induction step; k = 1..8 failed and took 2.2 min on fpga-small), so BMC runs at once.
    pub induction: bool,
}

/// The least BMC depth `smsync prove` accepts (issue 20: "bounded model checking (depth >= 20)").
pub const MIN_DEPTH: usize = 20;

/// [`MIN_DEPTH`], for any config: the depth of most properties.
pub fn min_depth(_: &Config) -> usize {
    MIN_DEPTH
}

/// Every unit `smsync prove` can prove, in the order it proves them.
pub fn formal_units() -> Vec<FormalUnit> {
    vec![
        FormalUnit {
            unit: Unit::MbarrierAlu,
            module: "mbarrier_alu",
            checker_top: mbarrier_alu::formal::CHECKER_TOP,
            properties: mbarrier_alu::formal::PROPERTIES,
            faults: mbarrier_alu::formal::FAULTS,
            checker: mbarrier_alu::formal::checker_verilog,
            induction: true,
        },
        FormalUnit {
            unit: Unit::BarrierFile,
            module: "barrier_file",
            checker_top: barrier_file::formal::CHECKER_TOP,
            properties: barrier_file::formal::PROPERTIES,
            faults: barrier_file::formal::FAULTS,
            checker: barrier_file::formal::checker_verilog,
            induction: true,
        },
        FormalUnit {
            unit: Unit::WarpNetwork,
            module: "warp_network",
            checker_top: warp_network::formal::CHECKER_TOP,
            properties: warp_network::formal::PROPERTIES,
            faults: warp_network::formal::FAULTS,
            checker: warp_network::formal::checker_verilog,
            induction: false,
        },
        FormalUnit {
            unit: Unit::CopyEngine,
            module: "copy_engine",
            checker_top: copy_engine::formal::CHECKER_TOP,
            properties: copy_engine::formal::PROPERTIES,
            faults: copy_engine::formal::FAULTS,
            checker: copy_engine::formal::checker_verilog,
            // its queues, thread table and mover start unconstrained in an induction step
            induction: false,
        },
    ]
}

/// The formal unit named `name` (a module name such as `mbarrier_alu`), or an error listing the
/// names there are.
pub fn formal_unit(name: &str) -> Result<FormalUnit, String> {
    let units = formal_units();
    let names: Vec<&str> = units.iter().map(|u| u.module).collect();
    units
        .into_iter()
        .find(|u| u.module == name)
        .ok_or_else(|| format!("no formal properties for unit `{name}`; units with properties: {}", names.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_MODULES: &str = "module a(x);\n  y = x | z;\nendmodule\nmodule b(x);\n  y = x | z;\nendmodule\n";

    fn fault(within: Option<&'static str>, find: &'static str) -> Fault {
        Fault { name: "f", property: "p", bug: "", within, find, replace: "y = x;" }
    }

    #[test]
    fn a_fault_within_a_module_edits_that_module_only() {
        let edited = fault(Some("b"), "y = x | z;").apply(TWO_MODULES).unwrap();
        assert_eq!(edited, "module a(x);\n  y = x | z;\nendmodule\nmodule b(x);\n  y = x;\nendmodule\n");
    }

    #[test]
    fn an_ambiguous_or_missing_fault_is_an_error() {
        let e = fault(None, "y = x | z;").apply(TWO_MODULES).unwrap_err();
        assert!(e.contains("2 occurrences"), "{e}");
        let e = fault(Some("c"), "y = x | z;").apply(TWO_MODULES).unwrap_err();
        assert!(e.contains("no module `c`"), "{e}");
        let e = fault(Some("a"), "w = 1;").apply(TWO_MODULES).unwrap_err();
        assert!(e.contains("0 occurrences") && e.contains("in module `a`"), "{e}");
    }
}
