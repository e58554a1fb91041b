//! The sync unit as the executor sees it: the [`SyncUnit`] trait, and the golden (reference)
//! implementation built from one module per hardware unit. The RTL mirrors these modules one to one
//! (`hdl/src/<unit>.rs`), and the cosim backend in `testbench` implements the same trait.

/// The request/response types are part of the contract with the RTL (`smsync-contract`).
pub use smsync_contract::request;

pub mod atomic_alu;
pub mod barrier_file;
pub mod copy_engine;
pub mod float;
pub mod mbarrier_alu;
pub mod space;
pub mod tensormap;
pub mod warp_network;

pub use request::{LaneOps, Request, Response, TraceEvent, WARP};

use crate::config::Config;
use crate::encoding::{ErrorCode, Op, Unit};
use crate::memory::MemorySystem;

/// What a sync-unit backend must do. The executor does not know which backend it drives.
pub trait SyncUnit {
    /// A CTA starts in `slot` with `warps` warps and `threads` threads: reset the slot's barrier
    /// file, mbarrier waiters, copy groups and shared memory bookkeeping.
    fn launch_cta(&mut self, slot: u16, warps: u16, threads: u32);

    /// Accept one warp-level request. Every response that becomes ready because of it (for this
    /// warp, or for warps it released) is pushed to `out`.
    fn submit(&mut self, req: &Request, mem: &mut MemorySystem, out: &mut Vec<Response>);

    /// Let asynchronous work make progress (copies land, complete-tx fires, groups retire).
    /// `idle` is true when no warp can run: a backend then finishes what it can and times out
    /// suspended try_waits (which answer False). Returns true while work is still in flight.
    fn tick(&mut self, mem: &mut MemorySystem, idle: bool, out: &mut Vec<Response>) -> bool;

    /// One line per blocked request: which warp waits on what (for deadlock reports).
    fn describe_waits(&self) -> Vec<String>;

    /// Sync events since the last call (only recorded when tracing was enabled).
    fn take_trace(&mut self) -> Vec<TraceEvent> {
        Vec::new()
    }

    /// A backend that checks itself (the cosim comparing two backends) reports its first failure
    /// here. The executor asks after every instruction and every tick and stops with
    /// `ExecError::Backend`, naming the instruction of `failure.tag`. Backends that cannot fail
    /// this way keep the default.
    fn failure(&self) -> Option<BackendFailure> {
        None
    }

    /// Timed runs (`exec::timed`): the SM's cycle, set before every `tick` and `submit`.
    /// Untimed back ends ignore it.
    fn set_time(&mut self, _cycle: u64) {}

    /// Timed runs: the next cycle at which the back end will answer or change something on its
    /// own (None: nothing scheduled), so that the SM can skip the cycles in between.
    fn next_event(&self) -> Option<u64> {
        None
    }

    /// Timed runs: whether every request of CTA slot `slot` has reached the unit (none still
    /// queued for an RTL port). The SM starts a new CTA in a slot only then: its previous CTA's
    /// last requests (its warps' exits) must not reach the unit after the new CTA's launch.
    fn slot_drained(&self, _slot: u16) -> bool {
        true
    }

    /// Timed runs: each unit's requests, busy and queueing cycles.
    fn unit_timing(&self) -> Vec<crate::timing::UnitTiming> {
        Vec::new()
    }
}

/// Why a self-checking backend stopped (see [`SyncUnit::failure`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendFailure {
    /// The request the failure is about (the executor maps it to the instruction), if one is.
    pub tag: Option<u64>,
    /// The full report (what differed, expected vs actual, the cycle, ...).
    pub message: String,
}

/// The golden model: untimed and exact; the PTX text is its specification.
pub struct GoldenUnits {
    pub config: Config,
    pub barrier: barrier_file::BarrierFile,
    pub mbarrier: mbarrier_alu::MbarrierAlu,
    pub atomic: atomic_alu::AtomicAlu,
    pub warp: warp_network::WarpNetwork,
    pub copy: copy_engine::CopyEngine,
    trace: Option<Vec<TraceEvent>>,
}

impl GoldenUnits {
    pub fn new(config: &Config) -> GoldenUnits {
        GoldenUnits {
            config: config.clone(),
            barrier: barrier_file::BarrierFile::new(config),
            mbarrier: mbarrier_alu::MbarrierAlu::new(config),
            atomic: atomic_alu::AtomicAlu::new(config),
            warp: warp_network::WarpNetwork::new(config),
            copy: copy_engine::CopyEngine::new(config),
            trace: None,
        }
    }

    /// Record sync events for `take_trace`.
    pub fn enable_trace(&mut self) {
        self.trace = Some(Vec::new());
    }

    fn push_trace(&mut self, events: Vec<TraceEvent>) {
        if let Some(t) = &mut self.trace {
            t.extend(events);
        }
    }
}

impl SyncUnit for GoldenUnits {
    fn launch_cta(&mut self, slot: u16, warps: u16, threads: u32) {
        self.barrier.launch_cta(slot, warps, threads);
        self.mbarrier.launch_cta(slot);
        self.warp.launch_cta(slot);
        self.copy.launch_cta(slot);
    }

    fn submit(&mut self, req: &Request, mem: &mut MemorySystem, out: &mut Vec<Response>) {
        let mut events = Vec::new();
        match req.op.unit() {
            // cp.async.mbarrier.arrive is an mbarrier op whose arrive-on waits for the thread's
            // earlier cp.async: the copy engine tracks those, so it takes the request.
            _ if req.op == Op::MbCpAsyncArrive => self.copy.submit(req, mem, &mut self.mbarrier, out, &mut events),
            Unit::BarrierFile => {
                self.barrier.submit(req, out, &mut events);
                // Exited lanes count as arrived at warp-level rendezvous (PTX ISA §9.7.13.9-§9.7.13.12;
                // the project reads bar.warp.sync, §9.7.13.2, the same way).
                if req.op == Op::WarpExit {
                    self.warp.submit(req, out);
                }
            }
            Unit::MbarrierAlu => self.mbarrier.submit(req, mem, out, &mut events),
            Unit::AtomicAlu => self.atomic.submit(req, mem, &mut self.mbarrier, out, &mut events),
            Unit::WarpNetwork => self.warp.submit(req, out),
            Unit::CopyEngine => self.copy.submit(req, mem, &mut self.mbarrier, out, &mut events),
            Unit::Lsu => lsu(req, mem, &self.mbarrier, out),
        }
        self.push_trace(events);
    }

    fn tick(&mut self, mem: &mut MemorySystem, idle: bool, out: &mut Vec<Response>) -> bool {
        let mut events = Vec::new();
        let busy = self.copy.tick(mem, &mut self.mbarrier, idle, out, &mut events);
        // Completions may have released suspended try_waits; when nothing else can run, the
        // remaining suspended try_waits time out (PTX allows try_wait to return False).
        self.mbarrier.wake_waiters(mem, idle && !busy, out);
        self.push_trace(events);
        busy
    }

    fn describe_waits(&self) -> Vec<String> {
        let mut w = self.barrier.describe_waits();
        w.extend(self.mbarrier.describe_waits());
        w.extend(self.warp.describe_waits());
        w.extend(self.copy.describe_waits());
        w
    }

    fn take_trace(&mut self) -> Vec<TraceEvent> {
        self.trace.as_mut().map(std::mem::take).unwrap_or_default()
    }
}

/// Plain ld.shared / st.shared through the LSU port. `imm` is the access size in bytes per vector
/// element and `vec` the element count; lane `a` holds the store data (little-endian, packed).
/// Lanes are checked in order and the first lane at fault ends the request (the lanes before it
/// have been done): an address not aligned to the access size (PTX ISA §6.4.1, Addresses as
/// Operands: naturally aligned, a vector to its whole size; undefined otherwise), then a plain
/// access that overlaps a live mbarrier object (PTX ISA §9.7.13.15, undefined), then the range.
fn lsu(req: &Request, mem: &mut MemorySystem, mbar: &mbarrier_alu::MbarrierAlu, out: &mut Vec<Response>) {
    let size = req.imm as usize * req.vec as usize;
    let mut resp = Response::to(req, req.active_mask);
    for lane in req.active_lanes() {
        let addr = req.lanes[lane].addr;
        if size.is_power_of_two() && !addr.is_multiple_of(size as u64) {
            out.push(Response::error(req, ErrorCode::SharedAlign, lane));
            return;
        }
        if mbar.overlaps_live(req.cta, addr, size as u64) {
            out.push(Response::error(req, ErrorCode::MbarrierPlainAccess, lane));
            return;
        }
        let result = match req.op {
            Op::LdShared => mem.read_shared(req.cta as usize, addr, size).map(|v| resp.values[lane] = v),
            _ => mem.write_shared(req.cta as usize, addr, size, req.lanes[lane].a),
        };
        if let Err(e) = result {
            out.push(Response::error(req, e, lane));
            return;
        }
    }
    out.push(resp);
}
