//! `smsync lint [--rtl DIR]`: the two lint gates of the test suite on a `smsync gen` output
//! directory: `verilator --lint-only -Wall` (waivers: hdl/lint-waivers.vlt) and the yosys
//! structural check, on every module the manifest lists. Non-zero exit on the first complaint.

use smsync_testbench::verilator::{verilator_lint, yosys_check};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// A directory written by `smsync gen`.
    #[arg(long, default_value = "build/rtl")]
    pub rtl: PathBuf,
}

pub fn main(a: Args) -> Result<(), String> {
    let manifest = a.rtl.join("manifest.yaml");
    let text = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("{}: {e} (run `smsync gen` first)", manifest.display()))?;
    let m: serde_json::Value = serde_saphyr::from_str(&text).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let modules = m
        .get("modules")
        .and_then(|v| v.as_array())
        .ok_or_else(|| format!("{}: no `modules` list", manifest.display()))?;
    for entry in modules {
        let (Some(module), Some(file)) =
            (entry.get("module").and_then(|v| v.as_str()), entry.get("file").and_then(|v| v.as_str()))
        else {
            return Err(format!("{}: a module entry without `module`/`file`: {entry}", manifest.display()));
        };
        let path = a.rtl.join(file);
        verilator_lint(&path, module)?;
        yosys_check(&path, module)?;
        println!("{module}: clean");
    }
    Ok(())
}
