//! Shared memory of the top: every CTA slot's bytes as rows of `R` bytes, one read port and one
//! write port (a 1R1W block RAM), byte write enables.
//!
//! The row is as wide as the widest client: `R = max(16, copy_port_bytes)` bytes, so that a
//! copy-engine beat, an atomic's 16-byte line and an ld/st.shared of up to 16 bytes are each
//! one row access (the mbarrier ALU's 8-byte word is part of a row). The RAM is `R` byte-wide
//! `RAM` widgets sharing the address, so every byte has its own write enable and synthesis maps
//! each to block RAM. Address = {slot, row}: the low `top::shared_addr_bits` bits of the core's
//! `RAM_ADDR_BITS`-bit address (the depth is a count from the config, not a type parameter).
//!
//! Read data is the row at the address presented in the previous cycle (synchronous read), as of
//! before that cycle's write (a row read and written in one cycle reads its old bytes). Who may
//! use the ports in a cycle is decided by the top (`top.rs`, "shared-memory arbitration").
//!
//! # Writes are registered: every RAM is a block RAM
//!
//! A write presented in cycle t is performed at the end of cycle t+1: cycle t reads the row's tag
//! at the write address from a block RAM (`tag_wr`, registered read), cycle t+1 knows whether the
//! row is stale and writes it. The ports behave as if the write were performed at the end of
//! cycle t: a read presented in cycle t+1 of the row being written takes the written bytes from
//! the pending write's registers and the others from the RAM (whose bytes not written are not
//! being written: a byte RAM is written only at its enabled bytes, or all of them when the row is
//! stale, and then the row's other bytes read as zeros), and a write in cycle t+1 to the same row
//! takes the pending write's generation as the row's tag. So no RAM is read at the word it
//! writes at the same edge (each is `no_rw_check`, `DepthRam::block`): the tag store read at the
//! write address was 128 distributed-RAM cells (768 LUT4 positions on fpga-small) and yosys' old-
//! data bypass of the byte RAMs ~500 LUT4.
//!
//! # A CTA launch clears its slot at once: row generations
//!
//! A CTA starts with zeroed shared memory (the golden model's rule; CUDA leaves it undefined).
//! Writing zeros into every row took a launch 1,024 cycles on fpga-small and 3,632 on the
//! default config, the slot's requests waiting meanwhile. Instead each slot has a generation
//! (`GEN_BITS` bits, a register per slot, incremented by a launch in the slot) and each row a
//! tag, the generation of its last write (a tag RAM beside the data: one copy read with the
//! data, one read asynchronously at the write address). A row whose tag is not its slot's
//! generation holds an older CTA's bytes and reads as zeros; a write to such a row writes every
//! byte (zeros where its byte enables are low) and the new tag. When a launch takes a slot's
//! generation round to a value older rows may still hold (`launch_wraps`, one launch in
//! 2^`GEN_BITS` per slot), the top clears the slot by writing zeros into every row as before.
//! Neither the generations nor the RAMs are reset (a reset is not a launch: memory keeps its
//! bytes across it, as before), and a reset does not stop a clear in progress (`top.rs`): the
//! wrapped slot's rows still hold tags its next generations will take.
//!
//! # Live mbarrier words: the plain-access check
//!
//! A plain ld/st.shared that touches a live mbarrier object is undefined (PTX ISA §9.7.13.15:
//! the object may be accessed only through mbarrier instructions while it is live), and the
//! golden LSU refuses it (`MbarrierPlainAccess`). Each row's tag carries one **live bit per
//! 8-byte word** beside its generation (`LIVE_BITS`, rows of up to 128 bytes), so a stale row
//! (an older CTA's) has no live word, and a launch clears them with the bytes. A write marked
//! `write_live_from_data` (the mbarrier ALU's, and the clearing walker's zeros) sets the live
//! bits of the words it writes to their valid bits (`mbarrier_word::VALID_BIT`: set by init,
//! cleared by inval); every other write keeps them. A write marked `write_checked` (a plain
//! st.shared lane) that touches a live word is not performed and is reported on `write_fault`
//! in the cycle after it was presented; the write presented in that cycle, if checked too (the
//! LSU's next lane), is dropped with it. A read presented with `read_checked` bytes (a plain
//! ld.shared lane) reports on `read_fault`, with its data, whether one of them is in a live word.

use rust_hdl::prelude::*;

use super::top::RAM_ADDR_BITS;
use crate::depth_ram::DepthRam;
use smsync_contract::encoding::mbarrier_word;

/// Bits of a slot's generation and of a row's tag: 4, a clear every 16th launch of a slot (8
/// bits put the fpga-small top at 80.3 % of the ECP5-85F's LUTs, 2.6k LUT4 for the tag RAMs).
pub const GEN_BITS: usize = 4;
/// Live bits in a row's tag: one per 8-byte word of a row of up to 128 bytes.
pub const LIVE_BITS: usize = 16;
/// A row's tag: its generation (low bits) and its live words.
pub const TAG_BITS: usize = GEN_BITS + LIVE_BITS;
// `update()` spells the live bits' offset in the tag as a literal (rust-hdl writes a constant's
// name into the Verilog): keep it equal to GEN_BITS.
const _: () = assert!(GEN_BITS == 4);

#[derive(LogicBlock)]
pub struct SharedMemory<const RD: usize, const R: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<RAM_ADDR_BITS>>,
    /// The row read at `read_address` in the previous cycle, as stored: when `read_fresh` is
    /// low the row holds an older CTA's bytes and reads as zeros, which the reader applies (so
    /// that the tag's generation check meets a reader's data at its last level, not ahead of
    /// its shifters: the LSU's byte shift into the result store was the board top's limit).
    pub read_data: Signal<Out, Bits<RD>>,
    pub read_fresh: Signal<Out, Bit>,
    pub write_enable: Signal<In, Bit>,
    pub write_address: Signal<In, Bits<RAM_ADDR_BITS>>,
    pub write_data: Signal<In, Bits<RD>>,
    /// Byte `i` of the row is written iff bit `i` is set (and `write_enable`), or the row holds
    /// an older CTA's bytes (every byte is written then, zeros where this bit is low).
    pub write_bytes: Signal<In, Bits<R>>,
    /// A CTA starts in `launch_slot`: its rows read as zeros from the next cycle.
    pub launch: Signal<In, Bit>,
    pub launch_slot: Signal<In, Bits<5>>,
    /// The write sets the live bits of the words it writes to their valid bits (see "Live
    /// mbarrier words"); else it keeps them.
    pub write_live_from_data: Signal<In, Bit>,
    /// The write is a plain st.shared lane: not performed if it touches a live word.
    pub write_checked: Signal<In, Bit>,
    /// The checked write presented last cycle touched a live word (it was not performed).
    pub write_fault: Signal<Out, Bit>,
    /// The bytes of the row a plain ld.shared lane reads (0 for other reads).
    pub read_checked: Signal<In, Bits<R>>,
    /// With `read_data`: a checked byte of the read is in a live word.
    pub read_fault: Signal<Out, Bit>,
    /// With `read_data`: the row's live words (the mbarrier ALU takes them as its objects'
    /// valid bits, so that a plain store of a set bit 62 into a dead object's word, allowed
    /// since the object is not live, does not make it look initialized).
    pub read_live: Signal<Out, Bits<LIVE_BITS>>,
    /// This launch takes the slot's generation round to 0: rows may hold any tag, so the top
    /// writes zeros into every row of the slot (the walker) before its requests go on.
    pub launch_wraps: Signal<Out, Bit>,
    /// A write marked `write_live_from_data` was performed at the last edge: its row and the
    /// row's live words after it (registered; the live map's updates, `live_map.rs`).
    pub changed: Signal<Out, Bit>,
    pub changed_row: Signal<Out, Bits<RAM_ADDR_BITS>>,
    pub changed_live: Signal<Out, Bits<LIVE_BITS>>,
    bytes: Vec<DepthRam<Bits<8>, RAM_ADDR_BITS>>,
    /// The rows' tags: read with the data (`tag_rd`) and at the write address (`tag_wr`, the
    /// cycle before the write is performed); both written alike.
    tag_rd: DepthRam<Bits<TAG_BITS>, RAM_ADDR_BITS>,
    tag_wr: DepthRam<Bits<TAG_BITS>, RAM_ADDR_BITS>,
    /// The pending write (presented last cycle, performed at the end of this one): enable,
    /// address, data, byte enables and its slot's generation then.
    p_we: DFF<Bit>,
    p_wa: DFF<Bits<RAM_ADDR_BITS>>,
    p_wd: DFF<Bits<RD>>,
    p_wb: DFF<Bits<R>>,
    p_gen: DFF<Bits<GEN_BITS>>,
    /// The pending write's marks (`write_live_from_data`, `write_checked`). Its words and their
    /// valid bits (`w_words`, `w_valid`) are formed from `p_wb` / `p_wd` in the pending cycle,
    /// beside the tag read they meet, not on the write port's path in the cycle before.
    p_from_data: DFF<Bit>,
    p_checked: DFF<Bit>,
    /// The pending row's live words before the write, the write's fault, and the live words after.
    p_live: Signal<Local, Bits<LIVE_BITS>>,
    p_fault: Signal<Local, Bit>,
    p_live_new: Signal<Local, Bits<LIVE_BITS>>,
    /// The pending write is performed (not a faulting checked write).
    p_do: Signal<Local, Bit>,
    /// The write performed at the last edge (the pending write then): enable, row, data, byte
    /// enables, generation and whether its row was stale. Two reads of it: `tag_wr` did not
    /// read its tag for the pending write (`t_fwd`: the same row, so its generation is the
    /// row's tag), and the RAM read last cycle did not see it (`r_fwd`, below). Both compare
    /// registers here, not the ports' addresses when presented: those come late in their cycle
    /// (the mbarrier ALU decides in S2 whether it writes, the copy engine's mover whether it
    /// reads), and the compares sit beside the block RAMs' reads here.
    t_we: DFF<Bit>,
    t_wa: DFF<Bits<RAM_ADDR_BITS>>,
    t_wd: DFF<Bits<RD>>,
    t_wb: DFF<Bits<R>>,
    t_gen: DFF<Bits<GEN_BITS>>,
    t_stale: DFF<Bit>,
    /// The row's live words after the write performed at the last edge; that write set them
    /// from its data.
    t_live: DFF<Bits<LIVE_BITS>>,
    t_from_data: DFF<Bit>,
    t_fwd: Signal<Local, Bit>,
    /// The row read last cycle (the address the RAMs latched).
    ra_q: DFF<Bits<RAM_ADDR_BITS>>,
    /// The pending write's row tag (`tag_wr`'s, or the write before's) and its staleness.
    p_tagword: Signal<Local, Bits<TAG_BITS>>,
    p_tag: Signal<Local, Bits<GEN_BITS>>,
    p_stale: Signal<Local, Bit>,
    /// The row read last cycle was being written at that edge (the `t_*` write): its written
    /// bytes come from `t_wd` (`r_wsel`), the rest from the RAM (`r_keep`) or zeros (the row
    /// was stale); its tag is then `t_gen`.
    r_fwd: Signal<Local, Bit>,
    r_wsel: Signal<Local, Bits<R>>,
    r_keep: Signal<Local, Bits<R>>,
    /// Byte i of the row read, at its place (0 elsewhere); every byte; a byte's bits.
    rd_byte: Vec<Signal<Local, Bits<RD>>>,
    k_all_bytes: Constant<Bits<R>>,
    k_byte_low: Constant<Bits<RD>>,
    k_bit0: Constant<Bits<RD>>,
    /// Per slot, its generation (not reset).
    generation: Vec<DFF<Bits<GEN_BITS>>>,
    /// The read's slot generation, registered with the read (compared with the tag read).
    rd_gen: DFF<Bits<GEN_BITS>>,
    /// The slot of the read / write address and its generation; the write's row is stale.
    rd_slot: Signal<Local, Bits<5>>,
    wr_slot: Signal<Local, Bits<5>>,
    rd_slot_gen: Signal<Local, Bits<GEN_BITS>>,
    wr_slot_gen: Signal<Local, Bits<GEN_BITS>>,
    /// The row read is the current CTA's (else it reads as zeros).
    rd_fresh: Signal<Local, Bit>,
    /// The bytes a checked read reads (registered with the read; its words, `r_words`, are
    /// formed from them beside the tag read), and the row's live words.
    rc_bytes: DFF<Bits<R>>,
    rd_live: Signal<Local, Bits<LIVE_BITS>>,
    /// Per word of the row: its bytes (for the byte enables -> words map) and the bit position
    /// of its `VALID_BIT`.
    word_bytes: Vec<Constant<Bits<R>>>,
    word_bit: Vec<Constant<Bits<LIVE_BITS>>>,
    valid_shift: Vec<Constant<Bits<16>>>,
    /// Per word: its bit of the pending write's words, of last cycle's checked read's words, of
    /// the pending write's valid bits (prefix ORs; the last is the whole: `w_words`, ...).
    w_word: Vec<Signal<Local, Bits<LIVE_BITS>>>,
    r_word: Vec<Signal<Local, Bits<LIVE_BITS>>>,
    v_word: Vec<Signal<Local, Bits<LIVE_BITS>>>,
    w_words: Signal<Local, Bits<LIVE_BITS>>,
    r_words: Signal<Local, Bits<LIVE_BITS>>,
    w_valid: Signal<Local, Bits<LIVE_BITS>>,
    /// Words per row (a loop bound).
    _words: usize,
    /// The row bits of an address (its slot above them), and one constant per slot.
    k_row_bits: Constant<Bits<8>>,
    slot: Vec<Constant<Bits<5>>>,
    k_gen_last: Constant<Bits<GEN_BITS>>,
    byte_wide: Vec<super::top::ZeroExtend<8, RD>>,
    /// The row's write data shifted down to byte i, and its low 8 bits.
    byte_src: Vec<Signal<Local, Bits<RD>>>,
    byte_low: Vec<LowBits<RD, 8>>,
    byte_shift: Vec<Constant<Bits<16>>>,
}

impl<const RD: usize, const R: usize> SharedMemory<RD, R> {
    /// `2^addr_bits` rows (`top::shared_addr_bits`): `slots` CTA slots of `2^row_bits` rows.
    pub fn new(addr_bits: usize, row_bits: usize, slots: usize) -> Self {
        assert_eq!(RD, 8 * R, "SharedMemory<RD, R>: RD must be 8 * R");
        assert!(R.is_multiple_of(8) && R / 8 <= LIVE_BITS, "SharedMemory: rows of 8..128 bytes");
        SharedMemory {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            read_fresh: Default::default(),
            write_enable: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_bytes: Default::default(),
            write_live_from_data: Default::default(),
            write_checked: Default::default(),
            write_fault: Default::default(),
            read_checked: Default::default(),
            read_fault: Default::default(),
            read_live: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            launch_wraps: Default::default(),
            changed: Default::default(),
            changed_row: Default::default(),
            changed_live: Default::default(),
            bytes: (0..R).map(|_| DepthRam::block(addr_bits)).collect(),
            tag_rd: DepthRam::block(addr_bits),
            tag_wr: DepthRam::block(addr_bits),
            p_we: Default::default(),
            p_wa: Default::default(),
            p_wd: Default::default(),
            p_wb: Default::default(),
            p_gen: Default::default(),
            p_from_data: Default::default(),
            p_checked: Default::default(),
            p_live: Default::default(),
            p_fault: Default::default(),
            p_live_new: Default::default(),
            p_do: Default::default(),
            t_we: Default::default(),
            t_wa: Default::default(),
            t_wd: Default::default(),
            t_wb: Default::default(),
            t_gen: Default::default(),
            t_stale: Default::default(),
            t_live: Default::default(),
            t_from_data: Default::default(),
            t_fwd: Default::default(),
            ra_q: Default::default(),
            p_tagword: Default::default(),
            p_tag: Default::default(),
            p_stale: Default::default(),
            r_fwd: Default::default(),
            r_wsel: Default::default(),
            r_keep: Default::default(),
            rd_byte: (0..R).map(|_| Default::default()).collect(),
            k_all_bytes: Constant::new(Bits::<R>::mask()),
            k_byte_low: Constant::new(0xffu64.to_bits()),
            k_bit0: Constant::new(1u64.to_bits()),
            generation: (0..slots).map(|_| Default::default()).collect(),
            rd_gen: Default::default(),
            rd_slot: Default::default(),
            wr_slot: Default::default(),
            rd_slot_gen: Default::default(),
            wr_slot_gen: Default::default(),
            rd_fresh: Default::default(),
            rc_bytes: Default::default(),
            rd_live: Default::default(),
            word_bytes: (0..R / 8).map(|j| Constant::new((0xffu64 << (8 * j)).to_bits())).collect(),
            word_bit: (0..R / 8).map(|j| Constant::new((1u64 << j).to_bits())).collect(),
            valid_shift: (0..R / 8)
                .map(|j| Constant::new(((64 * j) as u64 + mbarrier_word::VALID_BIT as u64).to_bits()))
                .collect(),
            w_word: (0..R / 8).map(|_| Default::default()).collect(),
            r_word: (0..R / 8).map(|_| Default::default()).collect(),
            v_word: (0..R / 8).map(|_| Default::default()).collect(),
            w_words: Default::default(),
            r_words: Default::default(),
            w_valid: Default::default(),
            _words: R / 8,
            k_row_bits: Constant::new((row_bits as u64).to_bits()),
            slot: (0..slots as u64).map(|c| Constant::new(c.to_bits())).collect(),
            k_gen_last: Constant::new(((1u64 << 4u64) - 1).to_bits()),
            byte_wide: (0..R).map(|_| Default::default()).collect(),
            byte_src: (0..R).map(|_| Default::default()).collect(),
            byte_low: (0..R).map(|_| Default::default()).collect(),
            byte_shift: (0..R as u64).map(|i| Constant::new((8 * i).to_bits())).collect(),
        }
    }
}

impl<const RD: usize, const R: usize> Logic for SharedMemory<RD, R> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- the slots' generations ----
        self.rd_slot.next = bit_cast::<5, RAM_ADDR_BITS>(self.read_address.val() >> self.k_row_bits.val());
        self.wr_slot.next = bit_cast::<5, RAM_ADDR_BITS>(self.write_address.val() >> self.k_row_bits.val());
        self.rd_slot_gen.next = 0.into();
        self.wr_slot_gen.next = 0.into();
        self.launch_wraps.next = false;
        for c in 0..self.generation.len() {
            self.generation[c].clock.next = self.clock.val();
            self.generation[c].d.next = self.generation[c].q.val();
            if self.rd_slot.val() == self.slot[c].val() {
                self.rd_slot_gen.next = self.generation[c].q.val();
            }
            if self.wr_slot.val() == self.slot[c].val() {
                self.wr_slot_gen.next = self.generation[c].q.val();
            }
            if self.launch.val() && (self.launch_slot.val() == self.slot[c].val()) {
                self.generation[c].d.next = self.generation[c].q.val() + 1u64;
                self.launch_wraps.next = self.generation[c].q.val() == self.k_gen_last.val();
            }
        }
        self.rd_gen.clock.next = self.clock.val();
        self.rd_gen.d.next = self.rd_slot_gen.val();
        // ---- the pending write ----
        dff_setup!(
            self,
            clock,
            p_we,
            p_wa,
            p_wd,
            p_wb,
            p_gen,
            p_from_data,
            p_checked,
            t_we,
            t_wa,
            t_wd,
            t_wb,
            t_gen,
            t_stale,
            t_live,
            t_from_data,
            ra_q,
            rc_bytes
        );
        // ---- the pending write's words, their valid bits, last cycle's checked read's words ----
        self.w_word[0].next = 0.into();
        self.r_word[0].next = 0.into();
        self.v_word[0].next = 0.into();
        if (self.p_wb.q.val() & self.word_bytes[0].val()) != 0 {
            self.w_word[0].next = self.word_bit[0].val();
        }
        if (self.rc_bytes.q.val() & self.word_bytes[0].val()) != 0 {
            self.r_word[0].next = self.word_bit[0].val();
        }
        if ((self.p_wd.q.val() >> self.valid_shift[0].val()) & self.k_bit0.val()) != 0 {
            self.v_word[0].next = self.word_bit[0].val();
        }
        self.w_words.next = self.w_word[0].val();
        self.r_words.next = self.r_word[0].val();
        self.w_valid.next = self.v_word[0].val();
        for j in 1..self._words {
            self.w_word[j].next = self.w_word[j - 1].val();
            self.r_word[j].next = self.r_word[j - 1].val();
            self.v_word[j].next = self.v_word[j - 1].val();
            if (self.p_wb.q.val() & self.word_bytes[j].val()) != 0 {
                self.w_word[j].next = self.w_word[j - 1].val() | self.word_bit[j].val();
            }
            if (self.rc_bytes.q.val() & self.word_bytes[j].val()) != 0 {
                self.r_word[j].next = self.r_word[j - 1].val() | self.word_bit[j].val();
            }
            if ((self.p_wd.q.val() >> self.valid_shift[j].val()) & self.k_bit0.val()) != 0 {
                self.v_word[j].next = self.v_word[j - 1].val() | self.word_bit[j].val();
            }
            self.w_words.next = self.w_word[j].val();
            self.r_words.next = self.r_word[j].val();
            self.w_valid.next = self.v_word[j].val();
        }
        self.p_from_data.d.next = self.write_live_from_data.val();
        self.p_checked.d.next = self.write_checked.val();
        self.rc_bytes.d.next = self.read_checked.val();
        self.p_we.d.next = self.write_enable.val();
        self.p_wa.d.next = self.write_address.val();
        self.p_wd.d.next = self.write_data.val();
        self.p_wb.d.next = self.write_bytes.val();
        self.p_gen.d.next = self.wr_slot_gen.val();
        self.t_wa.d.next = self.p_wa.q.val();
        self.t_wd.d.next = self.p_wd.q.val();
        self.t_wb.d.next = self.p_wb.q.val();
        self.t_gen.d.next = self.p_gen.q.val();
        self.t_fwd.next = self.p_we.q.val() && self.t_we.q.val() && (self.t_wa.q.val() == self.p_wa.q.val());
        // ---- tags ----
        self.tag_rd.read_clock.next = self.clock.val();
        self.tag_rd.write_clock.next = self.clock.val();
        self.tag_wr.read_clock.next = self.clock.val();
        self.tag_wr.write_clock.next = self.clock.val();
        self.tag_rd.read_address.next = self.read_address.val();
        self.tag_wr.read_address.next = self.write_address.val();
        self.tag_rd.write_address.next = self.p_wa.q.val();
        self.tag_wr.write_address.next = self.p_wa.q.val();
        self.p_tagword.next = self.tag_wr.read_data.val();
        if self.t_fwd.val() {
            self.p_tagword.next = (bit_cast::<TAG_BITS, LIVE_BITS>(self.t_live.q.val()) << 4u64)
                | bit_cast::<TAG_BITS, GEN_BITS>(self.t_gen.q.val());
        }
        self.p_tag.next = self.p_tagword.val().get_bits::<GEN_BITS>(0);
        self.p_stale.next = self.p_tag.val() != self.p_gen.q.val();
        self.t_stale.d.next = self.p_stale.val();
        // ---- live words: a checked write touching one is not performed (nor the next, if checked) ----
        self.p_live.next = self.p_tagword.val().get_bits::<LIVE_BITS>(4);
        if self.p_stale.val() {
            self.p_live.next = 0.into();
        }
        self.p_fault.next =
            self.p_we.q.val() && self.p_checked.q.val() && ((self.p_live.val() & self.w_words.val()) != 0);
        self.p_do.next = self.p_we.q.val() && !self.p_fault.val();
        self.p_live_new.next = self.p_live.val();
        if self.p_from_data.q.val() {
            self.p_live_new.next =
                (self.p_live.val() & !self.w_words.val()) | (self.w_valid.val() & self.w_words.val());
        }
        self.t_we.d.next = self.p_do.val();
        self.t_live.d.next = self.p_live_new.val();
        self.t_from_data.d.next = self.p_from_data.q.val();
        self.changed.next = self.t_we.q.val() && self.t_from_data.q.val();
        self.changed_row.next = self.t_wa.q.val();
        self.changed_live.next = self.t_live.q.val();
        self.write_fault.next = self.p_fault.val();
        if self.p_fault.val() && self.write_checked.val() {
            self.p_we.d.next = false;
        }
        self.tag_rd.write_data.next = (bit_cast::<TAG_BITS, LIVE_BITS>(self.p_live_new.val()) << 4u64)
            | bit_cast::<TAG_BITS, GEN_BITS>(self.p_gen.q.val());
        self.tag_wr.write_data.next = (bit_cast::<TAG_BITS, LIVE_BITS>(self.p_live_new.val()) << 4u64)
            | bit_cast::<TAG_BITS, GEN_BITS>(self.p_gen.q.val());
        self.tag_rd.write_enable.next = self.p_do.val();
        self.tag_wr.write_enable.next = self.p_do.val();
        // ---- data: a stale row's write writes every byte, zeros where not enabled ----
        // The read of last cycle, of the row written at that edge: which bytes it takes from
        // that write and which from the RAM.
        self.ra_q.d.next = self.read_address.val();
        self.r_fwd.next = self.t_we.q.val() && (self.t_wa.q.val() == self.ra_q.q.val());
        self.r_wsel.next = 0.into();
        self.r_keep.next = self.k_all_bytes.val();
        if self.r_fwd.val() {
            self.r_wsel.next = self.t_wb.q.val();
            self.r_keep.next = !self.t_wb.q.val();
            if self.t_stale.q.val() {
                self.r_keep.next = 0.into();
            }
        }
        for i in 0..R {
            self.bytes[i].read_clock.next = self.clock.val();
            self.bytes[i].write_clock.next = self.clock.val();
            self.bytes[i].read_address.next = self.read_address.val();
            self.bytes[i].write_address.next = self.p_wa.q.val();
            self.byte_src[i].next = self.p_wd.q.val() >> self.byte_shift[i].val();
            self.byte_low[i].wide.next = self.byte_src[i].val();
            self.bytes[i].write_data.next = 0.into();
            if self.p_wb.q.val().get_bit(i) {
                self.bytes[i].write_data.next = self.byte_low[i].low.val();
            }
            self.bytes[i].write_enable.next = self.p_do.val() && (self.p_wb.q.val().get_bit(i) || self.p_stale.val());
            self.byte_wide[i].narrow.next = self.bytes[i].read_data.val();
        }
        // The row, OR-ed together byte by byte (Verilog: a blocking accumulation in one block),
        // or zeros when it holds an older CTA's bytes.
        self.rd_fresh.next = self.tag_rd.read_data.val().get_bits::<GEN_BITS>(0) == self.rd_gen.q.val();
        self.rd_live.next = self.tag_rd.read_data.val().get_bits::<LIVE_BITS>(4);
        if self.r_fwd.val() {
            self.rd_fresh.next = self.t_gen.q.val() == self.rd_gen.q.val();
            self.rd_live.next = self.t_live.q.val();
        }
        self.read_fault.next = self.rd_fresh.val() && ((self.rd_live.val() & self.r_words.val()) != 0);
        self.read_live.next = 0.into();
        if self.rd_fresh.val() {
            self.read_live.next = self.rd_live.val();
        }
        for i in 0..R {
            self.rd_byte[i].next = 0.into();
            if self.r_wsel.val().get_bit(i) {
                self.rd_byte[i].next = (self.t_wd.q.val() >> self.byte_shift[i].val()) & self.k_byte_low.val();
            } else if self.r_keep.val().get_bit(i) {
                self.rd_byte[i].next = self.byte_wide[i].wide.val();
            }
        }
        self.read_fresh.next = self.rd_fresh.val();
        self.read_data.next = 0.into();
        for i in 0..R {
            self.read_data.next = self.read_data.val() | (self.rd_byte[i].val() << self.byte_shift[i].val());
        }
    }
}

/// The low `W` bits of an `N`-bit value (rust-hdl's `bit_cast` cannot take a loop-indexed
/// operand inside `hdl_gen`).
#[derive(LogicBlock, Default)]
pub struct LowBits<const N: usize, const W: usize> {
    pub wide: Signal<In, Bits<N>>,
    pub low: Signal<Out, Bits<W>>,
}

impl<const N: usize, const W: usize> Logic for LowBits<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.low.next = bit_cast::<W, N>(self.wide.val());
    }
}
