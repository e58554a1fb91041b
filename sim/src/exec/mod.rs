//! The executor: runs a decoded PTX module ([`crate::ptx::ir`]) on a grid of CTAs, driving any
//! [`SyncUnit`] backend for the instructions the sync unit owns.
//!
//! Walk-through for a newcomer:
//! * [`launch`]  — the launch file (grid, block, buffers, params) and the typed JSON output;
//! * [`tmap`]    — tensor maps described with `cuTensorMapEncodeTiled`'s fields in a launch file;
//! * [`loader`]  — memory layout: buffers, module variables, shared/local/param frames;
//! * [`warp`]    — per-lane PCs, lane masks and the SoA register file; the group choice;
//! * [`machine`] — waves of CTAs, the scheduler, ordinary instructions, plain memory, responses;
//! * [`alu`]     — scalar semantics of arithmetic, logic, comparisons and conversions;
//! * [`lower`]   — sync instructions to warp-level requests (and responses back to registers);
//! * [`error`]   — the errors a run can end with.

pub mod alu;
pub mod bench;
pub mod error;
pub mod launch;
pub mod loader;
pub mod lower;
pub mod machine;
pub mod rng;
pub mod timed;
pub mod tmap;
pub mod warp;

pub use error::{ExecError, Site};
pub use launch::{BufferSpec, ElemType, Launch, ParamValue};

use crate::config::Config;
use crate::ptx::ir::Module;
use crate::units::{Request, Response, SyncUnit};
use serde::Serialize;

/// Knobs of one run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// `Some(seed)`: seeded warp interleaving (which warp runs, how long, which PC group).
    pub seed: Option<u64>,
    /// Record requests, responses and unit trace events.
    pub trace: bool,
    /// Stop with an error after this many warp-instructions.
    pub max_steps: u64,
    /// Run on the SM timing model ([`timed`]): cycle by cycle, with the result's `timing`.
    pub timing: bool,
}

pub const DEFAULT_MAX_STEPS: u64 = 200_000_000;

/// `%globaltimer` advances by this many nanoseconds per executed warp-instruction (a 1 GHz clock
/// issuing one warp-instruction per cycle): deterministic, monotonic, independent of the host.
pub const GLOBALTIMER_NS_PER_STEP: u64 = 1;

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { seed: None, trace: false, max_steps: DEFAULT_MAX_STEPS, timing: false }
    }
}

#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Stats {
    /// Executed thread-instructions (every lane of every executed warp-instruction, predicated-off
    /// lanes included, as a hardware issue slot would count them).
    pub thread_instructions: u64,
    pub warp_instructions: u64,
    pub requests: u64,
    pub responses: u64,
    pub ctas: u64,
    pub waves: u64,
    pub ticks: u64,
    pub global_bytes: u64,
}

/// The outcome of a run: each buffer's final bytes (typed as declared), statistics, trace.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub buffers: Vec<(String, ElemType, Vec<u8>)>,
    pub stats: Stats,
    pub trace: Vec<serde_json::Value>,
    /// The SM timing model's report (timed runs only).
    pub timing: Option<timed::TimingReport>,
}

impl RunResult {
    /// A buffer's elements as raw bits (little-endian elements of the declared type).
    pub fn bits(&self, name: &str) -> Option<Vec<u64>> {
        let (_, ty, bytes) = self.buffers.iter().find(|(n, _, _)| n == name)?;
        let w = ty.bytes();
        Some(
            bytes
                .chunks(w)
                .map(|c| {
                    let mut b = [0u8; 8];
                    b[..w].copy_from_slice(c);
                    u64::from_le_bytes(b)
                })
                .collect(),
        )
    }

    /// A buffer as JSON values typed as declared.
    pub fn values(&self, name: &str) -> Option<Vec<serde_json::Value>> {
        let ty = self.buffers.iter().find(|(n, _, _)| n == name)?.1;
        Some(self.bits(name)?.into_iter().map(|b| ty.decode(b)).collect())
    }

    /// `{"buffers": {...}, "stats": {...}}` (+ `"trace"` when recorded), buffers in launch order.
    pub fn to_json(&self, with_trace: bool) -> String {
        let mut out = String::from("{\"buffers\": {");
        for (i, (name, _, _)) in self.buffers.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let vals = serde_json::Value::Array(self.values(name).unwrap_or_default());
            out.push_str(&format!("{}: {}", serde_json::Value::from(name.as_str()), vals));
        }
        out.push_str("}, \"stats\": ");
        out.push_str(&serde_json::to_string(&self.stats).unwrap_or_default());
        if let Some(t) = &self.timing {
            out.push_str(", \"timing\": ");
            out.push_str(&serde_json::to_string(t).unwrap_or_default());
        }
        if with_trace {
            out.push_str(", \"trace\": ");
            out.push_str(&serde_json::Value::Array(self.trace.clone()).to_string());
        }
        out.push('}');
        out
    }
}

/// Run `module` with `launch` on `unit`.
pub fn run(
    module: &Module,
    launch: &Launch,
    config: &Config,
    unit: &mut dyn SyncUnit,
    opts: RunOptions,
) -> Result<RunResult, ExecError> {
    machine::Machine::new(module, launch, config, unit, opts)?.run()
}

pub(crate) fn trace_request(r: &Request) -> serde_json::Value {
    let lanes: Vec<serde_json::Value> = r
        .active_lanes()
        .map(|l| {
            let o = &r.lanes[l];
            serde_json::json!({"lane": l, "addr": o.addr, "src": o.src, "mbar": o.mbar, "a": o.a.to_string(), "b": o.b.to_string(), "c": o.c.to_string()})
        })
        .collect();
    serde_json::json!({
        "request": {
            "tag": r.tag, "cta": r.cta, "warp": r.warp, "op": r.op.name(), "sub": r.sub, "dtype": r.dtype.name(),
            "space": r.space.name(), "flags": r.flags, "vec": r.vec, "imm": r.imm, "imm2": r.imm2,
            "member_mask": r.member_mask, "active_mask": r.active_mask, "live_mask": r.live_mask, "lanes": lanes,
        }
    })
}

pub(crate) fn trace_response(r: &Response) -> serde_json::Value {
    let values: Vec<String> = (0..32).filter(|l| r.lanes >> l & 1 == 1).map(|l| r.values[l].to_string()).collect();
    serde_json::json!({
        "response": {
            "tag": r.tag, "cta": r.cta, "warp": r.warp, "lanes": r.lanes, "values": values, "preds": r.preds,
            "error": r.error.name(), "error_lane": r.error_lane,
        }
    })
}

/// PTX text -> module, for the `run` command (the front end's errors carry file:line:col and a caret).
pub fn parse_module(text: &str, file: &str) -> Result<Module, String> {
    crate::ptx::parse(text, file).map_err(|e| e.to_string())
}
