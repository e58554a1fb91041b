//! The barrier file's queue of completed named-barrier rounds waiting to leave on `rel_*`.
//!
//! Stage U completes at most one round per cycle and pushes its release here; the head is offered
//! to the top until taken. `BarrierFile` takes no new request while more than one release waits,
//! so that with the two items that may already be in stages D and U the queue never holds more
//! than [`QUEUE_DEPTH`] - 1 (see `BarrierFile::update`).
//!
//! A CTA launch reinitializes its slot's barriers (PTX ISA §9.7.13.1, as the golden unit's
//! `launch_cta`): its releases still queued are dropped (`kill`); a dropped head is popped
//! without being offered.

use rust_hdl::prelude::*;

use super::{ID_BITS, POPC_BITS, SLOT_BITS, WARP_MASK_BITS};

/// Entries: at most one waiting release when a request is accepted, plus the two in stages D, U.
pub const QUEUE_DEPTH: usize = 4;
const PTR_BITS: usize = 2;
const COUNT_BITS: usize = 3;
const _: () = assert!(QUEUE_DEPTH == 1 << PTR_BITS && QUEUE_DEPTH < 1 << COUNT_BITS);

#[derive(LogicBlock)]
pub struct ReleaseQueue {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A CTA launches in `kill_slot`: its queued releases are dropped.
    pub kill: Signal<In, Bit>,
    pub kill_slot: Signal<In, Bits<SLOT_BITS>>,
    pub push: Signal<In, Bit>,
    pub push_slot: Signal<In, Bits<SLOT_BITS>>,
    pub push_id: Signal<In, Bits<ID_BITS>>,
    pub push_waiting: Signal<In, Bits<WARP_MASK_BITS>>,
    pub push_arrived: Signal<In, Bits<WARP_MASK_BITS>>,
    pub push_popc: Signal<In, Bits<POPC_BITS>>,
    pub push_all: Signal<In, Bits<1>>,
    /// The head leaves this cycle (taken, or dropped).
    pub pop: Signal<In, Bit>,
    /// Entries held (dropped ones included), and whether the head is a live release.
    pub count: Signal<Out, Bits<COUNT_BITS>>,
    pub nonempty: Signal<Out, Bit>,
    pub head_live: Signal<Out, Bit>,
    pub head_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub head_id: Signal<Out, Bits<ID_BITS>>,
    pub head_waiting: Signal<Out, Bits<WARP_MASK_BITS>>,
    pub head_arrived: Signal<Out, Bits<WARP_MASK_BITS>>,
    pub head_popc: Signal<Out, Bits<POPC_BITS>>,
    pub head_all: Signal<Out, Bits<1>>,
    head: DFF<Bits<PTR_BITS>>,
    tail: DFF<Bits<PTR_BITS>>,
    held: DFF<Bits<COUNT_BITS>>,
    live: Vec<DFF<Bit>>,
    slot: Vec<DFF<Bits<SLOT_BITS>>>,
    id: Vec<DFF<Bits<ID_BITS>>>,
    waiting: Vec<DFF<Bits<WARP_MASK_BITS>>>,
    arrived: Vec<DFF<Bits<WARP_MASK_BITS>>>,
    popc: Vec<DFF<Bits<POPC_BITS>>>,
    all: Vec<DFF<Bits<1>>>,
    index: Vec<Constant<Bits<PTR_BITS>>>,
    k_one_ptr: Constant<Bits<PTR_BITS>>,
    k_one_count: Constant<Bits<COUNT_BITS>>,
    k_zero_count: Constant<Bits<COUNT_BITS>>,
}

fn entries<T: Default>() -> Vec<T> {
    (0..QUEUE_DEPTH).map(|_| T::default()).collect()
}

impl Default for ReleaseQueue {
    fn default() -> Self {
        ReleaseQueue {
            clock: Default::default(),
            reset: Default::default(),
            kill: Default::default(),
            kill_slot: Default::default(),
            push: Default::default(),
            push_slot: Default::default(),
            push_id: Default::default(),
            push_waiting: Default::default(),
            push_arrived: Default::default(),
            push_popc: Default::default(),
            push_all: Default::default(),
            pop: Default::default(),
            count: Default::default(),
            nonempty: Default::default(),
            head_live: Default::default(),
            head_slot: Default::default(),
            head_id: Default::default(),
            head_waiting: Default::default(),
            head_arrived: Default::default(),
            head_popc: Default::default(),
            head_all: Default::default(),
            head: Default::default(),
            tail: Default::default(),
            held: Default::default(),
            live: entries(),
            slot: entries(),
            id: entries(),
            waiting: entries(),
            arrived: entries(),
            popc: entries(),
            all: entries(),
            index: (0..QUEUE_DEPTH).map(|i| Constant::new((i as u64).to_bits())).collect(),
            k_one_ptr: Constant::new(1u64.to_bits()),
            k_one_count: Constant::new(1u64.to_bits()),
            k_zero_count: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for ReleaseQueue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head, tail, held);
        for i in 0..QUEUE_DEPTH {
            self.live[i].clock.next = self.clock.val();
            self.live[i].d.next = self.live[i].q.val();
            self.slot[i].clock.next = self.clock.val();
            self.slot[i].d.next = self.slot[i].q.val();
            self.id[i].clock.next = self.clock.val();
            self.id[i].d.next = self.id[i].q.val();
            self.waiting[i].clock.next = self.clock.val();
            self.waiting[i].d.next = self.waiting[i].q.val();
            self.arrived[i].clock.next = self.clock.val();
            self.arrived[i].d.next = self.arrived[i].q.val();
            self.popc[i].clock.next = self.clock.val();
            self.popc[i].d.next = self.popc[i].q.val();
            self.all[i].clock.next = self.clock.val();
            self.all[i].d.next = self.all[i].q.val();
        }
        // ---- the head ----
        self.count.next = self.held.q.val();
        self.nonempty.next = self.held.q.val() != self.k_zero_count.val();
        self.head_live.next = false;
        self.head_slot.next = self.slot[0].q.val();
        self.head_id.next = self.id[0].q.val();
        self.head_waiting.next = self.waiting[0].q.val();
        self.head_arrived.next = self.arrived[0].q.val();
        self.head_popc.next = self.popc[0].q.val();
        self.head_all.next = self.all[0].q.val();
        for i in 0..QUEUE_DEPTH {
            if self.head.q.val() == self.index[i].val() {
                self.head_live.next = self.live[i].q.val() & (self.held.q.val() != self.k_zero_count.val());
                self.head_slot.next = self.slot[i].q.val();
                self.head_id.next = self.id[i].q.val();
                self.head_waiting.next = self.waiting[i].q.val();
                self.head_arrived.next = self.arrived[i].q.val();
                self.head_popc.next = self.popc[i].q.val();
                self.head_all.next = self.all[i].q.val();
            }
        }
        // ---- push at the tail, pop at the head, drop a launched slot's entries ----
        for i in 0..QUEUE_DEPTH {
            if self.kill.val() & (self.slot[i].q.val() == self.kill_slot.val()) {
                self.live[i].d.next = false;
            }
            // The tail entry is free (at most QUEUE_DEPTH - 1 are held): it takes the push data
            // every cycle, and `push` only moves the tail past it (no push in a write enable).
            if self.tail.q.val() == self.index[i].val() {
                self.live[i].d.next = self.push.val();
                self.slot[i].d.next = self.push_slot.val();
                self.id[i].d.next = self.push_id.val();
                self.waiting[i].d.next = self.push_waiting.val();
                self.arrived[i].d.next = self.push_arrived.val();
                self.popc[i].d.next = self.push_popc.val();
                self.all[i].d.next = self.push_all.val();
            }
        }
        if self.push.val() {
            self.tail.d.next = self.tail.q.val() + self.k_one_ptr.val();
        }
        if self.pop.val() {
            self.head.d.next = self.head.q.val() + self.k_one_ptr.val();
        }
        if self.push.val() & !self.pop.val() {
            self.held.d.next = self.held.q.val() + self.k_one_count.val();
        }
        if self.pop.val() & !self.push.val() {
            self.held.d.next = self.held.q.val() - self.k_one_count.val();
        }
        if self.reset.val() {
            self.head.d.next = self.index[0].val();
            self.tail.d.next = self.index[0].val();
            self.held.d.next = self.k_zero_count.val();
        }
    }
}
