//! Runs every kernel of the conformance corpus (`testbench/ptx/<name>.ptx` + launch file) on the
//! golden units and compares the final buffers with the host reference's expected JSON
//! (independently computed in Python, never by smsync). Float buffers use the file's tolerance.

use smsync_sim::config::Config;
use smsync_sim::exec::{run, Launch, RunOptions};
use smsync_sim::timing::TimedUnits;
use smsync_sim::units::{GoldenUnits, SyncUnit};
use std::path::Path;

/// Equal, or for floats within `epsilon` absolute or `max_relative` relative (the file's tolerance
/// for the buffer; exact by default).
fn close(a: &serde_json::Value, b: &serde_json::Value, eps: f64, rel: f64) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) if a.is_f64() || b.is_f64() => {
            x == y || (x - y).abs() <= eps || (x - y).abs() <= rel * x.abs().max(y.abs())
        }
        _ => a == b,
    }
}

fn run_one(dir: &Path, name: &str) -> Result<(), String> {
    run_on(dir, name, &Config::default(), false)
}

/// `name` on `cfg`, untimed on the golden units or timed (the SM timing model on the golden
/// units' timing back end); the final buffers must match the host reference either way.
fn run_on(dir: &Path, name: &str, cfg: &Config, timed: bool) -> Result<(), String> {
    let ptx = std::fs::read_to_string(dir.join(format!("{name}.ptx"))).map_err(|e| e.to_string())?;
    let module = smsync_sim::ptx::parse(&ptx, &format!("{name}.ptx")).map_err(|e| e.to_string())?;
    let launch = Launch::from_file(&dir.join(format!("{name}.launch.yaml"))).map_err(|e| e.to_string())?;
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("{name}.expected.json"))).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let mut golden = GoldenUnits::new(cfg);
    let mut timing = TimedUnits::new(cfg);
    let unit: &mut dyn SyncUnit = if timed { &mut timing } else { &mut golden };
    let opts = RunOptions { timing: timed, ..RunOptions::default() };
    let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&module, &launch, cfg, unit, opts)))
        .map_err(|_| "panicked (a unit not built yet?)".to_string())?
        .map_err(|e| e.to_string())?;
    for (buf, want) in expected["buffers"].as_object().ok_or("no buffers")? {
        let got = res.values(buf).ok_or(format!("no buffer {buf}"))?;
        let want = want.as_array().ok_or("buffer not a list")?;
        if got.len() != want.len() {
            return Err(format!("{buf}: {} elements, expected {}", got.len(), want.len()));
        }
        let t = expected.get("tolerance").and_then(|t| t.get(buf));
        let eps = t.and_then(|t| t.get("epsilon")).and_then(|v| v.as_f64()).unwrap_or(0.0);
        let rel = t.and_then(|t| t.get("max_relative")).and_then(|v| v.as_f64()).unwrap_or(0.0);
        if let Some(i) = (0..got.len()).find(|&i| !close(&got[i], &want[i], eps, rel)) {
            return Err(format!("{buf}[{i}] = {}, expected {}", got[i], want[i]));
        }
    }
    Ok(())
}

/// Kernels that use instructions the PTX front end does not decode yet (not executor gaps): they
/// must fail at parse time; once the front end supports them, this test asks to drop them here.
const KNOWN_FRONTEND_GAPS: &[(&str, &str)] = &[];

#[test]
fn corpus_kernels_match_the_host_reference() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testbench/ptx");
    let Ok(entries) = std::fs::read_dir(&dir) else { panic!("no corpus at {}", dir.display()) };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".expected.json").map(str::to_string))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let mut failures = Vec::new();
    for n in &names {
        let gap = KNOWN_FRONTEND_GAPS.iter().find(|(g, _)| g == n);
        match (run_one(&dir, n), gap) {
            (Ok(()), None) => {}
            (Ok(()), Some(_)) => failures.push(format!("{n}: now passes; remove it from KNOWN_FRONTEND_GAPS")),
            (Err(e), Some((_, what))) if e.contains(what) && e.contains(".ptx:") => {}
            (Err(e), _) => failures.push(format!("{n}: {e}")),
        }
    }
    println!(
        "{} of {} corpus kernels match ({} known front-end gaps)",
        names.len() - failures.len() - KNOWN_FRONTEND_GAPS.len(),
        names.len(),
        KNOWN_FRONTEND_GAPS.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} corpus kernels differ:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}

/// The SM timing model executes every instruction when it issues, so its results are the golden
/// model's along the timing model's interleaving: every corpus kernel must still match the host
/// reference, on both presets, and report a positive cycle count.
#[test]
fn corpus_kernels_match_on_the_timing_model() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testbench/ptx");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("corpus")
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".expected.json").map(str::to_string))
        .collect();
    names.sort();
    let mut failures = Vec::new();
    for cfg in [Config::default(), Config::fpga_small()] {
        for n in &names {
            if let Err(e) = run_on(&dir, n, &cfg, true) {
                failures.push(format!("{n} on {}: {e}", cfg.name));
            }
        }
    }
    assert!(failures.is_empty(), "{} timed runs differ:\n{}", failures.len(), failures.join("\n"));
}
