//! What a cosim run measured: per-unit counts (requests, busy = stall cycles, same-address lane
//! conflicts) and the summary `smsync cosim` prints, so a kernel doubles as a performance probe.

use smsync_sim::encoding::Unit;
use smsync_sim::exec::RunResult;
use smsync_sim::units::Request;
use std::fmt::Write as _;

/// Counters of one unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerUnit {
    pub requests: u64,
    /// Active lanes over all requests.
    pub lanes: u64,
    /// RTL cycles spent in this unit's requests: from presenting the request until the top is
    /// idle again (the header and beats being taken + processing + the responses leaving). The top takes
    /// one request at a time, so this is also the time the request kept the unit busy.
    pub cycles: u64,
    /// Active lanes whose address another active lane of the same request also targets
    /// (atomics, mbarrier ops, LSU): they serialize on the same word.
    pub conflicts: u64,
}

/// Counters of a whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitCounts {
    /// Indexed like [`Unit::ALL`].
    pub per_unit: [PerUnit; 6],
    pub responses: u64,
    /// RTL cycles run while no warp could run (finishing in-flight work, try_wait timeouts).
    pub idle_cycles: u64,
}

fn index(u: Unit) -> usize {
    Unit::ALL.iter().position(|x| *x == u).unwrap_or(0)
}

impl UnitCounts {
    pub fn on_request(&mut self, req: &Request, same_address: u32) {
        let p = &mut self.per_unit[index(req.op.unit())];
        p.requests += 1;
        p.lanes += req.active_mask.count_ones() as u64;
        p.conflicts += same_address.count_ones() as u64;
    }

    pub fn add_cycles(&mut self, unit: Unit, cycles: u64) {
        self.per_unit[index(unit)].cycles += cycles;
    }

    pub fn requests(&self) -> u64 {
        self.per_unit.iter().map(|p| p.requests).sum()
    }
}

/// The result of a passing cosim run.
#[derive(Clone, Debug)]
pub struct CosimReport {
    /// Final buffers (the golden model's; equal to the RTL mirror's within the policy).
    pub result: RunResult,
    pub counts: UnitCounts,
    /// RTL clock cycles of the run.
    pub cycles: u64,
    /// Wall time of the run (excluding the model build).
    pub seconds: f64,
    /// Wall time of getting the model (build, cache load, or pool reuse).
    pub setup_seconds: f64,
}

impl CosimReport {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }

    pub fn requests_per_second(&self) -> f64 {
        self.counts.requests() as f64 / self.seconds.max(1e-9)
    }

    /// `smsync cosim --json`: one JSON object with the figures of [`CosimReport::summary`] and
    /// the final buffers (the `smsync run` format under `result`).
    pub fn to_json(&self) -> String {
        let units: serde_json::Map<String, serde_json::Value> = Unit::ALL
            .iter()
            .zip(&self.counts.per_unit)
            .map(|(u, p)| {
                let v = serde_json::json!({"requests": p.requests, "lanes": p.lanes, "cycles": p.cycles, "conflicts": p.conflicts});
                (u.name().to_string(), v)
            })
            .collect();
        let result: serde_json::Value =
            serde_json::from_str(&self.result.to_json(false)).unwrap_or(serde_json::Value::Null);
        serde_json::json!({
            "passed": true,
            "cycles": self.cycles,
            "idle_cycles": self.counts.idle_cycles,
            "requests": self.counts.requests(),
            "responses": self.counts.responses,
            "warp_instructions": self.result.stats.warp_instructions,
            "seconds": self.seconds,
            "setup_seconds": self.setup_seconds,
            "units": units,
            "result": result,
        })
        .to_string()
    }

    /// The human summary `smsync cosim` prints.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "cosim passed: {} RTL cycles ({} of them while no warp could run), {} sync requests, {} responses, {} warp-instructions",
            self.cycles,
            self.counts.idle_cycles,
            self.counts.requests(),
            self.counts.responses,
            self.result.stats.warp_instructions
        );
        let _ = writeln!(
            s,
            "speed: {:.0} cycles/s, {:.0} requests/s ({:.2} s run, {:.2} s model setup)",
            self.cycles_per_second(),
            self.requests_per_second(),
            self.seconds,
            self.setup_seconds
        );
        let _ = writeln!(s, "{:<14} {:>9} {:>9} {:>11} {:>10}", "unit", "requests", "lanes", "cycles", "conflicts");
        for (u, p) in Unit::ALL.iter().zip(&self.counts.per_unit) {
            let _ =
                writeln!(s, "{:<14} {:>9} {:>9} {:>11} {:>10}", u.name(), p.requests, p.lanes, p.cycles, p.conflicts);
        }
        s
    }
}
