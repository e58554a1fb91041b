//! Lint gates for generated Verilog: `verilator --lint-only -Wall` (with the project's waiver
//! file) and a yosys structural check (no latches, undriven nets, multiple drivers,
//! combinational loops).
//!
//! Both return `Err(report)` when the tool complains and also when the tool is missing: a
//! missing tool must fail a test, not pass it silently. Callers that are allowed to run without
//! the tools check [`rtl_tools_skipped`] first (set `SMSYNC_SKIP_RTL_TOOLS=1`).

use super::toolchain::Toolchain;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Verilator waiver file: every waiver in it carries its reason.
pub fn waiver_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("hdl").join("lint-waivers.vlt")
}

/// True when the user asked to run without Verilator/yosys (`SMSYNC_SKIP_RTL_TOOLS=1`).
pub fn rtl_tools_skipped() -> bool {
    std::env::var("SMSYNC_SKIP_RTL_TOOLS").is_ok_and(|v| v == "1")
}

/// `verilator --lint-only -Wall` on `file` with top module `top`. Ok(()) only when Verilator
/// printed no warning and no error.
pub fn verilator_lint(file: &Path, top: &str) -> Result<(), String> {
    verilator_lint_with(file, top, &[])
}

/// [`verilator_lint`] with more waiver files after the project's (e.g. a board crate's own, each
/// waiver with its reason).
pub fn verilator_lint_with(file: &Path, top: &str, extra_waivers: &[&Path]) -> Result<(), String> {
    let tc = Toolchain::find()?;
    let out = tc
        .command()
        .args(["--lint-only", "-Wall", "--top-module", top])
        .arg(waiver_file())
        .args(extra_waivers)
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run verilator: {e}"))?;
    let text = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    if out.status.success() && !text.contains("%Warning") && !text.contains("%Error") {
        Ok(())
    } else {
        Err(format!("verilator --lint-only -Wall {} (top {top}):\n{text}", file.display()))
    }
}

/// yosys: `read_verilog; hierarchy -check -top top; proc; check -assert`, plus a scan of the
/// log for inferred latches (`proc` infers a latch silently when a combinational block leaves a
/// signal unassigned on some path).
pub fn yosys_check(file: &Path, top: &str) -> Result<(), String> {
    let script = format!("read_verilog {}; hierarchy -check -top {top}; proc; flatten; check -assert", file.display());
    let out = Command::new("yosys")
        .args(["-q", "-l", "/dev/stdout", "-p", &script])
        .output()
        .map_err(|e| format!("cannot run yosys (install Debian's `yosys`): {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let latch = text.lines().find(|l| l.contains("Latch inferred"));
    if out.status.success() && latch.is_none() {
        Ok(())
    } else {
        Err(format!("yosys check of {} (top {top}) failed:\n{text}", file.display()))
    }
}
