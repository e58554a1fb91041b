//! The RTL side of the cosim: [`RtlBackend`] wraps the Verilated `sync_unit` top
//! ([`crate::rtl_unit::RtlSyncUnit`]) and is the ONLY place the cosim calls its API, so a change
//! of that API is a change here. It also keeps one built model per config alive between runs
//! ([`checkout`] / [`checkin`]): generating the default config's Verilog costs seconds and a
//! first Verilator build minutes, a reset costs microseconds.

use crate::rtl_unit::{RtlOptions, RtlSyncUnit};
use crate::verilator::Harness;
use smsync_sim::config::Config;
use smsync_sim::memory::MemorySystem;
use smsync_sim::units::{Request, Response};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// How the RTL is built and driven (everything that needs a different model or different
/// pins; the pool keys on it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RtlSetup {
    /// Cycles the harness takes to answer a global-memory read of the top.
    pub gm_latency: u32,
    /// TEST ONLY: drive the top's `fault_inject` pin (corrupts warp-network results).
    pub fault_inject: bool,
}

/// The Verilated top plus cycle accounting.
pub struct RtlBackend {
    unit: RtlSyncUnit,
    pub setup: RtlSetup,
    key: String,
}

fn pool() -> &'static Mutex<HashMap<String, Vec<RtlSyncUnit>>> {
    static POOL: OnceLock<Mutex<HashMap<String, Vec<RtlSyncUnit>>>> = OnceLock::new();
    POOL.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A reset RTL model for `config`: from the pool if one was checked in, else built (or loaded
/// from the Verilator cache on disk).
pub fn checkout(config: &Config, setup: &RtlSetup) -> Result<RtlBackend, String> {
    let key = format!("{}\n{setup:?}", config.to_yaml());
    let pooled = pool().lock().map_err(|_| "RTL model pool poisoned".to_string())?.get_mut(&key).and_then(Vec::pop);
    let unit = match pooled {
        Some(mut u) => {
            // Inputs keep their values across the reset; a returned model has them idle.
            u.set_timeout(false);
            u.harness.reset();
            u
        }
        None => {
            let options = RtlOptions { gm_latency: setup.gm_latency, fault_inject: setup.fault_inject, build: None };
            RtlSyncUnit::new(config, &options)?
        }
    };
    Ok(RtlBackend { unit, setup: setup.clone(), key })
}

/// Return a model to the pool for the next run with the same config.
pub fn checkin(mut backend: RtlBackend) {
    backend.unit.harness.record_history(0);
    if let Ok(mut p) = pool().lock() {
        p.entry(backend.key.clone()).or_default().push(backend.unit);
    }
}

impl RtlBackend {
    pub fn harness(&mut self) -> &mut Harness {
        &mut self.unit.harness
    }

    /// Clock cycles since the model was loaded (not reset by a pool reuse; take differences).
    pub fn cycle(&self) -> u64 {
        self.unit.harness.cycle()
    }

    pub fn launch_cta(&mut self, slot: u16, warps: u16, out: &mut Vec<Response>) {
        self.unit.launch_cta(slot, warps, out);
    }

    /// Hand `req` to the top (held until consumed, then clocked until the top is idle) and
    /// collect the responses of those cycles. `mirror` serves the top's global-memory port.
    pub fn submit(&mut self, req: &Request, mirror: &mut MemorySystem, out: &mut Vec<Response>) -> Result<(), String> {
        self.unit.submit(req, mirror, out)
    }

    /// Clock `cycles` times with the top's `timeout` input at `timeout`.
    pub fn run(&mut self, cycles: u32, timeout: bool, mirror: &mut MemorySystem, out: &mut Vec<Response>) {
        self.unit.set_timeout(timeout);
        self.unit.run(cycles, mirror, out);
        self.unit.set_timeout(false);
    }

    /// Something in flight in the top (its `busy` output).
    pub fn busy(&mut self) -> bool {
        !self.unit.idle()
    }
}
