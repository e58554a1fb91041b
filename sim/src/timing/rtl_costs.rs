//! The per-request cycle counts of the generated `sync_unit` top, for the RTL profile of the
//! golden timing back end (`timing.model: rtl`, [`super::rtl`]).
//!
//! Two kinds of number. **Structure**, from the config's hardware fields and the unit pages'
//! cycle tables (docs/units/*.md, "Timing"): beats of `32 / lanes_per_beat` lanes, one active
//! lane per cycle through the lane sequencer, the atomic ALU's steps, the warp network's beat
//! datapath. **Hand-over constants** (decode states, the core's selection, the egress): measured
//! on the RTL back end with the timing microbenchmarks (`testbench/ptx/timing/`), each with the
//! command that measured it, on fpga-small at commit bdefdb0 (2026-12-06):
//! `smsync cosim testbench/ptx/timing/NAME.ptx --launch testbench/ptx/timing/NAME.launch.yaml
//! --config configs/fpga-small.yaml --timing --json` (`out[0] / 64`); docs/TIMING.md, "The RTL
//! profile", lists each figure beside the profile's.

use crate::config::{Config, MatchImpl};
use crate::encoding::{DataType, Op, Space, Unit};
use crate::units::Request;

/// The hand-over constants (cycles), measured as described in the module comment.
pub(super) mod k {
    /// SM issue to the request's header on the port (the port's sender queue).
    pub const ISSUE: u64 = 1;
    /// The last beat taken to the core's start (the operand store written, then read a cycle ahead).
    pub const INGRESS: u64 = 2;
    /// Between two requests in the core after the response leaves: thr_shfl_8w.
    pub const SELECT: u64 = 1;
    /// The core's cycles for a barrier request (decode, update, answer): lat_bar_sync
    /// (16 = ISSUE + 8 beats + INGRESS + 4 + 1 answer cycle).
    pub const BARRIER: u64 = 4;
    /// A released warp walked out of the blocked-warp table (docs/units/sync_unit.md).
    pub const RELEASE_WALK: u64 = 3;
    /// Lane-sequenced units around their lanes (one lane per cycle): the mbarrier ALU's
    /// stages, lat_mbar_arrive (24 = ISSUE + 8 + INGRESS + 4 + 1 lane + 8 value beats) and
    /// lat_mbar_arrive_w32 (55, 32 lanes); the LSU's read, lat_ld_shared (23) and
    /// lat_ld_shared_w32 (54).
    pub const MBARRIER: u64 = 4;
    pub const LSU: u64 = 3;
    /// The warp network's hand-over around its own latency table (which counts from the first
    /// beat, so it already holds the core's beats): lat_shfl (41), lat_vote (23), lat_redux (52).
    pub const WARP_NETWORK: u64 = 0;
    /// The atomic ALU's hand-over around its own cycle count: lat_atom_shared (31),
    /// lat_atom_shared_w32 (38), lat_atom_shared_same (279).
    pub const ATOMIC: u64 = 0;
    /// Global atomic steps through `ag_*` beyond the global read latency: the first step (or
    /// one on bytes no step in flight has) 2 (the line is registered before X1, and one
    /// global read is in flight at a time), one that waits for the previous step's write
    /// 5 + L: lat_atom_global and lat_atom_global_same (32 steps).
    pub const ATOMIC_GLOBAL_STEP: u64 = 2;
    pub const ATOMIC_GLOBAL_WAIT: u64 = 5;
    /// Copy engine: cycles per lane op in its controller (IDLE, FETCH x2, DECIDE; docs/units/copy_engine.md).
    pub const COPY_CONTROLLER: u64 = 4;
    /// A copy lane op's hand-over into the engine's queue and the warp's answer: lat_bulk_store
    /// and lat_tma, with the two below.
    pub const COPY_ANSWER: u64 = 2;
    /// The controller's cycles handing a move to the mover: lat_cp_async_w32 and
    /// lat_cp_async4_w32 (496 per hop both: 6 cycles per 16- or 4-byte lane op).
    pub const MOVE_HANDOVER: u64 = 2;
    /// The mover's cycles per move besides its beats (taking the staged move; then one beat per
    /// cycle): with COPY_LAND, lat_tma (96 per hop).
    pub const MOVE_SETUP: u64 = 4;
    /// A copy with a zero-filled tail (cp.async src-size below its size): cycles after its read
    /// part's data before the mover takes the next move: lat_cp_async_zfill_w32 (1064 per hop
    /// against lat_cp_async_w32's 496: about 24 cycles per lane op).
    pub const ZFILL_DRAIN: u64 = 3;
    /// After a load's last data: the shared write and the complete_tx event into the mbarrier
    /// ALU: lat_tma (96 per hop).
    pub const COPY_LAND: u64 = 2;
    /// After a store's (or reduction's) last write until it is complete, and between a tensor
    /// store's rows (the mover drains between shared-source moves). **Assumed**: no
    /// microbenchmark separates it (a bulk store's lane op is answered only after its shared
    /// reads, so the completion is over before the commit and wait_group that follow);
    /// tensor_2d_store (610 RTL cycles on fpga-small, 597 with this) is consistent with it.
    pub const STORE_LAND: u64 = 8;
    /// A reduction's cycles per element besides the global read latency (its global word read,
    /// aligned, combined and written; docs/units/copy_engine.md): lat_bulk_reduce (543 per hop
    /// of 16 u32 elements).
    pub const REDUCE_ELEMENT: u64 = 12;
    /// Cycles per row move of a tensor load that the controller's row stage (ROWS) takes at
    /// least, whatever the row's beats: tensor_2d_load on configs/default.yaml (64-byte port,
    /// rows of 32 bytes, one beat each): under the timed cosim a 4-row box in bounds is
    /// followed by the next box's answer 48 cycles after its own, 17 of them its rows (the
    /// rest the next map's read and checks; each request's issue and answer cycle traced in
    /// both back ends, 2026-12-06).
    pub const ROW_MOVE: u64 = 4;
    /// A tensor copy's fixed cost besides its map's read (latency and 128 / `copy_port_bytes`
    /// beats): the 5 address-product cycles, the check and the hand-over; docs/units/copy_engine.md's
    /// tensor throughput (35 cycles over a plain copy at a 10-cycle latency, 8-byte port).
    pub const TENSOR_FIXED: u64 = 9;
    /// A suspended try_wait answered on `wake_*` after its phase completes (docs/units/
    /// mbarrier_alu.md: S2 a cycle after S1b, the waiter's answer a cycle after S2).
    pub const WAKE: u64 = 4;
}

/// `32 / lanes_per_beat`: the operand beats of every request and the value beats of a response.
pub(super) fn beats(cfg: &Config) -> u64 {
    (32 / cfg.lanes_per_beat.max(1)) as u64
}

/// Whether the response carries lane values (`resp_has_values`, hdl/src/sync_unit/top.rs): the
/// lane sequencer's, the atomic ALU's and the warp network's do; copies and barriers do not,
/// except bar.red.popc's release.
pub(super) fn has_values(op: Op) -> bool {
    matches!(op.unit(), Unit::MbarrierAlu | Unit::Lsu | Unit::WarpNetwork | Unit::AtomicAlu)
        && op != Op::MbCpAsyncArrive
        || op == Op::BarRedPopc
}

/// The core's cycles for `req` from its start to its response register loaded (copy-engine
/// requests and cp.async.mbarrier.arrive excepted: [`super::rtl`] schedules their lane ops
/// against the engine's queue).
pub(super) fn core_cycles(cfg: &Config, req: &Request) -> u64 {
    let lanes = req.active_mask.count_ones() as u64;
    match req.op {
        // exit: the warp network's re-check, then the barrier file (docs/units/sync_unit.md)
        Op::WarpExit => k::WARP_NETWORK + 4 + k::BARRIER,
        Op::MbCpAsyncArrive => unreachable!("the copy engine's lane ops, scheduled by the caller"),
        _ => match req.op.unit() {
            Unit::BarrierFile => k::BARRIER,
            Unit::MbarrierAlu => k::MBARRIER + lanes,
            Unit::Lsu => k::LSU + lanes,
            Unit::WarpNetwork => k::WARP_NETWORK + warp_network_cycles(cfg, req.op),
            Unit::AtomicAlu => k::ATOMIC + atomic_cycles(cfg, req),
            Unit::CopyEngine => unreachable!("copy-engine requests are scheduled lane op by lane op"),
        },
    }
}

/// docs/units/warp_network.md's latency table, counted from the first beat into the unit.
fn warp_network_cycles(cfg: &Config, op: Op) -> u64 {
    let nb = beats(cfg);
    let log2_l = cfg.lanes_per_beat.max(1).ilog2() as u64;
    match op {
        Op::ShflSync => 6 + 2 * nb,
        Op::MatchAny if cfg.match_impl == MatchImpl::Iterative => 7 + nb + 32,
        Op::MatchAny => 6 + 2 * nb,
        Op::MatchAll => 9 + 2 * nb,
        Op::ReduxSync => 7 + 3 * nb + log2_l,
        // vote, elect, activemask, bar.warp.sync: records read, matched, decided, answered
        _ => 4,
    }
}

/// A lane's access for the atomic ALU's step plan.
struct LaneAccess {
    addr: u64,
    bytes: u64,
    /// 4- and 8-byte scalar integers and f32 may share a step with the lanes of their line
    /// (docs/units/atomic_alu.md, "Coalesced steps").
    groups: bool,
}

/// The atomic ALU's cycles (docs/units/atomic_alu.md, "Timing"): `8 + L` per request (L =
/// `atomic_element_stages`), a step per cycle, a step that shares a byte with one in flight
/// issued `5 + L` cycles after that one; on global memory each step is a line read through
/// `ag_*` at `rtl_gm_latency`, written back before the next one's read.
fn atomic_cycles(cfg: &Config, req: &Request) -> u64 {
    let size = req.dtype.bytes() as u64 * (req.vec.max(1) as u64);
    let groups = req.vec <= 1
        && matches!(
            req.dtype,
            DataType::B32
                | DataType::U32
                | DataType::S32
                | DataType::F32
                | DataType::B64
                | DataType::U64
                | DataType::S64
        );
    let lanes: Vec<(usize, LaneAccess)> =
        req.active_lanes().map(|l| (l, LaneAccess { addr: req.lanes[l].addr, bytes: size, groups })).collect();
    let steps = plan_steps(cfg.atomic_lanes.max(1) as usize, &lanes);
    let stages = cfg.atomic_element_stages as u64;
    if req.space == Space::Global {
        // one line access at a time: each step's read waits for the previous step's write
        let gm = cfg.timing.rtl_gm_latency as u64;
        let mut t = 0;
        for (i, s) in steps.iter().enumerate() {
            let waits = i > 0 && overlaps(s, &steps[i - 1]);
            t += gm + if waits { k::ATOMIC_GLOBAL_WAIT + stages } else { k::ATOMIC_GLOBAL_STEP };
        }
        return 7 + stages + t;
    }
    // Issue cycles: one per step, or after a step in flight on the same bytes has written.
    let mut issued: Vec<(u64, &Vec<(u64, u64)>)> = Vec::new();
    let mut t = 0u64;
    for (i, s) in steps.iter().enumerate() {
        if i > 0 {
            t += 1;
        }
        for (ti, prev) in issued.iter().rev().take(5 + stages as usize) {
            if overlaps(s, prev) {
                t = t.max(ti + 5 + stages);
            }
        }
        issued.push((t, s));
    }
    8 + stages + t + 1
}

fn overlaps(a: &[(u64, u64)], b: &[(u64, u64)]) -> bool {
    a.iter().any(|&(x, xn)| b.iter().any(|&(y, yn)| x < y + yn && y < x + xn))
}

/// The steps of a request: windows of `n` lanes (the n-aligned run holding the lowest lane
/// left), each step its lowest lane and the following lanes of the window that are in its
/// 16-byte line on bytes no earlier member touches; the first that cannot join ends it.
fn plan_steps(n: usize, lanes: &[(usize, LaneAccess)]) -> Vec<Vec<(u64, u64)>> {
    let mut steps = Vec::new();
    let mut rest: Vec<&(usize, LaneAccess)> = lanes.iter().collect();
    while let Some(&&(lead_lane, ref lead)) = rest.first() {
        let window = lead_lane / n;
        let mut step = vec![(lead.addr, lead.bytes)];
        let mut taken = 1;
        if lead.groups {
            for (l, a) in rest.iter().skip(1).map(|x| (x.0, &x.1)) {
                let same_line = a.addr >> 4 == lead.addr >> 4;
                if l / n != window || !a.groups || !same_line || overlaps(&step, &[(a.addr, a.bytes)]) {
                    break;
                }
                step.push((a.addr, a.bytes));
                taken += 1;
            }
        }
        rest.drain(..taken);
        steps.push(step);
    }
    steps
}
