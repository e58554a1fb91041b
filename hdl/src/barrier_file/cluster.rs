//! One CTA slot's part of the cluster barrier (PTX ISA §9.7.13.3, `barrier.cluster.arrive` /
//! `barrier.cluster.wait`), the RTL of the golden unit's `cluster` / `try_complete_cluster`
//! (`sim/src/units/barrier_file.rs`).
//!
//! Per warp of the slot, three bits:
//! * `arrived`: the warp arrived in the current round (a second arrive is `BarClusterArriveTwice`);
//! * `pending`: the warp arrived and has not waited yet (a wait without it is
//!   `BarClusterWaitNoArrive`). `pending` without `arrived` means the warp's round has completed,
//!   so its wait returns at once;
//! * `waiting`: the warp's wait blocks until the round completes.
//!
//! A round completes when some warp of the cluster arrived and every live warp of every CTA of
//! the cluster has (`BarrierFile` ANDs the slots' `all_in` over the cluster's slots and feeds
//! `complete` back in the same cycle, computed from the state after this cycle's request). At that
//! edge `arrived` clears, the waiting warps leave `pending` and go to the release register, which
//! the slot offers to the release arbiter like a named barrier's release.

use rust_hdl::prelude::*;
use smsync_contract::encoding::ErrorCode;

use super::WARP_MASK_BITS;
use crate::common::{error_code, ERROR_BITS};

#[derive(LogicBlock)]
pub struct ClusterRound {
    pub clock: Signal<In, Clock>,
    /// Reset or CTA launch: every bit and the release register are cleared.
    pub clear: Signal<In, Bit>,
    /// Stage D: a cluster-barrier request for this slot (registered here: `hit` in stage U).
    pub hit_next: Signal<In, Bit>,
    /// Stage U: the request is `barrier.cluster.wait` (else `.arrive`), from warp `warp_bit`.
    pub req_wait: Signal<In, Bit>,
    pub warp_bit: Signal<In, Bits<WARP_MASK_BITS>>,
    /// The CTA's live warps after this edge (`SlotState::live_next`), and stage U's exit strobe
    /// of warp `warp_bit` (it leaves the live warps at this edge, and its pending arrival is
    /// dropped, as in the golden unit).
    pub live_next: Signal<In, Bits<WARP_MASK_BITS>>,
    pub exit: Signal<In, Bit>,
    /// The cluster's round completes at this edge.
    pub complete: Signal<In, Bit>,
    /// The arbiter emitted this slot's cluster release this cycle.
    pub emitted: Signal<In, Bit>,
    /// Stage U: the request's error (None = 0) and whether its wait blocks.
    pub error: Signal<Out, Bits<ERROR_BITS>>,
    pub blocked: Signal<Out, Bit>,
    /// After this cycle's request: some warp of the slot arrived; every live warp has.
    pub any_arrived: Signal<Out, Bit>,
    pub all_in: Signal<Out, Bit>,
    /// A release waits in the release register, and its warps.
    pub pending_release: Signal<Out, Bit>,
    pub rel_waiting: Signal<Out, Bits<WARP_MASK_BITS>>,
    hit: DFF<Bit>,
    arrived: DFF<Bits<WARP_MASK_BITS>>,
    pending: DFF<Bits<WARP_MASK_BITS>>,
    waiting: DFF<Bits<WARP_MASK_BITS>>,
    rel_valid: DFF<Bit>,
    r_waiting: DFF<Bits<WARP_MASK_BITS>>,
    n_arrived: Signal<Local, Bits<WARP_MASK_BITS>>,
    n_pending: Signal<Local, Bits<WARP_MASK_BITS>>,
    n_waiting: Signal<Local, Bits<WARP_MASK_BITS>>,
    /// Live warps that have not arrived (before this cycle's request): a register kept beside
    /// `arrived` (`missing_q`), so the all-in test starts from one register.
    missing: Signal<Local, Bits<WARP_MASK_BITS>>,
    missing_q: DFF<Bits<WARP_MASK_BITS>>,
    /// `arrived` after this edge.
    a_next: Signal<Local, Bits<WARP_MASK_BITS>>,
    /// This cycle's request is an arrive (refused or not).
    arrives: Signal<Local, Bit>,
    e_none: Constant<Bits<ERROR_BITS>>,
    e_arrive_twice: Constant<Bits<ERROR_BITS>>,
    e_wait_no_arrive: Constant<Bits<ERROR_BITS>>,
    k_zero: Constant<Bits<WARP_MASK_BITS>>,
}

impl Default for ClusterRound {
    fn default() -> Self {
        let err = |e: ErrorCode| Constant::new(error_code(e));
        ClusterRound {
            clock: Default::default(),
            clear: Default::default(),
            hit_next: Default::default(),
            req_wait: Default::default(),
            warp_bit: Default::default(),
            live_next: Default::default(),
            exit: Default::default(),
            complete: Default::default(),
            emitted: Default::default(),
            error: Default::default(),
            blocked: Default::default(),
            any_arrived: Default::default(),
            all_in: Default::default(),
            pending_release: Default::default(),
            rel_waiting: Default::default(),
            hit: Default::default(),
            arrived: Default::default(),
            pending: Default::default(),
            waiting: Default::default(),
            rel_valid: Default::default(),
            r_waiting: Default::default(),
            n_arrived: Default::default(),
            n_pending: Default::default(),
            n_waiting: Default::default(),
            missing: Default::default(),
            missing_q: Default::default(),
            a_next: Default::default(),
            arrives: Default::default(),
            e_none: err(ErrorCode::None),
            e_arrive_twice: err(ErrorCode::BarClusterArriveTwice),
            e_wait_no_arrive: err(ErrorCode::BarClusterWaitNoArrive),
            k_zero: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for ClusterRound {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, hit, arrived, pending, waiting, rel_valid, r_waiting, missing_q);
        self.hit.d.next = self.hit_next.val();

        // ---- stage U: the request against the round (golden `cluster`) ----
        self.error.next = self.e_none.val();
        self.blocked.next = false;
        self.n_arrived.next = self.arrived.q.val();
        self.n_pending.next = self.pending.q.val();
        self.n_waiting.next = self.waiting.q.val();
        if self.hit.q.val() {
            if !self.req_wait.val() {
                if (self.arrived.q.val() & self.warp_bit.val()) != self.k_zero.val() {
                    self.error.next = self.e_arrive_twice.val();
                } else {
                    self.n_arrived.next = self.arrived.q.val() | self.warp_bit.val();
                    self.n_pending.next = self.pending.q.val() | self.warp_bit.val();
                }
            } else if (self.pending.q.val() & self.warp_bit.val()) == self.k_zero.val() {
                self.error.next = self.e_wait_no_arrive.val();
            } else if (self.arrived.q.val() & self.warp_bit.val()) == self.k_zero.val() {
                // its round has completed: the wait returns at once
                self.n_pending.next = self.pending.q.val() & !self.warp_bit.val();
            } else {
                self.n_waiting.next = self.waiting.q.val() | self.warp_bit.val();
                self.blocked.next = true;
            }
        } else if self.exit.val() {
            self.n_pending.next = self.pending.q.val() & !self.warp_bit.val();
        }
        // The same verdicts as (n_arrived != 0) and (n_live & !n_arrived == 0), formed from the
        // registers in parallel with the request's checks (they feed the cluster's AND over its
        // slots, then this slot's completion: the unit's longest path). An arrive or an exit of
        // warp `warp_bit` takes that warp off the missing ones whether or not the arrive is
        // refused (a refused arrive is one of a warp that already arrived: not missing anyway).
        self.missing.next = self.missing_q.q.val();
        self.arrives.next = self.hit.q.val() & !self.req_wait.val();
        self.any_arrived.next = (self.arrived.q.val() != self.k_zero.val()) | self.arrives.val();
        if self.arrives.val() | self.exit.val() {
            self.all_in.next = (self.missing.val() & !self.warp_bit.val()) == self.k_zero.val();
        } else {
            self.all_in.next = self.missing.val() == self.k_zero.val();
        }

        // ---- the edge: the round goes on, or completes and releases its waiting warps ----
        self.a_next.next = self.n_arrived.val();
        if self.complete.val() | self.clear.val() {
            self.a_next.next = self.k_zero.val();
        }
        self.arrived.d.next = self.a_next.val();
        self.missing_q.d.next = self.live_next.val() & !self.a_next.val();
        self.pending.d.next = self.n_pending.val();
        self.waiting.d.next = self.n_waiting.val();
        if self.emitted.val() {
            self.rel_valid.d.next = false;
        }
        if self.complete.val() {
            self.pending.d.next = self.n_pending.val() & !self.n_waiting.val();
            self.waiting.d.next = self.k_zero.val();
            // (n_waiting != 0, without waiting for the request's checks: a wait blocks exactly
            // when its warp is pending and arrived)
            if (self.waiting.q.val() != self.k_zero.val())
                | (self.hit.q.val()
                    & self.req_wait.val()
                    & ((self.pending.q.val() & self.arrived.q.val() & self.warp_bit.val()) != self.k_zero.val()))
            {
                self.rel_valid.d.next = true;
                self.r_waiting.d.next = self.n_waiting.val();
            }
        }
        if self.clear.val() {
            self.pending.d.next = self.k_zero.val();
            self.waiting.d.next = self.k_zero.val();
            self.rel_valid.d.next = false;
        }
        self.pending_release.next = self.rel_valid.q.val();
        self.rel_waiting.next = self.r_waiting.q.val();
    }
}
