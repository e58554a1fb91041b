//! The lane sequencer's result store: the value each lane of the sequenced request (mbarrier op,
//! ld.shared) answers, written one lane per cycle as the units answer, read a row of `L` lanes
//! at a time by the response egress (`L = lanes_per_beat`).
//!
//! Why a RAM and not 32 registers: the sequencer writes at most one lane per cycle, and the
//! egress reads one row of `L` lanes per cycle, so 32 x 128-bit registers, each loaded under
//! its own lane condition and read through a 32-to-`L` row mux, are mostly multiplexers (on
//! the fpga-small top they were the largest block of the core's logic, docs/FPGA.md). Here lane
//! `k` lives in bank `k % L`, word `k / L`: one write port per bank, and a row is the same word
//! of every bank. The banks read asynchronously (distributed RAM on an FPGA), so the egress's
//! row register addresses them directly.
//!
//! A request's lanes that are never written (inactive, suspended or faulting lanes) must answer
//! 0, as the golden model's do: `written` has a bit per lane, cleared by `clear` (the request
//! starts), set by a write, and a row's lanes whose bit is clear read as 0, so no cycle is
//! spent zeroing the banks.

use super::copies;
use crate::depth_ram::DepthRam;
use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::port::WARP;

/// Address width of a bank's ports (a bank holds at most `WARP` words; `DepthRam` needs
/// one address bit more than it uses).
const BANK_ADDR_BITS: usize = 6;

#[derive(LogicBlock)]
pub struct ResultStore {
    pub clock: Signal<In, Clock>,
    /// Every lane reads 0 from the next cycle (a new request starts). Wins over `write`.
    pub clear: Signal<In, Bit>,
    /// Write `data` as lane `lane`'s value.
    pub write: Signal<In, Bit>,
    pub lane: Signal<In, Bits<5>>,
    pub data: Signal<In, Bits<128>>,
    /// Row `row` (lanes `row*L .. row*L+L-1`) on `row_values`, in the same cycle.
    pub row: Signal<In, Bits<5>>,
    pub row_values: Vec<Signal<Out, Bits<128>>>,
    written: DFF<Bits<32>>,
    banks: Vec<DepthRam<Bits<128>, BANK_ADDR_BITS>>,
    /// `lane`'s bank and its word in the bank; the row's bits of `written`.
    bank_of_lane: Signal<Local, Bits<5>>,
    word_of_lane: Signal<Local, Bits<5>>,
    row_written: Signal<Local, Bits<32>>,
    k_bank: Vec<Constant<Bits<5>>>,
    k_bank_mask: Constant<Bits<5>>,
    k_log_lanes: Constant<Bits<5>>,
    k_lane_bit: Vec<Constant<Bits<32>>>,
    _lanes: usize,
}

impl ResultStore {
    pub fn new(config: &Config) -> Self {
        let l = config.lanes_per_beat as usize;
        assert!(l.is_power_of_two() && l <= WARP, "lanes_per_beat {l} (the config validates it)");
        let log_l = l.trailing_zeros() as u64;
        // At least 2 words: DepthRam's address has one bit or more (L = 32 uses word 0 only).
        let word_bits = ((WARP / l).trailing_zeros() as usize).max(1);
        ResultStore {
            clock: Default::default(),
            clear: Default::default(),
            write: Default::default(),
            lane: Default::default(),
            data: Default::default(),
            row: Default::default(),
            row_values: copies(l),
            written: Default::default(),
            banks: (0..l).map(|_| DepthRam::asynchronous(word_bits)).collect(),
            bank_of_lane: Default::default(),
            word_of_lane: Default::default(),
            row_written: Default::default(),
            k_bank: (0..l as u64).map(|b| Constant::new(b.to_bits())).collect(),
            k_bank_mask: Constant::new((l as u64 - 1).to_bits()),
            k_log_lanes: Constant::new(log_l.to_bits()),
            k_lane_bit: (0..l).map(|i| Constant::new((1u64 << i).to_bits())).collect(),
            _lanes: l,
        }
    }
}

impl Logic for ResultStore {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, written);
        self.bank_of_lane.next = self.lane.val() & self.k_bank_mask.val();
        self.word_of_lane.next = self.lane.val() >> self.k_log_lanes.val();
        if self.write.val() {
            self.written.d.next = self.written.q.val() | (bit_cast::<32, 5>(1.into()) << self.lane.val());
        }
        if self.clear.val() {
            self.written.d.next = 0.into();
        }
        self.row_written.next = self.written.q.val() >> (bit_cast::<32, 5>(self.row.val()) << self.k_log_lanes.val());
        for i in 0..self._lanes {
            self.banks[i].write_clock.next = self.clock.val();
            self.banks[i].read_clock.next = self.clock.val();
            self.banks[i].write_enable.next = self.write.val() && (self.bank_of_lane.val() == self.k_bank[i].val());
            self.banks[i].write_address.next = bit_cast::<BANK_ADDR_BITS, 5>(self.word_of_lane.val());
            self.banks[i].write_data.next = self.data.val();
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
