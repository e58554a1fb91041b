//! Live mbarrier words by address range: the copy engine's plain-access check.
//!
//! A copy whose shared-memory destination overlaps a live mbarrier object is undefined (PTX ISA
//! §9.7.13.15: while an mbarrier object is live it may be accessed only through mbarrier
//! instructions), and the golden copy engine refuses it at issue, before any byte moves
//! (`MbarrierPlainAccess`, `smsync_sim::units::copy_engine`'s `shared_dst`). The shared RAM's row
//! tags know a row's live words (`shared_mem.rs`), which answers one row per read; a copy's
//! destination is up to the whole of a slot's shared memory, asked once at issue. This block
//! keeps the same live bits in a form that answers a range in two cycles:
//!
//! * **L0**, per slot, a RAM of 32-bit entries: entry `b` holds the live bits of words
//!   `32b .. 32b+31` (256 bytes, two 128-byte lines). Four copies (the update's read, the
//!   probe's first and last entry, the mbarrier word's), written alike. (64-bit entries took
//!   twice the LUTs of the probe's and the update's datapaths, for half the L1 bits.)
//! * **L1**, per slot, a register of one bit per entry: the entry is nonzero. A CTA launch
//!   clears its slot's L1 at once; an entry whose L1 bit is clear reads as zero (its RAM word may
//!   hold an older CTA's bits), so L0 needs no clearing walk.
//!
//! **Updates.** Every write performed into the shared RAM that sets live bits from its data
//! (`write_live_from_data`: the mbarrier ALU's word write, the launch walker's zeros) reports its
//! row and the row's live words after the write (`SharedMemory::changed_*`, registered). Two
//! stages: U0 reads the row's entry, U1 merges the row's bits into it (the entry is zero when
//! its L1 bit is clear; the entry written at the edge before, if the same, is forwarded: no RAM
//! is read at the word it writes at the same edge, every RAM is `no_rw_check`), writes it into
//! the slot's four copies and its L1 bit. One update per cycle.
//!
//! **Probe** (the copy engine's, a range in every slot at once; the engine masks the slots its
//! op writes, so a multicast load's CTAs cost nothing more). P0 reads the entries of the first
//! and last word (`probe_lo`, `probe_hi`, word indices within a slot); P1 tests, per slot, the
//! first entry's words from `probe_lo`, the last entry's words up to `probe_hi`, the L1 bits of
//! the entries strictly between, and the extra words `probe_xh` / `probe_xt` of the first and
//! last word's 128-byte lines (a swizzled box's chunks land anywhere in their line, PTX ISA
//! §5.5.7), and registers `hits`: bit `s` = slot `s` has a live word in the probe, valid two
//! cycles after the probe was presented. A probe presented in cycle p sees every update
//! presented up to p - 2, and the L1 bits of those presented in p - 1; an update presented in
//! p - 1 writes its entry at the edge where the probe reads it, so the probe's answer is
//! undefined if it reads that entry (no forwarding: it cost 270 LUT4s on fpga-small). The copy
//! engine never probes so close to a change of a live bit: those come from mbarrier.init and
//! inval, requests the core finishes (answered, the next one taken, sequenced, queued in the
//! engine, FETCH) many cycles before it hands the engine a copy; the engine's own mbarrier
//! events rewrite entries unchanged. `sync_unit_top`'s copy right after an init checks it.
//! `probe_empty` (a zero-length copy) hits nothing. Beside the range, one word per slot:
//! `probe_mb` (the copy's mbarrier operand), answered on `mb_live` with the same timing from a
//! fourth L0 copy (the golden unit checks at issue that a copy's mbarrier is live, PTX ISA
//! §9.7.13.15: an mbarrier op on a dead object is undefined).

use rust_hdl::prelude::*;
use smsync_contract::config::Config;

use super::shared_mem::LIVE_BITS;
use super::top::{shared_row_bits, shared_row_bytes, RAM_ADDR_BITS};
use crate::depth_ram::DepthRam;

/// Bits of a word index within a slot (shared_bytes <= 232448 < 2^18 bytes: 2^15 words).
pub const WORD_BITS: usize = 15;
/// Bits of an entry index within a slot (32 words per entry).
pub const ENTRY_BITS: usize = WORD_BITS - 5;
/// Entries per slot at most (L1's width).
pub const MAX_ENTRIES: usize = 1 << ENTRY_BITS;
/// The RAMs' address port (one more bit than any depth, as `DepthRam` wants).
const RAM_AW: usize = ENTRY_BITS + 1;

/// Entry-address bits for `config`: a slot's words, 32 per entry (at least one address bit).
pub fn entry_bits(config: &Config) -> usize {
    let words_log = shared_row_bits(config) + (shared_row_bytes(config) / 8).trailing_zeros() as usize;
    words_log.saturating_sub(5).max(1)
}

#[derive(LogicBlock)]
pub struct LiveMap {
    pub clock: Signal<In, Clock>,
    /// A write that set live bits from its data was performed: its row ({slot, row}) and the
    /// row's live words after it.
    pub upd_valid: Signal<In, Bit>,
    pub upd_row: Signal<In, Bits<RAM_ADDR_BITS>>,
    pub upd_live: Signal<In, Bits<LIVE_BITS>>,
    /// A CTA starts in `launch_slot`: its words are not live.
    pub launch: Signal<In, Bit>,
    pub launch_slot: Signal<In, Bits<5>>,
    /// The probe: words `probe_lo ..= probe_hi` of every slot, and the words of the 128-byte
    /// line of `probe_lo` (`probe_xh`, bit i = word i of the line) and of `probe_hi`
    /// (`probe_xt`); nothing when `probe_empty`.
    pub probe_lo: Signal<In, Bits<WORD_BITS>>,
    pub probe_hi: Signal<In, Bits<WORD_BITS>>,
    pub probe_xh: Signal<In, Bits<16>>,
    pub probe_xt: Signal<In, Bits<16>>,
    pub probe_empty: Signal<In, Bit>,
    /// One word: the copy's mbarrier.
    pub probe_mb: Signal<In, Bits<WORD_BITS>>,
    /// Bit s: slot s has a live word in the probe presented two cycles before.
    pub hits: Signal<Out, Bits<32>>,
    /// Bit s: word `probe_mb` of slot s is live (the probe of two cycles before).
    pub mb_live: Signal<Out, Bits<32>>,
    /// L0 per slot: the update's copy and the probe's first / last entry copies.
    l0_upd: Vec<DepthRam<Bits<32>, RAM_AW>>,
    l0_lo: Vec<DepthRam<Bits<32>, RAM_AW>>,
    l0_hi: Vec<DepthRam<Bits<32>, RAM_AW>>,
    l0_mb: Vec<DepthRam<Bits<32>, RAM_AW>>,
    /// L1 per slot (bits past the slot's entries stay 0).
    l1: Vec<DFF<Bits<MAX_ENTRIES>>>,
    // ---- update: U0 (decode, read) -> U1 (merge, write) ----
    u_slot: Signal<Local, Bits<5>>,
    u_word: Signal<Local, Bits<WORD_BITS>>,
    a_valid: DFF<Bit>,
    a_slot: DFF<Bits<5>>,
    a_entry: DFF<Bits<ENTRY_BITS>>,
    a_pos: DFF<Bits<5>>,
    a_bits: DFF<Bits<32>>,
    /// U1: the slot's RAM word and L1, the entry before the merge, after it.
    a_ram: Signal<Local, Bits<32>>,
    a_l1: Signal<Local, Bits<MAX_ENTRIES>>,
    a_old: Signal<Local, Bits<32>>,
    a_new: Signal<Local, Bits<32>>,
    /// The entry written at the last edge (forwarded to a read of it at that edge).
    f_valid: DFF<Bit>,
    f_slot: DFF<Bits<5>>,
    f_entry: DFF<Bits<ENTRY_BITS>>,
    f_word: DFF<Bits<32>>,
    // ---- probe: P0 (read) -> P1 (test, register) ----
    q_lo_entry: DFF<Bits<ENTRY_BITS>>,
    q_hi_entry: DFF<Bits<ENTRY_BITS>>,
    q_lo_pos: DFF<Bits<5>>,
    q_hi_pos: DFF<Bits<5>>,
    q_xh: DFF<Bits<32>>,
    q_xt: DFF<Bits<32>>,
    q_empty: DFF<Bit>,
    q_mb_entry: DFF<Bits<ENTRY_BITS>>,
    q_mb_pos: DFF<Bits<5>>,
    /// P1: the words tested in the first and last entry, the entries strictly between.
    m_lo: Signal<Local, Bits<32>>,
    m_hi: Signal<Local, Bits<32>>,
    m_mid: Signal<Local, Bits<MAX_ENTRIES>>,
    same: Signal<Local, Bit>,
    /// P1, per slot: the L1 bits of the first, last and mbarrier word's entries, and the hit.
    l1_lo: Vec<Signal<Local, Bit>>,
    l1_hi: Vec<Signal<Local, Bit>>,
    l1_mb: Vec<Signal<Local, Bit>>,
    hit: Vec<Signal<Local, Bit>>,
    /// P1, per slot: the mbarrier word is live.
    mb_hit: Vec<Signal<Local, Bit>>,
    /// Per slot: the hits of slots 0..=s.
    acc: Vec<Signal<Local, Bits<32>>>,
    mb_acc: Vec<Signal<Local, Bits<32>>>,
    hits_q: DFF<Bits<32>>,
    mb_q: DFF<Bits<32>>,
    slot: Vec<Constant<Bits<5>>>,
    slot_bit: Vec<Constant<Bits<32>>>,
    k_row_mask: Constant<Bits<RAM_ADDR_BITS>>,
    k_row_bits: Constant<Bits<8>>,
    k_log_words: Constant<Bits<8>>,
    k_row_words: Constant<Bits<32>>,
    k_ones: Constant<Bits<32>>,
    k_one_e: Constant<Bits<32>>,
    k_one_l1: Constant<Bits<MAX_ENTRIES>>,
    k_ones_l1: Constant<Bits<MAX_ENTRIES>>,
}

impl LiveMap {
    pub fn new(config: &Config) -> Self {
        let slots = config.cta_slots as usize;
        let eb = entry_bits(config);
        let row_bits = shared_row_bits(config);
        let words = shared_row_bytes(config) / 8;
        let ram = |_| DepthRam::block(eb);
        LiveMap {
            clock: Default::default(),
            upd_valid: Default::default(),
            upd_row: Default::default(),
            upd_live: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            probe_lo: Default::default(),
            probe_hi: Default::default(),
            probe_xh: Default::default(),
            probe_xt: Default::default(),
            probe_empty: Default::default(),
            probe_mb: Default::default(),
            hits: Default::default(),
            mb_live: Default::default(),
            l0_upd: (0..slots).map(ram).collect(),
            l0_lo: (0..slots).map(ram).collect(),
            l0_hi: (0..slots).map(ram).collect(),
            l0_mb: (0..slots).map(ram).collect(),
            l1: (0..slots).map(|_| Default::default()).collect(),
            u_slot: Default::default(),
            u_word: Default::default(),
            a_valid: Default::default(),
            a_slot: Default::default(),
            a_entry: Default::default(),
            a_pos: Default::default(),
            a_bits: Default::default(),
            a_ram: Default::default(),
            a_l1: Default::default(),
            a_old: Default::default(),
            a_new: Default::default(),
            f_valid: Default::default(),
            f_slot: Default::default(),
            f_entry: Default::default(),
            f_word: Default::default(),
            q_lo_entry: Default::default(),
            q_hi_entry: Default::default(),
            q_lo_pos: Default::default(),
            q_hi_pos: Default::default(),
            q_xh: Default::default(),
            q_xt: Default::default(),
            q_empty: Default::default(),
            q_mb_entry: Default::default(),
            q_mb_pos: Default::default(),
            m_lo: Default::default(),
            m_hi: Default::default(),
            m_mid: Default::default(),
            same: Default::default(),
            l1_lo: (0..slots).map(|_| Default::default()).collect(),
            l1_hi: (0..slots).map(|_| Default::default()).collect(),
            l1_mb: (0..slots).map(|_| Default::default()).collect(),
            hit: (0..slots).map(|_| Default::default()).collect(),
            mb_hit: (0..slots).map(|_| Default::default()).collect(),
            acc: (0..slots).map(|_| Default::default()).collect(),
            mb_acc: (0..slots).map(|_| Default::default()).collect(),
            hits_q: Default::default(),
            mb_q: Default::default(),
            slot: (0..slots as u64).map(|c| Constant::new(c.to_bits())).collect(),
            slot_bit: (0..slots).map(|c| Constant::new((1u64 << c).to_bits())).collect(),
            k_row_mask: Constant::new(((1u64 << row_bits) - 1).to_bits()),
            k_row_bits: Constant::new((row_bits as u64).to_bits()),
            k_log_words: Constant::new((words.trailing_zeros() as u64).to_bits()),
            k_row_words: Constant::new(((1u64 << words) - 1).to_bits()),
            k_ones: Constant::new((u32::MAX as u64).to_bits()),
            k_one_e: Constant::new(1u64.to_bits()),
            k_one_l1: Constant::new(1u64.to_bits()),
            k_ones_l1: Constant::new(Bits::<MAX_ENTRIES>::mask()),
        }
    }
}

impl Logic for LiveMap {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, a_valid, a_slot, a_entry, a_pos, a_bits, f_valid, f_slot, f_entry, f_word, q_lo_entry,
            q_hi_entry, q_lo_pos, q_hi_pos, q_xh, q_xt, q_empty, q_mb_entry, q_mb_pos, hits_q, mb_q
        );
        // ---- U0: the row's first word, its entry and place; read the entry ----
        self.u_slot.next = bit_cast::<5, RAM_ADDR_BITS>(self.upd_row.val() >> self.k_row_bits.val());
        self.u_word.next = bit_cast::<WORD_BITS, RAM_ADDR_BITS>(
            (self.upd_row.val() & self.k_row_mask.val()) << self.k_log_words.val(),
        );
        self.a_valid.d.next = self.upd_valid.val();
        self.a_slot.d.next = self.u_slot.val();
        self.a_entry.d.next = bit_cast::<ENTRY_BITS, WORD_BITS>(self.u_word.val() >> 5);
        self.a_pos.d.next = bit_cast::<5, WORD_BITS>(self.u_word.val());
        self.a_bits.d.next = bit_cast::<32, LIVE_BITS>(self.upd_live.val()) & self.k_row_words.val();
        // ---- P0: the first and last word's entries; register the masks' inputs ----
        self.q_lo_entry.d.next = bit_cast::<ENTRY_BITS, WORD_BITS>(self.probe_lo.val() >> 5);
        self.q_hi_entry.d.next = bit_cast::<ENTRY_BITS, WORD_BITS>(self.probe_hi.val() >> 5);
        self.q_lo_pos.d.next = bit_cast::<5, WORD_BITS>(self.probe_lo.val());
        self.q_hi_pos.d.next = bit_cast::<5, WORD_BITS>(self.probe_hi.val());
        // The extra words sit at their line's place in the entry (4 lines of 16 words).
        self.q_xh.d.next = bit_cast::<32, 16>(self.probe_xh.val()) << (((self.probe_lo.val() >> 4) & 1) << 4);
        self.q_xt.d.next = bit_cast::<32, 16>(self.probe_xt.val()) << (((self.probe_hi.val() >> 4) & 1) << 4);
        self.q_empty.d.next = self.probe_empty.val();
        self.q_mb_entry.d.next = bit_cast::<ENTRY_BITS, WORD_BITS>(self.probe_mb.val() >> 5);
        self.q_mb_pos.d.next = bit_cast::<5, WORD_BITS>(self.probe_mb.val());
        // ---- U1: merge the row's bits into its entry ----
        self.a_ram.next = 0.into();
        self.a_l1.next = 0.into();
        for c in 0..self.l1.len() {
            if self.a_slot.q.val() == self.slot[c].val() {
                self.a_ram.next = self.l0_upd[c].read_data.val();
                self.a_l1.next = self.l1[c].q.val();
            }
        }
        self.a_old.next = self.a_ram.val();
        if self.f_valid.q.val()
            && (self.f_slot.q.val() == self.a_slot.q.val())
            && (self.f_entry.q.val() == self.a_entry.q.val())
        {
            self.a_old.next = self.f_word.q.val();
        }
        if ((self.a_l1.val() >> self.a_entry.q.val()) & self.k_one_l1.val()) == 0 {
            self.a_old.next = 0.into();
        }
        self.a_new.next = (self.a_old.val() & !(self.k_row_words.val() << self.a_pos.q.val()))
            | (self.a_bits.q.val() << self.a_pos.q.val());
        self.f_valid.d.next = self.a_valid.q.val();
        self.f_slot.d.next = self.a_slot.q.val();
        self.f_entry.d.next = self.a_entry.q.val();
        self.f_word.d.next = self.a_new.val();
        // ---- P1: the masks ----
        self.same.next = self.q_lo_entry.q.val() == self.q_hi_entry.q.val();
        self.m_lo.next = (self.k_ones.val() << self.q_lo_pos.q.val()) | self.q_xh.q.val();
        self.m_hi.next = !((self.k_ones.val() << self.q_hi_pos.q.val()) << 1u64) | self.q_xt.q.val();
        if self.same.val() {
            self.m_lo.next = ((self.k_ones.val() << self.q_lo_pos.q.val())
                & !((self.k_ones.val() << self.q_hi_pos.q.val()) << 1u64))
                | self.q_xh.q.val()
                | self.q_xt.q.val();
            self.m_hi.next = 0.into();
        }
        // Entries strictly between the first and the last.
        self.m_mid.next = (self.k_ones_l1.val() << (bit_cast::<16, ENTRY_BITS>(self.q_lo_entry.q.val()) + 1u64))
            & !(self.k_ones_l1.val() << self.q_hi_entry.q.val());
        // ---- per slot: RAMs, L1, the probe's hit ----
        for c in 0..self.l1.len() {
            self.l0_upd[c].read_clock.next = self.clock.val();
            self.l0_upd[c].write_clock.next = self.clock.val();
            self.l0_lo[c].read_clock.next = self.clock.val();
            self.l0_lo[c].write_clock.next = self.clock.val();
            self.l0_hi[c].read_clock.next = self.clock.val();
            self.l0_hi[c].write_clock.next = self.clock.val();
            self.l0_mb[c].read_clock.next = self.clock.val();
            self.l0_mb[c].write_clock.next = self.clock.val();
            self.l0_mb[c].read_address.next = bit_cast::<RAM_AW, WORD_BITS>(self.probe_mb.val() >> 5);
            self.l0_mb[c].write_address.next = bit_cast::<RAM_AW, ENTRY_BITS>(self.a_entry.q.val());
            self.l0_mb[c].write_data.next = self.a_new.val();
            self.l0_mb[c].write_enable.next = self.a_valid.q.val() && (self.a_slot.q.val() == self.slot[c].val());
            self.l0_upd[c].read_address.next = bit_cast::<RAM_AW, WORD_BITS>(self.u_word.val() >> 5);
            self.l0_lo[c].read_address.next = bit_cast::<RAM_AW, WORD_BITS>(self.probe_lo.val() >> 5);
            self.l0_hi[c].read_address.next = bit_cast::<RAM_AW, WORD_BITS>(self.probe_hi.val() >> 5);
            self.l0_upd[c].write_address.next = bit_cast::<RAM_AW, ENTRY_BITS>(self.a_entry.q.val());
            self.l0_lo[c].write_address.next = bit_cast::<RAM_AW, ENTRY_BITS>(self.a_entry.q.val());
            self.l0_hi[c].write_address.next = bit_cast::<RAM_AW, ENTRY_BITS>(self.a_entry.q.val());
            self.l0_upd[c].write_data.next = self.a_new.val();
            self.l0_lo[c].write_data.next = self.a_new.val();
            self.l0_hi[c].write_data.next = self.a_new.val();
            self.l0_upd[c].write_enable.next = self.a_valid.q.val() && (self.a_slot.q.val() == self.slot[c].val());
            self.l0_lo[c].write_enable.next = self.a_valid.q.val() && (self.a_slot.q.val() == self.slot[c].val());
            self.l0_hi[c].write_enable.next = self.a_valid.q.val() && (self.a_slot.q.val() == self.slot[c].val());
            // The entries the probe read count when their L1 bit is set (else they hold an older
            // CTA's bits); no forwarding: see "Probe" above. Masked and reduced first, gated after.
            self.l1_lo[c].next = ((self.l1[c].q.val() >> self.q_lo_entry.q.val()) & self.k_one_l1.val()) != 0;
            self.l1_hi[c].next = ((self.l1[c].q.val() >> self.q_hi_entry.q.val()) & self.k_one_l1.val()) != 0;
            self.l1_mb[c].next = ((self.l1[c].q.val() >> self.q_mb_entry.q.val()) & self.k_one_l1.val()) != 0;
            self.hit[c].next = !self.q_empty.q.val()
                && ((((self.l0_lo[c].read_data.val() & self.m_lo.val()) != 0) && self.l1_lo[c].val())
                    || (((self.l0_hi[c].read_data.val() & self.m_hi.val()) != 0) && self.l1_hi[c].val())
                    || ((self.l1[c].q.val() & self.m_mid.val()) != 0));
            self.mb_hit[c].next = (((self.l0_mb[c].read_data.val() >> self.q_mb_pos.q.val()) & self.k_one_e.val())
                != 0)
                && self.l1_mb[c].val();
            // L1: the merged entry's bit; a launch clears the slot.
            self.l1[c].clock.next = self.clock.val();
            self.l1[c].d.next = self.l1[c].q.val();
            if self.a_valid.q.val() && (self.a_slot.q.val() == self.slot[c].val()) {
                if self.a_new.val() != 0 {
                    self.l1[c].d.next = self.l1[c].q.val() | (self.k_one_l1.val() << self.a_entry.q.val());
                } else {
                    self.l1[c].d.next = self.l1[c].q.val() & !(self.k_one_l1.val() << self.a_entry.q.val());
                }
            }
            if self.launch.val() && (self.launch_slot.val() == self.slot[c].val()) {
                self.l1[c].d.next = 0.into();
            }
        }
        self.acc[0].next = 0.into();
        if self.hit[0].val() {
            self.acc[0].next = self.slot_bit[0].val();
        }
        self.hits_q.d.next = self.acc[0].val();
        self.mb_acc[0].next = 0.into();
        if self.mb_hit[0].val() {
            self.mb_acc[0].next = self.slot_bit[0].val();
        }
        self.mb_q.d.next = self.mb_acc[0].val();
        for c in 1..self.l1.len() {
            self.acc[c].next = self.acc[c - 1].val();
            if self.hit[c].val() {
                self.acc[c].next = self.acc[c - 1].val() | self.slot_bit[c].val();
            }
            self.hits_q.d.next = self.acc[c].val();
            self.mb_acc[c].next = self.mb_acc[c - 1].val();
            if self.mb_hit[c].val() {
                self.mb_acc[c].next = self.mb_acc[c - 1].val() | self.slot_bit[c].val();
            }
            self.mb_q.d.next = self.mb_acc[c].val();
        }
        self.hits.next = self.hits_q.q.val();
        self.mb_live.next = self.mb_q.q.val();
    }
}
