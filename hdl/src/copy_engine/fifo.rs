//! A register FIFO whose depth comes from the runtime `Config` (a `Vec` of register slots), with
//! an occupancy count so that producers can reserve room ahead (credit flow control).

use rust_hdl::prelude::*;

/// One storage slot: loads `din` when `load` is high.
#[derive(LogicBlock, Default)]
pub struct RegSlot<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub load: Signal<In, Bit>,
    pub din: Signal<In, Bits<W>>,
    pub dout: Signal<Out, Bits<W>>,
    held: DFF<Bits<W>>,
}

impl<const W: usize> Logic for RegSlot<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, held);
        if self.load.val() {
            self.held.d.next = self.din.val();
        }
        self.dout.next = self.held.q.val();
    }
}

/// First-in first-out queue of `depth` entries of `W` bits. `push` while full and `pop` while
/// empty are ignored; push and pop in one cycle are both performed. `dout` shows the head.
#[derive(LogicBlock)]
pub struct RegFifo<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub din: Signal<In, Bits<W>>,
    pub pop: Signal<In, Bit>,
    pub dout: Signal<Out, Bits<W>>,
    pub empty: Signal<Out, Bit>,
    pub full: Signal<Out, Bit>,
    /// Entries held (0..=depth).
    pub count: Signal<Out, Bits<9>>,
    slots: Vec<RegSlot<W>>,
    head: DFF<Bits<8>>,
    tail: DFF<Bits<8>>,
    used: DFF<Bits<9>>,
    push_ok: Signal<Local, Bit>,
    pop_ok: Signal<Local, Bit>,
    k_last: Constant<Bits<8>>,
    k_depth: Constant<Bits<9>>,
}

impl<const W: usize> RegFifo<W> {
    /// A FIFO of `depth` entries (1..=256).
    pub fn new(depth: usize) -> Self {
        assert!((1..=256).contains(&depth), "RegFifo depth {depth} outside 1..=256");
        RegFifo {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            din: Default::default(),
            pop: Default::default(),
            dout: Default::default(),
            empty: Default::default(),
            full: Default::default(),
            count: Default::default(),
            slots: (0..depth).map(|_| RegSlot::default()).collect(),
            head: Default::default(),
            tail: Default::default(),
            used: Default::default(),
            push_ok: Default::default(),
            pop_ok: Default::default(),
            k_last: Constant::new(((depth - 1) as u64).to_bits()),
            k_depth: Constant::new((depth as u64).to_bits()),
        }
    }
}

impl<const W: usize> Logic for RegFifo<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head, tail, used);
        self.empty.next = self.used.q.val() == 0;
        self.full.next = self.used.q.val() == self.k_depth.val();
        self.count.next = self.used.q.val();
        self.push_ok.next = self.push.val() & (self.used.q.val() != self.k_depth.val());
        self.pop_ok.next = self.pop.val() & (self.used.q.val() != 0);
        self.dout.next = 0.into();
        for i in 0..self.slots.len() {
            self.slots[i].clock.next = self.clock.val();
            self.slots[i].load.next = self.push_ok.val() & (self.tail.q.val().index() == i);
            self.slots[i].din.next = self.din.val();
            if self.head.q.val().index() == i {
                self.dout.next = self.slots[i].dout.val();
            }
        }
        if self.push_ok.val() {
            if self.tail.q.val() == self.k_last.val() {
                self.tail.d.next = 0.into();
            } else {
                self.tail.d.next = self.tail.q.val() + 1;
            }
        }
        if self.pop_ok.val() {
            if self.head.q.val() == self.k_last.val() {
                self.head.d.next = 0.into();
            } else {
                self.head.d.next = self.head.q.val() + 1;
            }
        }
        if self.push_ok.val() & !self.pop_ok.val() {
            self.used.d.next = self.used.q.val() + 1;
        }
        if self.pop_ok.val() & !self.push_ok.val() {
            self.used.d.next = self.used.q.val() - 1;
        }
        if self.reset.val() {
            self.head.d.next = 0.into();
            self.tail.d.next = 0.into();
            self.used.d.next = 0.into();
        }
    }
}
