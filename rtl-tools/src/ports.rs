//! The ports of a module as a real Verilog front end sees them: yosys reads the files with
//! `read_verilog -sv -lib` (module interfaces only, bodies are not elaborated: 5 s for the
//! fpga-small `smsync gen` directory, 4 MB), elaborates the top's interface with `hierarchy -top`
//! (parameter defaults applied) and writes JSON; the widths are the JSON's bit lists.
//!
//! Used by the cosim of a user's RTL directory (`smsync cosim --rtl DIR`) to check the top's
//! ports against the manifest before anything is built: hand-written Verilog can declare its
//! ports in any style (ANSI or not, `parameter`-sized, `logic`), which a line scanner of
//! rust-hdl's output would misread.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One port as the tool reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolPort {
    pub name: String,
    /// `input`, `output` or `inout`.
    pub dir: String,
    pub width: usize,
}

/// The ports of module `top` in `files` (read together, so `top` may instantiate modules of any
/// of them), in yosys's order. `Err` names the files and carries yosys's message when a file does
/// not parse or `top` is not among the modules.
pub fn module_ports(files: &[PathBuf], top: &str) -> Result<Vec<ToolPort>, String> {
    let dir = scratch_dir(top)?;
    let json = dir.join("ports.json");
    let script = dir.join("ports.ys");
    let reads: String = files.iter().map(|f| format!("read_verilog -sv -lib \"{}\"\n", f.display())).collect();
    // -purge_lib: every module read with -lib is a blackbox; only the top's interface is wanted.
    let text = format!("{reads}hierarchy -top {top} -purge_lib\nwrite_json \"{}\"\n", json.display());
    std::fs::write(&script, text).map_err(|e| format!("{}: {e}", script.display()))?;
    let out = Command::new("yosys")
        .args(["-q", "-s"])
        .arg(&script)
        .output()
        .map_err(|e| format!("cannot run yosys (install Debian's `yosys`, scripts/setup-tools.sh): {e}"))?;
    let result = if out.status.success() {
        std::fs::read_to_string(&json)
            .map_err(|e| format!("{}: {e}", json.display()))
            .and_then(|t| ports_in_json(&t, top))
    } else {
        let log = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
        Err(format!("yosys could not read the ports of module `{top}` from {}:\n{}", list(files), log.trim()))
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The ports of `top` in yosys's `write_json` output.
pub fn ports_in_json(json: &str, top: &str) -> Result<Vec<ToolPort>, String> {
    let doc: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("yosys JSON: {e}"))?;
    let ports = doc
        .get("modules")
        .and_then(|m| m.get(top))
        .and_then(|m| m.get("ports"))
        .and_then(|p| p.as_object())
        .ok_or_else(|| format!("yosys JSON has no module `{top}` with ports"))?;
    ports
        .iter()
        .map(|(name, p)| {
            let dir = p.get("direction").and_then(|d| d.as_str()).unwrap_or("?").to_string();
            let width = p.get("bits").and_then(|b| b.as_array()).map_or(0, Vec::len);
            Ok(ToolPort { name: name.clone(), dir, width })
        })
        .collect()
}

fn scratch_dir(top: &str) -> Result<PathBuf, String> {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("smsync_ports_{top}_{}_{n}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

fn list(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| f.file_name().map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// True when `path` names a Verilog or SystemVerilog source (`.v`, `.sv`).
pub fn is_verilog_source(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("v" | "sv"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Widths come from the tool, whatever the declaration style: ANSI with a range, a
    /// parameter-sized port (default applied), a non-ANSI declaration, rust-hdl's `$` names.
    #[test]
    fn ports_of_hand_written_verilog() {
        if crate::rtl_tools_skipped() {
            return;
        }
        let dir = scratch_dir("test").unwrap();
        let a = dir.join("a.v");
        let b = dir.join("b.sv");
        std::fs::write(&a, "module top #(parameter W = 12) (input clock, input [W-1:0] lane_a$3, output y);\n  sub u(.q(y));\nendmodule\n").unwrap();
        std::fs::write(&b, "module sub(q);\n  output logic [0:0] q;\n  assign q = 1'b0;\nendmodule\n").unwrap();
        let ports = module_ports(&[a.clone(), b.clone()], "top").unwrap();
        let find = |n: &str| ports.iter().find(|p| p.name == n).cloned();
        assert_eq!(find("clock"), Some(ToolPort { name: "clock".into(), dir: "input".into(), width: 1 }));
        assert_eq!(find("lane_a$3"), Some(ToolPort { name: "lane_a$3".into(), dir: "input".into(), width: 12 }));
        assert_eq!(find("y"), Some(ToolPort { name: "y".into(), dir: "output".into(), width: 1 }));
        assert_eq!(ports.len(), 3);
        let missing = module_ports(&[a, b], "nope").unwrap_err();
        assert!(missing.contains("nope") && missing.contains("a.v"), "{missing}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
