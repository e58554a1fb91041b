//! The request decode of the `sync_unit` top: from a queued request's header and stray flags,
//! the unit that takes it, the ld/st.shared access size and whether the top answers it
//! `NotBuilt`.
//!
//! The ingress decodes every queue entry with one of these (from the entry's registers) and
//! registers the decode of the entry it selects for the next cycle beside the header
//! (`ingress.rs`, "the core side"), so the core starts a request from flip-flops: the decode
//! and the not-built checks are not between the queue's selection and the core's dispatch
//! (the board top's deepest paths ran selection -> header -> decode -> not_built -> a unit's
//! accept, docs/FPGA.md, "Logic depth").
//!
//! Op -> unit follows the encoding table's ranges (`smsync_contract::encoding`);
//! cp.async.mbarrier.arrive is coded in the mbarrier range but taken by the copy engine (it
//! tracks the thread's earlier cp.async), as in the golden model's `GoldenUnits`.

use crate::common::{op_code, unit_op_range, OP_BITS};
use rust_hdl::prelude::*;
use smsync_contract::encoding::{Op, Space, Unit};

#[derive(LogicBlock)]
pub struct RequestDecode {
    pub op: Signal<In, Bits<OP_BITS>>,
    pub vec: Signal<In, Bits<4>>,
    pub imm: Signal<In, Bits<32>>,
    pub space: Signal<In, Bits<2>>,
    /// The entry's stray-bit flags (operand bits a unit does not take; `ingress.rs`).
    pub stray_src: Signal<In, Bit>,
    pub stray_src_only: Signal<In, Bit>,
    pub stray_a: Signal<In, Bit>,
    pub stray_a_hi: Signal<In, Bit>,
    pub stray_b_hi: Signal<In, Bit>,
    pub stray_c_shfl: Signal<In, Bit>,
    pub stray_c_hi: Signal<In, Bit>,
    pub is_bar: Signal<Out, Bit>,
    pub is_mb: Signal<Out, Bit>,
    pub is_wn: Signal<Out, Bit>,
    pub is_atom: Signal<Out, Bit>,
    pub is_copy: Signal<Out, Bit>,
    /// ld/st.shared access bytes (`imm` x `vec`): 1, 2, 4, 8 or 16 when `lsu_ok`.
    pub lsu_size: Signal<Out, Bits<5>>,
    /// Answered `NotBuilt` by the top (see `top.rs`, "Not built in this top yet").
    pub not_built: Signal<Out, Bit>,
    /// ld/st.shared (its size is checked).
    is_lsu: Signal<Local, Bit>,
    size: Signal<Local, Bits<32>>,
    lsu_ok: Signal<Local, Bit>,
    stray: Signal<Local, Bit>,
    k_bar_first: Constant<Bits<OP_BITS>>,
    k_bar_span: Constant<Bits<OP_BITS>>,
    k_mb_first: Constant<Bits<OP_BITS>>,
    k_mb_span: Constant<Bits<OP_BITS>>,
    k_wn_first: Constant<Bits<OP_BITS>>,
    k_wn_span: Constant<Bits<OP_BITS>>,
    k_at_first: Constant<Bits<OP_BITS>>,
    k_at_span: Constant<Bits<OP_BITS>>,
    k_ce_first: Constant<Bits<OP_BITS>>,
    k_ce_span: Constant<Bits<OP_BITS>>,
    k_op_ld: Constant<Bits<OP_BITS>>,
    k_op_st: Constant<Bits<OP_BITS>>,
    k_op_cp_arrive: Constant<Bits<OP_BITS>>,
    k_space_cta: Constant<Bits<2>>,
}

impl Default for RequestDecode {
    fn default() -> Self {
        let range = |u: Unit| unit_op_range(u).expect("every unit has ops in the encoding table");
        let first = |u: Unit| Constant::new((range(u).0 as u64).into());
        let span = |u: Unit| Constant::new(((range(u).1 - range(u).0) as u64).into());
        let op = |o: Op| Constant::new(op_code(o));
        RequestDecode {
            op: Default::default(),
            vec: Default::default(),
            imm: Default::default(),
            space: Default::default(),
            stray_src: Default::default(),
            stray_src_only: Default::default(),
            stray_a: Default::default(),
            stray_a_hi: Default::default(),
            stray_b_hi: Default::default(),
            stray_c_shfl: Default::default(),
            stray_c_hi: Default::default(),
            is_bar: Default::default(),
            is_mb: Default::default(),
            is_wn: Default::default(),
            is_atom: Default::default(),
            is_copy: Default::default(),
            is_lsu: Default::default(),
            lsu_size: Default::default(),
            lsu_ok: Default::default(),
            not_built: Default::default(),
            size: Default::default(),
            stray: Default::default(),
            k_bar_first: first(Unit::BarrierFile),
            k_bar_span: span(Unit::BarrierFile),
            k_mb_first: first(Unit::MbarrierAlu),
            k_mb_span: span(Unit::MbarrierAlu),
            k_wn_first: first(Unit::WarpNetwork),
            k_wn_span: span(Unit::WarpNetwork),
            k_at_first: first(Unit::AtomicAlu),
            k_at_span: span(Unit::AtomicAlu),
            k_ce_first: first(Unit::CopyEngine),
            k_ce_span: span(Unit::CopyEngine),
            k_op_ld: op(Op::LdShared),
            k_op_st: op(Op::StShared),
            k_op_cp_arrive: op(Op::MbCpAsyncArrive),
            k_space_cta: Constant::new((Space::SharedCta.code() as u64).into()),
        }
    }
}

impl Logic for RequestDecode {
    #[hdl_gen]
    fn update(&mut self) {
        // `op - first <= last - first` (wrapping) is the range check without a constant compare
        // when a range starts at 0.
        self.is_bar.next = (self.op.val() - self.k_bar_first.val()) <= self.k_bar_span.val();
        self.is_mb.next = ((self.op.val() - self.k_mb_first.val()) <= self.k_mb_span.val())
            && (self.op.val() != self.k_op_cp_arrive.val());
        self.is_wn.next = (self.op.val() - self.k_wn_first.val()) <= self.k_wn_span.val();
        self.is_atom.next = (self.op.val() - self.k_at_first.val()) <= self.k_at_span.val();
        self.is_copy.next = ((self.op.val() - self.k_ce_first.val()) <= self.k_ce_span.val())
            || (self.op.val() == self.k_op_cp_arrive.val());
        self.is_lsu.next = (self.op.val() == self.k_op_ld.val()) || (self.op.val() == self.k_op_st.val());

        // ld/st.shared size: imm bytes x vec elements; one naturally sized access within a row
        // (PTX ISA §6.4.1: a vector access is aligned to its whole size).
        self.size.next = 0.into();
        if self.vec.val() == 1 {
            self.size.next = self.imm.val();
        }
        if self.vec.val() == 2 {
            self.size.next = self.imm.val() << 1u64;
        }
        if self.vec.val() == 4 {
            self.size.next = self.imm.val() << 2u64;
        }
        self.lsu_size.next = self.size.val().get_bits::<5>(0);
        self.lsu_ok.next = (self.size.val() == 1)
            || (self.size.val() == 2)
            || (self.size.val() == 4)
            || (self.size.val() == 8)
            || (self.size.val() == 16);

        // Barrier, mbarrier, warp network: addr, a/b low halves, c's shfl fields. LSU: also
        // all of a (store data). Atomic ALU: addr, mbar, b, c (a and src unused: `stray_src`
        // covers mbar too, so the atomic checks `stray_src_only` and `stray_a`).
        // Copy engine: addr, src, mbar, a, b low half, c low 32 bits.
        self.stray.next = ((self.is_bar.val() || self.is_mb.val() || self.is_wn.val())
            && (self.stray_src.val() || self.stray_a_hi.val() || self.stray_b_hi.val() || self.stray_c_shfl.val()))
            || (self.is_lsu.val() && (self.stray_src.val() || self.stray_b_hi.val() || self.stray_c_shfl.val()))
            || (self.is_atom.val() && self.stray_a.val())
            || (self.is_atom.val() && self.stray_src_only.val())
            || (self.is_copy.val() && (self.stray_b_hi.val() || self.stray_c_hi.val()));
        // mbarrier ops on shared::cluster addresses; an access size the LSU does not take.
        self.not_built.next = self.stray.val()
            || (self.is_mb.val() && (self.space.val() != self.k_space_cta.val()))
            || !(self.is_bar.val()
                || self.is_mb.val()
                || self.is_wn.val()
                || self.is_lsu.val()
                || self.is_atom.val()
                || self.is_copy.val())
            || (self.is_lsu.val() && !self.lsu_ok.val());
    }
}
