//! Named-barrier file: `config.named_barriers` barriers per CTA slot × `config.cta_slots`
//! (bar/barrier sync, arrive, red.popc/and/or, and warp exit), the RTL of
//! `smsync_sim::units::barrier_file` (PTX ISA §9.7.13.1). Same behaviour and error codes as the
//! golden unit.
//!
//! # Structure
//!
//! `BarrierFile` (request decode, request-only checks, release arbiter)
//!   └ `Vec<CtaBarriers>` (one per CTA slot: live-warp mask, thread limit)
//!       ├ `Vec<NamedBarrier>` (one per barrier id: the round's state and a release register)
//!       └ `ClusterRound` (its warps' part of the cluster barrier, PTX ISA §9.7.13.3;
//!         `barrier_file/cluster.rs`)
//!
//! Every barrier sees the broadcast (registered) request and a `hit` strobe; it checks the
//! round-dependent rules itself (red mixed with sync/arrive, two red ops, two thread counts) and
//! updates its state at the clock edge. Arrivals are per warp; a counted barrier completes when
//! `arrivals * 32 >= b` (it counts down the arrivals it still needs), a whole-CTA barrier when
//! every live warp of the CTA has arrived.
//!
//! # Cycle behaviour (two stages)
//!
//! * cycle t, stage D: request on `req_*` (accepted when `req_ready`); decode, the request-only
//!   checks, which barrier is hit (each barrier registers its own hit bit), the thread count in
//!   warps (and whether the first arrival of a round already completes it), the bar.red `and`
//!   of the warp and its predicate count per byte -> registers (stage U adds the four bytes and
//!   takes `any` from the sum).
//! * cycle t+1, stage U: the addressed barrier checks the round and updates at the edge ending
//!   t+1, from registered operands only; a completion loads its release register and resets the
//!   barrier at once, so a request in stage U at t+2 already starts the next round.
//! * cycle t+2: `resp_*` answers the request (error code, and whether the warp now waits);
//!   `rel_*` carries the release event of a barrier that completed at the end of t+1
//!   (release latency: 2 cycles after the last arrival's request cycle; one arrival per cycle).
//!
//! The cluster barrier (`barrier.cluster.arrive` / `.wait`) goes through the same two stages: its
//! errors are decided in stage U, a wait whose round is still open blocks (`resp_blocked`), and
//! the round's completion (every live warp of the cluster's `cluster_size` slots arrived) releases
//! the waiting warps of each slot as a release with `rel_cluster` set.
//!
//! A release stays offered on `rel_*` until the top takes it (`rel_ready`). A warp exit can
//! complete several whole-CTA barriers at once, and a cluster round releases warps in each of its
//! slots: their releases leave one at a time (highest slot, then highest barrier id, then the
//! cluster's), and `req_ready` is low while more than one release is waiting, and in the cycle
//! after an exit (its completions are not visible yet).
//!
//! # Not in this block
//!
//! * Partial arrivals of a divergent warp (`active_mask` not covering `live_mask`): the golden unit
//!   accumulates lanes per warp until all live lanes arrived; this block counts a request as the
//!   warp's whole arrival, so the sync-unit top must only send converged arrivals.

use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, ErrorCode, Op};

use crate::common::{error_code, op_code, ERROR_BITS, FLAG_BITS, OP_BITS, WARP_LANES};

pub mod cluster;
pub mod formal;

use cluster::ClusterRound;

// The response ORs the barriers' error codes (only the hit barrier has one): None must be 0.
const _: () = assert!(ErrorCode::None.code() == 0);

/// CTA slot index (config.cta_slots <= 32).
pub const SLOT_BITS: usize = 5;
/// Warp index within a CTA (max_warps_per_cta <= 32).
pub const WARP_BITS: usize = 5;
/// Barrier id within a CTA (named_barriers <= 16).
pub const ID_BITS: usize = 4;
/// Warp bitmasks (max_warps_per_cta <= 32).
pub const WARP_MASK_BITS: usize = 32;
/// Warp arrivals of one round and the thread count in warps (<= 32).
pub const WARP_COUNT_BITS: usize = 6;
/// bar.red.popc result: at most 32 warps * 32 lanes = 1024.
pub const POPC_BITS: usize = 11;

/// One named barrier of one CTA slot.
#[derive(LogicBlock)]
pub struct NamedBarrier {
    pub clock: Signal<In, Clock>,
    /// Reset or CTA launch: the barrier and its release register are cleared.
    pub clear: Signal<In, Bit>,
    /// The request in stage D addresses this barrier and passed the request-only checks
    /// (registered here: `hit` in stage U).
    pub hit_next: Signal<In, Bit>,
    pub req_red: Signal<In, Bit>,
    pub req_red_op: Signal<In, Bits<OP_BITS>>,
    pub req_counted: Signal<In, Bit>,
    pub req_count_warps: Signal<In, Bits<WARP_COUNT_BITS>>,
    /// Arrivals still missing after the first one of a counted round (count_warps - 1), and
    /// whether that first arrival already completes it (count_warps <= 1): decoded a cycle ahead.
    pub req_left1: Signal<In, Bits<WARP_COUNT_BITS>>,
    pub req_first_done: Signal<In, Bit>,
    /// bar.sync / bar.red: the warp waits for the release.
    pub req_blocking: Signal<In, Bit>,
    pub req_warp_bit: Signal<In, Bits<WARP_MASK_BITS>>,
    pub req_popc: Signal<In, Bits<POPC_BITS>>,
    pub req_all: Signal<In, Bit>,
    pub req_any: Signal<In, Bit>,
    /// The CTA's live warps (an exiting warp still in: it is `req_warp_bit`).
    pub live: Signal<In, Bits<WARP_MASK_BITS>>,
    /// The warp `req_warp_bit` of the CTA exited: a whole-CTA round may be complete now.
    pub exit: Signal<In, Bit>,
    /// The arbiter emitted this barrier's release this cycle.
    pub emitted: Signal<In, Bit>,
    /// Round-dependent error of a hit (ErrorCode::None = 0 otherwise).
    pub error: Signal<Out, Bits<ERROR_BITS>>,
    pub pending: Signal<Out, Bit>,
    pub rel_waiting: Signal<Out, Bits<WARP_MASK_BITS>>,
    pub rel_arrived: Signal<Out, Bits<WARP_MASK_BITS>>,
    pub rel_popc: Signal<Out, Bits<POPC_BITS>>,
    pub rel_all: Signal<Out, Bit>,
    pub rel_any: Signal<Out, Bit>,
    hit: DFF<Bit>,
    // round state
    active: DFF<Bit>,
    counted: DFF<Bit>,
    count_warps: DFF<Bits<WARP_COUNT_BITS>>,
    red: DFF<Bit>,
    red_op: DFF<Bits<OP_BITS>>,
    arrived: DFF<Bits<WARP_MASK_BITS>>,
    /// Arrivals a counted round still needs (count_warps - arrivals, >= 1 while active).
    left: DFF<Bits<WARP_COUNT_BITS>>,
    waiting: DFF<Bits<WARP_MASK_BITS>>,
    popc: DFF<Bits<POPC_BITS>>,
    all: DFF<Bit>,
    any: DFF<Bit>,
    // release register
    rel_valid: DFF<Bit>,
    r_waiting: DFF<Bits<WARP_MASK_BITS>>,
    r_arrived: DFF<Bits<WARP_MASK_BITS>>,
    r_popc: DFF<Bits<POPC_BITS>>,
    r_all: DFF<Bit>,
    r_any: DFF<Bit>,
    // the round after this request
    mismatch: Signal<Local, Bit>,
    apply: Signal<Local, Bit>,
    seen: Signal<Local, Bits<WARP_MASK_BITS>>,
    others_in: Signal<Local, Bit>,
    count_done: Signal<Local, Bit>,
    n_arrived: Signal<Local, Bits<WARP_MASK_BITS>>,
    n_left: Signal<Local, Bits<WARP_COUNT_BITS>>,
    n_waiting: Signal<Local, Bits<WARP_MASK_BITS>>,
    n_popc: Signal<Local, Bits<POPC_BITS>>,
    n_all: Signal<Local, Bit>,
    n_any: Signal<Local, Bit>,
    n_counted: Signal<Local, Bit>,
    n_count_warps: Signal<Local, Bits<WARP_COUNT_BITS>>,
    completes: Signal<Local, Bit>,
    e_none: Constant<Bits<ERROR_BITS>>,
    e_red_mixed: Constant<Bits<ERROR_BITS>>,
    e_red_op: Constant<Bits<ERROR_BITS>>,
    e_count_mismatch: Constant<Bits<ERROR_BITS>>,
    k_one: Constant<Bits<WARP_COUNT_BITS>>,
    k_zero_mask: Constant<Bits<WARP_MASK_BITS>>,
    k_zero_popc: Constant<Bits<POPC_BITS>>,
}

impl Default for NamedBarrier {
    fn default() -> Self {
        let err = |e: ErrorCode| Constant::new(error_code(e));
        NamedBarrier {
            clock: Default::default(),
            clear: Default::default(),
            hit_next: Default::default(),
            req_red: Default::default(),
            req_red_op: Default::default(),
            req_counted: Default::default(),
            req_count_warps: Default::default(),
            req_left1: Default::default(),
            req_first_done: Default::default(),
            req_blocking: Default::default(),
            req_warp_bit: Default::default(),
            req_popc: Default::default(),
            req_all: Default::default(),
            req_any: Default::default(),
            live: Default::default(),
            exit: Default::default(),
            emitted: Default::default(),
            error: Default::default(),
            pending: Default::default(),
            rel_waiting: Default::default(),
            rel_arrived: Default::default(),
            rel_popc: Default::default(),
            rel_all: Default::default(),
            rel_any: Default::default(),
            hit: Default::default(),
            active: Default::default(),
            counted: Default::default(),
            count_warps: Default::default(),
            red: Default::default(),
            red_op: Default::default(),
            arrived: Default::default(),
            left: Default::default(),
            waiting: Default::default(),
            popc: Default::default(),
            all: Default::default(),
            any: Default::default(),
            rel_valid: Default::default(),
            r_waiting: Default::default(),
            r_arrived: Default::default(),
            r_popc: Default::default(),
            r_all: Default::default(),
            r_any: Default::default(),
            mismatch: Default::default(),
            apply: Default::default(),
            seen: Default::default(),
            others_in: Default::default(),
            count_done: Default::default(),
            n_arrived: Default::default(),
            n_left: Default::default(),
            n_waiting: Default::default(),
            n_popc: Default::default(),
            n_all: Default::default(),
            n_any: Default::default(),
            n_counted: Default::default(),
            n_count_warps: Default::default(),
            completes: Default::default(),
            e_none: err(ErrorCode::None),
            e_red_mixed: err(ErrorCode::BarRedMixed),
            e_red_op: err(ErrorCode::BarRedOpMismatch),
            e_count_mismatch: err(ErrorCode::BarCountMismatch),
            k_one: Constant::new(1u64.to_bits()),
            k_zero_mask: Constant::new(0u64.to_bits()),
            k_zero_popc: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for NamedBarrier {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            hit,
            active,
            counted,
            count_warps,
            red,
            red_op,
            arrived,
            left,
            waiting,
            popc,
            all,
            any,
            rel_valid,
            r_waiting,
            r_arrived,
            r_popc,
            r_all,
            r_any
        );
        // Round-dependent checks against the running round: `mismatch` gates the update, the
        // code (golden order: kind, red op, thread count) only goes to the response.
        self.mismatch.next = self.active.q.val()
            & ((self.red.q.val() != self.req_red.val())
                | (self.red.q.val() & (self.red_op.q.val() != self.req_red_op.val()))
                | (self.counted.q.val() != self.req_counted.val())
                | (self.counted.q.val() & (self.count_warps.q.val() != self.req_count_warps.val())));
        self.hit.d.next = self.hit_next.val();
        self.error.next = self.e_none.val();
        if self.hit.q.val() & self.active.q.val() {
            if self.red.q.val() != self.req_red.val() {
                self.error.next = self.e_red_mixed.val();
            } else if self.red.q.val() & (self.red_op.q.val() != self.req_red_op.val()) {
                self.error.next = self.e_red_op.val();
            } else if (self.counted.q.val() != self.req_counted.val())
                | (self.counted.q.val() & (self.count_warps.q.val() != self.req_count_warps.val()))
            {
                self.error.next = self.e_count_mismatch.val();
            }
        }
        self.apply.next = self.hit.q.val() & !self.mismatch.val();

        // Completion, from registered operands only: a counted round completes on its last
        // missing arrival (`left` <= 1, or count_warps <= 1 for a new round), a whole-CTA round
        // when no live warp other than `req_warp_bit` (arriving, or exiting) is still missing.
        self.seen.next = self.k_zero_mask.val();
        if self.active.q.val() {
            self.seen.next = self.arrived.q.val();
        }
        self.others_in.next = (self.live.val() & !self.req_warp_bit.val() & !self.seen.val()) == self.k_zero_mask.val();
        self.count_done.next = self.req_first_done.val();
        self.n_counted.next = self.req_counted.val();
        if self.active.q.val() {
            self.count_done.next = self.left.q.val() <= self.k_one.val();
            self.n_counted.next = self.counted.q.val();
        }
        self.completes.next = false;
        if self.apply.val() {
            if self.n_counted.val() {
                self.completes.next = self.count_done.val();
            } else {
                self.completes.next = self.others_in.val();
            }
        }
        if self.exit.val() & self.active.q.val() & !self.counted.q.val() {
            self.completes.next = self.others_in.val();
        }

        // The round after this request (a new round when the barrier is idle).
        self.n_count_warps.next = self.req_count_warps.val();
        self.n_arrived.next = self.req_warp_bit.val();
        self.n_left.next = self.req_left1.val();
        self.n_waiting.next = self.k_zero_mask.val();
        if self.req_blocking.val() {
            self.n_waiting.next = self.req_warp_bit.val();
        }
        self.n_popc.next = self.req_popc.val();
        self.n_all.next = self.req_all.val();
        self.n_any.next = self.req_any.val();
        if self.active.q.val() {
            self.n_count_warps.next = self.count_warps.q.val();
            self.n_arrived.next = self.arrived.q.val() | self.req_warp_bit.val();
            self.n_left.next = self.left.q.val() - self.k_one.val();
            self.n_waiting.next = self.waiting.q.val();
            if self.req_blocking.val() {
                self.n_waiting.next = self.waiting.q.val() | self.req_warp_bit.val();
            }
            self.n_popc.next = self.popc.q.val() + self.req_popc.val();
            self.n_all.next = self.all.q.val() & self.req_all.val();
            self.n_any.next = self.any.q.val() | self.req_any.val();
        }
        if !self.apply.val() {
            // No arrival this cycle (a warp exit may still complete a whole-CTA round).
            self.n_count_warps.next = self.count_warps.q.val();
            self.n_arrived.next = self.arrived.q.val();
            self.n_left.next = self.left.q.val();
            self.n_waiting.next = self.waiting.q.val();
            self.n_popc.next = self.popc.q.val();
            self.n_all.next = self.all.q.val();
            self.n_any.next = self.any.q.val();
        }

        if self.apply.val() {
            self.active.d.next = true;
            self.counted.d.next = self.n_counted.val();
            self.count_warps.d.next = self.n_count_warps.val();
            self.red.d.next = self.req_red.val();
            self.red_op.d.next = self.req_red_op.val();
            self.arrived.d.next = self.n_arrived.val();
            self.left.d.next = self.n_left.val();
            self.waiting.d.next = self.n_waiting.val();
            self.popc.d.next = self.n_popc.val();
            self.all.d.next = self.n_all.val();
            self.any.d.next = self.n_any.val();
        }
        if self.emitted.val() {
            self.rel_valid.d.next = false;
        }
        if self.completes.val() {
            // Release register loads; the barrier is free for the next round at once.
            self.rel_valid.d.next = true;
            self.r_waiting.d.next = self.n_waiting.val();
            self.r_arrived.d.next = self.n_arrived.val();
            self.r_popc.d.next = self.n_popc.val();
            self.r_all.d.next = self.n_all.val();
            self.r_any.d.next = self.n_any.val();
            self.active.d.next = false;
        }
        if self.clear.val() {
            self.active.d.next = false;
            self.rel_valid.d.next = false;
        }
        self.pending.next = self.rel_valid.q.val();
        self.rel_waiting.next = self.r_waiting.q.val();
        self.rel_arrived.next = self.r_arrived.q.val();
        self.rel_popc.next = self.r_popc.q.val();
        self.rel_all.next = self.r_all.q.val();
        self.rel_any.next = self.r_any.q.val();
        // (popc/all/any/left of an idle barrier are don't-care: a new round overwrites them)
        if self.clear.val() {
            self.popc.d.next = self.k_zero_popc.val();
        }
    }
}

/// The barriers and warps of one CTA slot.
#[derive(LogicBlock)]
pub struct CtaBarriers {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A CTA with `launch_warps` warps starts in this slot.
    pub launch: Signal<In, Bit>,
    pub launch_warps: Signal<In, Bits<32>>,
    /// Stage D: a named-barrier request for this slot that passed the request-only checks, and
    /// its barrier id (each barrier registers its own hit).
    pub hit_next: Signal<In, Bit>,
    pub req_id_next: Signal<In, Bits<ID_BITS>>,
    pub req_red: Signal<In, Bit>,
    pub req_red_op: Signal<In, Bits<OP_BITS>>,
    pub req_counted: Signal<In, Bit>,
    pub req_count_warps: Signal<In, Bits<WARP_COUNT_BITS>>,
    pub req_left1: Signal<In, Bits<WARP_COUNT_BITS>>,
    pub req_first_done: Signal<In, Bit>,
    pub req_blocking: Signal<In, Bit>,
    pub req_warp_bit: Signal<In, Bits<WARP_MASK_BITS>>,
    pub req_popc: Signal<In, Bits<POPC_BITS>>,
    pub req_all: Signal<In, Bit>,
    pub req_any: Signal<In, Bit>,
    /// Stage D: the last lanes of a warp of this slot exit (registered: `exit`, with
    /// `req_warp_bit` in stage U).
    pub exit_next: Signal<In, Bit>,
    /// Stage D: a cluster-barrier request for this slot; stage U: it is a wait (else an arrive).
    pub cl_hit_next: Signal<In, Bit>,
    pub req_cl_wait: Signal<In, Bit>,
    /// The slot's cluster completes its round at this edge (`BarrierFile` combines the slots).
    pub cl_complete: Signal<In, Bit>,
    /// The arbiter emitted the release this slot offers (`sel_*`).
    pub emit: Signal<In, Bit>,
    /// Stage U: the cluster wait blocks; after this cycle's request some warp of the slot has
    /// arrived at the cluster barrier / every live one has.
    pub cl_blocked: Signal<Out, Bit>,
    pub cl_any: Signal<Out, Bit>,
    pub cl_all_in: Signal<Out, Bit>,
    /// The offered release is the cluster barrier's (then `sel_id` is 0 and only
    /// `sel_waiting` counts).
    pub sel_cluster: Signal<Out, Bit>,
    /// Thread limit of the CTA (its warps * 32), for BarCountTooLarge.
    pub thread_limit: Signal<Out, Bits<32>>,
    pub error: Signal<Out, Bits<ERROR_BITS>>,
    /// Some barrier has a release waiting; `pend_other`: a second one.
    pub pend_any: Signal<Out, Bit>,
    pub pend_other: Signal<Out, Bit>,
    pub sel_id: Signal<Out, Bits<ID_BITS>>,
    pub sel_waiting: Signal<Out, Bits<WARP_MASK_BITS>>,
    pub sel_arrived: Signal<Out, Bits<WARP_MASK_BITS>>,
    pub sel_popc: Signal<Out, Bits<POPC_BITS>>,
    pub sel_all: Signal<Out, Bit>,
    pub sel_any: Signal<Out, Bit>,
    barriers: Vec<NamedBarrier>,
    cluster: ClusterRound,
    live: DFF<Bits<WARP_MASK_BITS>>,
    limit: DFF<Bits<32>>,
    exit: DFF<Bit>,
    /// OR of the barriers' error codes up to each index (at most one barrier is hit, and
    /// ErrorCode::None is 0): an OR tree for synthesis instead of a priority chain.
    err_upto: Vec<Signal<Local, Bits<ERROR_BITS>>>,
    ids: Vec<Constant<Bits<ID_BITS>>>,
    k_zero_id: Constant<Bits<ID_BITS>>,
    k_zero_mask: Constant<Bits<WARP_MASK_BITS>>,
    k_zero_popc: Constant<Bits<POPC_BITS>>,
    k_all_ones: Constant<Bits<32>>,
    k_full_warps: Constant<Bits<32>>,
}

impl CtaBarriers {
    pub fn new(config: &Config) -> CtaBarriers {
        CtaBarriers {
            clock: Default::default(),
            reset: Default::default(),
            launch: Default::default(),
            launch_warps: Default::default(),
            hit_next: Default::default(),
            req_id_next: Default::default(),
            req_red: Default::default(),
            req_red_op: Default::default(),
            req_counted: Default::default(),
            req_count_warps: Default::default(),
            req_left1: Default::default(),
            req_first_done: Default::default(),
            req_blocking: Default::default(),
            req_warp_bit: Default::default(),
            req_popc: Default::default(),
            req_all: Default::default(),
            req_any: Default::default(),
            exit_next: Default::default(),
            cl_hit_next: Default::default(),
            req_cl_wait: Default::default(),
            cl_complete: Default::default(),
            emit: Default::default(),
            cl_blocked: Default::default(),
            cl_any: Default::default(),
            cl_all_in: Default::default(),
            sel_cluster: Default::default(),
            thread_limit: Default::default(),
            error: Default::default(),
            pend_any: Default::default(),
            pend_other: Default::default(),
            sel_id: Default::default(),
            sel_waiting: Default::default(),
            sel_arrived: Default::default(),
            sel_popc: Default::default(),
            sel_all: Default::default(),
            sel_any: Default::default(),
            barriers: (0..config.named_barriers).map(|_| NamedBarrier::default()).collect(),
            cluster: ClusterRound::default(),
            live: Default::default(),
            limit: Default::default(),
            exit: Default::default(),
            err_upto: (0..config.named_barriers).map(|_| Default::default()).collect(),
            ids: (0..config.named_barriers).map(|i| Constant::new((i as u64).to_bits())).collect(),
            k_zero_id: Constant::new(0u64.to_bits()),
            k_zero_mask: Constant::new(0u64.to_bits()),
            k_zero_popc: Constant::new(0u64.to_bits()),
            k_all_ones: Constant::new((u32::MAX as u64).to_bits()),
            k_full_warps: Constant::new((WARP_MASK_BITS as u64).to_bits()),
        }
    }
}

impl Logic for CtaBarriers {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, live, limit, exit);
        self.exit.d.next = self.exit_next.val();
        if self.launch.val() {
            self.limit.d.next = self.launch_warps.val() << 5;
            if self.launch_warps.val() >= self.k_full_warps.val() {
                self.live.d.next = self.k_all_ones.val();
            } else {
                self.live.d.next = !(self.k_all_ones.val() << self.launch_warps.val());
            }
        }
        if self.exit.q.val() {
            self.live.d.next = self.live.q.val() & !self.req_warp_bit.val();
        }
        if self.reset.val() {
            self.live.d.next = self.k_zero_mask.val();
            self.limit.d.next = self.k_zero_mask.val();
        }
        self.thread_limit.next = self.limit.q.val();

        self.cluster.clock.next = self.clock.val();
        self.cluster.clear.next = self.reset.val() | self.launch.val();
        self.cluster.hit_next.next = self.cl_hit_next.val();
        self.cluster.req_wait.next = self.req_cl_wait.val();
        self.cluster.warp_bit.next = self.req_warp_bit.val();
        self.cluster.live.next = self.live.q.val();
        self.cluster.exit.next = self.exit.q.val();
        self.cluster.complete.next = self.cl_complete.val();
        self.cl_blocked.next = self.cluster.blocked.val();
        self.cl_any.next = self.cluster.any_arrived.val();
        self.cl_all_in.next = self.cluster.all_in.val();

        // The cluster release is offered when no named barrier's is (those override below).
        self.pend_any.next = self.cluster.pending_release.val();
        self.pend_other.next = false;
        self.sel_cluster.next = self.cluster.pending_release.val();
        self.sel_id.next = self.k_zero_id.val();
        self.sel_waiting.next = self.cluster.rel_waiting.val();
        self.sel_arrived.next = self.k_zero_mask.val();
        self.sel_popc.next = self.k_zero_popc.val();
        self.sel_all.next = false;
        self.sel_any.next = false;
        for i in 0..self.barriers.len() {
            self.barriers[i].clock.next = self.clock.val();
            self.barriers[i].clear.next = self.reset.val() | self.launch.val();
            self.barriers[i].hit_next.next = self.hit_next.val() & (self.req_id_next.val() == self.ids[i].val());
            self.barriers[i].req_red.next = self.req_red.val();
            self.barriers[i].req_red_op.next = self.req_red_op.val();
            self.barriers[i].req_counted.next = self.req_counted.val();
            self.barriers[i].req_count_warps.next = self.req_count_warps.val();
            self.barriers[i].req_left1.next = self.req_left1.val();
            self.barriers[i].req_first_done.next = self.req_first_done.val();
            self.barriers[i].req_blocking.next = self.req_blocking.val();
            self.barriers[i].req_warp_bit.next = self.req_warp_bit.val();
            self.barriers[i].req_popc.next = self.req_popc.val();
            self.barriers[i].req_all.next = self.req_all.val();
            self.barriers[i].req_any.next = self.req_any.val();
            self.barriers[i].live.next = self.live.q.val();
            self.barriers[i].exit.next = self.exit.q.val();
            // The highest-numbered pending release is offered (later iterations override).
            if self.barriers[i].pending.val() {
                self.pend_any.next = true;
                self.sel_cluster.next = false;
                self.sel_id.next = self.ids[i].val();
                self.sel_waiting.next = self.barriers[i].rel_waiting.val();
                self.sel_arrived.next = self.barriers[i].rel_arrived.val();
                self.sel_popc.next = self.barriers[i].rel_popc.val();
                self.sel_all.next = self.barriers[i].rel_all.val();
                self.sel_any.next = self.barriers[i].rel_any.val();
            }
        }
        // (the last iteration's assignment is the result: the generator cannot index by len - 1)
        self.err_upto[0].next = self.barriers[0].error.val() | self.cluster.error.val();
        self.error.next = self.err_upto[0].val();
        for i in 1..self.barriers.len() {
            self.err_upto[i].next = self.err_upto[i - 1].val() | self.barriers[i].error.val();
            self.error.next = self.err_upto[i].val();
        }
        self.cluster.emitted.next = self.emit.val() & self.sel_cluster.val();
        for i in 0..self.barriers.len() {
            self.barriers[i].emitted.next =
                self.emit.val() & !self.sel_cluster.val() & (self.sel_id.val() == self.ids[i].val());
            if self.barriers[i].pending.val() & (self.sel_id.val() != self.ids[i].val()) {
                self.pend_other.next = true;
            }
        }
        // a named barrier's release is offered and the cluster's waits too
        if self.cluster.pending_release.val() & !self.sel_cluster.val() {
            self.pend_other.next = true;
        }
    }
}

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
    /// Low while more than one release waits (after a warp exit completed several barriers).
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

    // ---- response to the request (next cycle) ----
    pub resp_valid: Signal<Out, Bit>,
    pub resp_cta: Signal<Out, Bits<SLOT_BITS>>,
    pub resp_warp: Signal<Out, Bits<WARP_BITS>>,
    pub resp_error: Signal<Out, Bits<ERROR_BITS>>,
    /// bar.sync / bar.red accepted: the warp waits for its release (answer comes on rel_*).
    pub resp_blocked: Signal<Out, Bit>,

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

    slots: Vec<CtaBarriers>,
    slot_ids: Vec<Constant<Bits<SLOT_BITS>>>,
    /// Per slot: its bit, and the bits of its cluster's slots (`cluster_size` consecutive).
    slot_bits: Vec<Constant<Bits<32>>>,
    cluster_bits: Vec<Constant<Bits<32>>>,

    // ---- decoded request (stage D -> U) ----
    d_valid: DFF<Bit>,
    d_cta: DFF<Bits<SLOT_BITS>>,
    d_warp: DFF<Bits<WARP_BITS>>,
    d_pre_error: DFF<Bits<ERROR_BITS>>,
    /// A named-barrier arrival that passed the request-only checks (each barrier registers its
    /// own hit).
    d_hit: DFF<Bit>,
    /// A warp exit of the warp's last live lanes: it leaves the CTA's live mask.
    d_exit_done: DFF<Bit>,
    /// bar.sync / bar.red: the warp waits for the release (if the arrival is accepted).
    d_blocking: DFF<Bit>,
    d_red: DFF<Bit>,
    d_red_op: DFF<Bits<OP_BITS>>,
    d_counted: DFF<Bit>,
    d_count_warps: DFF<Bits<WARP_COUNT_BITS>>,
    d_left1: DFF<Bits<WARP_COUNT_BITS>>,
    d_first_done: DFF<Bit>,
    d_warp_bit: DFF<Bits<WARP_MASK_BITS>>,
    /// bar.red.popc, split across the stages: stage D counts bits into byte fields (three short
    /// SWAR steps), stage U adds the four bytes (`u_popc`, `u_any`).
    d_bytes: DFF<Bits<32>>,
    d_all: DFF<Bit>,
    d_cl_wait: DFF<Bit>,
    // ---- response (stage U -> out) ----
    o_valid: DFF<Bit>,
    o_cta: DFF<Bits<SLOT_BITS>>,
    o_warp: DFF<Bits<WARP_BITS>>,
    o_error: DFF<Bits<ERROR_BITS>>,
    o_blocked: DFF<Bit>,

    accept: Signal<Local, Bit>,
    is_named: Signal<Local, Bit>,
    is_arrive: Signal<Local, Bit>,
    is_red: Signal<Local, Bit>,
    is_exit: Signal<Local, Bit>,
    is_cluster: Signal<Local, Bit>,
    is_cl_wait: Signal<Local, Bit>,
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
    sel_cluster: Signal<Local, Bit>,
    has_count: Signal<Local, Bit>,
    negate: Signal<Local, Bit>,
    limit: Signal<Local, Bits<32>>,
    pre_error: Signal<Local, Bits<ERROR_BITS>>,
    bar_error: Signal<Local, Bits<ERROR_BITS>>,
    /// OR of the slots' error codes up to each slot (see `CtaBarriers::err_upto`).
    err_upto: Vec<Signal<Local, Bits<ERROR_BITS>>>,
    warp_bit: Signal<Local, Bits<WARP_MASK_BITS>>,
    preds: Signal<Local, Bits<WARP_LANES>>,
    pc1: Signal<Local, Bits<32>>,
    pc2: Signal<Local, Bits<32>>,
    pc3: Signal<Local, Bits<32>>,
    pc4: Signal<Local, Bits<32>>,
    pc5: Signal<Local, Bits<32>>,
    sel_slot: Signal<Local, Bits<SLOT_BITS>>,
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
    k_last_slot: Constant<Bits<SLOT_BITS>>,
    k_zero32: Constant<Bits<32>>,
    k_one32: Constant<Bits<32>>,
    k_warp_mask: Constant<Bits<32>>,
    k_m1: Constant<Bits<32>>,
    k_m2: Constant<Bits<32>>,
    k_m4: Constant<Bits<32>>,
    k_m6: Constant<Bits<32>>,
    k_zero_slot: Constant<Bits<SLOT_BITS>>,
    k_one_count: Constant<Bits<WARP_COUNT_BITS>>,
    k_zero_id: Constant<Bits<ID_BITS>>,
    k_zero_popc: Constant<Bits<POPC_BITS>>,
}

impl BarrierFile {
    pub fn new(config: &Config) -> BarrierFile {
        let op = |o: Op| Constant::new(op_code(o));
        let err = |e: ErrorCode| Constant::new(error_code(e));
        let c32 = |v: u64| Constant::new(v.to_bits());
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
            slots: (0..config.cta_slots).map(|_| CtaBarriers::new(config)).collect(),
            slot_ids: (0..config.cta_slots).map(|i| Constant::new((i as u64).to_bits())).collect(),
            slot_bits: (0..config.cta_slots).map(|i| c32(1 << i)).collect(),
            cluster_bits: (0..config.cta_slots)
                .map(|i| {
                    let n = config.cluster_size;
                    c32(((1u64 << n) - 1) << (i / n * n))
                })
                .collect(),
            d_valid: Default::default(),
            d_cta: Default::default(),
            d_warp: Default::default(),
            d_pre_error: Default::default(),
            d_hit: Default::default(),
            d_exit_done: Default::default(),
            d_blocking: Default::default(),
            d_red: Default::default(),
            d_red_op: Default::default(),
            d_counted: Default::default(),
            d_count_warps: Default::default(),
            d_left1: Default::default(),
            d_first_done: Default::default(),
            d_warp_bit: Default::default(),
            d_bytes: Default::default(),
            d_all: Default::default(),
            d_cl_wait: Default::default(),
            o_valid: Default::default(),
            o_cta: Default::default(),
            o_warp: Default::default(),
            o_error: Default::default(),
            o_blocked: Default::default(),
            accept: Default::default(),
            is_named: Default::default(),
            is_arrive: Default::default(),
            is_red: Default::default(),
            is_exit: Default::default(),
            is_cluster: Default::default(),
            is_cl_wait: Default::default(),
            cl_any_bit: (0..config.cta_slots).map(|_| Default::default()).collect(),
            cl_in_bit: (0..config.cta_slots).map(|_| Default::default()).collect(),
            cl_any_upto: (0..config.cta_slots).map(|_| Default::default()).collect(),
            cl_in_upto: (0..config.cta_slots).map(|_| Default::default()).collect(),
            cl_any_mask: Default::default(),
            cl_in_mask: Default::default(),
            cl_blk_upto: (0..config.cta_slots).map(|_| Default::default()).collect(),
            cl_blocked: Default::default(),
            sel_cluster: Default::default(),
            has_count: Default::default(),
            negate: Default::default(),
            limit: Default::default(),
            pre_error: Default::default(),
            bar_error: Default::default(),
            err_upto: (0..config.cta_slots).map(|_| Default::default()).collect(),
            warp_bit: Default::default(),
            preds: Default::default(),
            pc1: Default::default(),
            pc2: Default::default(),
            pc3: Default::default(),
            pc4: Default::default(),
            pc5: Default::default(),
            sel_slot: Default::default(),
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
            k_last_slot: Constant::new(((config.cta_slots - 1) as u64).to_bits()),
            k_zero32: c32(0),
            k_one32: c32(1),
            k_warp_mask: c32(31),
            k_m1: c32(0x5555_5555),
            k_m2: c32(0x3333_3333),
            k_m4: c32(0x0f0f_0f0f),
            k_m6: c32(0x3f),
            k_zero_slot: Constant::new(0u64.to_bits()),
            k_one_count: Constant::new(1u64.to_bits()),
            k_zero_id: Constant::new(0u64.to_bits()),
            k_zero_popc: Constant::new(0u64.to_bits()),
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
            d_warp,
            d_pre_error,
            d_hit,
            d_exit_done,
            d_blocking,
            d_red,
            d_red_op,
            d_counted,
            d_count_warps,
            d_left1,
            d_first_done,
            d_warp_bit,
            d_bytes,
            d_all,
            d_cl_wait,
            o_valid,
            o_cta,
            o_warp,
            o_error,
            o_blocked
        );

        // ---- release arbiter: highest slot with a waiting release, that slot's offer ----
        self.rel_valid.next = false;
        self.sel_cluster.next = false;
        self.sel_slot.next = self.k_zero_slot.val();
        self.rel_id.next = self.k_zero_id.val();
        self.rel_waiting.next = self.k_zero32.val();
        self.rel_arrived.next = self.k_zero32.val();
        self.rel_popc.next = self.k_zero_popc.val();
        self.rel_and.next = false;
        self.rel_or.next = false;
        for s in 0..self.slots.len() {
            if self.slots[s].pend_any.val() {
                self.rel_valid.next = self.rel_ready.val();
                self.sel_cluster.next = self.slots[s].sel_cluster.val();
                self.sel_slot.next = self.slot_ids[s].val();
                self.rel_id.next = self.slots[s].sel_id.val();
                self.rel_waiting.next = self.slots[s].sel_waiting.val();
                self.rel_arrived.next = self.slots[s].sel_arrived.val();
                self.rel_popc.next = self.slots[s].sel_popc.val();
                self.rel_and.next = self.slots[s].sel_all.val();
                self.rel_or.next = self.slots[s].sel_any.val();
            }
        }
        self.rel_cta.next = self.sel_slot.val();
        self.rel_cluster.next = self.sel_cluster.val();
        // More than one release waiting: stop taking requests until they have left.
        self.multi.next = false;
        for s in 0..self.slots.len() {
            if self.slots[s].pend_other.val()
                | (self.slots[s].pend_any.val() & (self.sel_slot.val() != self.slot_ids[s].val()))
            {
                self.multi.next = true;
            }
        }
        // An exit in stage U may complete several whole-CTA barriers, which `multi` only shows
        // the cycle after: take no request meanwhile (a new round could otherwise complete a
        // barrier whose release still waits, and overwrite it).
        self.req_ready.next = !self.multi.val() & !self.d_exit_done.q.val();
        self.accept.next = self.req_valid.val() & self.req_ready.val() & !self.reset.val();

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

        // ---- stage D -> U: the decoded request ----
        self.d_valid.d.next = self.accept.val();
        self.d_cta.d.next = self.req_cta.val();
        self.d_warp.d.next = self.req_warp.val();
        self.d_pre_error.d.next = self.pre_error.val();
        self.d_hit.d.next = self.accept.val() & self.is_named.val() & (self.pre_error.val() == self.e_none.val());
        self.d_exit_done.d.next = self.accept.val() & self.is_exit.val() & (self.req_live.val() == self.k_zero32.val());
        self.d_blocking.d.next = self.is_named.val() & !self.is_arrive.val();
        self.d_red.d.next = self.is_red.val();
        self.d_red_op.d.next = self.req_op.val();
        self.d_counted.d.next = self.has_count.val();
        self.d_count_warps.d.next = self.req_count.val().get_bits::<WARP_COUNT_BITS>(5);
        self.d_left1.d.next = self.req_count.val().get_bits::<WARP_COUNT_BITS>(5) - self.k_one_count.val();
        self.d_first_done.d.next = self.req_count.val().get_bits::<WARP_COUNT_BITS>(5) <= self.k_one_count.val();
        self.d_warp_bit.d.next = self.warp_bit.val();
        self.d_bytes.d.next = self.pc3.val();
        self.d_all.d.next = self.preds.val() == self.req_active.val();
        self.d_cl_wait.d.next = self.is_cl_wait.val();
        if self.reset.val() {
            self.d_valid.d.next = false;
            self.d_hit.d.next = false;
            self.d_exit_done.d.next = false;
        }

        // ---- stage U: the addressed barrier (or, on an exit, every barrier of the slot); the
        // hit and exit strobes are decoded here in stage D and registered in the blocks ----
        for s in 0..self.slots.len() {
            self.slots[s].clock.next = self.clock.val();
            self.slots[s].reset.next = self.reset.val();
            self.slots[s].launch.next = self.launch.val() & (self.launch_slot.val() == self.slot_ids[s].val());
            self.slots[s].launch_warps.next = self.launch_warps.val();
            self.slots[s].hit_next.next = self.accept.val()
                & self.is_named.val()
                & (self.pre_error.val() == self.e_none.val())
                & (self.req_cta.val() == self.slot_ids[s].val());
            self.slots[s].req_id_next.next = self.req_id.val().get_bits::<ID_BITS>(0);
            self.slots[s].req_red.next = self.d_red.q.val();
            self.slots[s].req_red_op.next = self.d_red_op.q.val();
            self.slots[s].req_counted.next = self.d_counted.q.val();
            self.slots[s].req_count_warps.next = self.d_count_warps.q.val();
            self.slots[s].req_left1.next = self.d_left1.q.val();
            self.slots[s].req_first_done.next = self.d_first_done.q.val();
            self.slots[s].req_blocking.next = self.d_blocking.q.val();
            self.slots[s].req_warp_bit.next = self.d_warp_bit.q.val();
            self.slots[s].req_popc.next = self.pc5.val().get_bits::<POPC_BITS>(0);
            self.slots[s].req_all.next = self.d_all.q.val();
            self.slots[s].req_any.next = self.pc5.val() != self.k_zero32.val(); // some lane true
            self.slots[s].exit_next.next = self.accept.val()
                & self.is_exit.val()
                & (self.req_live.val() == self.k_zero32.val())
                & (self.req_cta.val() == self.slot_ids[s].val());
            self.slots[s].emit.next = self.rel_valid.val() & (self.sel_slot.val() == self.slot_ids[s].val());
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
        self.cl_any_mask.next = self.cl_any_upto[0].val();
        self.cl_in_mask.next = self.cl_in_upto[0].val();
        self.cl_blocked.next = self.cl_blk_upto[0].val();
        for s in 1..self.slots.len() {
            self.cl_any_upto[s].next = self.cl_any_upto[s - 1].val() | self.cl_any_bit[s].val();
            self.cl_in_upto[s].next = self.cl_in_upto[s - 1].val() | self.cl_in_bit[s].val();
            self.cl_blk_upto[s].next = self.cl_blk_upto[s - 1].val() | self.slots[s].cl_blocked.val();
            self.cl_any_mask.next = self.cl_any_upto[s].val();
            self.cl_in_mask.next = self.cl_in_upto[s].val();
            self.cl_blocked.next = self.cl_blk_upto[s].val();
        }
        for s in 0..self.slots.len() {
            self.slots[s].cl_complete.next = ((self.cl_any_mask.val() & self.cluster_bits[s].val())
                != self.k_zero32.val())
                & ((self.cl_in_mask.val() & self.cluster_bits[s].val()) == self.cluster_bits[s].val());
        }
        // Only the hit barrier reports an error and ErrorCode::None is 0: OR, not a priority chain.
        self.err_upto[0].next = self.slots[0].error.val();
        self.bar_error.next = self.err_upto[0].val();
        for s in 1..self.slots.len() {
            self.err_upto[s].next = self.err_upto[s - 1].val() | self.slots[s].error.val();
            self.bar_error.next = self.err_upto[s].val();
        }

        // ---- response (registered): a request-only error, else the barrier's ----
        self.o_valid.d.next = self.d_valid.q.val() & !self.reset.val();
        self.o_cta.d.next = self.d_cta.q.val();
        self.o_warp.d.next = self.d_warp.q.val();
        // (no barrier is hit when the request-only checks failed)
        self.o_error.d.next = self.d_pre_error.q.val() | self.bar_error.val();
        self.o_blocked.d.next =
            (self.d_hit.q.val() & self.d_blocking.q.val() & (self.bar_error.val() == self.e_none.val()))
                | self.cl_blocked.val();
        self.resp_valid.next = self.o_valid.q.val();
        self.resp_cta.next = self.o_cta.q.val();
        self.resp_warp.next = self.o_warp.q.val();
        self.resp_error.next = self.o_error.q.val();
        self.resp_blocked.next = self.o_blocked.q.val();
    }
}
