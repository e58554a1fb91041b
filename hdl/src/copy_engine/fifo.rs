//! FIFOs whose depth comes from the runtime `Config` (a distributed RAM of that many words).
//!
//! A FIFO is a [`FifoCtl`] (pointers and occupancy) plus one or more [`FifoStore`]s (the data),
//! so that several fields queued together share one set of pointers. The occupancy `count` lets
//! producers reserve room ahead (credit flow control); "full" is `count == depth`, compared by the
//! user, who knows the depth.

use rust_hdl::prelude::*;

use crate::depth_ram::DepthRam;

/// Pointers of a FIFO of `depth` entries. `push` while full and `pop` while empty are ignored;
/// `write` tells the stores to write slot `tail`.
#[derive(LogicBlock)]
pub struct FifoCtl {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub pop: Signal<In, Bit>,
    pub write: Signal<Out, Bit>,
    /// The word the store reads: the head (or, built with [`FifoCtl::ahead`], the head after
    /// this clock edge: a block RAM's read address, see [`BlockFifo`]).
    pub head: Signal<Out, Bits<8>>,
    pub tail: Signal<Out, Bits<8>>,
    pub empty: Signal<Out, Bit>,
    /// Entries held (0..=depth).
    pub count: Signal<Out, Bits<9>>,
    head_r: DFF<Bits<8>>,
    tail_r: DFF<Bits<8>>,
    used: DFF<Bits<9>>,
    push_ok: Signal<Local, Bit>,
    pop_ok: Signal<Local, Bit>,
    head_next: Signal<Local, Bits<8>>,
    k_ahead: Constant<Bit>,
    k_last: Constant<Bits<8>>,
    k_depth: Constant<Bits<9>>,
    /// The pointers' and the count's true widths (log2 of the depth rounded up to a power of
    /// two, and one bit more for the count): the bits above are always 0, and masking them
    /// lets synthesis drop their flip-flops and the adders' upper bits.
    k_ptr_mask: Constant<Bits<8>>,
    k_used_mask: Constant<Bits<9>>,
}

impl FifoCtl {
    /// Pointers for `depth` entries (1..=256).
    pub fn new(depth: usize) -> Self {
        assert!((1..=256).contains(&depth), "FIFO depth {depth} outside 1..=256");
        FifoCtl {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            write: Default::default(),
            head: Default::default(),
            tail: Default::default(),
            empty: Default::default(),
            count: Default::default(),
            head_r: Default::default(),
            tail_r: Default::default(),
            used: Default::default(),
            push_ok: Default::default(),
            pop_ok: Default::default(),
            head_next: Default::default(),
            k_ahead: Constant::new(false),
            k_last: Constant::new(((depth - 1) as u64).to_bits()),
            k_depth: Constant::new((depth as u64).to_bits()),
            k_ptr_mask: Constant::new(((depth.next_power_of_two() - 1) as u64).to_bits()),
            k_used_mask: Constant::new(((2 * depth.next_power_of_two() - 1) as u64).to_bits()),
        }
    }

    /// As [`FifoCtl::new`], with `head` the head after this clock edge.
    pub fn ahead(depth: usize) -> Self {
        FifoCtl { k_ahead: Constant::new(true), ..Self::new(depth) }
    }
}

impl Logic for FifoCtl {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head_r, tail_r, used);
        self.empty.next = self.used.q.val() == 0;
        self.count.next = self.used.q.val();
        self.tail.next = self.tail_r.q.val();
        self.push_ok.next = self.push.val() & (self.used.q.val() != self.k_depth.val());
        self.pop_ok.next = self.pop.val() & (self.used.q.val() != 0);
        self.write.next = self.push_ok.val();
        if self.push_ok.val() {
            if self.tail_r.q.val() == self.k_last.val() {
                self.tail_r.d.next = 0.into();
            } else {
                self.tail_r.d.next = (self.tail_r.q.val() + 1) & self.k_ptr_mask.val();
            }
        }
        self.head_next.next = self.head_r.q.val();
        if self.pop_ok.val() {
            if self.head_r.q.val() == self.k_last.val() {
                self.head_next.next = 0.into();
            } else {
                self.head_next.next = (self.head_r.q.val() + 1) & self.k_ptr_mask.val();
            }
        }
        self.head_r.d.next = self.head_next.val();
        self.head.next = self.head_r.q.val();
        if self.k_ahead.val() {
            self.head.next = self.head_next.val();
        }
        if self.push_ok.val() & !self.pop_ok.val() {
            self.used.d.next = (self.used.q.val() + 1) & self.k_used_mask.val();
        }
        if self.pop_ok.val() & !self.push_ok.val() {
            self.used.d.next = (self.used.q.val() - 1) & self.k_used_mask.val();
        }
        if self.reset.val() {
            self.head_r.d.next = 0.into();
            self.tail_r.d.next = 0.into();
            self.used.d.next = 0.into();
        }
    }
}

/// Address width of a FIFO store's RAM: head and tail are 8 bits, and `DepthRam` wants its
/// address one bit wider than the words it uses.
const STORE_ADDR_BITS: usize = 9;

/// The data of a FIFO: `depth` words of `W` bits in distributed RAM (`TRELLIS_DPR16X4` on the
/// ECP5, LUT RAM on Xilinx); word `tail` is written with `din` when `write`, `dout` shows word
/// `head` in the same cycle (a word written shows from the cycle after the write, as a register
/// slot would). A RAM instead of `depth` register slots and a `depth`:1 read mux: the copy
/// engine's 32-deep, 191-bit descriptor FIFO alone was 6,112 flip-flops and a 32-level mux chain.
#[derive(LogicBlock)]
pub struct FifoStore<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub write: Signal<In, Bit>,
    pub tail: Signal<In, Bits<8>>,
    pub head: Signal<In, Bits<8>>,
    pub din: Signal<In, Bits<W>>,
    pub dout: Signal<Out, Bits<W>>,
    ram: DepthRam<Bits<W>, STORE_ADDR_BITS>,
}

impl<const W: usize> FifoStore<W> {
    /// A store of `depth` (1..=256) words.
    pub fn new(depth: usize) -> Self {
        Self::with_ram(DepthRam::asynchronous(store_addr_bits(depth)))
    }

    /// A store in block RAM: `dout` is the word at `head` of the last clock edge (its user
    /// gives the next head, [`FifoCtl::ahead`]; see [`BlockFifo`]).
    pub fn block(depth: usize) -> Self {
        Self::with_ram(DepthRam::block(store_addr_bits(depth)))
    }

    fn with_ram(ram: DepthRam<Bits<W>, STORE_ADDR_BITS>) -> Self {
        FifoStore {
            clock: Default::default(),
            write: Default::default(),
            tail: Default::default(),
            head: Default::default(),
            din: Default::default(),
            dout: Default::default(),
            ram,
        }
    }
}

/// Address bits of a store of `depth` (1..=256) words.
fn store_addr_bits(depth: usize) -> usize {
    (usize::BITS - depth.saturating_sub(1).leading_zeros()).max(1) as usize
}

impl<const W: usize> Logic for FifoStore<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.ram.write_enable.next = self.write.val();
        self.ram.write_address.next = bit_cast::<STORE_ADDR_BITS, 8>(self.tail.val());
        self.ram.write_data.next = self.din.val();
        self.ram.read_address.next = bit_cast::<STORE_ADDR_BITS, 8>(self.head.val());
        self.dout.next = self.ram.read_data.val();
    }
}

/// A FIFO with one data field: [`FifoCtl`] + [`FifoStore`].
#[derive(LogicBlock)]
pub struct RamFifo<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub din: Signal<In, Bits<W>>,
    pub pop: Signal<In, Bit>,
    pub dout: Signal<Out, Bits<W>>,
    pub empty: Signal<Out, Bit>,
    pub count: Signal<Out, Bits<9>>,
    ctl: FifoCtl,
    store: FifoStore<W>,
}

impl<const W: usize> RamFifo<W> {
    pub fn new(depth: usize) -> Self {
        RamFifo {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            din: Default::default(),
            pop: Default::default(),
            dout: Default::default(),
            empty: Default::default(),
            count: Default::default(),
            ctl: FifoCtl::new(depth),
            store: FifoStore::new(depth),
        }
    }
}

impl<const W: usize> Logic for RamFifo<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ctl.clock.next = self.clock.val();
        self.ctl.reset.next = self.reset.val();
        self.ctl.push.next = self.push.val();
        self.ctl.pop.next = self.pop.val();
        self.store.clock.next = self.clock.val();
        self.store.write.next = self.ctl.write.val();
        self.store.tail.next = self.ctl.tail.val();
        self.store.head.next = self.ctl.head.val();
        self.store.din.next = self.din.val();
        self.dout.next = self.store.dout.val();
        self.empty.next = self.ctl.empty.val();
        self.count.next = self.ctl.count.val();
    }
}

/// A FIFO with one data field in block RAM (`DP16KD` on the ECP5), for a wide queue whose
/// reader loads the head entry into registers: in distributed RAM the copy engine's 544-bit
/// request queue was 136 16x4 cells (816 LUT4 positions on fpga-small).
///
/// The RAM is read at the head the next cycle will have ([`FifoCtl::ahead`]), so `dout` shows the head
/// entry from the cycle after a pop, as [`RamFifo`]'s does; an entry written into the word being
/// read (a push into an empty queue, or onto the word a pop exposes) shows a cycle later than
/// there: `ready` (not `!empty`) says `dout` is the head entry. `empty` and `count` are the
/// occupancy, as [`RamFifo`]'s.
#[derive(LogicBlock)]
pub struct BlockFifo<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub push: Signal<In, Bit>,
    pub din: Signal<In, Bits<W>>,
    pub pop: Signal<In, Bit>,
    pub dout: Signal<Out, Bits<W>>,
    pub empty: Signal<Out, Bit>,
    pub count: Signal<Out, Bits<9>>,
    pub ready: Signal<Out, Bit>,
    ctl: FifoCtl,
    store: FifoStore<W>,
    /// The RAM's read at the last edge was not of the word written at it.
    read_fresh: DFF<Bit>,
}

impl<const W: usize> BlockFifo<W> {
    /// A queue of `depth` (1..=256) entries.
    pub fn new(depth: usize) -> Self {
        BlockFifo {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            din: Default::default(),
            pop: Default::default(),
            dout: Default::default(),
            empty: Default::default(),
            count: Default::default(),
            ready: Default::default(),
            ctl: FifoCtl::ahead(depth),
            store: FifoStore::block(depth),
            read_fresh: Default::default(),
        }
    }
}

impl<const W: usize> Logic for BlockFifo<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, read_fresh);
        self.ctl.clock.next = self.clock.val();
        self.ctl.reset.next = self.reset.val();
        self.ctl.push.next = self.push.val();
        self.ctl.pop.next = self.pop.val();
        self.store.clock.next = self.clock.val();
        self.store.write.next = self.ctl.write.val();
        self.store.tail.next = self.ctl.tail.val();
        self.store.head.next = self.ctl.head.val();
        self.store.din.next = self.din.val();
        self.read_fresh.d.next = !(self.ctl.write.val() && (self.ctl.tail.val() == self.ctl.head.val()));
        self.dout.next = self.store.dout.val();
        self.empty.next = self.ctl.empty.val();
        self.count.next = self.ctl.count.val();
        self.ready.next = !self.ctl.empty.val() && self.read_fresh.q.val();
    }
}
