//! The `smsync synth` report: one entry per module (units, then the top), as JSON (machine
//! readable, the same fields) and Markdown (for docs/FPGA.md).

use crate::fit::FitCheck;
use crate::target::{Resources, Target};
use crate::toolchain::nextpnr::PnrOutput;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct ToolVersion {
    pub tool: String,
    pub version: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SynthReport {
    pub generator: String,
    pub config: String,
    pub target: String,
    pub device: String,
    /// True for targets without place-and-route (xilinx-7): resource numbers are yosys' estimate.
    pub estimate: bool,
    pub tools: Vec<ToolVersion>,
    /// nextpnr seed (yosys is deterministic); `None` without place-and-route.
    pub seed: Option<u32>,
    pub target_mhz: Option<f64>,
    /// The command that reproduces this report.
    pub command: String,
    pub modules: Vec<ModuleReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ModuleReport {
    pub module: String,
    /// The unit it implements; `None` for the `sync_unit` top.
    pub unit: Option<String>,
    pub input_bits: usize,
    pub output_bits: usize,
    pub fit: FitCheck,
    /// yosys' counts for the module alone (without the registered-I/O wrapper).
    pub synth: Option<Resources>,
    pub synth_seconds: Option<f64>,
    /// yosys' counts of the units inside the module (the top), by their module name there.
    pub parts: std::collections::BTreeMap<String, Resources>,
    /// After place-and-route, module + wrapper (nextpnr's utilisation); Fmax is register-to-register.
    pub pnr: Option<PnrOutput>,
    /// A tool failure or time-out for this module (the flow goes on with the others).
    pub error: Option<String>,
}

impl SynthReport {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    pub fn to_markdown(&self) -> String {
        let target = Target::parse(&self.target).ok();
        let cap = target.map(|t| t.capacity());
        let mut md = format!("### `{}` on `{}` ({})\n\n", self.config, self.target, self.device);
        if self.estimate {
            md += "**ESTIMATE**: yosys synthesis only, no place-and-route, no Fmax.\n\n";
        }
        md += &format!("Command: `{}`  \n", self.command);
        md += &format!(
            "Tools: {}  \n",
            self.tools.iter().map(|t| format!("{} = `{}`", t.tool, t.version)).collect::<Vec<_>>().join(", ")
        );
        if let (Some(seed), Some(mhz)) = (self.seed, self.target_mhz) {
            md += &format!(
                "nextpnr seed {seed}, target {mhz} MHz (timing failure allowed: the achieved Fmax is the result)\n"
            );
        }
        md += "\n| module | LUTs | FFs | BRAM | DSP | Fmax (MHz, reg-to-reg) | after P&R incl. I/O wrapper | notes |\n";
        md += "|---|---:|---:|---:|---:|---:|---|---|\n";
        let pct = |used: f64, total: f64| {
            if total > 0.0 {
                format!(" ({:.1}%)", 100.0 * used / total)
            } else {
                String::new()
            }
        };
        for m in &self.modules {
            let (luts, ffs, bram, dsp) = match (&m.synth, cap) {
                (Some(r), Some(c)) => (
                    format!("{}{}", r.luts, pct(r.luts as f64, c.luts as f64)),
                    format!("{}{}", r.ffs, pct(r.ffs as f64, c.ffs as f64)),
                    format!("{}{}", r.bram, pct(r.bram, c.bram_blocks)),
                    format!("{}", r.dsp),
                ),
                _ => ("-".into(), "-".into(), "-".into(), "-".into()),
            };
            let fmax = m.pnr.as_ref().and_then(|p| p.fmax_mhz).map(|f| format!("{f:.1}")).unwrap_or_else(|| "-".into());
            let pnr = m
                .pnr
                .as_ref()
                .map(|p| {
                    p.utilisation
                        .iter()
                        .filter(|(k, u)| {
                            u.used > 0 && !k.contains("IO") && !k.starts_with("DCC") && !k.starts_with("SB_GB")
                        })
                        .map(|(k, u)| format!("{k} {}/{}", u.used, u.available))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_else(|| "-".into());
            let mut notes: Vec<String> = m.fit.refused.iter().map(|r| format!("does not fit: {r}")).collect();
            if let (Some(p), Some(target_mhz)) = (&m.pnr, self.target_mhz) {
                if let (Some(fmax), Some(lp)) = (p.fmax_mhz, &p.limiting_path) {
                    if fmax < target_mhz {
                        notes.push(format!(
                            "below {target_mhz} MHz: limited by `{}` -> `{}` ({:.1} ns)",
                            lp.from, lp.to, lp.delay_ns
                        ));
                    }
                }
            }
            if let Some(e) = &m.error {
                notes.push(e.lines().next().unwrap_or("").to_string());
            }
            let name = match &m.unit {
                Some(u) if u != &m.module => format!("{} ({u})", m.module),
                Some(_) => m.module.clone(),
                None => format!("**{}** (top)", m.module),
            };
            md += &format!("| {name} | {luts} | {ffs} | {bram} | {dsp} | {fmax} | {pnr} | {} |\n", notes.join("; "));
        }
        for m in &self.modules {
            if !m.parts.is_empty() {
                md += &format!(
                    "\nUnits inside `{}` (yosys, each optimised as its own module; the rest is the top's glue):\n\n",
                    m.module
                );
                md += "| unit instance | LUTs | FFs | BRAM | DSP |\n|---|---:|---:|---:|---:|\n";
                for (name, r) in &m.parts {
                    md += &format!("| `{name}` | {} | {} | {} | {} |\n", r.luts, r.ffs, r.bram, r.dsp);
                }
                if let Some(total) = &m.synth {
                    let sum = |f: fn(&Resources) -> f64| m.parts.values().map(f).sum::<f64>();
                    md += &format!(
                        "| (glue: top minus units) | {} | {} | {} | {} |\n",
                        total.luts as f64 - sum(|r| r.luts as f64),
                        total.ffs as f64 - sum(|r| r.ffs as f64),
                        total.bram - sum(|r| r.bram),
                        total.dsp as f64 - sum(|r| r.dsp as f64)
                    );
                }
            }
        }
        for m in &self.modules {
            if let Some(p) = &m.pnr {
                if !p.critical_path.is_empty() {
                    md += &format!("\nCritical path of `{}` ({} segments):\n", m.module, p.critical_path.len());
                    if let Some(lp) = &p.limiting_path {
                        md += &format!(
                            "limited by the path from `{}` to `{}`: {:.2} ns, {} segments\n",
                            lp.from, lp.to, lp.delay_ns, lp.segments
                        );
                    }
                    md += "```text\n";
                    // Long carry chains make paths of a hundred segments: keep both ends.
                    let n = p.critical_path.len();
                    for (i, line) in p.critical_path.iter().enumerate() {
                        if n > 40 && i == 20 {
                            md += &format!("... {} segments ...\n", n - 40);
                        }
                        if n <= 40 || i < 20 || i >= n - 20 {
                            md += line;
                            md += "\n";
                        }
                    }
                    md += "```\n";
                }
            }
        }
        md
    }
}
