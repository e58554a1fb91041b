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
    die_with_parent(&mut cmd);
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
                // Both yosys and nextpnr start their fatal message with `ERROR:`; put it on the
                // first line, which is the one a report row shows.
                let error =
                    text.lines().find(|l| l.starts_with("ERROR:")).map(|l| format!(": {l}")).unwrap_or_default();
                return Err(ToolError(format!(
                    "{step} failed ({status}){error}; log {}:\n{}",
                    log.display(),
                    tail.join("\n")
                )));
            }
            Ok(None) if start.elapsed() > limit => {
                // yosys runs ABC as a child process (`yosys-abc`): killing yosys alone would leave
                // it running for minutes, so the whole process tree goes.
                kill_tree(child.id());
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

/// Linux: the tool gets SIGKILL when the thread that started it ends, so a `smsync synth` killed
/// from outside (SIGTERM, SIGKILL: no time-limit branch runs) does not leave a nextpnr routing
/// for an hour (the yowasp build runs in the Python process started here). A tool's own
/// children (yosys's `yosys-abc`) do not inherit the setting: they run to the end of their step.
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure calls only prctl(2), which is
    // async-signal-safe, and allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_cmd: &mut Command) {}

/// Kill `pid` and every process below it (children first found, then killed all at once with
/// SIGKILL). Linux: the tree is read from `/proc/<pid>/stat` (field 4 is the parent pid);
/// elsewhere only `pid` is killed by the caller.
fn kill_tree(pid: u32) {
    let mut tree = vec![pid];
    let parents = process_parents();
    let mut i = 0;
    while i < tree.len() {
        let p = tree[i];
        tree.extend(parents.iter().filter(|(_, parent)| *parent == p).map(|(child, _)| *child));
        i += 1;
    }
    let pids: Vec<String> = tree.iter().map(u32::to_string).collect();
    let _ = Command::new("kill").arg("-KILL").args(&pids).stdout(Stdio::null()).stderr(Stdio::null()).status();
}

/// (pid, parent pid) of every process in /proc (empty where there is no /proc).
fn process_parents() -> Vec<(u32, u32)> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| {
        let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        Some((pid, parent_of_stat(&stat)?))
    })
    .collect()
}

/// The parent pid from a `/proc/<pid>/stat` line: `pid (comm) state ppid ...`; the command name
/// may contain spaces and parentheses, so read after its last `)`.
fn parent_of_stat(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_pid_is_read_after_the_command_name() {
        assert_eq!(parent_of_stat("4242 (yosys-abc) R 4200 4242 1 0 -1"), Some(4200));
        assert_eq!(parent_of_stat("17 (a (b) c) S 9 17 17 0"), Some(9));
        assert_eq!(parent_of_stat("garbage"), None);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_timed_out_tool_is_killed_with_its_children() {
        // A shell that starts a child `sleep` and waits: after the time limit neither survives.
        let dir = std::env::temp_dir().join(format!("smsync-kill-tree-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pidfile = dir.join("child.pid");
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!("sleep 30 & echo $! > {}; wait", pidfile.display()));
        let err = run_logged("sh", cmd, &dir.join("log"), Duration::from_millis(500)).unwrap_err();
        assert!(err.0.contains("timed out after"), "{}", err.0);
        let child: u32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
        std::thread::sleep(Duration::from_millis(200));
        let alive = std::fs::read_to_string(format!("/proc/{child}/stat")).is_ok_and(|s| !s.contains(") Z "));
        assert!(!alive, "the child `sleep` ({child}) survived the time-out");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
