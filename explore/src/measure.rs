//! One point's stages, each a subprocess of the `smsync` executable, each cached in the point's
//! directory under a key of its inputs, so that a re-run computes only what changed:
//!
//! | stage | command | key (what invalidates it) |
//! |---|---|---|
//! | gen | `smsync gen --config point.yaml --out rtl` | always re-run (about a second); its Verilog hash keys the rest |
//! | lint | `smsync lint --rtl rtl` | the Verilog |
//! | synth | `smsync synth --quiet --config point.yaml --target T --out synth-T` | the Verilog and the target |
//! | cosim | `smsync cosim K --launch L --config point.yaml --json` | the Verilog, the workload files and the `smsync` executable (the golden model lives there) |
//! | timed (instead of cosim with `cycles: timed`) | `smsync run K --launch L --config point.yaml --timing` | the config, the workload files and the `smsync` executable |
//!
//! A `cycles: timed` sweep without targets needs no RTL: it skips gen and lint.
//!
//! Layout: `<out>/points/<config-key>/{point.yaml, rtl/, <stage>.json}`. Every stage has a time
//! limit; a stage that fails or times out is recorded in the point's row, the sweep goes on.

use crate::hash;
use crate::results::{GenFigures, PointResult, SynthFigures, WorkloadFigures};
use crate::sweep::{CycleSource, Point, Sweep, Workload};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How the stages are run.
#[derive(Clone, Debug)]
pub struct Measure {
    /// The `smsync` executable.
    pub exe: PathBuf,
    pub out: PathBuf,
    pub lint: bool,
    pub synth_timeout: Duration,
    pub cosim_timeout: Duration,
    pub other_timeout: Duration,
}

/// A cached stage result: the key it was computed for, and the value.
#[derive(Serialize, Deserialize)]
struct Cached<T> {
    key: String,
    value: T,
}

/// What the measurement of one point did: its result, and how many stages came from the cache.
pub struct Measured {
    pub result: PointResult,
    pub computed: usize,
    pub cached: usize,
}

impl Measure {
    pub fn point_dir(&self, point: &Point) -> PathBuf {
        self.out.join("points").join(config_key(point))
    }

    /// Run every stage of `point` (stages whose inputs did not change come from the cache).
    /// `progress(stage)` is called before each stage.
    pub fn point(&self, sweep: &Sweep, point: &Point, progress: &dyn Fn(&str)) -> Measured {
        let mut m = Measured {
            result: PointResult {
                index: point.index,
                label: point.label(),
                assignment: point.assignment.clone(),
                config_key: config_key(point),
                ..Default::default()
            },
            computed: 0,
            cached: 0,
        };
        if let Err(e) = self.stages(sweep, point, &mut m, progress) {
            m.result.error = Some(e);
        }
        m
    }

    fn stages(&self, sweep: &Sweep, point: &Point, m: &mut Measured, progress: &dyn Fn(&str)) -> Result<(), String> {
        let dir = self.point_dir(point);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let config_file = dir.join("point.yaml");
        write(&config_file, &point.config.to_yaml())?;

        // A timed sweep without synthesis needs no RTL: no gen, no lint (seconds per point).
        if sweep.cycles == CycleSource::Timed && sweep.targets.is_empty() {
            let exe_key = file_key(&self.exe)?;
            return self.timed_workloads(sweep, &config_file, &exe_key, m, progress);
        }

        progress("gen");
        let rtl = dir.join("rtl");
        let _ = std::fs::remove_dir_all(&rtl);
        self.run(&[a("gen"), a("--config"), a(&config_file), a("--out"), a(&rtl)], self.other_timeout)?;
        let gen = gen_figures(&rtl)?;
        let rtl_key = gen.rtl_key.clone();
        m.result.gen = Some(gen);

        if self.lint {
            progress("lint");
            let r = self.cached(&dir.join("lint.json"), &rtl_key, m, || {
                Ok(self.run(&[a("lint"), a("--rtl"), a(&rtl)], self.other_timeout).map(|_| ()))
            })?;
            m.result.lint = Some(r);
        }

        for target in &sweep.targets {
            progress(&format!("synth {target}"));
            let out = dir.join(format!("synth-{target}"));
            let modules = sweep.synth_modules.join(",");
            let key = hash::key(&[rtl_key.as_bytes(), target.as_bytes(), modules.as_bytes()]);
            let figures = self.cached(&dir.join(format!("synth-{target}.json")), &key, m, || {
                // --quiet: a failing run's stderr becomes the row's note, so it must hold the error
                // and not progress lines.
                let mut args = vec![
                    a("synth"),
                    a("--quiet"),
                    a("--config"),
                    a(&config_file),
                    a("--target"),
                    a(target),
                    a("--out"),
                    a(&out),
                ];
                let secs = self.synth_timeout.as_secs().to_string();
                args.extend([a("--timeout"), a(&secs)]);
                for module in &sweep.synth_modules {
                    args.extend([a("--module"), a(module)]);
                }
                // `smsync synth` exits non-zero when a module's tool run failed; the report is
                // still written and says which, so it is read either way.
                let run = self.run(&args, self.synth_timeout * (sweep.synth_modules.len().max(6) as u32));
                Ok(match (synth_figures(&out), run) {
                    (Ok(f), _) => f,
                    (Err(_), Err(e)) | (Err(e), Ok(_)) => SynthFigures { note: e, ..Default::default() },
                })
            })?;
            m.result.synth.insert(target.clone(), figures);
        }

        let exe_key = file_key(&self.exe)?;
        if sweep.cycles == CycleSource::Timed {
            return self.timed_workloads(sweep, &config_file, &exe_key, m, progress);
        }
        for w in &sweep.workloads {
            progress(&format!("cosim {}", w.name));
            let key = hash::key(&[
                rtl_key.as_bytes(),
                file_key(&w.kernel)?.as_bytes(),
                file_key(&w.launch)?.as_bytes(),
                exe_key.as_bytes(),
            ]);
            let timed = sweep.cycles == CycleSource::TimedRtl;
            let file = dir.join(format!("{}-{}.json", if timed { "cosim-timed" } else { "cosim" }, w.name));
            let figures = self.cached(&file, &key, m, || Ok(self.cosim(w, &config_file, timed)))?;
            m.result.workloads.insert(w.name.clone(), figures);
        }
        Ok(())
    }

    /// Every workload on the SM timing model (no RTL): `smsync run --timing`'s kernel cycles.
    fn timed_workloads(
        &self,
        sweep: &Sweep,
        config_file: &Path,
        exe_key: &str,
        m: &mut Measured,
        progress: &dyn Fn(&str),
    ) -> Result<(), String> {
        let config_text = std::fs::read(config_file).map_err(|e| format!("{}: {e}", config_file.display()))?;
        for w in &sweep.workloads {
            progress(&format!("timed {}", w.name));
            let key = hash::key(&[
                &config_text,
                file_key(&w.kernel)?.as_bytes(),
                file_key(&w.launch)?.as_bytes(),
                exe_key.as_bytes(),
            ]);
            let figures =
                self.cached(&self.point_dir_of(config_file).join(format!("timed-{}.json", w.name)), &key, m, || {
                    Ok(self.timed(w, config_file))
                })?;
            m.result.workloads.insert(w.name.clone(), figures);
        }
        Ok(())
    }

    fn point_dir_of(&self, config_file: &Path) -> PathBuf {
        config_file.parent().unwrap_or(Path::new(".")).to_path_buf()
    }

    fn timed(&self, w: &Workload, config: &Path) -> WorkloadFigures {
        let args = [a("run"), a(&w.kernel), a("--launch"), a(&w.launch), a("--config"), a(config), a("--timing")];
        let (ok, stdout, stderr) = match self.run_raw(&args, self.cosim_timeout) {
            Ok(r) => r,
            Err(e) => return WorkloadFigures { passed: false, message: e, ..Default::default() },
        };
        let report: Option<Value> = serde_json::from_str(&stdout).ok();
        let timing = report.as_ref().and_then(|r| r.get("timing"));
        let stats = report.as_ref().and_then(|r| r.get("stats"));
        WorkloadFigures {
            passed: ok && timing.is_some(),
            cycles: timing.and_then(|t| t.get("cycles")).and_then(Value::as_u64),
            requests: stats.and_then(|s| s.get("requests")).and_then(Value::as_u64),
            message: if ok { String::new() } else { stderr.trim().to_string() },
        }
    }

    /// `smsync cosim` (with `--timing`: the SM timing model's kernel cycles on the RTL back end,
    /// else the RTL cycles of the requests one at a time).
    fn cosim(&self, w: &Workload, config: &Path, timed: bool) -> WorkloadFigures {
        let mut args =
            vec![a("cosim"), a(&w.kernel), a("--launch"), a(&w.launch), a("--config"), a(config), a("--json")];
        if timed {
            args.push(a("--timing"));
        }
        let (ok, stdout, stderr) = match self.run_raw(&args, self.cosim_timeout) {
            Ok(r) => r,
            Err(e) => return WorkloadFigures { passed: false, message: e, ..Default::default() },
        };
        let report: Option<Value> = serde_json::from_str(&stdout).ok();
        let num = |k: &str| report.as_ref().and_then(|r| r.get(k)).and_then(Value::as_u64);
        let kernel_cycles = report.as_ref().and_then(|r| r.pointer("/result/timing/cycles")).and_then(Value::as_u64);
        WorkloadFigures {
            passed: ok && (!timed || kernel_cycles.is_some()),
            cycles: if timed { kernel_cycles } else { num("cycles") },
            requests: num("requests"),
            message: if ok { String::new() } else { stderr.trim().to_string() },
        }
    }

    /// A stage through its cache file: recomputed when the file is missing or has another key.
    fn cached<T: Serialize + DeserializeOwned>(
        &self,
        file: &Path,
        key: &str,
        m: &mut Measured,
        compute: impl FnOnce() -> Result<T, String>,
    ) -> Result<T, String> {
        if let Ok(text) = std::fs::read_to_string(file) {
            if let Ok(c) = serde_json::from_str::<Cached<T>>(&text) {
                if c.key == key {
                    m.cached += 1;
                    return Ok(c.value);
                }
            }
        }
        let value = compute()?;
        m.computed += 1;
        let text = serde_json::to_string_pretty(&Cached { key: key.to_string(), value }).map_err(|e| e.to_string())?;
        write(file, &text)?;
        Ok(serde_json::from_str::<Cached<T>>(&text).map_err(|e| e.to_string())?.value)
    }

    /// Run `smsync <args>`; Err(stderr) when it fails or times out.
    fn run(&self, args: &[&OsStr], limit: Duration) -> Result<String, String> {
        match self.run_raw(args, limit)? {
            (true, out, _) => Ok(out),
            (false, _, err) => Err(format!("smsync {} failed: {}", args[0].to_string_lossy(), err.trim())),
        }
    }

    /// Run `smsync <args>` with a time limit: (success, stdout, stderr).
    fn run_raw(&self, args: &[&OsStr], limit: Duration) -> Result<(bool, String, String), String> {
        let mut child = Command::new(&self.exe)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        // Drain the pipes on threads so a chatty tool cannot block on a full pipe.
        let mut so = child.stdout.take().expect("piped");
        let mut se = child.stderr.take().expect("piped");
        let t_out = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut so, &mut s);
            s
        });
        let t_err = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut se, &mut s);
            s
        });
        let start = Instant::now();
        let status = loop {
            if let Some(st) = child.try_wait().map_err(|e| e.to_string())? {
                break Some(st);
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let (out, err) = (t_out.join().unwrap_or_default(), t_err.join().unwrap_or_default());
        match status {
            Some(st) => Ok((st.success(), out, err)),
            None => {
                let shown: Vec<_> = args.iter().map(|x| x.to_string_lossy()).collect();
                Err(format!(
                    "smsync {} did not finish within {} s (time limit of the stage)",
                    shown.join(" "),
                    limit.as_secs()
                ))
            }
        }
    }
}

/// The key of a point's directory: a hash of its complete config.
pub fn config_key(point: &Point) -> String {
    // The name differs per point index; the key must depend on the architecture only, so that
    // the same config reached from another sweep shares the cache.
    let mut c = point.config.clone();
    c.name = String::new();
    hash::key(&[c.to_yaml().as_bytes()])
}

fn gen_figures(rtl: &Path) -> Result<GenFigures, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(rtl)
        .map_err(|e| format!("{}: {e}", rtl.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .collect();
    files.sort();
    let mut bytes = Vec::new();
    let mut total = 0u64;
    for f in &files {
        let b = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        total += b.len() as u64;
        bytes.push(without_generator_header(&b).to_vec());
    }
    let parts: Vec<&[u8]> = bytes.iter().map(|b| b.as_slice()).collect();
    Ok(GenFigures { modules: files.len(), verilog_bytes: total, rtl_key: hash::key(&parts) })
}

/// The Verilog without `smsync gen`'s first line, which names the config (`<sweep>-<index>` for a
/// point): the cache keys must depend on the hardware only, so that the same architecture reached
/// from another sweep or another grid position finds its lint and synthesis results.
fn without_generator_header(verilog: &[u8]) -> &[u8] {
    const HEADER: &[u8] = b"// Generated by smsync gen ";
    if verilog.starts_with(HEADER) {
        match verilog.iter().position(|&c| c == b'\n') {
            Some(end) => &verilog[end + 1..],
            None => &[],
        }
    } else {
        verilog
    }
}

/// Area and Fmax of the top from `smsync synth`'s JSON report (`<out>/report.json`).
fn synth_figures(out: &Path) -> Result<SynthFigures, String> {
    let file = out.join("report.json");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(crate::measure::synth_from_report(&v))
}

/// The figures of a `smsync synth` report (fpga crate's `SynthReport`): the top's when it was
/// synthesised, else the sum over the modules that were (said in `note`). Fmax is the slowest
/// placed module's; `fits` is false when any module was refused or did not fit.
pub fn synth_from_report(v: &Value) -> SynthFigures {
    let modules: Vec<&Value> =
        v.get("modules").and_then(Value::as_array).map(|m| m.iter().collect()).unwrap_or_default();
    let name = |m: &Value| m.get("module").and_then(Value::as_str).unwrap_or("").to_string();
    let synthesised: Vec<&Value> =
        modules.iter().copied().filter(|m| m.get("synth").is_some_and(|s| !s.is_null())).collect();
    let top = synthesised.iter().copied().find(|m| name(m) == "sync_unit");
    let counted: Vec<&Value> = match top {
        Some(t) => vec![t],
        None => synthesised.clone(),
    };
    let sum = |k: &str| -> Option<u64> {
        if counted.is_empty() {
            return None;
        }
        Some(counted.iter().map(|m| m["synth"][k].as_f64().unwrap_or(0.0)).sum::<f64>().ceil() as u64)
    };
    let fmax = modules
        .iter()
        .filter_map(|m| m.get("pnr").and_then(|p| p.get("fmax_mhz")).and_then(Value::as_f64))
        .fold(None, |acc: Option<f64>, f| Some(acc.map_or(f, |a| a.min(f))));
    let refused = modules
        .iter()
        .any(|m| m.get("fit").and_then(|f| f.get("refused")).and_then(Value::as_array).is_some_and(|r| !r.is_empty()));
    let failed_modules: Vec<String> =
        modules.iter().filter(|m| m.get("error").is_some_and(|e| !e.is_null())).map(|m| name(m)).collect();
    let mut notes = Vec::new();
    if top.is_none() && !counted.is_empty() {
        notes.push(format!("area = sum of {}", counted.iter().map(|m| name(m)).collect::<Vec<_>>().join(" + ")));
    }
    for m in &modules {
        if let Some(e) = m.get("error").and_then(Value::as_str) {
            notes.push(format!("{}: {}", name(m), e.lines().next().unwrap_or("")));
        }
    }
    SynthFigures {
        luts: sum("luts"),
        ffs: sum("ffs"),
        brams: sum("bram"),
        dsps: sum("dsp"),
        fmax_mhz: fmax,
        fits: Some(!refused),
        note: notes.join("; "),
        failed_modules,
    }
}

fn file_key(p: &Path) -> Result<String, String> {
    let b = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
    Ok(hash::key(&[&b]))
}

fn write(p: &Path, text: &str) -> Result<(), String> {
    std::fs::write(p, text).map_err(|e| format!("{}: {e}", p.display()))
}

/// A command-line argument (paths stay `OsStr`: nothing is lost to UTF-8 conversion).
fn a<T: AsRef<OsStr> + ?Sized>(x: &T) -> &OsStr {
    x.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `text` as `unit.v` in a fresh directory and returns gen's figures for it.
    fn figures_of(tag: &str, text: &str) -> GenFigures {
        let dir = std::env::temp_dir().join(format!("smsync-explore-key-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("unit.v"), text).unwrap();
        let f = gen_figures(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        f
    }

    #[test]
    fn a_module_that_did_not_finish_is_named_and_left_out_of_the_area() {
        let report = serde_json::json!({"modules": [
            {"module": "barrier_file", "synth": {"luts": 100, "ffs": 50, "bram": 0.0, "dsp": 0}, "pnr": null, "error": null},
            {"module": "warp_network", "synth": null, "pnr": null, "error": "yosys ... timed out after 1800 s"},
        ]});
        let f = synth_from_report(&report);
        assert_eq!(f.luts, Some(100));
        assert_eq!(f.failed_modules, ["warp_network"]);
        assert!(f.note.contains("area = sum of barrier_file") && f.note.contains("timed out"), "{}", f.note);
        let mut p = PointResult::default();
        p.synth.insert("xilinx-7".into(), f);
        let r =
            crate::results::SweepResults { targets: vec!["xilinx-7".into()], points: vec![p], ..Default::default() };
        assert!(r.to_csv().trim_end().ends_with(",synth-incomplete"), "{}", r.to_csv());
    }

    #[test]
    fn the_verilog_key_ignores_the_config_name_but_not_the_hardware() {
        let body = "module unit(input a, output b);\n  assign b = a;\nendmodule\n";
        let a = figures_of("a", &format!("// Generated by smsync gen 0.1.0 from config `s-0`; do not edit.\n{body}"));
        let b =
            figures_of("b", &format!("// Generated by smsync gen 0.1.0 from config `other-7`; do not edit.\n{body}"));
        let c = figures_of(
            "c",
            &format!(
                "// Generated by smsync gen 0.1.0 from config `s-0`; do not edit.\n{}",
                body.replace("= a", "= ~a")
            ),
        );
        assert_eq!(a.rtl_key, b.rtl_key, "the config name must not change the key");
        assert_ne!(a.rtl_key, c.rtl_key, "other hardware must change the key");
        assert_eq!(a.modules, 1);
        // Other comments are hardware-neutral too, but only gen's own header is known to vary.
        let d = figures_of("d", &format!("// a hand-written file\n{body}"));
        assert_ne!(a.rtl_key, d.rtl_key);
    }
}
