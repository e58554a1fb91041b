//! Running the external FPGA tools: finding them, pinning/printing their versions, and running
//! each one under a time limit with its output in a log file.
//!
//! One driver per tool family (LiteX style): [`yosys`] synthesises and counts cells,
//! [`nextpnr`] places, routes and reads back utilisation and Fmax (and packs ECP5 bitstreams).

pub mod nextpnr;
pub mod yosys;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A tool invocation that failed: which tool, why, and where its log is.
#[derive(Debug)]
pub struct ToolError(pub String);

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Find an executable: the first of `candidates` on PATH (a native build is preferred over the
/// PyPI `yowasp-*` WebAssembly build, which is slower). `env` overrides the search.
pub fn find_tool(env: &str, candidates: &[&str]) -> Result<PathBuf, ToolError> {
    if let Ok(p) = std::env::var(env) {
        if !p.is_empty() {
            return Ok(PathBuf::from(p));
        }
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in candidates {
        for dir in std::env::split_paths(&path) {
            let full = dir.join(name);
            if full.is_file() {
                return Ok(full);
            }
        }
    }
    Err(ToolError(format!(
        "none of {} found on PATH (run scripts/setup-tools.sh, or set {env})",
        candidates.join(", ")
    )))
}

/// The first line of `tool --version` (or `-V`), for the report's pinned versions.
pub fn version_of(tool: &Path, flag: &str) -> String {
    match Command::new(tool).arg(flag).stdin(Stdio::null()).output() {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
            text.lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with("Preparing to run"))
                .unwrap_or("unknown")
                .to_string()
        }
        Err(e) => format!("unavailable ({e})"),
    }
}

/// Run `cmd` with stdout+stderr into `log`, killing it after `limit`. Returns the log text.
/// A non-zero exit or a timeout is an error that names the step, the limit and the log file.
pub fn run_logged(step: &str, mut cmd: Command, log: &Path, limit: Duration) -> Result<String, ToolError> {
    let file = std::fs::File::create(log).map_err(|e| ToolError(format!("{}: {e}", log.display())))?;
    let file2 = file.try_clone().map_err(|e| ToolError(format!("{}: {e}", log.display())))?;
    cmd.stdin(Stdio::null()).stdout(file).stderr(file2);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| ToolError(format!("{step}: cannot start {:?}: {e}", cmd.get_program())))?;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let text = std::fs::read_to_string(log).unwrap_or_default();
                if status.success() {
                    return Ok(text);
                }
                let tail: Vec<&str> = text.lines().rev().take(15).collect::<Vec<_>>().into_iter().rev().collect();
                return Err(ToolError(format!(
                    "{step} failed ({status}); log {}:\n{}",
                    log.display(),
                    tail.join("\n")
                )));
            }
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(ToolError(format!(
                    "{step} timed out after {} s (time limit; raise it with --timeout); partial log {}",
                    limit.as_secs(),
                    log.display()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(ToolError(format!("{step}: wait failed: {e}"))),
        }
    }
}
