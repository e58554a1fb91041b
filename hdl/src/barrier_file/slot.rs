//! One CTA slot's state beside the round RAM: the live warps and thread limit of its CTA, which
//! of its barriers are in a round (and which of those are whole-CTA rounds, for the exit sweep),
//! and its part of the cluster barrier ([`ClusterRound`]).
//!
//! These are flip-flops, not RAM, because a CTA launch clears them all at once and a warp exit
//! needs every whole-CTA round of the slot at once (PTX ISA §9.7.13.1: an exited warp no longer
//! counts toward a barrier without a thread count).

use rust_hdl::prelude::*;

use super::cluster::ClusterRound;
use super::{BARRIER_MASK_BITS, ID_BITS, WARP_MASK_BITS};
use crate::common::ERROR_BITS;

#[derive(LogicBlock)]
pub struct SlotState {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A CTA with `launch_warps` warps starts in this slot: every barrier and the cluster round
    /// are reinitialized.
    pub launch: Signal<In, Bit>,
    pub launch_warps: Signal<In, Bits<32>>,
    /// Stage D: the last lanes of a warp of this slot exit (registered: stage U's exit of
    /// `warp_bit`, which leaves `live` at the end of stage U).
    pub exit_next: Signal<In, Bit>,
    /// Stage U: the request's warp.
    pub warp_bit: Signal<In, Bits<WARP_MASK_BITS>>,
    /// Stage U: barrier `id` is in a round after this edge (`counted`: with a thread count), or
    /// its round completed at this edge (`close` wins).
    pub open: Signal<In, Bit>,
    pub close: Signal<In, Bit>,
    pub id: Signal<In, Bits<ID_BITS>>,
    pub counted: Signal<In, Bit>,
    /// Stage D: a cluster-barrier request for this slot; stage U: it is a wait (else an arrive).
    pub cl_hit_next: Signal<In, Bit>,
    pub req_cl_wait: Signal<In, Bit>,
    /// The slot's cluster completes its round at this edge (`BarrierFile` combines the slots).
    pub cl_complete: Signal<In, Bit>,
    /// The arbiter emitted this slot's cluster release this cycle.
    pub cl_emitted: Signal<In, Bit>,
    /// The CTA's live warps after this edge (a launch or stage U's exit applied): for stage D's
    /// registered copy.
    pub live_next: Signal<Out, Bits<WARP_MASK_BITS>>,
    /// Thread limit of the CTA (its warps * 32), for BarCountTooLarge.
    pub thread_limit: Signal<Out, Bits<32>>,
    /// Barriers in a round; of those, the whole-CTA rounds (no thread count).
    pub active: Signal<Out, Bits<BARRIER_MASK_BITS>>,
    pub whole: Signal<Out, Bits<BARRIER_MASK_BITS>>,
    /// Stage U, cluster barrier: the request's error, whether the wait blocks; after this
    /// cycle's request some warp of the slot has arrived / every live one has.
    pub cl_error: Signal<Out, Bits<ERROR_BITS>>,
    pub cl_blocked: Signal<Out, Bit>,
    pub cl_any: Signal<Out, Bit>,
    pub cl_all_in: Signal<Out, Bit>,
    /// The slot's cluster release waits, and its warps.
    pub cl_pending: Signal<Out, Bit>,
    pub cl_waiting: Signal<Out, Bits<WARP_MASK_BITS>>,
    cluster: ClusterRound,
    live_warps: DFF<Bits<WARP_MASK_BITS>>,
    n_live: Signal<Local, Bits<WARP_MASK_BITS>>,
    limit: DFF<Bits<32>>,
    exit: DFF<Bit>,
    in_round: DFF<Bits<BARRIER_MASK_BITS>>,
    with_count: DFF<Bits<BARRIER_MASK_BITS>>,
    id_bit: Signal<Local, Bits<BARRIER_MASK_BITS>>,
    k_one_id: Constant<Bits<BARRIER_MASK_BITS>>,
    k_none: Constant<Bits<BARRIER_MASK_BITS>>,
    k_zero_mask: Constant<Bits<WARP_MASK_BITS>>,
    k_all_ones: Constant<Bits<32>>,
    k_full_warps: Constant<Bits<32>>,
}

impl Default for SlotState {
    fn default() -> Self {
        SlotState {
            clock: Default::default(),
            reset: Default::default(),
            launch: Default::default(),
            launch_warps: Default::default(),
            exit_next: Default::default(),
            warp_bit: Default::default(),
            open: Default::default(),
            close: Default::default(),
            id: Default::default(),
            counted: Default::default(),
            cl_hit_next: Default::default(),
            req_cl_wait: Default::default(),
            cl_complete: Default::default(),
            cl_emitted: Default::default(),
            live_next: Default::default(),
            thread_limit: Default::default(),
            active: Default::default(),
            whole: Default::default(),
            cl_error: Default::default(),
            cl_blocked: Default::default(),
            cl_any: Default::default(),
            cl_all_in: Default::default(),
            cl_pending: Default::default(),
            cl_waiting: Default::default(),
            cluster: ClusterRound::default(),
            live_warps: Default::default(),
            n_live: Default::default(),
            limit: Default::default(),
            exit: Default::default(),
            in_round: Default::default(),
            with_count: Default::default(),
            id_bit: Default::default(),
            k_one_id: Constant::new(1u64.to_bits()),
            k_none: Constant::new(0u64.to_bits()),
            k_zero_mask: Constant::new(0u64.to_bits()),
            k_all_ones: Constant::new((u32::MAX as u64).to_bits()),
            k_full_warps: Constant::new((WARP_MASK_BITS as u64).to_bits()),
        }
    }
}

impl Logic for SlotState {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, live_warps, limit, exit, in_round, with_count);
        // ---- the CTA's warps ----
        self.exit.d.next = self.exit_next.val();
        self.n_live.next = self.live_warps.q.val();
        if self.launch.val() {
            self.limit.d.next = self.launch_warps.val() << 5;
            if self.launch_warps.val() >= self.k_full_warps.val() {
                self.n_live.next = self.k_all_ones.val();
            } else {
                self.n_live.next = !(self.k_all_ones.val() << self.launch_warps.val());
            }
        }
        if self.exit.q.val() {
            self.n_live.next = self.live_warps.q.val() & !self.warp_bit.val();
        }
        if self.reset.val() {
            self.n_live.next = self.k_zero_mask.val();
            self.limit.d.next = self.k_zero_mask.val();
        }
        self.live_warps.d.next = self.n_live.val();
        self.live_next.next = self.n_live.val();
        self.thread_limit.next = self.limit.q.val();

        // ---- which barriers are in a round ----
        self.id_bit.next = self.k_one_id.val() << self.id.val();
        if self.open.val() {
            self.in_round.d.next = self.in_round.q.val() | self.id_bit.val();
            self.with_count.d.next = self.with_count.q.val() & !self.id_bit.val();
            if self.counted.val() {
                self.with_count.d.next = self.with_count.q.val() | self.id_bit.val();
            }
        }
        if self.close.val() {
            self.in_round.d.next = self.in_round.q.val() & !self.id_bit.val();
        }
        if self.reset.val() | self.launch.val() {
            self.in_round.d.next = self.k_none.val();
        }
        self.active.next = self.in_round.q.val();
        self.whole.next = self.in_round.q.val() & !self.with_count.q.val();

        // ---- the slot's part of the cluster barrier ----
        self.cluster.clock.next = self.clock.val();
        self.cluster.clear.next = self.reset.val() | self.launch.val();
        self.cluster.hit_next.next = self.cl_hit_next.val();
        self.cluster.req_wait.next = self.req_cl_wait.val();
        self.cluster.warp_bit.next = self.warp_bit.val();
        self.cluster.live_next.next = self.n_live.val();
        self.cluster.exit.next = self.exit.q.val();
        self.cluster.complete.next = self.cl_complete.val();
        self.cluster.emitted.next = self.cl_emitted.val();
        self.cl_error.next = self.cluster.error.val();
        self.cl_blocked.next = self.cluster.blocked.val();
        self.cl_any.next = self.cluster.any_arrived.val();
        self.cl_all_in.next = self.cluster.all_in.val();
        self.cl_pending.next = self.cluster.pending_release.val();
        self.cl_waiting.next = self.cluster.rel_waiting.val();
    }
}
