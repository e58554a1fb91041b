//! RTL the cosim did not generate itself: a directory of Verilog that implements the `sync_unit`
//! port contract of its `manifest.yaml` (a `smsync gen` output edited by hand, or with a unit
//! replaced by the user's own), for `smsync cosim --rtl DIR` and `smsync fuzz --backend cosim
//! --rtl DIR`.
//!
//! * The config is the manifest's (`config:`); a config given as well must agree with it field
//!   by field (the name aside), since the golden model runs on one config and the RTL was built
//!   for the manifest's.
//! * The manifest's ports of `sync_unit` must be the port table's for its config
//!   (`smsync_contract::port::sync_unit_ports`).
//! * The ports of module `sync_unit`, as yosys reads the directory's files
//!   ([`smsync_rtl_tools::module_ports`]), must be the manifest's ports of `sync_unit`: same
//!   names, directions and widths. This runs before any Verilator build, so a wrong port is
//!   reported by name with its expected and actual width, not as a C++ compile error.
//! * Every `.v` / `.sv` file of the directory is compiled (`.vh` / `.svh` are copied beside them
//!   for `include`), and all of them, names and text, are in the Verilator cache key. A
//!   directory as `smsync gen` wrote it holds exactly the files the cosim builds its own model
//!   from ([`smsync_hdl::sync_unit::generated_files`]), so it reuses that model.

use crate::verilator::builder::SourceFile;
use crate::verilator::{Port, PortDir};
use smsync_rtl_tools::ToolPort;
use smsync_sim::config::Config;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The top module the cosim drives.
pub const TOP: &str = "sync_unit";

/// A directory of Verilog with its manifest, read and checked.
pub struct RtlDir {
    pub dir: PathBuf,
    /// The Verilog files (and headers), sorted by name.
    pub files: Vec<SourceFile>,
    /// The manifest's config (equal to a `--config` given as well, name aside).
    pub config: Config,
    /// The manifest's ports of `sync_unit`, in its order (the shim's port order).
    pub ports: Vec<Port>,
    /// FNV-1a of every file's name and text: tells two states of one directory apart in the
    /// model pool.
    digest: u64,
}

impl fmt::Debug for RtlDir {
    // The pool keys on the Debug text of the cosim's setup: the digest stands for megabytes of text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RtlDir({}, {} files, {:016x})", self.dir.display(), self.files.len(), self.digest)
    }
}

impl PartialEq for RtlDir {
    fn eq(&self, other: &RtlDir) -> bool {
        self.dir == other.dir && self.digest == other.digest
    }
}

impl Eq for RtlDir {}

impl std::hash::Hash for RtlDir {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.dir.hash(state);
        self.digest.hash(state);
    }
}

impl RtlDir {
    /// Read `dir`: its manifest (config and the ports of `sync_unit`) and its Verilog files.
    /// `given` is a config from elsewhere (`--config FILE`, with FILE's name for the message),
    /// which must agree with the manifest's. The ports are not checked yet ([`RtlDir::check_ports`]).
    pub fn open(dir: &Path, given: Option<(&Config, &str)>) -> Result<RtlDir, String> {
        let manifest_path = dir.join("manifest.yaml");
        let text = std::fs::read_to_string(&manifest_path).map_err(|e| {
            format!(
                "{}: {e} (--rtl needs the manifest.yaml that `smsync gen` writes beside the Verilog)",
                manifest_path.display()
            )
        })?;
        let manifest: serde_json::Value =
            serde_saphyr::from_str(&text).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
        let config = manifest_config(&manifest, &manifest_path)?;
        if let Some((given, name)) = given {
            configs_agree(&config, given, name, &manifest_path)?;
        }
        let ports = manifest_ports(&manifest, &manifest_path)?;
        table_ports(&config, &ports, &manifest_path)?;
        let files = read_sources(dir)?;
        let digest = digest(&files);
        Ok(RtlDir { dir: dir.to_path_buf(), files, config, ports, digest })
    }

    /// The ports of module `sync_unit` in the directory's files (read by yosys) against the
    /// manifest's: `Err` lists every port whose width or direction differs, every port the
    /// manifest has and the Verilog lacks, and every port the manifest does not have.
    pub fn check_ports(&self) -> Result<(), String> {
        let paths: Vec<PathBuf> = self
            .files
            .iter()
            .map(|f| self.dir.join(&f.name))
            .filter(|p| smsync_rtl_tools::ports::is_verilog_source(p))
            .collect();
        let actual = smsync_rtl_tools::module_ports(&paths, TOP)?;
        compare_ports(&self.ports, &actual).map_err(|problems| {
            format!(
                "the ports of module `{TOP}` in {} do not match {}:\n  {}",
                self.dir.display(),
                self.dir.join("manifest.yaml").display(),
                problems.join("\n  ")
            )
        })
    }

    /// [`RtlDir::open`] then [`RtlDir::check_ports`].
    pub fn open_checked(dir: &Path, given: Option<(&Config, &str)>) -> Result<RtlDir, String> {
        let rtl = RtlDir::open(dir, given)?;
        rtl.check_ports()?;
        Ok(rtl)
    }
}

/// The manifest's `config:`, validated like a config file.
fn manifest_config(manifest: &serde_json::Value, path: &Path) -> Result<Config, String> {
    let value = manifest.get("config").ok_or_else(|| format!("{}: no `config` field", path.display()))?;
    // JSON is YAML: the config reader takes the manifest's config as a complete config file.
    let text = serde_json::to_string(value).map_err(|e| format!("{}: config: {e}", path.display()))?;
    Config::from_yaml(&text, &format!("{} (field `config`)", path.display())).map_err(|e| e.to_string())
}

/// `Err` naming every field where `given` (from `given_name`) and the manifest's config differ.
/// The name is a label (it changes no hardware), so it may differ.
fn configs_agree(manifest: &Config, given: &Config, given_name: &str, path: &Path) -> Result<(), String> {
    let flat = |c: &Config| {
        let mut out = BTreeMap::new();
        flatten("", &serde_json::to_value(c).expect("config serializes"), &mut out);
        out.remove("name");
        out
    };
    let (m, g) = (flat(manifest), flat(given));
    let diffs: Vec<String> = m
        .iter()
        .filter(|(k, v)| g.get(*k) != Some(v))
        .map(|(k, v)| {
            format!("`{k}` = {} in {given_name}, {v} in the manifest", g.get(k).map_or("(none)", |s| s.as_str()))
        })
        .collect();
    if diffs.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{given_name} and {} disagree (the RTL was generated for the manifest's config; drop the config option or regenerate the RTL):\n  {}",
        path.display(),
        diffs.join("\n  ")
    ))
}

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut BTreeMap<String, String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                flatten(&key, v, out);
            }
        }
        other => {
            out.insert(prefix.to_string(), other.to_string());
        }
    }
}

/// The manifest's ports of module `sync_unit`.
fn manifest_ports(manifest: &serde_json::Value, path: &Path) -> Result<Vec<Port>, String> {
    let modules = manifest.get("modules").and_then(|m| m.as_array()).map(Vec::as_slice).unwrap_or_default();
    let top = modules.iter().find(|m| m.get("module").and_then(|n| n.as_str()) == Some(TOP)).ok_or_else(|| {
        format!(
            "{}: no module `{TOP}` in `modules` (the cosim drives the `{TOP}` top; a board manifest has none)",
            path.display()
        )
    })?;
    let ports = top.get("ports").and_then(|p| p.as_array()).map(Vec::as_slice).unwrap_or_default();
    ports
        .iter()
        .map(|p| {
            let name = p.get("name").and_then(|v| v.as_str());
            let width = p.get("width").and_then(|v| v.as_u64());
            let dir = match p.get("dir").and_then(|v| v.as_str()) {
                Some("input") => Some(PortDir::Input),
                Some("output") => Some(PortDir::Output),
                _ => None,
            };
            match (name, dir, width) {
                (Some(name), Some(dir), Some(width)) if width > 0 => {
                    Ok(Port { name: name.into(), dir, width: width as usize })
                }
                _ => Err(format!(
                    "{}: a port of `{TOP}` without a name, an input/output dir and a width >= 1: {p}",
                    path.display()
                )),
            }
        })
        .collect()
}

/// The manifest's ports of `sync_unit` against the port table for its config
/// (`smsync_contract::port`): a manifest of another port version (e.g. written before the
/// request port was streamed) is reported by port, not found out in the Verilator build.
fn table_ports(config: &Config, ports: &[Port], path: &Path) -> Result<(), String> {
    use smsync_contract::port::{check_ports, Dir};
    let dir = |d: PortDir| if d == PortDir::Input { Dir::In } else { Dir::Out };
    check_ports(config, ports.iter().map(|p| (p.name.as_str(), dir(p.dir), p.width))).map_err(|problems| {
        format!(
            "{}: the ports of `{TOP}` are not the port table's for its config (regenerate with `smsync gen`):\n  {}",
            path.display(),
            problems.join("\n  ")
        )
    })
}

/// Every `.v`, `.sv`, `.vh` and `.svh` file directly in `dir`, sorted by name.
fn read_sources(dir: &Path) -> Result<Vec<SourceFile>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let verilog = matches!(path.extension().and_then(|e| e.to_str()), Some("v" | "sv" | "vh" | "svh"));
        if !verilog || !path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_name().expect("a file has a name").to_string_lossy().into_owned();
        files.push(SourceFile { name, text });
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    if !files.iter().any(|f| f.name.ends_with(".v") || f.name.ends_with(".sv")) {
        return Err(format!("{}: no Verilog (.v or .sv) file", dir.display()));
    }
    Ok(files)
}

fn digest(files: &[SourceFile]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for f in files {
        for b in f.name.bytes().chain([0]).chain(f.text.bytes()).chain([0xff]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// Expected (manifest) against actual (the tool's) ports: one line per problem, manifest order
/// first, then the ports the manifest lacks ([`smsync_contract::port::compare_port_lists`]).
pub fn compare_ports(expected: &[Port], actual: &[ToolPort]) -> Result<(), Vec<String>> {
    let expected: Vec<(&str, &str, usize)> = expected
        .iter()
        .map(|e| (e.name.as_str(), if e.dir == PortDir::Input { "input" } else { "output" }, e.width))
        .collect();
    let actual: Vec<(&str, &str, usize)> = actual.iter().map(|a| (a.name.as_str(), a.dir.as_str(), a.width)).collect();
    smsync_contract::port::compare_port_lists(&expected, &actual, "the manifest")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(name: &str, dir: PortDir, width: usize) -> Port {
        Port { name: name.into(), dir, width }
    }

    fn tool(name: &str, dir: &str, width: usize) -> ToolPort {
        ToolPort { name: name.into(), dir: dir.into(), width }
    }

    #[test]
    fn port_problems_name_the_port_and_both_widths() {
        let expected =
            [port("clock", PortDir::Input, 1), port("lane_a$0", PortDir::Input, 64), port("busy", PortDir::Output, 1)];
        assert_eq!(
            compare_ports(
                &expected,
                &[tool("busy", "output", 1), tool("clock", "input", 1), tool("lane_a$0", "input", 64)]
            ),
            Ok(())
        );
        let problems = compare_ports(
            &expected,
            &[tool("clock", "output", 1), tool("lane_a$0", "input", 32), tool("debug", "output", 8)],
        )
        .unwrap_err();
        assert_eq!(
            problems,
            [
                "port `clock`: expected direction input, actual output",
                "port `lane_a$0`: expected width 64, actual width 32",
                "port `busy` (output, 1 bit) is missing",
                "port `debug` (output, 8 bits) is not in the manifest",
            ]
        );
    }

    #[test]
    fn a_config_that_differs_from_the_manifest_is_named_field_by_field() {
        let manifest = Config::fpga_small();
        let mut given = Config::fpga_small();
        given.name = "renamed".into();
        assert_eq!(configs_agree(&manifest, &given, "my.yaml", Path::new("d/manifest.yaml")), Ok(()));
        given.atomic_lanes *= 2;
        given.features.match_sync = !given.features.match_sync;
        let e = configs_agree(&manifest, &given, "my.yaml", Path::new("d/manifest.yaml")).unwrap_err();
        let lanes =
            format!("`atomic_lanes` = {} in my.yaml, {} in the manifest", given.atomic_lanes, manifest.atomic_lanes);
        assert!(e.contains(&lanes), "{e}");
        assert!(e.contains("`features.match_sync` ="), "{e}");
        assert!(!e.contains("`name`"), "{e}");
    }
}
