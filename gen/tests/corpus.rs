//! The conformance corpus: every `testbench/ptx/<name>.launch.yaml` is run with the built
//! `smsync run` and its final buffers are compared with `<name>.expected.json`, which the host
//! reference (testbench/reference/<name>.py) computed without smsync.
//!
//! Comparison policy (docs/ARCHITECTURE.md):
//! - integer buffers (u8..u64, s8..s64) must match exactly;
//! - float buffers are compared with `approx::relative_eq!` using the buffer's tolerance from
//!   the `tolerance` object of expected.json, default `epsilon = 0, max_relative = 0` (equal
//!   values); f32/f16/bf16 values are compared after rounding both sides to f32, so the way the
//!   number was printed does not matter.
//!
//! Every failing kernel is listed with its first differing element, not just the first kernel.
//! Environment: SMSYNC_CORPUS_FILTER=substring runs a subset; SMSYNC_CORPUS_TIMEOUT=seconds
//! bounds one kernel's run (default 120) so a deadlocked model fails instead of hanging.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testbench/ptx")
}

/// Kernel names (file stems) of all launch files, sorted.
fn kernels() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("testbench/ptx must exist")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".launch.yaml")).map(String::from))
        .collect();
    names.sort();
    names
}

#[derive(Clone, Copy)]
struct Tolerance {
    epsilon: f64,
    max_relative: f64,
}

const EXACT: Tolerance = Tolerance { epsilon: 0.0, max_relative: 0.0 };

fn is_float(ty: &str) -> bool {
    matches!(ty, "f16" | "bf16" | "f32" | "f64")
}

/// Runs `smsync run` with a time limit; returns stdout or a description of the failure.
fn run_kernel(name: &str) -> Result<String, String> {
    let dir = corpus_dir();
    let timeout = std::env::var("SMSYNC_CORPUS_TIMEOUT").ok().and_then(|s| s.parse().ok()).unwrap_or(120u64);
    let mut child = Command::new(env!("CARGO_BIN_EXE_smsync"))
        .arg("run")
        .arg(dir.join(format!("{name}.ptx")))
        .arg("--launch")
        .arg(dir.join(format!("{name}.launch.yaml")))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start smsync: {e}"))?;
    // Drain the pipes on threads so a large output cannot block the child.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out_pipe, &mut s).map(|_| s)
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err_pipe, &mut s).map(|_| s)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > Duration::from_secs(timeout) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("timed out after {timeout} s (SMSYNC_CORPUS_TIMEOUT)"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out_reader.join().unwrap().unwrap_or_default();
    let stderr = err_reader.join().unwrap().unwrap_or_default();
    if !status.success() {
        let first_lines: Vec<&str> = stderr.lines().take(6).collect();
        return Err(format!("smsync run failed ({status}): {}", first_lines.join(" | ")));
    }
    Ok(stdout)
}

fn tolerance_of(expected: &Value, buffer: &str) -> Tolerance {
    match expected.get("tolerance").and_then(|t| t.get(buffer)) {
        None => EXACT,
        Some(t) => Tolerance {
            epsilon: t.get("epsilon").and_then(Value::as_f64).unwrap_or(0.0),
            max_relative: t.get("max_relative").and_then(Value::as_f64).unwrap_or(0.0),
        },
    }
}

/// Integer JSON value as i128 (covers the whole u64 and i64 ranges).
fn as_int(v: &Value) -> Option<i128> {
    v.as_u64().map(i128::from).or_else(|| v.as_i64().map(i128::from))
}

fn element_matches(ty: &str, tol: Tolerance, got: &Value, want: &Value) -> bool {
    if is_float(ty) {
        let (Some(g), Some(w)) = (got.as_f64(), want.as_f64()) else { return false };
        let (g, w) = if ty == "f64" { (g, w) } else { (g as f32 as f64, w as f32 as f64) };
        approx::relative_eq!(g, w, epsilon = tol.epsilon, max_relative = tol.max_relative)
    } else {
        matches!((as_int(got), as_int(want)), (Some(g), Some(w)) if g == w)
    }
}

/// Compares one kernel's output with its expected.json; returns the first problem per buffer.
fn compare(name: &str, stdout: &str) -> Vec<String> {
    let expected_text = match std::fs::read_to_string(corpus_dir().join(format!("{name}.expected.json"))) {
        Ok(t) => t,
        Err(e) => return vec![format!("no expected.json: {e}")],
    };
    let expected: Value = match serde_json::from_str(&expected_text) {
        Ok(v) => v,
        Err(e) => return vec![format!("expected.json is not JSON: {e}")],
    };
    let got: Value = match serde_json::from_str(stdout) {
        Ok(v) => v,
        Err(e) => return vec![format!("smsync output is not JSON ({e}): {:.200}", stdout)],
    };
    let Some(want_buffers) = expected["buffers"].as_object() else {
        return vec!["expected.json has no \"buffers\" object".into()];
    };
    let mut problems = Vec::new();
    for (buffer, want) in want_buffers {
        let ty = expected["types"][buffer].as_str().unwrap_or("u32");
        let tol = tolerance_of(&expected, buffer);
        let want = want.as_array().cloned().unwrap_or_default();
        let Some(have) = got["buffers"][buffer].as_array() else {
            problems.push(format!("buffer `{buffer}` missing from the output"));
            continue;
        };
        if have.len() != want.len() {
            problems.push(format!("buffer `{buffer}`: {} elements, expected {}", have.len(), want.len()));
            continue;
        }
        let mismatches: Vec<usize> =
            (0..want.len()).filter(|&i| !element_matches(ty, tol, &have[i], &want[i])).collect();
        if let Some(&i) = mismatches.first() {
            problems.push(format!(
                "buffer `{buffer}` ({ty}): {} of {} elements differ; first at [{i}]: got {}, expected {}",
                mismatches.len(),
                want.len(),
                have[i],
                want[i]
            ));
        }
    }
    problems
}

#[test]
fn corpus_is_complete() {
    let names = kernels();
    assert!(names.len() >= 20, "the corpus should hold at least 20 kernels, found {}", names.len());
    let dir = corpus_dir();
    let missing: Vec<String> = names
        .iter()
        .flat_map(|n| {
            [format!("{n}.ptx"), format!("{n}.expected.json")]
                .into_iter()
                .filter(|f| !dir.join(f).exists())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(missing.is_empty(), "launch files without their kernel or expected output: {missing:?}");
}

#[test]
fn corpus_kernels_match_host_reference() {
    let filter = std::env::var("SMSYNC_CORPUS_FILTER").unwrap_or_default();
    let names: Vec<String> = kernels().into_iter().filter(|n| n.contains(&filter)).collect();
    assert!(!names.is_empty(), "no kernel matches SMSYNC_CORPUS_FILTER={filter:?}");
    let mut failures = Vec::new();
    for name in &names {
        let problems = match run_kernel(name) {
            Ok(stdout) => compare(name, &stdout),
            Err(e) => vec![e],
        };
        if problems.is_empty() {
            eprintln!("corpus ok   {name}");
        } else {
            eprintln!("corpus FAIL {name}");
            failures.push(format!("{name}:\n    {}", problems.join("\n    ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus kernels differ from the host reference:\n  {}",
        failures.len(),
        names.len(),
        failures.join("\n  ")
    );
}

/// The comparator itself: the expected buffers as smsync output must pass, and a changed
/// element must be reported with its index (so the corpus test cannot pass vacuously).
#[test]
fn comparator_accepts_expected_and_reports_first_difference() {
    let name = "atomics_float";
    let text = std::fs::read_to_string(corpus_dir().join(format!("{name}.expected.json"))).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    let same = serde_json::json!({ "buffers": doc["buffers"].clone() }).to_string();
    assert_eq!(compare(name, &same), Vec::<String>::new());
    // Within the stated tolerance (1e-4 relative) for `inexact`, exact elsewhere.
    let inexact = doc["buffers"]["inexact"][0].as_f64().unwrap();
    doc["buffers"]["inexact"][0] = serde_json::json!(inexact * (1.0 + 1e-6));
    doc["buffers"]["exact"][2] = serde_json::json!(doc["buffers"]["exact"][2].as_f64().unwrap() + 0.125);
    doc["buffers"]["input"][7] = serde_json::json!(1000.5);
    let changed = serde_json::json!({ "buffers": doc["buffers"].clone() }).to_string();
    let problems = compare(name, &changed);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("`input`") && p.contains("[7]")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("`exact`") && p.contains("[2]")), "{problems:?}");
}
