//! Lint gates for generated Verilog: `verilator --lint-only -Wall` (with the project's waiver
//! file) and a yosys structural check (no latches, undriven nets, multiple drivers,
//! combinational loops).
//!
//! Both return `Err(report)` when the tool complains and also when the tool is missing: a
//! missing tool must fail a test, not pass it silently. Callers that are allowed to run without
//! the tools check [`rtl_tools_skipped`] first (set `SMSYNC_SKIP_RTL_TOOLS=1`).

use crate::toolchain::Toolchain;
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
    yosys_check_blackboxing(file, top, &[])
}

/// [`yosys_check`] with the modules `blackboxes` (and so everything under them) reduced to their
/// ports: the check covers the rest of the design and its connections to them. For a module whose
/// own text is checked elsewhere (a unit inside the top, checked in its own file).
pub fn yosys_check_blackboxing(file: &Path, top: &str, blackboxes: &[&str]) -> Result<(), String> {
    let blackbox = if blackboxes.is_empty() { String::new() } else { format!("blackbox {}; ", blackboxes.join(" ")) };
    let script =
        format!("read_verilog {}; {blackbox}hierarchy -check -top {top}; proc; flatten; check -assert", file.display());
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

/// Both gates on Verilog *text* (rust-hdl output holding `top` and every module under it):
/// each module goes to its own file named after it (Verilator's DECLFILENAME rule holds without a
/// waiver), the file list reaches the tools through a command file and a script (a large config
/// has thousands of modules). `Err` carries every failing tool's report.
pub fn lint_verilog_text(verilog: &str, top: &str, tag: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("smsync_lint_{top}_{tag}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let files = split_modules(verilog, &dir)?;
    if !files.iter().any(|f| f.file_stem().is_some_and(|s| s == top)) {
        return Err(format!("module {top} is not in the Verilog ({} modules)", files.len()));
    }
    let mut problems = Vec::new();
    let list = dir.join("files.f");
    write(&list, &files.iter().map(|f| format!("{}\n", f.display())).collect::<String>())?;
    let tc = Toolchain::find()?;
    let out = tc
        .command()
        .args(["--lint-only", "-Wall", "--top-module", top])
        .arg(waiver_file())
        .arg("-f")
        .arg(&list)
        .output()
        .map_err(|e| format!("cannot run verilator: {e}"))?;
    let text = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || text.contains("%Warning") || text.contains("%Error") {
        problems.push(format!("verilator --lint-only -Wall (top {top}, {}):\n{}", dir.display(), head(&text, 60)));
    }
    let script = dir.join("lint.ys");
    let mut ys: String = files.iter().map(|f| format!("read_verilog {}\n", f.display())).collect();
    ys.push_str(&format!("hierarchy -check -top {top}\nproc\nflatten\ncheck -assert\n"));
    write(&script, &ys)?;
    let out = Command::new("yosys")
        .args(["-q", "-l", "/dev/stdout", "-s"])
        .arg(&script)
        .output()
        .map_err(|e| format!("cannot run yosys (install Debian's `yosys`): {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || text.contains("Latch inferred") {
        problems.push(format!(
            "yosys proc; flatten; check -assert (top {top}, {}):\n{}",
            dir.display(),
            head(&text, 40)
        ));
    }
    if problems.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    } else {
        Err(problems.join("\n\n"))
    }
}

/// Write each `module ... endmodule` of `verilog` to `dir/<name>.v`; the paths in order.
fn split_modules(verilog: &str, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in verilog.lines() {
        let t = line.trim_start();
        if current.is_none() {
            match t.strip_prefix("module ") {
                Some(rest) => {
                    let name = rest.split(|c: char| c == '(' || c == ';' || c.is_whitespace()).next().unwrap_or("");
                    current = Some((name.to_string(), String::new()));
                }
                None => continue,
            }
        }
        let (name, text) = current.as_mut().expect("inside a module");
        text.push_str(line);
        text.push('\n');
        if t.starts_with("endmodule") {
            let path = dir.join(format!("{name}.v"));
            write(&path, text)?;
            files.push(path);
            current = None;
        }
    }
    Ok(files)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn head(text: &str, lines: usize) -> String {
    text.lines().take(lines).collect::<Vec<_>>().join("\n")
}
