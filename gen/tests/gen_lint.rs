//! `smsync gen` on every `configs/*.yaml` (and with no config): the manifest is complete, every
//! generated `.v` passes `verilator --lint-only -Wall` (waivers: hdl/lint-waivers.vlt) and the
//! yosys structural check (no latches, undriven nets, multiple drivers, combinational loops).
//!
//! Fails, not skips, when verilator or yosys is missing, unless SMSYNC_SKIP_RTL_TOOLS=1.

use smsync_testbench::verilator::{rtl_tools_skipped, verilator_lint, yosys_check};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, RwLock};
use std::time::Instant;

/// The lint tests share this lock (they run side by side, one per test thread); the time budget
/// test takes it alone: it measures the CPU time of `smsync gen` through this process's child-CPU
/// counters, which concurrent lint runs would inflate.
static CHILD_CPU: RwLock<()> = RwLock::new(());

/// CPU seconds (user + system) of this process's finished children (Linux: /proc/self/stat
/// fields cutime and cstime, in clock ticks of 1/100 s).
fn children_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat (Linux)");
    // Fields after the parenthesised command name; cutime and cstime are fields 16 and 17.
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = f[13].parse::<f64>().unwrap() + f[14].parse::<f64>().unwrap();
    ticks / 100.0
}

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

fn lint_all(config_name: &str, files: &[(String, PathBuf)]) {
    if rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: generated Verilog not linted");
        return;
    }
    let mut jobs: Vec<(&str, &Path, Linter)> = Vec::new();
    for (module, file) in files {
        if module == "sync_unit" && TOP_VERILATED_BY_COSIM_CORPUS.contains(&config_name) {
            eprintln!("{config_name}: sync_unit: Verilator -Wall runs in its cosim build (cosim_corpus)");
        } else {
            jobs.push((module, file, Linter::Verilator));
        }
        jobs.push((module, file, Linter::Yosys));
    }
    let failures = run_lint_jobs(&jobs);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[derive(Clone, Copy)]
enum Linter {
    Verilator,
    Yosys,
}

/// The lint jobs on two worker threads (the machines have two cores and each tool is
/// single-threaded), in order of submission; returns every failure.
fn run_lint_jobs(jobs: &[(&str, &Path, Linter)]) -> Vec<String> {
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
                let result = match linter {
                    Linter::Verilator => verilator_lint(file, module),
                    Linter::Yosys => yosys_check(file, module),
                };
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
    let name = smsync_sim::config::Config::from_file(config).unwrap().name;
    let files: Vec<(String, PathBuf)> = check_manifest(&out, &name);
    let t = Instant::now();
    lint_all(&name, &files);
    let names: Vec<&str> = files.iter().map(|(m, _)| m.as_str()).collect();
    eprintln!("{}: linted {names:?} in {:.1} s", config.display(), t.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn every_config_generates_lint_clean_verilog() {
    let _shared = CHILD_CPU.read().unwrap_or_else(|e| e.into_inner());
    let configs = config_files(false);
    assert!(!configs.is_empty(), "configs/ has fpga-small.yaml");
    for config in &configs {
        gen_and_lint(config);
    }
}

/// The default (Hopper-sized) config, every module: barrier file (16 CTA slots x 16 barriers),
/// mbarrier ALU, atomic ALU, copy engine, warp network and the top. The longest test of this
/// binary: about 3.5 minutes of Verilator and yosys time on a two-core machine (measured
/// 2026-11-22: warp network + top 208 s, the four other units about 70 s). It became affordable
/// when the warp network's 512 rendezvous records moved from flip-flops into one RAM per CTA
/// slot: before, Verilator alone took 226 s on the warp network and yosys `proc` did not finish
/// in 30 min.
#[test]
fn default_config_generates_lint_clean_verilog() {
    let _shared = CHILD_CPU.read().unwrap_or_else(|e| e.into_inner());
    let configs = config_files(true);
    assert_eq!(configs.len(), 1, "configs/default.yaml");
    for config in &configs {
        gen_and_lint(config);
    }
}

/// Budget: 5 s for the default config. Asserted on CPU time, because the wall time of a shared
/// two-core machine under parallel builds says more about the neighbours than about `gen`
/// (idle machine: ~1.3 s wall).
#[test]
fn default_config_generates_in_under_five_seconds() {
    let _alone = CHILD_CPU.write().unwrap_or_else(|e| e.into_inner());
    let out = out_dir("default-builtin");
    let cpu_before = children_cpu_seconds();
    let (secs, _) = gen(None, &out);
    let cpu = children_cpu_seconds() - cpu_before;
    eprintln!("smsync gen (default): {cpu:.2} s CPU, {secs:.2} s wall");
    check_manifest(&out, "default");
    assert!(cpu < 5.0, "smsync gen (built-in default) used {cpu:.2} s of CPU ({secs:.2} s wall); the budget is 5 s");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_config_names_field_value_and_range() {
    let _shared = CHILD_CPU.read().unwrap_or_else(|e| e.into_inner());
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
