//! The mutated netlist: yosys lists mutations of a unit's modules, builds them all into the
//! unit behind `mutsel`, and the result replaces the unit's modules in a copy of the `smsync
//! gen` directory.
//!
//! yosys works on the unit as it sits in the generated `sync_unit.v` (`hierarchy -top <unit
//! module>; prep`), so the mutations are of the RTL the cosim runs, in the module copies
//! rust-hdl writes for the top's instance (docs/VERIFICATION.md, "Replacing a unit"). For the
//! top's own logic the five unit modules are blackboxed first, so none of their cells is picked.
//! Every script reads the source through the same relative path from the same working
//! directory: yosys names cells after their source location (`$and$orig/sync_unit.v:52917$15878`),
//! and a mutation names its cell.

use super::{Unit, CTRL, CTRL_WIDTH, SELECT_MODULE, TOP_UNIT};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The unmutated `sync_unit.v`, relative to the work directory (see the module docs).
pub const SOURCE: &str = "orig/sync_unit.v";

/// One mutation as yosys `mutate -list` writes it (its `-ctrl` option taken off).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutation {
    /// `inv`, `const0`, `const1`, `cnot0`, `cnot1` (or `none`).
    pub mode: String,
    pub module: String,
    pub cell: String,
    pub port: String,
    pub portbit: Option<u32>,
    /// The other bit of the cell that conditions a `cnot0` / `cnot1`.
    pub ctrlbit: Option<u32>,
    /// The wire on the mutated port bit, when it has a name.
    pub wire: Option<String>,
    pub wirebit: Option<u32>,
    /// Source locations (`orig/sync_unit.v:LINE.COL-LINE.COL`) yosys attached to the cell.
    pub src: Vec<String>,
    /// The yosys command that applies it alone: `mutate -mode ... -module ...`.
    pub command: String,
}

impl Mutation {
    /// Parse one line of `mutate -list` output (or a user's `--mutation`, with or without the
    /// leading `mutate` and a `-ctrl name width value`).
    pub fn parse(line: &str) -> Result<Mutation, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let words = words.strip_prefix(&["mutate"]).unwrap_or(&words);
        let mut m = Mutation {
            mode: String::new(),
            module: String::new(),
            cell: String::new(),
            port: String::new(),
            portbit: None,
            ctrlbit: None,
            wire: None,
            wirebit: None,
            src: Vec::new(),
            command: String::new(),
        };
        let mut kept = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            if key == "-ctrl" {
                i += 4;
                continue;
            }
            let value = *words.get(i + 1).ok_or_else(|| format!("mutation `{line}`: `{key}` has no value"))?;
            let number = || value.parse::<u32>().map_err(|e| format!("mutation `{line}`: {key} {value}: {e}"));
            match key {
                "-mode" => m.mode = value.into(),
                "-module" => m.module = value.into(),
                "-cell" => m.cell = value.into(),
                "-port" => m.port = value.into(),
                "-portbit" => m.portbit = Some(number()?),
                "-ctrlbit" => m.ctrlbit = Some(number()?),
                "-wire" => m.wire = Some(value.into()),
                "-wirebit" => m.wirebit = Some(number()?),
                "-src" => m.src.push(value.into()),
                _ => return Err(format!("mutation `{line}`: unknown option `{key}`")),
            }
            kept.extend([key, value]);
            i += 2;
        }
        if m.mode.is_empty() {
            return Err(format!("mutation `{line}`: no -mode"));
        }
        if m.mode != "none" && (m.module.is_empty() || m.cell.is_empty() || m.port.is_empty()) {
            return Err(format!("mutation `{line}`: -module, -cell and -port are needed"));
        }
        m.command = format!("mutate {}", kept.join(" "));
        Ok(m)
    }

    /// The command that builds it as mutant `k` of the netlist.
    pub fn ctrl_command(&self, k: u32) -> String {
        let rest = self.command.strip_prefix("mutate ").unwrap_or(&self.command);
        format!("mutate -ctrl {CTRL} {CTRL_WIDTH} {k} {rest}")
    }

    /// One line for the report: `inv of $ge$...:53033 port A bit 1 (wire x[3]) in module M`.
    pub fn describe(&self) -> String {
        let bit = self.portbit.map_or(String::new(), |b| format!(" bit {b}"));
        // Only cnot0 / cnot1 have a control bit; a user's `--mutation` may give one to another mode.
        let ctrl = match (self.ctrlbit, self.mode.strip_prefix("cnot")) {
            (Some(b), Some(level)) => format!(" (when bit {b} is {level})"),
            (Some(b), None) => format!(" (ctrlbit {b})"),
            _ => String::new(),
        };
        let wire = match (&self.wire, self.wirebit) {
            (Some(w), Some(b)) => format!(", wire `{w}`[{b}]"),
            (Some(w), None) => format!(", wire `{w}`"),
            _ => String::new(),
        };
        format!("{} of cell `{}` port {}{bit}{ctrl}{wire} in `{}`", self.mode, self.cell, self.port, self.module)
    }
}

/// Which netlist of the unit the mutations are sampled from and applied to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// yosys's word-level cells (`prep`) in rust-hdl's module hierarchy: a mutation can land on
    /// a bit no logic reads or on logic a constant of the config ties off (a lane the config
    /// does not build), where no check can kill it.
    Rtl,
    /// The unit flattened, optimised and mapped to single-bit gates and flip-flops (memories
    /// kept): logic whose output nobody reads and logic a constant decides are gone, as in a
    /// synthesised netlist, so every mutation sits on a gate the hardware has.
    Gates,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Rtl => "rtl",
            Level::Gates => "gates",
        }
    }

    pub fn parse(text: &str) -> Result<Level, String> {
        match text {
            "rtl" => Ok(Level::Rtl),
            "gates" => Ok(Level::Gates),
            _ => Err(format!("--netlist `{text}`: allowed values are `gates` (the default) and `rtl`")),
        }
    }
}

/// What a run mutates: the unit, at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub unit: Unit,
    pub level: Level,
}

/// The yosys commands that read the unmutated top and leave the unit prepared (`prep`) with
/// the unit's module as the top: at [`Level::Rtl`] its module hierarchy, at [`Level::Gates`]
/// one flattened module of gates.
pub fn prep_script(Target { unit, level }: Target) -> String {
    let mut s = format!("read_verilog -sv {SOURCE}\n");
    if unit == TOP_UNIT {
        // The units are mutated on their own: here only their interfaces remain.
        for module in super::unit_modules() {
            s.push_str(&format!("blackbox {module}\n"));
        }
    }
    s.push_str(&format!("hierarchy -top {}\n", unit.module));
    match level {
        Level::Rtl => s.push_str(&format!("prep -top {}\n", unit.module)),
        // `opt -full` after flattening sees the constants and unread outputs across the
        // modules' boundaries; `techmap` then splits the words into bits, so `opt_clean -purge`
        // drops every single bit nobody reads.
        Level::Gates => s.push_str(&format!(
            "prep -flatten -top {}\nmemory -nomap\nopt -full\ntechmap\nopt -fast\nopt_clean -purge\n",
            unit.module
        )),
    }
    s
}

/// Run the yosys `script` (written to `<work>/<name>.ys`, logged to `<name>.log`) in `work`,
/// killed after `timeout`. `Ok(log)` when yosys exited 0, `Err` with the log's tail otherwise;
/// a timeout is `Err` starting with "timeout".
pub fn yosys(work: &Path, name: &str, script: &str, timeout: Duration) -> Result<String, String> {
    let ys = work.join(format!("{name}.ys"));
    let log = work.join(format!("{name}.log"));
    std::fs::write(&ys, script).map_err(|e| format!("{}: {e}", ys.display()))?;
    let mut child = Command::new("yosys")
        .args(["-q", "-l"])
        .arg(format!("{name}.log"))
        .arg(format!("{name}.ys"))
        .current_dir(work)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run yosys ({e}): install Debian's `yosys` (scripts/setup-tools.sh)"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("timeout: yosys {} ran over {} s", ys.display(), timeout.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    if status.success() {
        return Ok(text);
    }
    let tail: Vec<&str> = text.lines().rev().take(15).collect();
    Err(format!(
        "yosys {} failed ({status}); last lines of {}:\n{}",
        ys.display(),
        log.display(),
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    ))
}

/// `count` mutations of `unit` sampled by yosys with `seed` (`mutate -list`). yosys samples
/// evenly over cells, wires and source locations (mcy's weights), so repeats are rare, not
/// impossible: a repeated mutation is dropped.
pub fn list_mutations(work: &Path, target: Target, count: u32, seed: u64) -> Result<Vec<Mutation>, String> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let script = format!("{}mutate -list {count} -seed {seed} -o mutations.txt\n", prep_script(target));
    yosys(work, "list", &script, Duration::from_secs(600))?;
    let path = work.join("mutations.txt");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let m = Mutation::parse(line)?;
        if seen.insert(m.command.clone()) {
            out.push(m);
        }
    }
    Ok(out)
}

/// The unit's modules with every mutation built in (mutant k = `mutations[k-1]`), as yosys
/// writes them, `mutsel` still an input of the unit's module.
pub fn build_netlist(work: &Path, target: Target, mutations: &[Mutation]) -> Result<String, String> {
    let mut script = prep_script(target);
    for (i, m) in mutations.iter().enumerate() {
        script.push_str(&m.ctrl_command(i as u32 + 1));
        script.push('\n');
    }
    // Blackboxes (the units, when the top's own logic is mutated) are not written.
    script.push_str("write_verilog -noattr mutated_unit.v\n");
    yosys(work, "build", &script, Duration::from_secs(900))?;
    let path = work.join("mutated_unit.v");
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The Verilog of [`SELECT_MODULE`]: `sel` is the mutant number from [`super::MUTANT_ENV`]
/// under Verilator (read once, at time 0), 0 elsewhere (yosys reads this file for the port check).
pub fn select_module() -> String {
    let env = super::MUTANT_ENV;
    format!(
        "// Written by smsync mutate: the mutant a run selects (docs/VERIFICATION.md, \"Mutation coverage\").\n\
         module {SELECT_MODULE} #(parameter W = {CTRL_WIDTH}) (output reg [W-1:0] sel);\n\
         `ifdef VERILATOR\n\
         \x20 initial sel = W'($c32(\"(std::getenv(\\\"{env}\\\") ? std::atoi(std::getenv(\\\"{env}\\\")) : 0)\"));\n\
         `else\n\
         \x20 initial sel = {{W{{1'b0}}}};\n\
         `endif\n\
         endmodule\n"
    )
}

/// A module of a Verilog text: its name (unescaped) and its byte range, `module` to the end of
/// its `endmodule` line.
#[derive(Debug)]
struct ModuleSpan {
    name: String,
    start: usize,
    end: usize,
}

/// The modules of `text`, which is rust-hdl's or yosys's output: each `module` and `endmodule`
/// starts a line.
fn modules_of(text: &str) -> Vec<ModuleSpan> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize)> = None;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("module ") {
            let rest = rest.trim_start().trim_start_matches('\\');
            let name: String = rest.chars().take_while(|c| !c.is_whitespace() && *c != '(' && *c != ';').collect();
            open = Some((name, pos));
        } else if line.starts_with("endmodule") {
            if let Some((name, start)) = open.take() {
                out.push(ModuleSpan { name, start, end: pos + line.len() });
            }
        }
        pos += line.len();
    }
    out
}

/// `netlist` (yosys's mutated unit) with the unit module's `mutsel` input made an internal wire
/// driven by [`SELECT_MODULE`], so the unit keeps its ports (and the top its manifest's).
pub fn select_inside(netlist: &str, unit: Unit) -> Result<String, String> {
    let span = modules_of(netlist)
        .into_iter()
        .find(|m| m.name == unit.module)
        .ok_or_else(|| format!("yosys wrote no module `{}`", unit.module))?;
    let body = &netlist[span.start..span.end];
    let header_end = body.find(");").ok_or("no end of the module header in yosys's output")?;
    let header = &body[..header_end];
    let ctrl_port = format!(", {CTRL}");
    let at = header.rfind(&ctrl_port).ok_or_else(|| format!("yosys did not add `{CTRL}` to `{}`", unit.module))?;
    let header = format!("{}{}", &header[..at], &header[at + ctrl_port.len()..]);
    let input = format!("  input [{}:0] {CTRL};\n", CTRL_WIDTH - 1);
    let rest = &body[header_end..];
    if !rest.contains(&input) {
        return Err(format!("no `{}` in yosys's `{}`", input.trim(), unit.module));
    }
    let select = format!(
        "  // The mutant number: {} in the environment of the simulation (0: the unmutated unit).\n  {SELECT_MODULE} #(.W({CTRL_WIDTH})) mutant_select (.sel({CTRL}));\n",
        super::MUTANT_ENV
    );
    let rest = rest.replacen(&input, &select, 1);
    Ok(format!("{}{header}{rest}{}", &netlist[..span.start], &netlist[span.end..]))
}

/// Does `module` of the generated top belong to `unit` (its module or one of its submodules,
/// `<module>$...`; for the top's own logic, not one of the five units')?
fn owned_by(unit: Unit, module: &str) -> bool {
    let under = |m: &str| module == m || module.strip_prefix(m).is_some_and(|rest| rest.starts_with('$'));
    under(unit.module) && (unit != TOP_UNIT || !super::unit_modules().into_iter().any(under))
}

/// `top` (the generated `sync_unit.v`) with the unit's modules taken out and `netlist`
/// appended: the unit's modules are yosys's mutated ones (one flattened module at
/// [`Level::Gates`]), everything else rust-hdl's.
pub fn replace_modules(top: &str, netlist: &str, unit: Unit) -> Result<String, String> {
    let written: BTreeSet<String> = modules_of(netlist).into_iter().map(|m| m.name).collect();
    if written.is_empty() {
        return Err("yosys wrote no module".into());
    }
    let present: BTreeSet<String> = modules_of(top).into_iter().map(|m| m.name).collect();
    let new: Vec<&String> = written.difference(&present).collect();
    if !new.is_empty() {
        return Err(format!("yosys wrote modules the generated top does not have: {new:?}"));
    }
    let mut out = String::with_capacity(top.len() + netlist.len());
    let mut pos = 0;
    for m in modules_of(top) {
        if written.contains(&m.name) || owned_by(unit, &m.name) {
            out.push_str(&top[pos..m.start]);
            pos = m.end;
        }
    }
    out.push_str(&top[pos..]);
    out.push_str(
        "\n// ---- The unit's modules as yosys wrote them, every mutant behind `mutsel` (smsync mutate). ----\n",
    );
    out.push_str(netlist);
    Ok(out)
}

/// Write the mutated RTL directory `rtl` from the generated directory `orig`: every file of
/// `orig` (the manifest too), `sync_unit.v` with the unit's modules replaced, and
/// `mutant_select.v`.
pub fn write_mutated_dir(orig: &Path, rtl: &Path, unit: Unit, netlist: &str) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(rtl);
    std::fs::create_dir_all(rtl).map_err(|e| format!("{}: {e}", rtl.display()))?;
    let entries = std::fs::read_dir(orig).map_err(|e| format!("{}: {e}", orig.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path.file_name().expect("a file has a name");
        if path.is_file() && name != "sync_unit.v" {
            std::fs::copy(&path, rtl.join(name)).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    let top_path = orig.join("sync_unit.v");
    let top = std::fs::read_to_string(&top_path).map_err(|e| format!("{}: {e}", top_path.display()))?;
    let mutated = replace_modules(&top, &select_inside(netlist, unit)?, unit)?;
    let write = |name: &str, text: &str| {
        let p = rtl.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    write("sync_unit.v", &mutated)?;
    write("mutant_select.v", &select_module())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "mutate -ctrl mutsel 8 27 -mode inv -module sync_unit$core$mbar -cell $ge$orig/sync_unit.v:53033$15952 -port A -portbit 1 -src orig/sync_unit.v:53033.31-53033.51";

    #[test]
    fn a_listed_mutation_parses_and_rebuilds_under_its_number() {
        let m = Mutation::parse(LINE).unwrap();
        assert_eq!(m.mode, "inv");
        assert_eq!(m.module, "sync_unit$core$mbar");
        assert_eq!(m.portbit, Some(1));
        assert_eq!(m.src, ["orig/sync_unit.v:53033.31-53033.51"]);
        assert!(!m.command.contains("-ctrl"), "{}", m.command);
        assert_eq!(
            m.ctrl_command(3),
            "mutate -ctrl mutsel 16 3 -mode inv -module sync_unit$core$mbar -cell $ge$orig/sync_unit.v:53033$15952 -port A -portbit 1 -src orig/sync_unit.v:53033.31-53033.51"
        );
        let cnot = Mutation::parse("-mode cnot1 -module m -cell c -port A -portbit 2 -ctrlbit 3").unwrap();
        assert_eq!(cnot.describe(), "cnot1 of cell `c` port A bit 2 (when bit 3 is 1) in `m`");
        let odd = Mutation::parse("-mode inv -module m -cell c -port A -ctrlbit 3").unwrap();
        assert!(odd.describe().contains("(ctrlbit 3)"), "{}", odd.describe());
        assert!(Mutation::parse("-module m -cell c -port A").unwrap_err().contains("no -mode"));
        assert!(Mutation::parse("-mode inv -cell c").unwrap_err().contains("needed"));
    }

    const TOP: &str = "module a(x);\n  input x;\nendmodule // a\nmodule u(clock, y);\n  input clock;\nendmodule // u\nmodule u$s(d,q);\nendmodule // u$s\n";
    const NETLIST: &str = "/* yosys */\nmodule \\u (clock, y\n, mutsel);\n  input clock;\n  input [15:0] mutsel;\n  wire [15:0] mutsel;\n  \\u$s  s (.mutsel(mutsel));\nendmodule\n\nmodule \\u$s (d, q, mutsel);\n  input [15:0] mutsel;\nendmodule\n";

    #[test]
    fn the_units_modules_are_replaced_and_mutsel_becomes_internal() {
        let unit = Unit { name: "u", module: "u" };
        let inside = select_inside(NETLIST, unit).unwrap();
        assert!(inside.contains("module \\u (clock, y\n);"), "{inside}");
        assert!(inside.contains("smsync_mutant_select #(.W(16)) mutant_select (.sel(mutsel));"), "{inside}");
        assert!(inside.contains("wire [15:0] mutsel;"), "{inside}");
        // The submodule keeps its port: the unit's module drives it.
        assert!(inside.contains("module \\u$s (d, q, mutsel);\n  input [15:0] mutsel;"), "{inside}");
        let top = replace_modules(TOP, &inside, unit).unwrap();
        assert!(top.starts_with("module a(x);"), "{top}");
        assert!(!top.contains("endmodule // u\n"), "{top}");
        assert!(!top.contains("endmodule // u$s"), "{top}");
        let names: Vec<String> = modules_of(&top).into_iter().map(|m| m.name).collect();
        assert_eq!(names, ["a", "u", "u$s"]);
        assert!(replace_modules(TOP, "module \\v (a);\nendmodule\n", unit).unwrap_err().contains("does not have"));
        // A flattened unit (one module, `Level::Gates`): its submodules leave the top too.
        let flat = select_inside(&NETLIST[..NETLIST.find("\nmodule \\u$s").unwrap() + 1], unit).unwrap();
        let top = replace_modules(TOP, &flat, unit).unwrap();
        let names: Vec<String> = modules_of(&top).into_iter().map(|m| m.name).collect();
        assert_eq!(names, ["a", "u"], "{top}");
    }

    #[test]
    fn the_top_owns_its_glue_not_the_units() {
        let atom = super::super::unit("atomic_alu").unwrap();
        assert!(owned_by(atom, "sync_unit$core$atom") && owned_by(atom, "sync_unit$core$atom$element"));
        assert!(!owned_by(atom, "sync_unit$core$atomx") && !owned_by(atom, "sync_unit$core"));
        assert!(owned_by(TOP_UNIT, "sync_unit") && owned_by(TOP_UNIT, "sync_unit$core$live"));
        assert!(!owned_by(TOP_UNIT, "sync_unit$core$atom$element") && !owned_by(TOP_UNIT, "sync_unit$core$mbar"));
    }

    /// A unit whose submodule gets a constant select and drives a word of which one bit is read.
    const DEAD_LOGIC: &str = "module u(input [3:0] a, input b, input x, output y, output z);\n\
        \x20 wire [3:0] t = a & {4{b}};\n  assign y = t[3];\n  s sel (.k(1'b1), .x(x), .z(z));\nendmodule\n\
        module s(input k, input x, output z);\n  wire n = ~x;\n  assign z = k ? x : n;\nendmodule\n";

    #[test]
    fn the_gate_netlist_has_no_mutation_on_dead_logic() {
        if crate::verilator::rtl_tools_skipped() {
            eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: yosys not run");
            return;
        }
        let work = std::env::temp_dir().join(format!("smsync-mutate-level-{}", std::process::id()));
        std::fs::create_dir_all(work.join("orig")).unwrap();
        std::fs::write(work.join(SOURCE), DEAD_LOGIC).unwrap();
        let unit = Unit { name: "u", module: "u" };
        let list = |level| list_mutations(&work, Target { unit, level }, 200, 1).unwrap();
        // Word level: bits 0..2 of `t` and of the AND's input `a` (nobody reads them) and the
        // inverter `n` (the constant select never picks it) are mutation sites.
        let rtl = list(Level::Rtl);
        let dead_bit = |m: &Mutation| matches!(m.wire.as_deref(), Some("t" | "a")) && m.wirebit.is_some_and(|b| b < 3);
        assert!(rtl.iter().any(dead_bit), "{rtl:#?}");
        assert!(rtl.iter().any(|m| m.module == "s" && m.cell.contains("$not")), "{rtl:#?}");
        // Gate level: the AND of bit 3 is left (the select passes `x` through, no gate).
        let gates = list(Level::Gates);
        assert!(!gates.is_empty() && gates.iter().all(|m| m.module == "u"), "{gates:#?}");
        assert!(!gates.iter().any(dead_bit), "{gates:#?}");
        assert!(gates.iter().all(|m| m.src.iter().any(|s| s.starts_with("orig/sync_unit.v:2."))), "{gates:#?}");
        assert!(gates.iter().any(|m| m.wire.as_deref() == Some("a") && m.wirebit == Some(3)), "{gates:#?}");
        let _ = std::fs::remove_dir_all(&work);
    }
}
