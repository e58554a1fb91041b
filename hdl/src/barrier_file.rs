//! Named-barrier file: `config.named_barriers` barriers per CTA slot × `config.cta_slots`
//! (bar/barrier sync, arrive, red.popc/and/or, and warp exit), the RTL of
//! `smsync_sim::units::barrier_file` (PTX ISA §9.7.13.1), and the cluster barrier (PTX ISA
//! §9.7.13.3). Same behaviour and error codes as the golden unit.
//!
//! # Structure
//!
//! One datapath for every barrier, as a register file with a read-modify-write pipeline:
//!
//! * **round RAM** (`ram_meta`, `ram_arrived`, `ram_waiting`): one word per barrier (address
//!   `{slot, id}`), the round's thread count, kind, missing arrivals, bar.red accumulators and
//!   warp masks (`barrier_file/round.rs` gives the packing). Block or distributed RAM on an FPGA.
//! * [`SlotState`] per slot (`barrier_file/slot.rs`): live warps, thread limit, which barriers are
//!   in a round (a launch clears them at once) and the slot's part of the cluster barrier
//!   ([`ClusterRound`](cluster::ClusterRound)).
//! * [`RoundUpdate`] (`barrier_file/round.rs`): stage U's check and update of one round, built
//!   twice: on the RAM's word and on the write of the cycle before (the forwarding register), so
//!   that the forwarding select comes after the checks, not in front of them.
//! * [`ReleaseQueue`] (`barrier_file/release_queue.rs`): completed rounds waiting for `rel_*`.
//! * the **exit sweep**: a warp exit can complete every whole-CTA round of its slot; stage U of the
//!   exit hands the slot's whole-CTA rounds to a sweep that, from the next cycle on, sends one
//!   completion check per cycle down the same pipeline (highest id first) while requests wait.
//!
//! # Cycle behaviour (two stages)
//!
//! * cycle t, stage D: request on `req_*` (accepted when `req_ready`); decode, the request-only
//!   checks, the thread count in warps, the bar.red `and` of the warp and its predicate count per
//!   byte -> registers; the round RAM's read address `{req_cta, req_id}`.
//! * cycle t+1, stage U: the round from the RAM (or, when stage U wrote the same barrier in
//!   cycle t, forwarded from that write) is checked and updated, and written back at the edge
//!   ending t+1; a completion clears the barrier's in-round bit at that edge (the barrier is free
//!   for the next round at once) and pushes its release. One arrival per cycle back to back.
//! * cycle t+2: `resp_*` answers the request (error code, and whether the warp now waits);
//!   `rel_*` offers the release of a round that completed at the end of t+1 (release latency: 2
//!   cycles after the last arrival's request cycle).
//!
//! A release stays offered on `rel_*` until the top takes it (`rel_ready`). Named-barrier
//! releases leave in completion order (an exit's: highest id first), then the cluster releases
//! (highest slot first). `req_ready` is low while more than one release waits, in the cycle after
//! an exit and while its sweep runs; `busy` is high while a release waits or a sweep runs.
//!
//! # Divergent warps: partial arrivals
//!
//! A warp whose active lanes do not cover its live ones arrives in several requests (PTX ISA
//! §9.7.13.1: the barrier waits for the non-exited threads; a divergent warp's lanes reach it
//! separately). Each request joins the round (its bar.red contribution, its lanes' wait); the
//! warp counts as arrived once its lanes so far cover its live lanes, as in the golden unit.
//! The lanes so far, and the warp's lanes that wait, are the lane word of `{slot, id, warp}`
//! (`ram_lanes`, read in stage D beside the round, forwarded like it), meaningful while the
//! round's `partial` / `waiting` bit of the warp is set, so a completed round forgets them at
//! once. A divergent request joins as a partial arrival; whether it completed its warp's live
//! lanes (a test on the lane RAM's read, a block RAM's slow output) goes to a register, and in
//! the next cycle stage D takes the arrival's *finish* instead of a request: stage U then
//! arrives the warp (and may complete the round) from registers alone. The price is one cycle
//! per divergent request and one cycle more of release latency when a finish completes the
//! round (3 cycles after the last part's request cycle); a converged request arrives at once. `resp_lanes` gives the top every waiting lane of the warp, which it answers with one
//! response at the release (the SM hands each waiting instruction its lanes). A release's
//! `rel_arrived` names the warps with a partial arrival too (the golden unit's trace event),
//! except warps that have exited since.
//!
//! The cluster barrier counts warps, not lanes (as the golden unit does).

use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, ErrorCode, Op};

use crate::atomic_alu::width::Truncate;
use crate::common::{error_code, op_code, ERROR_BITS, FLAG_BITS, OP_BITS, WARP_LANES};
use crate::depth_ram::DepthRam;

pub mod cluster;
pub mod formal;
pub mod release_queue;
pub mod round;
pub mod slot;

use release_queue::ReleaseQueue;
use round::{RoundUpdate, LANES_BITS, META_BITS};
use slot::SlotState;

// The response ORs the error codes of stage U's sources: None must be 0.
const _: () = assert!(ErrorCode::None.code() == 0);
// A round's kind is the red op's low 3 bits (0 = bar.sync / bar.arrive): distinct and non-zero.
const _: () = assert!(Op::BarRedPopc.code() & 7 == 2 && Op::BarRedAnd.code() & 7 == 3 && Op::BarRedOr.code() & 7 == 4);

/// CTA slot index (config.cta_slots <= 32).
pub const SLOT_BITS: usize = 5;
/// Warp index within a CTA (max_warps_per_cta <= 32).
pub const WARP_BITS: usize = 5;
/// Barrier id within a CTA (named_barriers <= 16).
pub const ID_BITS: usize = 4;
/// One bit per barrier id of a slot.
pub const BARRIER_MASK_BITS: usize = 1 << ID_BITS;
/// Warp bitmasks (max_warps_per_cta <= 32).
pub const WARP_MASK_BITS: usize = 32;
/// Warp arrivals of one round and the thread count in warps (<= 32).
pub const WARP_COUNT_BITS: usize = 6;
/// bar.red.popc result: at most 32 warps * 32 lanes = 1024.
pub const POPC_BITS: usize = 11;
/// A round's kind: 0, or the bar.red op's low bits.
pub const KIND_BITS: usize = 3;
/// Round RAM address `{slot, id}` (the RAM uses the low `log2(cta_slots) + ID_BITS` bits).
pub const ADDR_BITS: usize = SLOT_BITS + ID_BITS + 1;

/// One default value per CTA slot.
fn per_slot<T: Default>(config: &Config) -> Vec<T> {
    (0..config.cta_slots).map(|_| T::default()).collect()
}

/// Address bits of the round RAM for `config`: the slot's bits above the id's.
fn round_ram_bits(config: &Config) -> usize {
    let slot_bits = (config.cta_slots.max(1) as u64).next_power_of_two().trailing_zeros() as usize;
    slot_bits + ID_BITS
}

/// Bits of a warp index for `config` (the lane RAM's low address bits).
pub fn warp_index_bits(config: &Config) -> usize {
    ((config.max_warps_per_cta.max(2) as u64).next_power_of_two().trailing_zeros() as usize).max(1)
}

/// Address bits of the lane RAM for `config`: `{slot, id, warp}`.
pub fn lane_ram_bits(config: &Config) -> usize {
    round_ram_bits(config) + warp_index_bits(config)
}

/// Lane RAM address `{slot, id, warp}` (the RAM uses the low `lane_ram_bits` bits).
pub const LANE_ADDR_BITS: usize = ADDR_BITS + WARP_BITS;

/// The named-barrier file of all CTA slots.
#[derive(LogicBlock)]
pub struct BarrierFile {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A CTA with `launch_warps` warps starts in `launch_slot`.
    pub launch: Signal<In, Bit>,
    pub launch_slot: Signal<In, Bits<SLOT_BITS>>,
    pub launch_warps: Signal<In, Bits<32>>,

    // ---- request ----
    pub req_valid: Signal<In, Bit>,
    /// Low while more than one release waits, and while a warp exit's sweep runs.
    pub req_ready: Signal<Out, Bit>,
    pub req_op: Signal<In, Bits<OP_BITS>>,
    pub req_flags: Signal<In, Bits<FLAG_BITS>>,
    pub req_cta: Signal<In, Bits<SLOT_BITS>>,
    pub req_warp: Signal<In, Bits<WARP_BITS>>,
    /// Barrier id (`imm`).
    pub req_id: Signal<In, Bits<32>>,
    /// Thread count `b` (`imm2`), valid with `flags::HAS_COUNT`.
    pub req_count: Signal<In, Bits<32>>,
    /// Lane predicates of bar.red (lane operand a, bit 0), before `!c`.
    pub req_pred: Signal<In, Bits<WARP_LANES>>,
    pub req_active: Signal<In, Bits<WARP_LANES>>,
    pub req_live: Signal<In, Bits<WARP_LANES>>,

    // ---- response to the request (two cycles later) ----
    pub resp_valid: Signal<Out, Bit>,
    pub resp_cta: Signal<Out, Bits<SLOT_BITS>>,
    pub resp_warp: Signal<Out, Bits<WARP_BITS>>,
    pub resp_error: Signal<Out, Bits<ERROR_BITS>>,
    /// bar.sync / bar.red accepted: the warp waits for its release (answer comes on rel_*).
    pub resp_blocked: Signal<Out, Bit>,
    /// With `resp_blocked` on a named barrier: every lane of the warp that now waits for the
    /// barrier's release (this request's and those of its earlier partial arrivals).
    pub resp_lanes: Signal<Out, Bits<WARP_LANES>>,

    // ---- release event ----
    /// The release on `rel_*` is taken this cycle (it stays offered until then).
    pub rel_ready: Signal<In, Bit>,
    pub rel_valid: Signal<Out, Bit>,
    /// The release is the cluster barrier's: `rel_waiting` of `rel_cta` is released, the other
    /// fields are 0 (no named-barrier release event).
    pub rel_cluster: Signal<Out, Bit>,
    pub rel_cta: Signal<Out, Bits<SLOT_BITS>>,
    pub rel_id: Signal<Out, Bits<ID_BITS>>,
    /// Warps released (those that waited: bar.sync / bar.red).
    pub rel_waiting: Signal<Out, Bits<WARP_MASK_BITS>>,
    /// Warps that arrived in the round (waiting ones and bar.arrive ones).
    pub rel_arrived: Signal<Out, Bits<WARP_MASK_BITS>>,
    pub rel_popc: Signal<Out, Bits<POPC_BITS>>,
    pub rel_and: Signal<Out, Bit>,
    pub rel_or: Signal<Out, Bit>,
    /// A release waits or an exit's sweep runs: releases may still come without a new request.
    pub busy: Signal<Out, Bit>,

    slots: Vec<SlotState>,
    /// Stage U's update of the round: [0] on the RAM's word, [1] on the forwarded write of the
    /// cycle before (`fw_*`); `d_fwd` selects the result (the select after the checks, not in
    /// front of them).
    round: Vec<RoundUpdate>,
    u_error: Signal<Local, Bits<ERROR_BITS>>,
    u_apply: Signal<Local, Bit>,
    u_completes: Signal<Local, Bit>,
    u_meta: Signal<Local, Bits<META_BITS>>,
    u_arrived: Signal<Local, Bits<WARP_MASK_BITS>>,
    u_waiting: Signal<Local, Bits<WARP_MASK_BITS>>,
    u_popc: Signal<Local, Bits<POPC_BITS>>,
    u_all: Signal<Local, Bits<1>>,
    u_partial: Signal<Local, Bits<WARP_MASK_BITS>>,
    u_lanes: Signal<Local, Bits<LANES_BITS>>,
    queue: ReleaseQueue,
    ram_meta: DepthRam<Bits<META_BITS>, ADDR_BITS>,
    ram_arrived: DepthRam<Bits<WARP_MASK_BITS>, ADDR_BITS>,
    ram_waiting: DepthRam<Bits<WARP_MASK_BITS>, ADDR_BITS>,
    ram_partial: DepthRam<Bits<WARP_MASK_BITS>, ADDR_BITS>,
    /// The lane words (`round.rs`), one per {slot, id, warp}: block RAM (a word read at the edge
    /// that writes it is never used: stage U takes the forwarded write then, `d_lane_fwd`).
    ram_lanes: DepthRam<Bits<LANES_BITS>, LANE_ADDR_BITS>,
    slot_ids: Vec<Constant<Bits<SLOT_BITS>>>,
    bar_ids: Vec<Constant<Bits<ID_BITS>>>,
    /// Per slot: its bit, and the bits of its cluster's slots (`cluster_size` consecutive).
    slot_bits: Vec<Constant<Bits<32>>>,
    cluster_bits: Vec<Constant<Bits<32>>>,

    // ---- decoded request or sweep check (stage D -> U) ----
    d_valid: DFF<Bit>,
    d_cta: DFF<Bits<SLOT_BITS>>,
    d_id: DFF<Bits<ID_BITS>>,
    d_warp: DFF<Bits<WARP_BITS>>,
    d_pre_error: DFF<Bits<ERROR_BITS>>,
    /// A named-barrier arrival that passed the request-only checks.
    d_hit: DFF<Bit>,
    /// The barrier `{d_cta, d_id}` is in a round (its in-round bit as stage U leaves it, looked
    /// up a cycle ahead so that stage U starts from a register).
    d_active: DFF<Bit>,
    /// An exit-sweep check of barrier `{d_cta, d_id}`.
    d_check: DFF<Bit>,
    /// A warp exit of the warp's last live lanes: it leaves the CTA's live mask.
    d_exit_done: DFF<Bit>,
    /// bar.sync / bar.red: the warp waits for the release (if the arrival is accepted).
    d_blocking: DFF<Bit>,
    d_kind: DFF<Bits<KIND_BITS>>,
    d_counted: DFF<Bit>,
    d_count_warps: DFF<Bits<WARP_COUNT_BITS>>,
    d_left1: DFF<Bits<WARP_COUNT_BITS>>,
    d_first_done: DFF<Bit>,
    d_warp_bit: DFF<Bits<WARP_MASK_BITS>>,
    /// bar.red.popc, split across the stages: stage D counts bits into byte fields (three short
    /// SWAR steps), stage U adds the four bytes (`pc4`, `pc5`).
    d_bytes: DFF<Bits<32>>,
    d_all: DFF<Bits<1>>,
    d_cl_wait: DFF<Bit>,
    /// The request's active lanes and its warp's live lanes it does not cover.
    d_req_active: DFF<Bits<WARP_LANES>>,
    d_missing: DFF<Bits<WARP_LANES>>,
    /// The request's active lanes cover its warp's live lanes (the warp arrives at once).
    d_converged: DFF<Bit>,
    /// A divergent warp's finish (`fin_go` in the cycle before): stage U arrives the warp if its
    /// partial arrival covered its live lanes (`u_whole`).
    d_finish: DFF<Bit>,
    /// Stage U's partial arrival joined its round, and covered its warp's live lanes (its
    /// `lanes_complete`), for the finish in the next cycle (two registers: two short paths).
    u_joined: DFF<Bit>,
    u_whole: DFF<Bit>,
    /// Stage U wrote the lane word this request reads (the same barrier and warp) at the edge
    /// that ended stage D: take `fw_lanes`.
    d_lane_fwd: DFF<Bit>,
    // ---- stage U's write of the previous cycle, for the next read of the same barrier ----
    /// Stage U wrote the barrier `{d_cta, d_id}` at the edge that ended stage D (decided in
    /// stage D, so stage U starts from a register): take `fw_*`, not the RAM's read data.
    d_fwd: DFF<Bit>,
    /// The live warps of the request's slot after the edge ending stage D.
    d_live: DFF<Bits<WARP_MASK_BITS>>,
    fw_meta: DFF<Bits<META_BITS>>,
    fw_arrived: DFF<Bits<WARP_MASK_BITS>>,
    fw_waiting: DFF<Bits<WARP_MASK_BITS>>,
    fw_partial: DFF<Bits<WARP_MASK_BITS>>,
    fw_lanes: DFF<Bits<LANES_BITS>>,
    // ---- the exit sweep: the whole-CTA rounds of `sw_slot` still to check ----
    sw_mask: DFF<Bits<BARRIER_MASK_BITS>>,
    /// The highest id in `sw_mask` (the sweep's next check).
    sw_top: DFF<Bits<ID_BITS>>,
    /// `sw_mask` after this edge.
    sw_next: Signal<Local, Bits<BARRIER_MASK_BITS>>,
    sw_slot: DFF<Bits<SLOT_BITS>>,
    // ---- response (stage U -> out) ----
    o_valid: DFF<Bit>,
    o_cta: DFF<Bits<SLOT_BITS>>,
    o_warp: DFF<Bits<WARP_BITS>>,
    o_error: DFF<Bits<ERROR_BITS>>,
    o_blocked: DFF<Bit>,
    o_lanes: DFF<Bits<WARP_LANES>>,

    accept: Signal<Local, Bit>,
    is_named: Signal<Local, Bit>,
    is_arrive: Signal<Local, Bit>,
    is_red: Signal<Local, Bit>,
    is_exit: Signal<Local, Bit>,
    is_cluster: Signal<Local, Bit>,
    is_cl_wait: Signal<Local, Bit>,
    has_count: Signal<Local, Bit>,
    negate: Signal<Local, Bit>,
    limit: Signal<Local, Bits<32>>,
    pre_error: Signal<Local, Bits<ERROR_BITS>>,
    warp_bit: Signal<Local, Bits<WARP_MASK_BITS>>,
    preds: Signal<Local, Bits<WARP_LANES>>,
    pc1: Signal<Local, Bits<32>>,
    pc2: Signal<Local, Bits<32>>,
    pc3: Signal<Local, Bits<32>>,
    pc4: Signal<Local, Bits<32>>,
    pc5: Signal<Local, Bits<32>>,
    /// The warp's predicate count (at most 32) at the popc accumulator's width.
    popc_narrow: Truncate<32, POPC_BITS>,
    // sweep
    sw_src: Signal<Local, Bits<BARRIER_MASK_BITS>>,
    sw_src_slot: Signal<Local, Bits<SLOT_BITS>>,
    sw_id: Signal<Local, Bits<ID_BITS>>,
    sweep_go: Signal<Local, Bit>,
    /// Stage U holds a divergent arrival: stage D takes its finish now (no request).
    fin_go: Signal<Local, Bit>,
    /// The warp of stage D (the request's, or the finish's).
    read_warp: Signal<Local, Bits<WARP_BITS>>,
    read_slot: Signal<Local, Bits<SLOT_BITS>>,
    read_id: Signal<Local, Bits<ID_BITS>>,
    read_addr: Signal<Local, Bits<ADDR_BITS>>,
    read_lane_addr: Signal<Local, Bits<LANE_ADDR_BITS>>,
    /// The barrier read now: its in-round bit, and whether stage U updates that barrier now.
    read_active: Signal<Local, Bit>,
    read_in_u: Signal<Local, Bit>,
    // stage U
    u_addr: Signal<Local, Bits<ADDR_BITS>>,
    u_lane_addr: Signal<Local, Bits<LANE_ADDR_BITS>>,
    u_active: Signal<Local, Bit>,
    u_live: Signal<Local, Bits<WARP_MASK_BITS>>,
    u_kill: Signal<Local, Bit>,
    u_write: Signal<Local, Bit>,
    u_lanes_cover: Signal<Local, Bit>,
    /// Cluster barrier, stage U: per slot its bit if some warp arrived / every live warp has
    /// (after this cycle's request), OR-ed over the slots (`*_upto`), and the cluster waits.
    cl_any_bit: Vec<Signal<Local, Bits<32>>>,
    cl_in_bit: Vec<Signal<Local, Bits<32>>>,
    cl_any_upto: Vec<Signal<Local, Bits<32>>>,
    cl_in_upto: Vec<Signal<Local, Bits<32>>>,
    cl_any_mask: Signal<Local, Bits<32>>,
    cl_in_mask: Signal<Local, Bits<32>>,
    cl_blk_upto: Vec<Signal<Local, Bit>>,
    cl_blocked: Signal<Local, Bit>,
    /// OR of the slots' cluster error codes up to each slot (ErrorCode::None is 0).
    cl_err_upto: Vec<Signal<Local, Bits<ERROR_BITS>>>,
    cl_error: Signal<Local, Bits<ERROR_BITS>>,
    // release arbiter
    cl_pend: Signal<Local, Bit>,
    cl_sel: Signal<Local, Bits<SLOT_BITS>>,
    cl_multi: Signal<Local, Bit>,
    q_offer: Signal<Local, Bit>,
    multi: Signal<Local, Bit>,

    op_sync: Constant<Bits<OP_BITS>>,
    op_arrive: Constant<Bits<OP_BITS>>,
    op_popc: Constant<Bits<OP_BITS>>,
    op_and: Constant<Bits<OP_BITS>>,
    op_or: Constant<Bits<OP_BITS>>,
    op_exit: Constant<Bits<OP_BITS>>,
    op_cl_arrive: Constant<Bits<OP_BITS>>,
    op_cl_wait: Constant<Bits<OP_BITS>>,
    flag_negate: Constant<Bits<FLAG_BITS>>,
    flag_has_count: Constant<Bits<FLAG_BITS>>,
    e_none: Constant<Bits<ERROR_BITS>>,
    e_id_range: Constant<Bits<ERROR_BITS>>,
    e_needs_count: Constant<Bits<ERROR_BITS>>,
    e_not_multiple: Constant<Bits<ERROR_BITS>>,
    e_too_large: Constant<Bits<ERROR_BITS>>,
    e_not_built: Constant<Bits<ERROR_BITS>>,
    k_named_barriers: Constant<Bits<32>>,
    /// The ids `0..named_barriers` as a mask (the sweep never looks above them).
    k_bar_ids: Constant<Bits<BARRIER_MASK_BITS>>,
    k_last_slot: Constant<Bits<SLOT_BITS>>,
    k_zero32: Constant<Bits<32>>,
    k_one32: Constant<Bits<32>>,
    k_warp_mask: Constant<Bits<32>>,
    k_m1: Constant<Bits<32>>,
    k_m2: Constant<Bits<32>>,
    k_m4: Constant<Bits<32>>,
    k_m6: Constant<Bits<32>>,
    k_zero_slot: Constant<Bits<SLOT_BITS>>,
    k_zero_id: Constant<Bits<ID_BITS>>,
    k_one_id: Constant<Bits<BARRIER_MASK_BITS>>,
    k_no_ids: Constant<Bits<BARRIER_MASK_BITS>>,
    k_one_count: Constant<Bits<WARP_COUNT_BITS>>,
    k_zero_count: Constant<Bits<WARP_COUNT_BITS>>,
    k_zero_kind: Constant<Bits<KIND_BITS>>,
    k_zero_popc: Constant<Bits<POPC_BITS>>,
    k_all1: Constant<Bits<1>>,
    k_none1: Constant<Bits<1>>,
    k_two_held: Constant<Bits<3>>,
    /// The lane RAM's address: `{slot, id}` shifted up by the warp index bits.
    k_warp_shift: Constant<Bits<LANE_ADDR_BITS>>,
}

impl BarrierFile {
    pub fn new(config: &Config) -> BarrierFile {
        assert!(config.named_barriers as usize <= BARRIER_MASK_BITS && config.cta_slots as usize <= 32);
        let op = |o: Op| Constant::new(op_code(o));
        let err = |e: ErrorCode| Constant::new(error_code(e));
        let c32 = |v: u64| Constant::new(v.to_bits());
        let ram_bits = round_ram_bits(config);
        BarrierFile {
            clock: Default::default(),
            reset: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            launch_warps: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_flags: Default::default(),
            req_cta: Default::default(),
            req_warp: Default::default(),
            req_id: Default::default(),
            req_count: Default::default(),
            req_pred: Default::default(),
            req_active: Default::default(),
            req_live: Default::default(),
            resp_valid: Default::default(),
            resp_cta: Default::default(),
            resp_warp: Default::default(),
            resp_error: Default::default(),
            resp_blocked: Default::default(),
            resp_lanes: Default::default(),
            rel_ready: Default::default(),
            rel_valid: Default::default(),
            rel_cluster: Default::default(),
            rel_cta: Default::default(),
            rel_id: Default::default(),
            rel_waiting: Default::default(),
            rel_arrived: Default::default(),
            rel_popc: Default::default(),
            rel_and: Default::default(),
            rel_or: Default::default(),
            busy: Default::default(),
            slots: (0..config.cta_slots).map(|_| SlotState::default()).collect(),
            round: (0..2).map(|_| RoundUpdate::default()).collect(),
            u_error: Default::default(),
            u_apply: Default::default(),
            u_completes: Default::default(),
            u_meta: Default::default(),
            u_arrived: Default::default(),
            u_waiting: Default::default(),
            u_popc: Default::default(),
            u_all: Default::default(),
            u_partial: Default::default(),
            u_lanes: Default::default(),
            queue: ReleaseQueue::default(),
            ram_meta: DepthRam::new(ram_bits),
            ram_arrived: DepthRam::new(ram_bits),
            ram_waiting: DepthRam::new(ram_bits),
            ram_partial: DepthRam::new(ram_bits),
            ram_lanes: DepthRam::block(lane_ram_bits(config)),
            slot_ids: (0..config.cta_slots).map(|i| Constant::new((i as u64).to_bits())).collect(),
            bar_ids: (0..config.named_barriers).map(|i| Constant::new((i as u64).to_bits())).collect(),
            slot_bits: (0..config.cta_slots).map(|i| c32(1 << i)).collect(),
            cluster_bits: (0..config.cta_slots)
                .map(|i| {
                    let n = config.cluster_size;
                    c32(((1u64 << n) - 1) << (i / n * n))
                })
                .collect(),
            d_valid: Default::default(),
            d_cta: Default::default(),
            d_id: Default::default(),
            d_warp: Default::default(),
            d_pre_error: Default::default(),
            d_hit: Default::default(),
            d_active: Default::default(),
            d_check: Default::default(),
            d_exit_done: Default::default(),
            d_blocking: Default::default(),
            d_kind: Default::default(),
            d_counted: Default::default(),
            d_count_warps: Default::default(),
            d_left1: Default::default(),
            d_first_done: Default::default(),
            d_warp_bit: Default::default(),
            d_bytes: Default::default(),
            d_all: Default::default(),
            d_cl_wait: Default::default(),
            d_req_active: Default::default(),
            d_missing: Default::default(),
            d_converged: Default::default(),
            d_finish: Default::default(),
            u_joined: Default::default(),
            u_whole: Default::default(),
            d_lane_fwd: Default::default(),
            d_fwd: Default::default(),
            d_live: Default::default(),
            fw_meta: Default::default(),
            fw_arrived: Default::default(),
            fw_waiting: Default::default(),
            fw_partial: Default::default(),
            fw_lanes: Default::default(),
            sw_mask: Default::default(),
            sw_top: Default::default(),
            sw_next: Default::default(),
            sw_slot: Default::default(),
            o_valid: Default::default(),
            o_cta: Default::default(),
            o_warp: Default::default(),
            o_error: Default::default(),
            o_blocked: Default::default(),
            o_lanes: Default::default(),
            accept: Default::default(),
            is_named: Default::default(),
            is_arrive: Default::default(),
            is_red: Default::default(),
            is_exit: Default::default(),
            is_cluster: Default::default(),
            is_cl_wait: Default::default(),
            has_count: Default::default(),
            negate: Default::default(),
            limit: Default::default(),
            pre_error: Default::default(),
            warp_bit: Default::default(),
            preds: Default::default(),
            pc1: Default::default(),
            pc2: Default::default(),
            pc3: Default::default(),
            pc4: Default::default(),
            pc5: Default::default(),
            popc_narrow: Default::default(),
            sw_src: Default::default(),
            sw_src_slot: Default::default(),
            sw_id: Default::default(),
            sweep_go: Default::default(),
            fin_go: Default::default(),
            read_warp: Default::default(),
            read_slot: Default::default(),
            read_id: Default::default(),
            read_addr: Default::default(),
            read_lane_addr: Default::default(),
            read_active: Default::default(),
            read_in_u: Default::default(),
            u_addr: Default::default(),
            u_lane_addr: Default::default(),
            u_active: Default::default(),
            u_live: Default::default(),
            u_kill: Default::default(),
            u_write: Default::default(),
            u_lanes_cover: Default::default(),
            cl_any_bit: per_slot(config),
            cl_in_bit: per_slot(config),
            cl_any_upto: per_slot(config),
            cl_in_upto: per_slot(config),
            cl_any_mask: Default::default(),
            cl_in_mask: Default::default(),
            cl_blk_upto: per_slot(config),
            cl_blocked: Default::default(),
            cl_err_upto: per_slot(config),
            cl_error: Default::default(),
            cl_pend: Default::default(),
            cl_sel: Default::default(),
            cl_multi: Default::default(),
            q_offer: Default::default(),
            multi: Default::default(),
            op_sync: op(Op::BarSync),
            op_arrive: op(Op::BarArrive),
            op_popc: op(Op::BarRedPopc),
            op_and: op(Op::BarRedAnd),
            op_or: op(Op::BarRedOr),
            op_exit: op(Op::WarpExit),
            op_cl_arrive: op(Op::BarClusterArrive),
            op_cl_wait: op(Op::BarClusterWait),
            flag_negate: Constant::new((flags::NEGATE as u64).to_bits()),
            flag_has_count: Constant::new((flags::HAS_COUNT as u64).to_bits()),
            e_none: err(ErrorCode::None),
            e_id_range: err(ErrorCode::BarIdRange),
            e_needs_count: err(ErrorCode::BarArriveNeedsCount),
            e_not_multiple: err(ErrorCode::BarCountNotWarpMultiple),
            e_too_large: err(ErrorCode::BarCountTooLarge),
            e_not_built: err(ErrorCode::NotBuilt),
            k_named_barriers: c32(config.named_barriers as u64),
            k_bar_ids: Constant::new(((1u64 << config.named_barriers) - 1).to_bits()),
            k_last_slot: Constant::new(((config.cta_slots - 1) as u64).to_bits()),
            k_zero32: c32(0),
            k_one32: c32(1),
            k_warp_mask: c32(31),
            k_m1: c32(0x5555_5555),
            k_m2: c32(0x3333_3333),
            k_m4: c32(0x0f0f_0f0f),
            k_m6: c32(0x3f),
            k_zero_slot: Constant::new(0u64.to_bits()),
            k_zero_id: Constant::new(0u64.to_bits()),
            k_one_id: Constant::new(1u64.to_bits()),
            k_no_ids: Constant::new(0u64.to_bits()),
            k_one_count: Constant::new(1u64.to_bits()),
            k_zero_count: Constant::new(0u64.to_bits()),
            k_zero_kind: Constant::new(0u64.to_bits()),
            k_zero_popc: Constant::new(0u64.to_bits()),
            k_all1: Constant::new(1u64.to_bits()),
            k_none1: Constant::new(0u64.to_bits()),
            k_two_held: Constant::new(2u64.to_bits()),
            k_warp_shift: Constant::new((warp_index_bits(config) as u64).to_bits()),
        }
    }
}

impl Logic for BarrierFile {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            d_valid,
            d_cta,
            d_id,
            d_warp,
            d_pre_error,
            d_hit,
            d_active,
            d_check,
            d_exit_done,
            d_blocking,
            d_kind,
            d_counted,
            d_count_warps,
            d_left1,
            d_first_done,
            d_warp_bit,
            d_bytes,
            d_all,
            d_cl_wait,
            d_req_active,
            d_missing,
            d_converged,
            d_finish,
            u_joined,
            u_whole,
            d_lane_fwd,
            d_fwd,
            d_live,
            fw_meta,
            fw_arrived,
            fw_waiting,
            fw_partial,
            fw_lanes,
            sw_mask,
            sw_top,
            sw_slot,
            o_valid,
            o_cta,
            o_warp,
            o_error,
            o_blocked,
            o_lanes
        );
        self.queue.clock.next = self.clock.val();
        self.queue.reset.next = self.reset.val();

        // ---- release arbiter: the queue's head (named barriers, completion order), else the
        // highest slot's cluster release ----
        self.cl_pend.next = false;
        self.cl_sel.next = self.k_zero_slot.val();
        for s in 0..self.slots.len() {
            if self.slots[s].cl_pending.val() {
                self.cl_pend.next = true;
                self.cl_sel.next = self.slot_ids[s].val();
            }
        }
        self.cl_multi.next = false;
        for s in 0..self.slots.len() {
            if self.slots[s].cl_pending.val() & (self.cl_sel.val() != self.slot_ids[s].val()) {
                self.cl_multi.next = true;
            }
        }
        self.q_offer.next = self.queue.head_live.val();
        self.rel_valid.next = self.rel_ready.val() & (self.q_offer.val() | self.cl_pend.val());
        self.rel_cluster.next = !self.q_offer.val();
        self.rel_cta.next = self.cl_sel.val();
        self.rel_id.next = self.k_zero_id.val();
        self.rel_waiting.next = self.k_zero32.val();
        for s in 0..self.slots.len() {
            if self.cl_sel.val() == self.slot_ids[s].val() {
                self.rel_waiting.next = self.slots[s].cl_waiting.val();
            }
        }
        self.rel_arrived.next = self.k_zero32.val();
        self.rel_popc.next = self.k_zero_popc.val();
        self.rel_and.next = false;
        self.rel_or.next = false;
        if self.q_offer.val() {
            self.rel_cta.next = self.queue.head_slot.val();
            self.rel_id.next = self.queue.head_id.val();
            self.rel_waiting.next = self.queue.head_waiting.val();
            self.rel_arrived.next = self.queue.head_arrived.val();
            self.rel_popc.next = self.queue.head_popc.val();
            self.rel_and.next = self.queue.head_all.val().any();
            self.rel_or.next = self.queue.head_popc.val() != self.k_zero_popc.val();
        }
        // (a dropped head leaves at once, without an offer)
        self.queue.pop.next = self.queue.nonempty.val() & (!self.q_offer.val() | self.rel_ready.val());
        for s in 0..self.slots.len() {
            self.slots[s].cl_emitted.next = self.rel_ready.val()
                & !self.q_offer.val()
                & self.cl_pend.val()
                & (self.cl_sel.val() == self.slot_ids[s].val());
        }
        // More than one release waiting: take no request (nor sweep check) until they have left,
        // so the queue never overflows (at most this one, stage U's and stage D's completions).
        self.multi.next = self.cl_multi.val()
            | (self.queue.count.val() >= self.k_two_held.val())
            | (self.queue.nonempty.val() & self.cl_pend.val());
        // A divergent arrival in stage U: stage D takes its finish (`fin_go`) instead of a request.
        self.fin_go.next = self.d_hit.q.val() & !self.d_converged.q.val();
        self.req_ready.next = !self.multi.val()
            & !self.d_exit_done.q.val()
            & (self.sw_mask.q.val() == self.k_no_ids.val())
            & !self.fin_go.val();
        self.accept.next = self.req_valid.val() & self.req_ready.val() & !self.reset.val();
        self.busy.next = self.d_exit_done.q.val()
            | self.d_check.q.val()
            | self.fin_go.val()
            | self.d_finish.q.val()
            | (self.sw_mask.q.val() != self.k_no_ids.val())
            | self.queue.nonempty.val()
            | self.cl_pend.val();

        // ---- decode ----
        self.is_arrive.next = self.req_op.val() == self.op_arrive.val();
        self.is_red.next = (self.req_op.val() == self.op_popc.val())
            | (self.req_op.val() == self.op_and.val())
            | (self.req_op.val() == self.op_or.val());
        self.is_named.next = (self.req_op.val() == self.op_sync.val()) | self.is_arrive.val() | self.is_red.val();
        self.is_exit.next = self.req_op.val() == self.op_exit.val();
        self.is_cl_wait.next = self.req_op.val() == self.op_cl_wait.val();
        self.is_cluster.next = (self.req_op.val() == self.op_cl_arrive.val()) | self.is_cl_wait.val();
        self.has_count.next = (self.req_flags.val() & self.flag_has_count.val()).any();
        self.negate.next = (self.req_flags.val() & self.flag_negate.val()).any();
        self.warp_bit.next = self.k_one32.val() << self.req_warp.val();

        self.limit.next = self.k_zero32.val();
        for s in 0..self.slots.len() {
            if self.req_cta.val() == self.slot_ids[s].val() {
                self.limit.next = self.slots[s].thread_limit.val();
            }
        }
        // ---- request-only checks, in the golden unit's order ----
        self.pre_error.next = self.e_none.val();
        if self.req_cta.val() > self.k_last_slot.val() {
            self.pre_error.next = self.e_id_range.val();
        } else if self.is_exit.val() | self.is_cluster.val() {
            // (the cluster barrier's errors depend on its round: stage U)
            self.pre_error.next = self.e_none.val();
        } else if !self.is_named.val() {
            self.pre_error.next = self.e_not_built.val();
        } else if self.req_id.val() >= self.k_named_barriers.val() {
            self.pre_error.next = self.e_id_range.val();
        } else if self.has_count.val() {
            if self.is_arrive.val() & (self.req_count.val() == self.k_zero32.val()) {
                self.pre_error.next = self.e_needs_count.val();
            } else if (self.req_count.val() == self.k_zero32.val())
                | ((self.req_count.val() & self.k_warp_mask.val()) != self.k_zero32.val())
            {
                self.pre_error.next = self.e_not_multiple.val();
            } else if self.req_count.val() > self.limit.val() {
                self.pre_error.next = self.e_too_large.val();
            }
        } else if self.is_arrive.val() {
            self.pre_error.next = self.e_needs_count.val();
        }

        // ---- bar.red contribution of this warp: popc / and / or over the active lanes ----
        self.preds.next = self.req_pred.val() & self.req_active.val();
        if self.negate.val() {
            self.preds.next = !self.req_pred.val() & self.req_active.val();
        }
        self.pc1.next = self.preds.val() - ((self.preds.val() >> 1) & self.k_m1.val());
        self.pc2.next = (self.pc1.val() & self.k_m2.val()) + ((self.pc1.val() >> 2) & self.k_m2.val());
        self.pc3.next = (self.pc2.val() + (self.pc2.val() >> 4)) & self.k_m4.val();
        // (stage U: the byte counts' sum)
        self.pc4.next = self.d_bytes.q.val() + (self.d_bytes.q.val() >> 8);
        self.pc5.next = (self.pc4.val() + (self.pc4.val() >> 16)) & self.k_m6.val();

        // ---- the exit sweep: stage U of an exit hands over its slot's whole-CTA rounds; one
        // completion check per cycle from the next cycle on, highest id first ----
        self.sw_src.next = self.sw_mask.q.val();
        self.sw_src_slot.next = self.sw_slot.q.val();
        // The highest id of the mask, kept in a register beside it (`sw_top`): no priority
        // encoder in front of stage D's read and in-round lookup.
        self.sw_id.next = self.sw_top.q.val();
        self.sweep_go.next =
            (self.sw_src.val() != self.k_no_ids.val()) & !self.multi.val() & !self.fin_go.val() & !self.reset.val();
        self.sw_next.next = self.sw_src.val();
        self.sw_slot.d.next = self.sw_src_slot.val();
        if self.sweep_go.val() {
            self.sw_next.next = self.sw_src.val() & !(self.k_one_id.val() << self.sw_id.val());
        }
        // (an exit in stage U loads its slot's whole-CTA rounds; the first check goes out the
        // cycle after, from registers)
        if self.d_exit_done.q.val() {
            self.sw_slot.d.next = self.d_cta.q.val();
            for s in 0..self.slots.len() {
                if self.d_cta.q.val() == self.slot_ids[s].val() {
                    self.sw_next.next = self.slots[s].whole.val() & self.k_bar_ids.val();
                }
            }
        }
        if self.reset.val() {
            self.sw_next.next = self.k_no_ids.val();
        }
        self.sw_mask.d.next = self.sw_next.val();
        self.sw_top.d.next = self.k_zero_id.val();
        for i in 0..self.bar_ids.len() {
            if self.sw_next.val().get_bit(i) {
                self.sw_top.d.next = self.bar_ids[i].val();
            }
        }

        // ---- stage D: the round RAM's read (the sweep's check, or the request's barrier) ----
        self.read_slot.next = self.req_cta.val();
        self.read_id.next = self.req_id.val().get_bits::<ID_BITS>(0);
        self.read_warp.next = self.req_warp.val();
        if self.sweep_go.val() {
            self.read_slot.next = self.sw_src_slot.val();
            self.read_id.next = self.sw_id.val();
        }
        // (a finish: the barrier and warp of stage U's divergent arrival)
        if self.fin_go.val() {
            self.read_slot.next = self.d_cta.q.val();
            self.read_id.next = self.d_id.q.val();
            self.read_warp.next = self.d_warp.q.val();
        }
        self.ram_meta.read_clock.next = self.clock.val();
        self.ram_arrived.read_clock.next = self.clock.val();
        self.ram_waiting.read_clock.next = self.clock.val();
        self.read_addr.next = (bit_cast::<ADDR_BITS, SLOT_BITS>(self.read_slot.val()) << 4u64)
            | bit_cast::<ADDR_BITS, ID_BITS>(self.read_id.val());
        self.ram_meta.read_address.next = self.read_addr.val();
        self.ram_arrived.read_address.next = self.read_addr.val();
        self.ram_waiting.read_address.next = self.read_addr.val();
        self.ram_partial.read_clock.next = self.clock.val();
        self.ram_partial.read_address.next = self.read_addr.val();
        self.read_lane_addr.next = (bit_cast::<LANE_ADDR_BITS, ADDR_BITS>(self.read_addr.val())
            << self.k_warp_shift.val())
            | bit_cast::<LANE_ADDR_BITS, WARP_BITS>(self.read_warp.val());
        self.ram_lanes.read_clock.next = self.clock.val();
        self.ram_lanes.read_address.next = self.read_lane_addr.val();

        // ---- stage D -> U ----
        self.d_valid.d.next = self.accept.val();
        self.d_cta.d.next = self.read_slot.val();
        // The live warps of the slot, as stage U will see them (a launch or an exit at this edge
        // applied), registered here: no slot select in front of stage U's checks.
        self.d_live.d.next = self.k_zero32.val();
        for s in 0..self.slots.len() {
            if self.read_slot.val() == self.slot_ids[s].val() {
                self.d_live.d.next = self.slots[s].live_next.val();
            }
        }
        self.d_id.d.next = self.read_id.val();
        self.d_warp.d.next = self.read_warp.val();
        self.d_pre_error.d.next = self.pre_error.val();
        self.d_hit.d.next = self.accept.val() & self.is_named.val() & (self.pre_error.val() == self.e_none.val());
        self.d_check.d.next = self.sweep_go.val();
        self.d_exit_done.d.next = self.accept.val() & self.is_exit.val() & (self.req_live.val() == self.k_zero32.val());
        self.d_blocking.d.next = self.is_named.val() & !self.is_arrive.val();
        self.d_kind.d.next = self.k_zero_kind.val();
        if self.is_red.val() {
            self.d_kind.d.next = self.req_op.val().get_bits::<KIND_BITS>(0);
        }
        self.d_counted.d.next = self.has_count.val();
        self.d_count_warps.d.next = self.k_zero_count.val();
        if self.has_count.val() {
            self.d_count_warps.d.next = self.req_count.val().get_bits::<WARP_COUNT_BITS>(5);
        }
        self.d_left1.d.next = self.req_count.val().get_bits::<WARP_COUNT_BITS>(5) - self.k_one_count.val();
        self.d_first_done.d.next = self.req_count.val().get_bits::<WARP_COUNT_BITS>(5) <= self.k_one_count.val();
        self.d_warp_bit.d.next = self.warp_bit.val();
        if self.sweep_go.val() {
            self.d_warp_bit.d.next = self.k_zero32.val();
        }
        self.d_bytes.d.next = self.pc3.val();
        self.d_all.d.next = self.k_none1.val();
        if self.preds.val() == self.req_active.val() {
            self.d_all.d.next = self.k_all1.val();
        }
        self.d_cl_wait.d.next = self.is_cl_wait.val();
        self.d_req_active.d.next = self.req_active.val();
        self.d_missing.d.next = self.req_live.val() & !self.req_active.val();
        self.d_converged.d.next = (self.req_live.val() & !self.req_active.val()) == self.k_zero32.val();
        // A finish contributes nothing (no lanes, no predicate, no wait) to the round its
        // partial arrival joined, and keeps that arrival's warp and thread count.
        self.d_finish.d.next = self.fin_go.val() & !self.reset.val();
        if self.fin_go.val() {
            self.d_warp_bit.d.next = self.d_warp_bit.q.val();
            self.d_blocking.d.next = false;
            self.d_counted.d.next = self.d_counted.q.val();
            self.d_req_active.d.next = self.k_zero32.val();
            self.d_bytes.d.next = self.k_zero32.val();
            self.d_all.d.next = self.k_all1.val();
            self.d_cl_wait.d.next = false;
            self.d_converged.d.next = true;
        }
        if self.reset.val() {
            self.d_valid.d.next = false;
            self.d_hit.d.next = false;
            self.d_check.d.next = false;
            self.d_exit_done.d.next = false;
        }

        // ---- stage U: the round (forwarded when stage U wrote this barrier in the cycle before) ----
        self.u_addr.next = (bit_cast::<ADDR_BITS, SLOT_BITS>(self.d_cta.q.val()) << 4u64)
            | bit_cast::<ADDR_BITS, ID_BITS>(self.d_id.q.val());
        self.round[0].cur_meta.next = self.ram_meta.read_data.val();
        self.round[0].cur_arrived.next = self.ram_arrived.read_data.val();
        self.round[0].cur_waiting.next = self.ram_waiting.read_data.val();
        self.round[1].cur_meta.next = self.fw_meta.q.val();
        self.round[1].cur_arrived.next = self.fw_arrived.q.val();
        self.round[1].cur_waiting.next = self.fw_waiting.q.val();
        self.round[0].cur_partial.next = self.ram_partial.read_data.val();
        self.round[1].cur_partial.next = self.fw_partial.q.val();
        self.round[0].cur_lanes.next = self.ram_lanes.read_data.val();
        self.round[1].cur_lanes.next = self.ram_lanes.read_data.val();
        if self.d_lane_fwd.q.val() {
            self.round[1].cur_lanes.next = self.fw_lanes.q.val();
        }
        self.u_active.next = self.d_active.q.val();
        // A divergent request completes its warp's lanes when its lanes and those that came
        // before (if the warp had a partial arrival) cover the live ones: the test on both
        // candidate lane words, the forwarded one picked after (the RAM's read is slow).
        self.u_lanes_cover.next =
            (self.d_missing.q.val() & !self.ram_lanes.read_data.val().get_bits::<WARP_LANES>(0)) == self.k_zero32.val();
        if self.d_lane_fwd.q.val() {
            self.u_lanes_cover.next =
                (self.d_missing.q.val() & !self.fw_lanes.q.val().get_bits::<WARP_LANES>(0)) == self.k_zero32.val();
        }
        self.u_live.next = self.d_live.q.val();
        self.popc_narrow.wide.next = self.pc5.val();
        for i in 0..2 {
            self.round[i].hit.next = self.d_hit.q.val();
            self.round[i].check.next = self.d_check.q.val();
            self.round[i].finish.next = self.d_finish.q.val() & self.u_joined.q.val() & self.u_whole.q.val();
            self.round[i].req_converged.next = self.d_converged.q.val();
            self.round[i].active.next = self.u_active.val();
            self.round[i].req_kind.next = self.d_kind.q.val();
            self.round[i].req_count_warps.next = self.d_count_warps.q.val();
            self.round[i].req_left1.next = self.d_left1.q.val();
            self.round[i].req_first_done.next = self.d_first_done.q.val();
            self.round[i].req_blocking.next = self.d_blocking.q.val();
            self.round[i].req_warp_bit.next = self.d_warp_bit.q.val();
            self.round[i].req_active.next = self.d_req_active.q.val();
            self.round[i].req_popc.next = self.popc_narrow.narrow.val();
            self.round[i].req_all.next = self.d_all.q.val();
            self.round[i].live.next = self.u_live.val();
        }
        self.u_error.next = self.round[0].error.val();
        self.u_apply.next = self.round[0].apply.val();
        self.u_completes.next = self.round[0].completes.val();
        self.u_meta.next = self.round[0].n_meta.val();
        self.u_arrived.next = self.round[0].n_arrived.val();
        self.u_waiting.next = self.round[0].n_waiting.val();
        self.u_popc.next = self.round[0].n_popc.val();
        self.u_all.next = self.round[0].n_all.val();
        self.u_partial.next = self.round[0].n_partial.val();
        self.u_lanes.next = self.round[0].n_lanes.val();
        self.u_joined.d.next = self.round[0].apply.val();
        self.u_whole.d.next = self.round[0].had_partial.val() & self.u_lanes_cover.val();
        if self.d_fwd.q.val() {
            self.u_joined.d.next = self.round[1].apply.val();
            self.u_whole.d.next = self.round[1].had_partial.val() & self.u_lanes_cover.val();
            self.u_error.next = self.round[1].error.val();
            self.u_apply.next = self.round[1].apply.val();
            self.u_completes.next = self.round[1].completes.val();
            self.u_meta.next = self.round[1].n_meta.val();
            self.u_arrived.next = self.round[1].n_arrived.val();
            self.u_waiting.next = self.round[1].n_waiting.val();
            self.u_popc.next = self.round[1].n_popc.val();
            self.u_all.next = self.round[1].n_all.val();
            self.u_partial.next = self.round[1].n_partial.val();
            self.u_lanes.next = self.round[1].n_lanes.val();
        }

        // The edge: write the round back (unless it completed), or push its release; a launch of
        // the slot in this cycle reinitializes its barriers instead.
        self.u_kill.next = self.launch.val() & (self.launch_slot.val() == self.d_cta.q.val());
        // (a completing round is written too: its in-round bit clears at this edge, `close` wins
        // over `open`, so the word is never read as a round; the write enables then wait on no
        // completion test)
        self.u_write.next = self.u_apply.val();
        self.ram_meta.write_clock.next = self.clock.val();
        self.ram_arrived.write_clock.next = self.clock.val();
        self.ram_waiting.write_clock.next = self.clock.val();
        self.ram_meta.write_address.next = self.u_addr.val();
        self.ram_arrived.write_address.next = self.u_addr.val();
        self.ram_waiting.write_address.next = self.u_addr.val();
        self.ram_meta.write_data.next = self.u_meta.val();
        self.ram_arrived.write_data.next = self.u_arrived.val();
        self.ram_waiting.write_data.next = self.u_waiting.val();
        self.ram_meta.write_enable.next = self.u_write.val();
        self.ram_arrived.write_enable.next = self.u_write.val();
        self.ram_waiting.write_enable.next = self.u_write.val();
        self.fw_meta.d.next = self.u_meta.val();
        self.fw_arrived.d.next = self.u_arrived.val();
        self.fw_waiting.d.next = self.u_waiting.val();
        self.fw_partial.d.next = self.u_partial.val();
        self.fw_lanes.d.next = self.u_lanes.val();
        self.ram_partial.write_clock.next = self.clock.val();
        self.ram_partial.write_address.next = self.u_addr.val();
        self.ram_partial.write_data.next = self.u_partial.val();
        self.ram_partial.write_enable.next = self.u_write.val();
        self.u_lane_addr.next = (bit_cast::<LANE_ADDR_BITS, ADDR_BITS>(self.u_addr.val()) << self.k_warp_shift.val())
            | bit_cast::<LANE_ADDR_BITS, WARP_BITS>(self.d_warp.q.val());
        self.ram_lanes.write_clock.next = self.clock.val();
        self.ram_lanes.write_address.next = self.u_lane_addr.val();
        self.ram_lanes.write_data.next = self.u_lanes.val();
        self.ram_lanes.write_enable.next = self.u_write.val();
        self.queue.kill.next = self.launch.val();
        self.queue.kill_slot.next = self.launch_slot.val();
        self.queue.push.next = self.u_completes.val() & !self.u_kill.val() & !self.reset.val();
        self.queue.push_slot.next = self.d_cta.q.val();
        self.queue.push_id.next = self.d_id.q.val();
        self.queue.push_waiting.next = self.u_waiting.val();
        // (the golden unit's release names the warps with a partial arrival too, an exited
        // warp's partial arrival dropped: PTX ISA §9.7.13.1 counts non-exited threads)
        self.queue.push_arrived.next = self.u_arrived.val() | (self.u_partial.val() & self.u_live.val());
        self.queue.push_popc.next = self.u_popc.val();
        self.queue.push_all.next = self.u_all.val();

        // Stage D's lookup of the barrier it reads: its in-round bit after this edge (stage U's
        // update of the same barrier, and a launch of its slot, forwarded).
        self.read_active.next = false;
        for s in 0..self.slots.len() {
            if self.read_slot.val() == self.slot_ids[s].val() {
                self.read_active.next = self.slots[s].active.val().get_bit(self.read_id.val().index());
            }
        }
        self.read_in_u.next = self.read_addr.val() == self.u_addr.val();
        self.d_fwd.d.next = self.read_in_u.val() & self.u_write.val() & !self.reset.val();
        self.d_lane_fwd.d.next =
            self.read_in_u.val() & self.u_write.val() & (self.read_warp.val() == self.d_warp.q.val());
        self.d_active.d.next = self.read_active.val();
        if self.read_in_u.val() & self.u_write.val() {
            self.d_active.d.next = true;
        }
        if self.read_in_u.val() & self.u_completes.val() {
            self.d_active.d.next = false;
        }
        if (self.launch.val() & (self.launch_slot.val() == self.read_slot.val())) | self.reset.val() {
            self.d_active.d.next = false;
        }

        // ---- the slots (their exit and cluster strobes are decoded in stage D, registered there) ----
        for s in 0..self.slots.len() {
            self.slots[s].clock.next = self.clock.val();
            self.slots[s].reset.next = self.reset.val();
            self.slots[s].launch.next = self.launch.val() & (self.launch_slot.val() == self.slot_ids[s].val());
            self.slots[s].launch_warps.next = self.launch_warps.val();
            self.slots[s].exit_next.next = self.accept.val()
                & self.is_exit.val()
                & (self.req_live.val() == self.k_zero32.val())
                & (self.req_cta.val() == self.slot_ids[s].val());
            self.slots[s].warp_bit.next = self.d_warp_bit.q.val();
            self.slots[s].open.next = self.u_write.val() & (self.d_cta.q.val() == self.slot_ids[s].val());
            self.slots[s].close.next = self.u_completes.val() & (self.d_cta.q.val() == self.slot_ids[s].val());
            self.slots[s].id.next = self.d_id.q.val();
            self.slots[s].counted.next = self.d_counted.q.val();
            self.slots[s].cl_hit_next.next =
                self.accept.val() & self.is_cluster.val() & (self.req_cta.val() == self.slot_ids[s].val());
            self.slots[s].req_cl_wait.next = self.d_cl_wait.q.val();
        }
        // The cluster barrier: a cluster's round completes when some warp of its slots arrived
        // and every live warp of them has (state after this cycle's request, golden
        // `try_complete_cluster`); each slot sees its cluster's verdict at the same edge.
        for s in 0..self.slots.len() {
            self.cl_any_bit[s].next = self.k_zero32.val();
            if self.slots[s].cl_any.val() {
                self.cl_any_bit[s].next = self.slot_bits[s].val();
            }
            self.cl_in_bit[s].next = self.k_zero32.val();
            if self.slots[s].cl_all_in.val() {
                self.cl_in_bit[s].next = self.slot_bits[s].val();
            }
        }
        self.cl_any_upto[0].next = self.cl_any_bit[0].val();
        self.cl_in_upto[0].next = self.cl_in_bit[0].val();
        self.cl_blk_upto[0].next = self.slots[0].cl_blocked.val();
        self.cl_err_upto[0].next = self.slots[0].cl_error.val();
        self.cl_any_mask.next = self.cl_any_upto[0].val();
        self.cl_in_mask.next = self.cl_in_upto[0].val();
        self.cl_blocked.next = self.cl_blk_upto[0].val();
        self.cl_error.next = self.cl_err_upto[0].val();
        for s in 1..self.slots.len() {
            self.cl_any_upto[s].next = self.cl_any_upto[s - 1].val() | self.cl_any_bit[s].val();
            self.cl_in_upto[s].next = self.cl_in_upto[s - 1].val() | self.cl_in_bit[s].val();
            self.cl_blk_upto[s].next = self.cl_blk_upto[s - 1].val() | self.slots[s].cl_blocked.val();
            self.cl_err_upto[s].next = self.cl_err_upto[s - 1].val() | self.slots[s].cl_error.val();
            self.cl_any_mask.next = self.cl_any_upto[s].val();
            self.cl_in_mask.next = self.cl_in_upto[s].val();
            self.cl_blocked.next = self.cl_blk_upto[s].val();
            self.cl_error.next = self.cl_err_upto[s].val();
        }
        for s in 0..self.slots.len() {
            self.slots[s].cl_complete.next = ((self.cl_any_mask.val() & self.cluster_bits[s].val())
                != self.k_zero32.val())
                & ((self.cl_in_mask.val() & self.cluster_bits[s].val()) == self.cluster_bits[s].val());
        }

        // ---- response (registered): a request-only error, else the round's or the cluster's ----
        self.o_valid.d.next = self.d_valid.q.val() & !self.reset.val();
        self.o_cta.d.next = self.d_cta.q.val();
        self.o_warp.d.next = self.d_warp.q.val();
        // (no barrier is hit when the request-only checks failed; one source at most is non-zero)
        self.o_error.d.next = self.d_pre_error.q.val() | self.u_error.val() | self.cl_error.val();
        self.o_blocked.d.next =
            (self.d_hit.q.val() & self.d_blocking.q.val() & (self.u_error.val() == self.e_none.val()))
                | self.cl_blocked.val();
        self.resp_valid.next = self.o_valid.q.val();
        self.resp_cta.next = self.o_cta.q.val();
        self.resp_warp.next = self.o_warp.q.val();
        self.resp_error.next = self.o_error.q.val();
        self.resp_blocked.next = self.o_blocked.q.val();
        self.o_lanes.d.next = bit_cast::<WARP_LANES, LANES_BITS>(self.u_lanes.val() >> 32u64);
        if self.d_cl_wait.q.val() {
            self.o_lanes.d.next = self.d_req_active.q.val();
        }
        self.resp_lanes.next = self.o_lanes.q.val();
    }
}
