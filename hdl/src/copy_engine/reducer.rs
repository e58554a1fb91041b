//! The copy engine's reducer (controller state 7): cp.reduce.async.bulk and each in-bounds row of
//! a tensor reduce, one element per step.
//!
//! Read the source element from shared memory (one port word, or two when the element straddles
//! a port boundary), read the destination element (global or shared), combine them in the
//! atomic ALU's element datapath (its `AtomicElement`, the golden `element()`; f32 adds flush
//! subnormals as the golden bulk reduce does), borrowed through the `elem_*` ports, and write the
//! element back with byte enables. The controller enters state 7 only on a drained mover, so the
//! reducer owns both memory ports while `active`: the engine puts this block's requests on
//! `gm_*` / `sm_*` then (the `gm_read` .. `sm_write` outputs say which). It finishes before the
//! request is answered (the bulk group or the complete_tx then sees it complete: an eager but
//! legal completion).
//!
//! ```text
//!  phase 0 ISSUE    read the current operand's word (side: 0 source, 1 destination; half: which
//!                   of two words), or finish when no bytes remain
//!        1 WAIT     shared data (the cycle after the read), registered
//!        5 WAIT     the registered shared data
//!        2 WAIT     global data (`gm_rvalid`)
//!           -> the next word, the destination operand, or COMBINE
//!        3 COMBINE  the element's result, its latency of granted cycles after the operands
//!        4 WRITE    the element back (one or two words), then the next element (phase 0)
//! ```

use super::{SADDR_BITS, SLOT_BITS};
use crate::atomic_alu::element::{ATOM_OP_BITS, DTYPE_BITS, ELEM_BITS};
use rust_hdl::prelude::*;

/// The reducer of a copy engine with a `D`-bit port of `B` bytes (`D = 8 * B`).
#[derive(LogicBlock)]
pub struct Reducer<const D: usize, const B: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The controller is in state 7: the reducer runs (and owns both memory ports).
    pub active: Signal<In, Bit>,
    /// Take a reduction: the `in_*` fields are latched (the controller is in state 7 from the
    /// next cycle).
    pub enter: Signal<In, Bit>,
    /// Source: shared offset and CTA slot; `in_swz` is its swizzle line mask (a tensor-reduce
    /// row read through the map's swizzle, PTX ISA §5.5.7), 0 for a bulk reduce.
    pub in_src: Signal<In, Bits<64>>,
    pub in_src_slot: Signal<In, Bits<SLOT_BITS>>,
    pub in_swz: Signal<In, Bits<3>>,
    /// Destination: a global address (`in_dst_gm`) or a shared offset in CTA slot `in_dst_slot`.
    pub in_dst: Signal<In, Bits<64>>,
    pub in_dst_gm: Signal<In, Bit>,
    pub in_dst_slot: Signal<In, Bits<SLOT_BITS>>,
    /// Bytes to reduce (also the complete_tx's count).
    pub in_bytes: Signal<In, Bits<32>>,
    /// log2 of the element's bytes, its op and type (the element's codes).
    pub in_lg: Signal<In, Bits<3>>,
    pub in_op: Signal<In, Bits<4>>,
    pub in_dtype: Signal<In, Bits<4>>,
    /// A shared::cluster reduce: complete_tx(`in_bytes`) into the mbarrier at `in_mb_off` of
    /// CTA slot `in_mb_slot` when done.
    pub in_has_mb: Signal<In, Bit>,
    pub in_mb_slot: Signal<In, Bits<SLOT_BITS>>,
    pub in_mb_off: Signal<In, Bits<SADDR_BITS>>,
    /// A tensor-reduce row: the controller returns to the row sequencer when done, unless
    /// `in_last_row` (the box's last row: answer the request).
    pub in_row: Signal<In, Bit>,
    pub in_last_row: Signal<In, Bit>,
    // ---- memory ports (the engine's, while `active`) ----
    pub sm_rgrant: Signal<In, Bit>,
    pub sm_wgrant: Signal<In, Bit>,
    pub gm_grant: Signal<In, Bit>,
    pub gm_rvalid: Signal<In, Bit>,
    pub sm_rdata: Signal<In, Bits<D>>,
    pub gm_rdata: Signal<In, Bits<D>>,
    /// Read shared memory this cycle (when `sm_rgrant`): word `addr` of slot `rslot`.
    pub sm_read: Signal<Out, Bit>,
    /// `active` of the next cycle in; `sm_read` of the next cycle out (from the registers'
    /// next values), for the engine's registered read want.
    pub active_next: Signal<In, Bit>,
    pub sm_read_next: Signal<Out, Bit>,
    /// Request a global read of word `addr`.
    pub gm_read: Signal<Out, Bit>,
    /// Waiting for global read data (`gm_rready`).
    pub gm_wait: Signal<Out, Bit>,
    /// Request a global write of `wdata` / `wbe` to word `addr`.
    pub gm_write: Signal<Out, Bit>,
    /// Own the shared write port: write `wdata` / `wbe` to word `addr` of slot `wslot` when
    /// `sm_wgrant`.
    pub sm_write: Signal<Out, Bit>,
    pub addr: Signal<Out, Bits<64>>,
    pub rslot: Signal<Out, Bits<SLOT_BITS>>,
    pub wslot: Signal<Out, Bits<SLOT_BITS>>,
    pub wdata: Signal<Out, Bits<D>>,
    pub wbe: Signal<Out, Bits<B>>,
    // ---- the element datapath, borrowed from the atomic ALU ----
    pub elem_req: Signal<Out, Bit>,
    pub elem_op: Signal<Out, Bits<ATOM_OP_BITS>>,
    pub elem_dtype: Signal<Out, Bits<DTYPE_BITS>>,
    pub elem_r: Signal<Out, Bits<ELEM_BITS>>,
    pub elem_s: Signal<Out, Bits<ELEM_BITS>>,
    pub elem_grant: Signal<In, Bit>,
    /// The element's result (its low 64 bits: elements are at most 8 bytes).
    pub elem_value: Signal<In, Bits<64>>,
    // ---- done ----
    /// The reduction is done this cycle.
    pub done: Signal<Out, Bit>,
    /// ... and the request is answered now (a bulk reduce, or a tensor reduce's last row); else
    /// the controller returns to the row sequencer.
    pub answer: Signal<Out, Bit>,
    /// The shared::cluster reduce's complete_tx(`mb_bytes`) for the mbarrier at `mb_off` of slot
    /// `mb_slot`, this cycle.
    pub mb_event: Signal<Out, Bit>,
    pub mb_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub mb_off: Signal<Out, Bits<SADDR_BITS>>,
    pub mb_bytes: Signal<Out, Bits<32>>,

    /// 0 ISSUE a read (side, half), 1 WAIT shared data, 5 its register, 2 WAIT global data,
    /// 3 COMBINE, 4 WRITE (half).
    phase: DFF<Bits<3>>,
    /// The shared read's row, registered (phase 1 -> 5): from the block RAM's output the
    /// element's byte alignment and the operand registers were one path, which synthesis's
    /// resource sharing merged with the write's alignment into the top's write register.
    sm_word: DFF<Bits<D>>,
    /// Which element operand is being read: 0 source (shared), 1 destination.
    side: DFF<Bit>,
    /// Which port word of an element that straddles two: 0 first, 1 second.
    half: DFF<Bit>,
    src: DFF<Bits<64>>,
    swz: DFF<Bits<3>>,
    src_slot: DFF<Bits<SLOT_BITS>>,
    dst: DFF<Bits<64>>,
    dst_gm: DFF<Bit>,
    dst_slot: DFF<Bits<SLOT_BITS>>,
    rem: DFF<Bits<32>>,
    lg: DFF<Bits<3>>,
    op: DFF<Bits<4>>,
    dtype: DFF<Bits<4>>,
    has_mb: DFF<Bit>,
    mbs: DFF<Bits<SLOT_BITS>>,
    mbo: DFF<Bits<SADDR_BITS>>,
    len: DFF<Bits<32>>,
    /// Entered from the tensor row sequencer (state 6): return there when done.
    ret: DFF<Bit>,
    /// ... and the row was the box's last: answer the request when done.
    last_row: DFF<Bit>,
    /// The source and destination elements as read, masked to the element's bytes (`emask`).
    es: DFF<Bits<64>>,
    ed: DFF<Bits<64>>,
    res: DFF<Bits<64>>,
    /// Granted cycles spent in COMBINE: the element's result is taken when this reaches its
    /// latency.
    waited: DFF<Bits<2>>,
    src_p: Signal<Local, Bits<64>>,
    n: Signal<Local, Bits<16>>,
    soff: Signal<Local, Bits<16>>,
    doff: Signal<Local, Bits<16>>,
    off: Signal<Local, Bits<16>>,
    straddle: Signal<Local, Bit>,
    straddle_d: Signal<Local, Bit>,
    /// `rem`'s next value is not zero, from the registers (`rem == n` for a step), not from the
    /// subtract: `sm_read_next` feeds the copy engine's registered read want, and the
    /// subtract's carry chain and a 32-bit zero test behind the write grant were the routed
    /// ULX3S top's limit (b079c25: `lg` -> the straddle compare -> the grant -> `rem` ->
    /// `rwant_q`, docs/FPGA.md).
    rem_nz_d: Signal<Local, Bit>,
    rem_is_n: Signal<Local, Bit>,
    word_addr: Signal<Local, Bits<64>>,
    word: Signal<Local, Bits<D>>,
    part: Signal<Local, Bits<64>>,
    got: Signal<Local, Bit>,
    emask: Signal<Local, Bits<64>>,
    nmask: Signal<Local, Bits<128>>,
    shared_side: Signal<Local, Bit>,
    stepped: Signal<Local, Bit>,
    fin: Signal<Local, Bit>,
    k_elem_latency: Constant<Bits<2>>,
    k_b64: Constant<Bits<64>>,
    k_bmask: Constant<Bits<64>>,
    k_b16: Constant<Bits<16>>,
    k_one16: Constant<Bits<16>>,
    k_ones128: Constant<Bits<128>>,
}

impl<const D: usize, const B: usize> Reducer<D, B> {
    /// A reducer whose borrowed element answers `elem_latency` granted cycles after its operands.
    pub fn new(elem_latency: u64) -> Self {
        assert!(D == 8 * B && elem_latency < 4);
        Reducer {
            clock: Default::default(),
            reset: Default::default(),
            active: Default::default(),
            enter: Default::default(),
            in_src: Default::default(),
            in_src_slot: Default::default(),
            in_swz: Default::default(),
            in_dst: Default::default(),
            in_dst_gm: Default::default(),
            in_dst_slot: Default::default(),
            in_bytes: Default::default(),
            in_lg: Default::default(),
            in_op: Default::default(),
            in_dtype: Default::default(),
            in_has_mb: Default::default(),
            in_mb_slot: Default::default(),
            in_mb_off: Default::default(),
            in_row: Default::default(),
            in_last_row: Default::default(),
            sm_rgrant: Default::default(),
            sm_wgrant: Default::default(),
            gm_grant: Default::default(),
            gm_rvalid: Default::default(),
            sm_rdata: Default::default(),
            gm_rdata: Default::default(),
            sm_read: Default::default(),
            active_next: Default::default(),
            sm_read_next: Default::default(),
            gm_read: Default::default(),
            gm_wait: Default::default(),
            gm_write: Default::default(),
            sm_write: Default::default(),
            addr: Default::default(),
            rslot: Default::default(),
            wslot: Default::default(),
            wdata: Default::default(),
            wbe: Default::default(),
            elem_req: Default::default(),
            elem_op: Default::default(),
            elem_dtype: Default::default(),
            elem_r: Default::default(),
            elem_s: Default::default(),
            elem_grant: Default::default(),
            elem_value: Default::default(),
            done: Default::default(),
            answer: Default::default(),
            mb_event: Default::default(),
            mb_slot: Default::default(),
            mb_off: Default::default(),
            mb_bytes: Default::default(),
            phase: Default::default(),
            sm_word: Default::default(),
            side: Default::default(),
            half: Default::default(),
            src: Default::default(),
            swz: Default::default(),
            src_slot: Default::default(),
            dst: Default::default(),
            dst_gm: Default::default(),
            dst_slot: Default::default(),
            rem: Default::default(),
            lg: Default::default(),
            op: Default::default(),
            dtype: Default::default(),
            has_mb: Default::default(),
            mbs: Default::default(),
            mbo: Default::default(),
            len: Default::default(),
            ret: Default::default(),
            last_row: Default::default(),
            es: Default::default(),
            ed: Default::default(),
            res: Default::default(),
            waited: Default::default(),
            src_p: Default::default(),
            n: Default::default(),
            soff: Default::default(),
            doff: Default::default(),
            off: Default::default(),
            straddle: Default::default(),
            straddle_d: Default::default(),
            rem_nz_d: Default::default(),
            rem_is_n: Default::default(),
            word_addr: Default::default(),
            word: Default::default(),
            part: Default::default(),
            got: Default::default(),
            emask: Default::default(),
            nmask: Default::default(),
            shared_side: Default::default(),
            stepped: Default::default(),
            fin: Default::default(),
            k_elem_latency: Constant::new(elem_latency.to_bits()),
            k_b64: Constant::new((B as u64).to_bits()),
            k_bmask: Constant::new(((B - 1) as u64).to_bits()),
            k_b16: Constant::new((B as u64).to_bits()),
            k_one16: Constant::new(1u64.to_bits()),
            k_ones128: Constant::new(Bits::<128>::mask()),
        }
    }
}

impl<const D: usize, const B: usize> Logic for Reducer<D, B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, phase, side, half, src, swz, src_slot, dst, dst_gm, dst_slot, rem, lg, op, dtype, has_mb, mbs,
            mbo, len, ret, last_row, es, ed, res, waited, sm_word
        );
        self.rem_nz_d.next = self.rem.q.val() != 0;
        if self.enter.val() {
            self.rem_nz_d.next = self.in_bytes.val() != 0;
            self.src.d.next = self.in_src.val();
            self.src_slot.d.next = self.in_src_slot.val();
            self.swz.d.next = self.in_swz.val();
            self.dst.d.next = self.in_dst.val();
            self.dst_gm.d.next = self.in_dst_gm.val();
            self.dst_slot.d.next = self.in_dst_slot.val();
            self.rem.d.next = self.in_bytes.val();
            self.len.d.next = self.in_bytes.val();
            self.lg.d.next = self.in_lg.val();
            self.op.d.next = self.in_op.val();
            self.dtype.d.next = self.in_dtype.val();
            self.has_mb.d.next = self.in_has_mb.val();
            self.mbs.d.next = self.in_mb_slot.val();
            self.mbo.d.next = self.in_mb_off.val();
            self.ret.d.next = self.in_row.val();
            self.last_row.d.next = self.in_last_row.val();
            self.phase.d.next = 0.into();
            self.side.d.next = false;
            self.half.d.next = false;
        }
        self.n.next = self.k_one16.val() << self.lg.q.val();
        self.rem_is_n.next = self.rem.q.val() == bit_cast::<32, 16>(self.n.val());
        self.nmask.next = !(self.k_ones128.val() << (self.n.val() << 3));
        self.emask.next = bit_cast::<64, 128>(self.nmask.val());
        // The source element of a swizzled tensor-reduce row (element-aligned, so inside one
        // 16-byte chunk) is read at its permuted address.
        self.src_p.next = self.src.q.val() ^ (((self.src.q.val() >> 7) & bit_cast::<64, 3>(self.swz.q.val())) << 4);
        self.soff.next = bit_cast::<16, 64>(self.src_p.val() & self.k_bmask.val());
        self.doff.next = bit_cast::<16, 64>(self.dst.q.val() & self.k_bmask.val());
        self.off.next = self.soff.val();
        self.word_addr.next = self.src_p.val() & !self.k_bmask.val();
        if self.side.q.val() {
            self.off.next = self.doff.val();
            self.word_addr.next = self.dst.q.val() & !self.k_bmask.val();
        }
        if self.half.q.val() {
            self.word_addr.next = self.word_addr.val() + self.k_b64.val();
        }
        self.straddle.next = (self.off.val() + self.n.val()) > self.k_b16.val();
        self.straddle_d.next = (self.doff.val() + self.n.val()) > self.k_b16.val();
        self.shared_side.next = !self.side.q.val() | !self.dst_gm.q.val();
        self.sm_word.d.next = self.sm_rdata.val();
        self.word.next = self.sm_word.q.val();
        if !self.shared_side.val() {
            self.word.next = self.gm_rdata.val();
        }
        // The element's bytes in this word, placed at their position in the element.
        self.part.next = bit_cast::<64, D>(self.word.val() >> (self.off.val() << 3));
        if self.half.q.val() {
            self.part.next = bit_cast::<64, D>(self.word.val()) << ((self.k_b16.val() - self.off.val()) << 3);
        }
        // The element is the atomic ALU's, lent while COMBINE asks for it (pipelined, or
        // combinational with atomic_element_stages 0); the operands hold still in COMBINE until
        // its result is out. Bulk f32 adds flush subnormals (the ALU's lending mode sets ftz).
        self.elem_req.next = self.active.val() & (self.phase.q.val() == 3);
        self.elem_op.next = self.op.q.val();
        self.elem_dtype.next = self.dtype.q.val();
        // Straight from flip-flops (the element's bytes were masked as they were read): the
        // atomic ALU's operand select and its element's first stage follow.
        self.elem_r.next = bit_cast::<ELEM_BITS, 64>(self.ed.q.val());
        self.elem_s.next = bit_cast::<ELEM_BITS, 64>(self.es.q.val());
        self.got.next = false;
        self.stepped.next = false;
        self.fin.next = false;
        if self.active.val() {
            if self.phase.q.val() == 0 {
                // ISSUE a read of the current operand's word (or finish).
                if self.rem.q.val() == 0 {
                    self.fin.next = true;
                } else if self.shared_side.val() {
                    if self.sm_rgrant.val() {
                        self.phase.d.next = 1.into();
                    }
                } else if self.gm_grant.val() {
                    self.phase.d.next = 2.into();
                }
            } else if self.phase.q.val() == 1 {
                self.phase.d.next = 5.into();
            } else if self.phase.q.val() == 5 {
                self.got.next = true;
            } else if self.phase.q.val() == 2 {
                self.got.next = self.gm_rvalid.val();
            } else if self.phase.q.val() == 3 {
                // COMBINE: the element's result, its latency of granted cycles after the
                // operands went in.
                if self.elem_grant.val() {
                    self.waited.d.next = self.waited.q.val() + 1;
                }
                if self.elem_grant.val() & (self.waited.q.val() == self.k_elem_latency.val()) {
                    self.res.d.next = self.elem_value.val() & self.emask.val();
                    self.phase.d.next = 4.into();
                    self.half.d.next = false;
                }
            } else {
                // WRITE the element back (a global write waits for `gm_grant`, a shared one for `sm_wgrant`).
                self.stepped.next =
                    (!self.dst_gm.q.val() & self.sm_wgrant.val()) | (self.dst_gm.q.val() & self.gm_grant.val());
                if self.stepped.val() {
                    if !self.half.q.val() & self.straddle_d.val() {
                        self.half.d.next = true;
                    } else {
                        self.src.d.next = self.src.q.val() + bit_cast::<64, 16>(self.n.val());
                        self.dst.d.next = self.dst.q.val() + bit_cast::<64, 16>(self.n.val());
                        self.rem.d.next = self.rem.q.val() - bit_cast::<32, 16>(self.n.val());
                        self.rem_nz_d.next = !self.rem_is_n.val();
                        self.phase.d.next = 0.into();
                        self.side.d.next = false;
                        self.half.d.next = false;
                    }
                }
            }
            if self.got.val() {
                if self.side.q.val() {
                    self.ed.d.next = self.part.val() & self.emask.val();
                    if self.half.q.val() {
                        self.ed.d.next = (self.ed.q.val() | self.part.val()) & self.emask.val();
                    }
                } else {
                    self.es.d.next = self.part.val() & self.emask.val();
                    if self.half.q.val() {
                        self.es.d.next = (self.es.q.val() | self.part.val()) & self.emask.val();
                    }
                }
                self.phase.d.next = 0.into();
                if !self.half.q.val() & self.straddle.val() {
                    self.half.d.next = true;
                } else if !self.side.q.val() {
                    self.side.d.next = true;
                    self.half.d.next = false;
                } else {
                    self.half.d.next = false;
                    self.phase.d.next = 3.into();
                    self.waited.d.next = 0.into();
                }
            }
        }
        self.done.next = self.fin.val();
        self.answer.next = self.fin.val() & (!self.ret.q.val() | self.last_row.q.val());
        self.mb_event.next = self.fin.val() & self.has_mb.q.val();
        self.mb_slot.next = self.mbs.q.val();
        self.mb_off.next = self.mbo.q.val();
        self.mb_bytes.next = self.len.q.val();

        // Ports: the reads of ISSUE, the read data of phase 2, the writes of WRITE.
        self.wdata.next = bit_cast::<D, 64>(self.res.q.val()) << (self.doff.val() << 3);
        self.wbe.next = bit_cast::<B, 128>(!(self.k_ones128.val() << self.n.val()) << self.doff.val());
        if self.half.q.val() {
            self.wdata.next = bit_cast::<D, 64>(self.res.q.val() >> ((self.k_b16.val() - self.doff.val()) << 3));
            self.wbe.next =
                bit_cast::<B, 128>(!(self.k_ones128.val() << self.n.val()) >> (self.k_b16.val() - self.doff.val()));
        }
        self.addr.next = self.word_addr.val();
        self.rslot.next = self.src_slot.q.val();
        if self.side.q.val() {
            self.rslot.next = self.dst_slot.q.val();
        }
        self.wslot.next = self.dst_slot.q.val();
        self.sm_read.next = false;
        self.gm_read.next = false;
        if self.active.val() & (self.phase.q.val() == 0) & (self.rem.q.val() != 0) {
            self.sm_read.next = self.shared_side.val();
            self.gm_read.next = !self.shared_side.val();
        }
        self.gm_wait.next = self.active.val() & (self.phase.q.val() == 2);
        self.gm_write.next = self.active.val() & (self.phase.q.val() == 4) & self.dst_gm.q.val();
        self.sm_write.next = self.active.val() & (self.phase.q.val() == 4) & !self.dst_gm.q.val();

        if self.reset.val() {
            self.phase.d.next = 0.into();
        }
        // `sm_read` of the next cycle (the registers' next values, after their last assignment;
        // `rem`'s as `rem_nz_d`).
        self.sm_read_next.next = self.active_next.val()
            & (self.phase.d.val() == 0)
            & self.rem_nz_d.val()
            & (!self.side.d.val() | !self.dst_gm.d.val());
    }
}
