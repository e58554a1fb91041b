//! What one point measured, and the sweep's tables: JSON (everything), CSV (one row per point,
//! one column per figure), Markdown (the same, readable). Shards' JSON files merge into one.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Figures of `smsync gen`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct GenFigures {
    pub modules: usize,
    pub verilog_bytes: u64,
    /// Content hash of the generated Verilog (the key of the lint and synth stages).
    pub rtl_key: String,
}

/// Area and speed from `smsync synth` for one target.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SynthFigures {
    pub luts: Option<u64>,
    pub ffs: Option<u64>,
    pub brams: Option<u64>,
    pub dsps: Option<u64>,
    /// After place-and-route; None for estimate-only targets or when P&R failed.
    pub fmax_mhz: Option<f64>,
    /// False when the tools said the design does not fit the device.
    pub fits: Option<bool>,
    /// Why figures are missing, or the tool's one-line complaint.
    pub note: String,
    /// Modules whose synthesis failed or timed out: the area figures leave them out.
    #[serde(default)]
    pub failed_modules: Vec<String>,
}

/// One workload under cosim.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct WorkloadFigures {
    pub passed: bool,
    pub cycles: Option<u64>,
    pub requests: Option<u64>,
    /// The divergence or error when `passed` is false.
    pub message: String,
}

/// One grid point.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct PointResult {
    pub index: usize,
    pub label: String,
    /// (field, value) per axis.
    pub assignment: Vec<(String, Value)>,
    pub config_key: String,
    pub gen: Option<GenFigures>,
    /// None when linting was not asked for; Some(Ok) clean; Some(Err(message)).
    pub lint: Option<Result<(), String>>,
    pub synth: BTreeMap<String, SynthFigures>,
    pub workloads: BTreeMap<String, WorkloadFigures>,
    /// A stage error that stopped this point (the others go on).
    pub error: Option<String>,
}

impl PointResult {
    /// Sum of the workloads' cycles, when every workload passed and reported cycles.
    pub fn total_cycles(&self) -> Option<u64> {
        if self.workloads.is_empty() {
            return None;
        }
        self.workloads.values().map(|w| if w.passed { w.cycles } else { None }).sum()
    }
}

/// The results of a sweep (or of one shard of it).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SweepResults {
    pub sweep: String,
    pub axes: Vec<String>,
    pub targets: Vec<String>,
    pub workloads: Vec<String>,
    /// Points of the whole grid (a shard holds fewer results).
    pub grid_points: usize,
    /// Where the cycle counts come from: `cosim` or `timed` (the sweep's `cycles:`).
    #[serde(default = "cosim")]
    pub cycles: String,
    pub points: Vec<PointResult>,
}

fn cosim() -> String {
    "cosim".into()
}

impl SweepResults {
    pub fn load(path: &Path) -> Result<SweepResults, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: not a results file: {e}", path.display()))
    }

    /// Join shards of one sweep. Refuses shards of different sweeps and a point measured twice
    /// with different results.
    pub fn merge(parts: Vec<SweepResults>) -> Result<SweepResults, String> {
        let mut iter = parts.into_iter();
        let mut all = iter.next().ok_or("nothing to merge")?;
        for p in iter {
            if p.sweep != all.sweep || p.axes != all.axes || p.grid_points != all.grid_points || p.cycles != all.cycles
            {
                return Err(format!(
                    "shards of different sweeps: `{}` ({} points, axes {:?}) and `{}` ({} points, axes {:?})",
                    all.sweep, all.grid_points, all.axes, p.sweep, p.grid_points, p.axes
                ));
            }
            for point in p.points {
                match all.points.iter().find(|q| q.index == point.index) {
                    Some(q) if *q != point => {
                        return Err(format!(
                            "point {} ({}) is in two shards with different results",
                            point.index, point.label
                        ))
                    }
                    Some(_) => {}
                    None => all.points.push(point),
                }
            }
        }
        all.points.sort_by_key(|p| p.index);
        Ok(all)
    }

    /// Column names and rows of the table (shared by CSV and Markdown).
    pub fn table(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let mut cols: Vec<String> = vec!["point".into()];
        cols.extend(self.axes.iter().cloned());
        cols.push("lint".into());
        for t in &self.targets {
            for f in ["luts", "ffs", "brams", "dsps", "fmax_mhz"] {
                cols.push(format!("{t}.{f}"));
            }
        }
        for w in &self.workloads {
            cols.push(format!("{w}.cycles"));
        }
        cols.push("total_cycles".into());
        cols.push("status".into());
        let opt = |v: Option<u64>| v.map(|x| x.to_string()).unwrap_or_default();
        let rows = self
            .points
            .iter()
            .map(|p| {
                let mut r = vec![p.index.to_string()];
                for a in &self.axes {
                    r.push(
                        p.assignment
                            .iter()
                            .find(|(f, _)| f == a)
                            .map(|(_, v)| crate::sweep::show(v))
                            .unwrap_or_default(),
                    );
                }
                r.push(match &p.lint {
                    None => String::new(),
                    Some(Ok(())) => "clean".into(),
                    Some(Err(_)) => "FAIL".into(),
                });
                for t in &self.targets {
                    let s = p.synth.get(t).cloned().unwrap_or_default();
                    r.extend([opt(s.luts), opt(s.ffs), opt(s.brams), opt(s.dsps)]);
                    r.push(s.fmax_mhz.map(|f| format!("{f:.1}")).unwrap_or_default());
                }
                for w in &self.workloads {
                    r.push(match p.workloads.get(w) {
                        Some(f) if f.passed => opt(f.cycles),
                        Some(_) => "FAIL".into(),
                        None => String::new(),
                    });
                }
                r.push(opt(p.total_cycles()));
                r.push(status(p));
                r
            })
            .collect();
        (cols, rows)
    }

    pub fn to_csv(&self) -> String {
        let (cols, rows) = self.table();
        let quote = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let mut out = cols.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",") + "\n";
        for r in rows {
            out += &(r.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",") + "\n");
        }
        out
    }

    pub fn to_markdown(&self) -> String {
        let (cols, rows) = self.table();
        let source = match self.cycles.as_str() {
            "timed" => "the SM timing model (`smsync run --timing`, docs/TIMING.md)",
            "timed-rtl" => "the SM timing model on the Verilated top (`smsync cosim --timing`, docs/TIMING.md)",
            _ => "cosim (the Verilated top, one request at a time)",
        };
        let mut out = format!("Cycles: {source}.\n\n");
        out += &format!("| {} |\n|{}\n", cols.join(" | "), "---|".repeat(cols.len()));
        for r in rows {
            out += &format!("| {} |\n", r.join(" | "));
        }
        let problems: Vec<String> = self
            .points
            .iter()
            .flat_map(|p| {
                let mut v = Vec::new();
                if let Some(e) = &p.error {
                    v.push(format!("- point {} ({}): {e}", p.index, p.label));
                }
                if let Some(Err(e)) = &p.lint {
                    v.push(format!("- point {} ({}): lint: {}", p.index, p.label, first_line(e)));
                }
                for (t, s) in &p.synth {
                    if !s.note.is_empty() {
                        v.push(format!("- point {} ({}): {t}: {}", p.index, p.label, first_line(&s.note)));
                    }
                }
                for (w, f) in &p.workloads {
                    if !f.passed {
                        v.push(format!("- point {} ({}): {w}: {}", p.index, p.label, first_line(&f.message)));
                    }
                }
                v
            })
            .collect();
        if !problems.is_empty() {
            out += "\nNotes:\n";
            out += &problems.join("\n");
            out += "\n";
        }
        out
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

fn status(p: &PointResult) -> String {
    if p.error.is_some() {
        return "error".into();
    }
    let lint_bad = matches!(p.lint, Some(Err(_)));
    let cosim_bad = p.workloads.values().any(|w| !w.passed);
    let synth_bad = p.synth.values().any(|s| s.fits == Some(false));
    let synth_incomplete = p.synth.values().any(|s| !s.failed_modules.is_empty());
    match (lint_bad, cosim_bad, synth_bad, synth_incomplete) {
        (false, false, false, false) => "ok".into(),
        _ => [
            (lint_bad, "lint"),
            (cosim_bad, "cosim"),
            (synth_bad, "does-not-fit"),
            (synth_incomplete, "synth-incomplete"),
        ]
        .iter()
        .filter(|(b, _)| *b)
        .map(|(_, s)| *s)
        .collect::<Vec<_>>()
        .join("+"),
    }
}
