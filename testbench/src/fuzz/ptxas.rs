//! NVIDIA's ptxas (pip package nvidia-cuda-nvcc-cu12) as the judge of PTX legality.
//!
//! Starting ptxas costs more than assembling one small kernel, so programs are checked in
//! batches: one module with every program as its own `.entry` (each program's shared variables
//! carry its kernel name, so nothing clashes). ptxas names the failing line; lines map back to
//! the program that owns them. A batch with a failure is then checked per program, so the
//! report names exactly the rejected ones with ptxas's message.

use super::Program;
use std::path::PathBuf;
use std::process::Command;

/// Find ptxas: $SMSYNC_PTXAS, then the pip package (through python3), then PATH.
pub fn find_ptxas() -> Result<PathBuf, String> {
    if let Ok(p) = std::env::var("SMSYNC_PTXAS") {
        return Ok(PathBuf::from(p));
    }
    let py = Command::new("python3")
        .args([
            "-c",
            "import nvidia.cuda_nvcc, os; print(os.path.join(list(nvidia.cuda_nvcc.__path__)[0], 'bin', 'ptxas'))",
        ])
        .output();
    if let Ok(out) = py {
        if out.status.success() {
            let p = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    let which = Command::new("sh").args(["-c", "command -v ptxas"]).output();
    if let Ok(out) = which {
        if out.status.success() {
            return Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()));
        }
    }
    Err("ptxas not found: pip install nvidia-cuda-nvcc-cu12 (or set SMSYNC_PTXAS)".into())
}

/// Assemble `ptx` for sm_90a; Err(ptxas's message) if it is rejected.
pub fn assemble(ptxas: &std::path::Path, ptx: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("smsync-fuzz-{}-{}", std::process::id(), unique()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let src = dir.join("batch.ptx");
    std::fs::write(&src, ptx).map_err(|e| format!("{}: {e}", src.display()))?;
    let out = Command::new(ptxas)
        .arg("-arch=sm_90a")
        // legality is all we ask: no optimisation (several times faster)
        .arg("-O0")
        .arg(&src)
        .arg("-o")
        .arg(dir.join("batch.cubin"))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", ptxas.display()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = out?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout))
            .trim()
            .to_string())
    }
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Check every program; returns (index in `programs`, ptxas message) for each rejected one.
pub fn check_batch(ptxas: &std::path::Path, programs: &[Program]) -> Result<Vec<(usize, String)>, String> {
    if programs.is_empty() {
        return Ok(vec![]);
    }
    let mut module = String::from(super::render::HEADER);
    for p in programs {
        let r = p.render();
        module.push_str(&r.decls);
        module.push_str(&r.entry);
        module.push('\n');
    }
    match assemble(ptxas, &module) {
        Ok(()) => Ok(vec![]),
        Err(_) => {
            // find the culprits one by one (rare: a rejected program is a generator bug)
            let mut bad = vec![];
            for (i, p) in programs.iter().enumerate() {
                if let Err(msg) = assemble(ptxas, &p.ptx()) {
                    bad.push((i, msg));
                }
            }
            if bad.is_empty() {
                return Err("ptxas rejected the batch module but accepted every program alone".into());
            }
            Ok(bad)
        }
    }
}
