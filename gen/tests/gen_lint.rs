//! `smsync gen` on every `configs/*.yaml` (and with no config): the manifest is complete, every
//! generated `.v` passes `verilator --lint-only -Wall` (waivers: hdl/lint-waivers.vlt) and the
//! yosys structural check (no latches, undriven nets, multiple drivers, combinational loops);
//! the default config's yosys checks run in the full tier.
//!
//! Fails, not skips, when verilator or yosys is missing, unless SMSYNC_SKIP_RTL_TOOLS=1.

use smsync_sim::config::Config;
use smsync_testbench::verilator::{rtl_tools_skipped, verilator_lint, yosys_check, yosys_check_blackboxing};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn out_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("smsync-gen-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Run `smsync gen` and return (seconds, stdout); panics with stderr on failure.
fn gen(config: Option<&Path>, out: &Path) -> (f64, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_smsync"));
    cmd.arg("gen").arg("--out").arg(out);
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    let t = Instant::now();
    let o = cmd.output().unwrap();
    let secs = t.elapsed().as_secs_f64();
    assert!(o.status.success(), "smsync gen {config:?} failed:\n{}", String::from_utf8_lossy(&o.stderr));
    (secs, String::from_utf8_lossy(&o.stdout).into_owned())
}

fn manifest(out: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("manifest.yaml")).unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

/// The manifest names the config, lists every written module with its ports, and carries the
/// whole encoding table.
fn check_manifest(out: &Path, config_name: &str) -> Vec<(String, PathBuf)> {
    let m = manifest(out);
    assert_eq!(m["config"]["name"], config_name);
    let table = m["encoding"].as_array().expect("encoding table");
    let fields: Vec<&str> = table.iter().map(|e| e["field"].as_str().unwrap()).collect();
    assert_eq!(
        fields,
        ["op", "atom_op", "data_type", "space", "vote_mode", "redux_op", "shfl_mode", "bulk_dir", "error"]
    );
    let ops = &table[0]["codes"];
    assert!(ops.as_array().unwrap().iter().any(|c| c[0] == 0x0f && c[1] == "mbarrier.try_wait"), "{ops}");
    let mut files = Vec::new();
    for module in m["modules"].as_array().expect("modules list") {
        let name = module["module"].as_str().unwrap().to_string();
        let file = out.join(module["file"].as_str().unwrap());
        assert!(file.is_file(), "manifest lists {} but it was not written", file.display());
        let ports = module["ports"].as_array().unwrap();
        assert!(
            ports.iter().any(|p| p["name"] == "clock" && p["dir"] == "input" && p["width"] == 1),
            "{name}: no clock"
        );
        files.push((name, file));
    }
    let written = std::fs::read_dir(out)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "v"))
        .count();
    assert_eq!(written, files.len(), "every .v in the output is in the manifest");
    // A unit is either generated or listed as not built: nothing silently missing.
    let listed: Vec<&str> = m["modules"].as_array().unwrap().iter().filter_map(|x| x["unit"].as_str()).collect();
    let missing: Vec<&str> = m["units_not_built"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
    for unit in ["barrier_file", "mbarrier_alu", "atomic_alu", "warp_network", "copy_engine"] {
        assert!(
            listed.contains(&unit) ^ missing.contains(&unit),
            "{unit}: generated={} missing={}",
            listed.contains(&unit),
            missing.contains(&unit)
        );
    }
    files
}

/// Configs whose `sync_unit` top is Verilated with `-Wall` and the project's waivers by
/// `cosim_corpus` (gen/tests/cosim_corpus.rs), which asserts that build log is empty: the same
/// tool, flags and Verilog as a `--lint-only` run, so that half of the top's lint is not run twice
/// (about 40 s on the default config). Its yosys check runs here.
const TOP_VERILATED_BY_COSIM_CORPUS: &[&str] = &["fpga-small", "default"];

fn lint_all(config: &Config, files: &[(String, PathBuf)]) {
    if rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: generated Verilog not linted");
        return;
    }
    let units_in_top = units_inside_the_top(config, files);
    let mut jobs: Vec<(&str, &Path, Linter)> = Vec::new();
    for (module, file) in files {
        if module == "sync_unit" && TOP_VERILATED_BY_COSIM_CORPUS.contains(&config.name.as_str()) {
            eprintln!("{}: sync_unit: Verilator -Wall runs in its cosim build (cosim_corpus)", config.name);
        } else {
            jobs.push((module, file, Linter::Verilator));
        }
        if !yosys_in_this_tier(&config.name) {
            continue;
        }
        let yosys = if module == "sync_unit" { Linter::YosysBlackboxing(&units_in_top) } else { Linter::Yosys };
        jobs.push((module, file, yosys));
    }
    if !yosys_in_this_tier(&config.name) {
        eprintln!("{}: the yosys structural checks run in the full tier (./scripts/test.sh --full)", config.name);
    }
    let failures = run_lint_jobs(&jobs);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Configs whose yosys structural checks run in the full tier only. The default config's modules
/// come from the same generator code as fpga-small's, which both tiers check; its checks take
/// about 160 s of yosys (the barrier file's 16 x 16 barriers, 36 s; the top, 72 s). Its Verilator
/// `-Wall` runs in both tiers.
const YOSYS_IN_FULL_TIER_ONLY: &[&str] = &["default"];

fn yosys_in_this_tier(config_name: &str) -> bool {
    smsync_testkit::tier() == smsync_testkit::Tier::Full || !YOSYS_IN_FULL_TIER_ONLY.contains(&config_name)
}

#[derive(Clone, Copy)]
enum Linter<'a> {
    Verilator,
    Yosys,
    /// The yosys check with these modules reduced to their ports.
    YosysBlackboxing(&'a [&'static str]),
}

/// The modules of the units' instances inside the top, after checking that each holds exactly its
/// unit's own file (every module, renamed by rust-hdl to the instance's path): the top's yosys
/// check can then leave them out, since each unit's file is checked by its own job. The top's
/// structural check keeps its own logic and its connections to the units; Verilator `-Wall` on
/// the whole top (its cosim build, or its lint job here) still sees across the boundaries
/// (UNOPTFLAT for a combinational loop, MULTIDRIVEN, UNDRIVEN). Saves yosys `proc` re-running
/// every unit: the fpga-small top check takes 43 s instead of 96 s.
fn units_inside_the_top(config: &Config, files: &[(String, PathBuf)]) -> Vec<&'static str> {
    let read = |module: &str| {
        let (_, file) = files.iter().find(|(m, _)| m == module).unwrap_or_else(|| panic!("{module} not generated"));
        verilog_modules(&std::fs::read_to_string(file).unwrap())
    };
    let top = read("sync_unit");
    let mut instances = Vec::new();
    for m in smsync_hdl::sync_unit::modules(config) {
        let Some(instance) = m.instance_in_top else { continue };
        let unit = read(m.module);
        for (name, text) in &unit {
            let inside = format!("{instance}{}", &name[m.module.len()..]);
            let found = top.iter().find(|(n, _)| *n == inside).map(|(_, t)| t.replace(instance, m.module));
            assert!(
                found.as_ref() == Some(text),
                "{}: module {name} of {}.v is not the top's {inside} (missing or different)",
                config.name,
                m.module
            );
        }
        instances.push(instance);
    }
    instances
}

/// Every `module NAME(...) ... endmodule` of rust-hdl's Verilog: (name, text).
fn verilog_modules(verilog: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for chunk in verilog.split("\nmodule ").skip(1) {
        let name = chunk.split(|c: char| c == '(' || c.is_whitespace()).next().unwrap().to_string();
        let end = chunk.find("\nendmodule").map_or(chunk.len(), |i| i + "\nendmodule".len());
        out.push((name, chunk[..end].to_string()));
    }
    out
}

/// The lint jobs on two worker threads (the machines have two cores and each tool is
/// single-threaded), in order of submission; returns every failure.
fn run_lint_jobs(jobs: &[(&str, &Path, Linter<'_>)]) -> Vec<String> {
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(&(module, file, linter)) = jobs.get(i) else { break };
                let t = Instant::now();
                let (tool, result) = match linter {
                    Linter::Verilator => ("verilator", verilator_lint(file, module)),
                    Linter::Yosys => ("yosys", yosys_check(file, module)),
                    Linter::YosysBlackboxing(units) => {
                        ("yosys (units as black boxes)", yosys_check_blackboxing(file, module, units))
                    }
                };
                eprintln!("  {module}: {tool} {:.1} s", t.elapsed().as_secs_f64());
                if let Err(e) = result {
                    failures.lock().unwrap().push(e);
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

/// `configs/*.yaml`: the default alone (`default_only`) or every other config.
fn config_files(default_only: bool) -> Vec<PathBuf> {
    let mut configs: Vec<PathBuf> = std::fs::read_dir(workspace().join("configs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .filter(|p| (p.file_stem().unwrap() == "default") == default_only)
        .collect();
    configs.sort();
    configs
}

/// Generate `config` and lint every module of its manifest.
fn gen_and_lint(config: &Path) {
    let stem = config.file_stem().unwrap().to_string_lossy().to_string();
    let out = out_dir(&stem);
    let (secs, stdout) = gen(Some(config), &out);
    eprintln!("{}: {secs:.2} s: {}", config.display(), stdout.trim());
    let config = Config::from_file(config).unwrap();
    let files: Vec<(String, PathBuf)> = check_manifest(&out, &config.name);
    let t = Instant::now();
    lint_all(&config, &files);
    let names: Vec<&str> = files.iter().map(|(m, _)| m.as_str()).collect();
    eprintln!("{}: linted {names:?} in {:.1} s", config.name, t.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn every_config_generates_lint_clean_verilog() {
    let configs = config_files(false);
    assert!(!configs.is_empty(), "configs/ has fpga-small.yaml");
    for config in &configs {
        gen_and_lint(config);
    }
}

/// The default (Hopper-sized) config, every module: barrier file (16 CTA slots x 16 barriers),
/// mbarrier ALU, atomic ALU, copy engine, warp network and the top. Verilator `-Wall` in both tiers
/// (the top's in its cosim build); the yosys checks in the full tier ([`YOSYS_IN_FULL_TIER_ONLY`]).
#[test]
fn default_config_generates_lint_clean_verilog() {
    let configs = config_files(true);
    assert_eq!(configs.len(), 1, "configs/default.yaml");
    for config in &configs {
        gen_and_lint(config);
    }
}

/// `smsync gen` with no config writes the built-in default (the README's first command). Its
/// speed is a benchmark figure (docs/BENCHMARKS.md, "`smsync gen`, default config"), not a test.
#[test]
fn builtin_default_generates_a_complete_manifest() {
    let out = out_dir("default-builtin");
    let (secs, _) = gen(None, &out);
    eprintln!("smsync gen (built-in default): {secs:.2} s wall");
    check_manifest(&out, "default");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_config_names_field_value_and_range() {
    let dir = out_dir("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("bad.yaml");
    std::fs::write(&config, "base: fpga-small\ncta_slots: 40\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_smsync"))
        .args(["gen", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cta_slots") && err.contains("40") && err.contains("1..=32"), "{err}");
    assert!(!dir.join("out").join("manifest.yaml").exists(), "nothing written for a bad config");
    let _ = std::fs::remove_dir_all(&dir);
}
