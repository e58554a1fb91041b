//! A result store (`W`-bit values): the value each lane of a warp request answers, written at most one lane per
//! bank per cycle as a unit computes them, read a row of `L` lanes at a time by the response
//! egress (`L = lanes_per_beat`). Three instances: the lane sequencer's (mbarrier ops, ld.shared;
//! one lane per cycle) and the atomic ALU's (the old values of a coalesced step's lanes, one
//! lane per bank), both 128-bit; and the warp network's (32-bit answers, a row per emit cycle).
//!
//! Why a RAM and not 32 registers: 32 x 128-bit registers, each loaded under its own lane
//! condition and read through a 32-to-`L` row mux, are mostly multiplexers (on the fpga-small
//! top they were the largest block of the core's logic, docs/FPGA.md). Here lane `k` lives in
//! bank `k % L`, word `k / L`: one write port per bank (`write[b]`, `word[b]`, `data[b]`), and a
//! row is the same word of every bank. The banks read asynchronously (distributed RAM on an
//! FPGA), so the egress's row register addresses them directly.
//!
//! A request's lanes that are never written (inactive, suspended or faulting lanes) must answer
//! 0, as the golden model's do: `written` has a bit per lane, cleared by `clear` (the request
//! starts), set by a write, and a row's lanes whose bit is clear read as 0, so no cycle is
//! spent zeroing the banks.

use super::copies;
use crate::atomic_alu::width::ZeroExtend;
use crate::depth_ram::DepthRam;
use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::port::WARP;

/// Address width of a bank's ports (a bank holds at most `WARP` words; `DepthRam` needs
/// one address bit more than it uses).
const BANK_ADDR_BITS: usize = 6;

#[derive(LogicBlock)]
pub struct ResultStore<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// Every lane reads 0 from the next cycle (a new request starts). Wins over `write`.
    pub clear: Signal<In, Bit>,
    /// Per bank b: write `data[b]` as the value of lane `word[b] * L + b`.
    pub write: Vec<Signal<In, Bit>>,
    pub word: Vec<Signal<In, Bits<5>>>,
    pub data: Vec<Signal<In, Bits<W>>>,
    /// Row `row` (lanes `row*L .. row*L+L-1`) on `row_values`, in the same cycle.
    pub row: Signal<In, Bits<5>>,
    pub row_values: Vec<Signal<Out, Bits<W>>>,
    written: DFF<Bits<32>>,
    banks: Vec<DepthRam<Bits<W>, BANK_ADDR_BITS>>,
    /// The `written` bits bank b's write sets, and their OR over banks 0..=b (each written once:
    /// a Local read back after its own assignment is stale in rust-hdl's simulator).
    set_bits: Vec<Signal<Local, Bits<32>>>,
    word_address: Vec<ZeroExtend<5, BANK_ADDR_BITS>>,
    set_acc: Vec<Signal<Local, Bits<32>>>,
    /// The row's bits of `written`.
    row_written: Signal<Local, Bits<32>>,
    k_log_lanes: Constant<Bits<5>>,
    k_lane_bit: Vec<Constant<Bits<32>>>,
    _lanes: usize,
}

impl<const W: usize> ResultStore<W> {
    /// A store whose rows are `config.lanes_per_beat` lanes (one bank per lane of a row).
    pub fn new(config: &Config) -> Self {
        Self::with_banks(config.lanes_per_beat as usize)
    }

    /// A store of `l` banks (rows of `l` lanes), `l` a power of two up to 32.
    pub fn with_banks(l: usize) -> Self {
        assert!(l.is_power_of_two() && l <= WARP, "{l} banks: a power of two up to {WARP}");
        let log_l = l.trailing_zeros() as u64;
        // At least 2 words: DepthRam's address has one bit or more (L = 32 uses word 0 only).
        let word_bits = ((WARP / l).trailing_zeros() as usize).max(1);
        ResultStore {
            clock: Default::default(),
            clear: Default::default(),
            write: copies(l),
            word: copies(l),
            data: copies(l),
            row: Default::default(),
            row_values: copies(l),
            written: Default::default(),
            banks: (0..l).map(|_| DepthRam::asynchronous(word_bits)).collect(),
            set_bits: copies(l),
            word_address: (0..l).map(|_| Default::default()).collect(),
            set_acc: copies(l),
            row_written: Default::default(),
            k_log_lanes: Constant::new(log_l.to_bits()),
            k_lane_bit: (0..l).map(|i| Constant::new((1u64 << i).to_bits())).collect(),
            _lanes: l,
        }
    }
}

impl<const W: usize> Logic for ResultStore<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, written);
        for i in 0..self._lanes {
            self.set_bits[i].next = 0.into();
            if self.write[i].val() {
                // word * L < 32: the lane's offset from bank b's bit fits the 5-bit word.
                self.set_bits[i].next = self.k_lane_bit[i].val() << (self.word[i].val() << self.k_log_lanes.val());
            }
        }
        self.set_acc[0].next = self.set_bits[0].val();
        for i in 1..self._lanes {
            self.set_acc[i].next = self.set_acc[i - 1].val() | self.set_bits[i].val();
        }
        // (The last bank's OR, written as the loop's last assignment.)
        for i in 0..self._lanes {
            self.written.d.next = self.written.q.val() | self.set_acc[i].val();
        }
        if self.clear.val() {
            self.written.d.next = 0.into();
        }
        self.row_written.next = self.written.q.val() >> (bit_cast::<32, 5>(self.row.val()) << self.k_log_lanes.val());
        for i in 0..self._lanes {
            self.banks[i].write_clock.next = self.clock.val();
            self.banks[i].read_clock.next = self.clock.val();
            self.banks[i].write_enable.next = self.write[i].val();
            self.word_address[i].narrow.next = self.word[i].val();
            self.banks[i].write_address.next = self.word_address[i].wide.val();
            self.banks[i].write_data.next = self.data[i].val();
            self.banks[i].read_address.next = bit_cast::<BANK_ADDR_BITS, 5>(self.row.val());
            // A whole-mask AND (not a bit select): every bit of `row_written` is used, so lint
            // has no unused bits to report on a narrow row.
            self.row_values[i].next = 0.into();
            if (self.row_written.val() & self.k_lane_bit[i].val()) != 0 {
                self.row_values[i].next = self.banks[i].read_data.val();
            }
        }
    }
}
