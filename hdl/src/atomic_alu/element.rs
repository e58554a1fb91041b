//! The element datapath of the atomic ALU: the new memory value of one element of an atom / red /
//! red.async / cp.reduce.async.bulk, bit for bit as the golden
//! `smsync_sim::units::atomic_alu::element(op, dtype, r, s, t, ftz_f32)`. Combinational
//! ([`AtomicElement::new`], [`AtomicElement::with_kinds`]: the copy engine's bulk reduce), or
//! pipelined ([`AtomicElement::pipelined`]: the atomic ALU with `atomic_element_stages: 3`):
//! `value` is then the element of the operands [`ELEMENT_LATENCY`] enabled clock edges before, with the
//! `op`, `dtype`, `ftz_f32` of that edge (the output select's decode and the f32 flush go with the
//! operands through the stages; they are request constants in the ALU). The integer results are computed
//! at once and carried in stage registers beside the float adders' stages.
//!
//! # Ports of `AtomicElement`
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `en` | in | 1 | stage registers move at an edge where `en` is high (pipelined only) |
//! | `op` | in | 4 | `encoding::AtomOp` code (and, or, xor, cas, exch, add, inc, dec, min, max) |
//! | `dtype` | in | 4 | `encoding::DataType` code; narrower types use the low bits of r / s / t |
//! | `r` | in | 128 | old memory value |
//! | `s` | in | 128 | operand b |
//! | `t` | in | 128 | operand c (cas: the value stored when `r == s`) |
//! | `ftz_f32` | in | 1 | flush f32 subnormal inputs and results to zero, sign kept (global-memory atom/red and bulk reductions; shared memory keeps subnormals) |
//! | `value` | out | 128 | the new element value, zero-extended above the type's width |
//!
//! Every op/type pair an instruction can ask for (atom / red `legal()`, red.async, the bulk
//! reductions) is computed as the golden function does, the pairs `legal()` rejects that are 64
//! bits wide or narrower too (the ALU answers those with `AtomBadType` before using the value).
//! The adder and the magnitude compare are 64 bits wide (add, inc, dec, min and max have no wider
//! type, PTX ISA §9.7.13.5; b128 is cas and exch alone, which use the 128-bit equality), so those
//! ops on b128, which no instruction has, differ from it: the sum is of the low 64 bits,
//! zero-extended, and inc, dec, min and max decide by the low 64 bits' compare.
//! Op codes outside `AtomOp` give 0.
//!
//! An element built for fewer types ([`ElementKinds`], [`AtomicElement::with_kinds`]) leaves
//! the others out of its datapath: their decode is tied off by a constant, so synthesis drops
//! the adders (and, without b128, the integer path's upper 64 bits). Its value for a type it was
//! not built for is unspecified; the ALU never steps such a type through it
//! ([`ElementKinds::supports`]).
//!
//! # Structure
//!
//! * integer path: and / or / xor / cas / exch / wrapping add / inc / dec (the PTX wrap rules:
//!   inc stores 0 when `r >= s`, dec stores `s` when `r == 0 || r > s`) / min / max, signed
//!   compares (min / max of s32 / s64) by flipping the sign bit; three 64-bit adders (r + s,
//!   r + 1, r - 1, the op picking among their sums) and one magnitude compare in parts (bits
//!   0..16, 16..32, 32..64, each part's carry chain from the operands alone, the width class
//!   joining them after) serve them all, and the result is an AND-OR of one-hot picks of r, s,
//!   t, the sum and the bitwise result. The operands are not masked to the type's width on the
//!   way in (the low bits of a sum do not depend on the high ones): `value` is masked at the
//!   output, so no type decode is in front of a carry chain;
//! * float adders ([`super::float_add::FloatAdder`]): one f32 (with the ftz input), one f64, two
//!   f16 and two bf16 (low and high halves of the packed x2 types; the scalar 16-bit types use
//!   the low one);
//! * two [`HalfMinMax`] (f16 / bf16 min and max with the PTX `min`/`max` NaN and signed-zero
//!   rules), low and high half.

use rust_hdl::prelude::*;
use smsync_contract::encoding::{AtomOp, DataType};

use super::float_add::{FloatAdder, ADD_LATENCY, BF16, F16, F32, F64};
use crate::stage_reg::StageReg;

/// Clock edges from the operands to `value` in a pipelined element (the float adders' stages).
pub const ELEMENT_LATENCY: usize = ADD_LATENCY;
use super::width::ZeroExtend;

/// Width of the `op` port (`AtomOp::BITS`).
pub const ATOM_OP_BITS: usize = AtomOp::BITS as usize;
/// Width of the `dtype` port (`DataType::BITS`).
pub const DTYPE_BITS: usize = DataType::BITS as usize;
/// Widest element (b128).
pub const ELEM_BITS: usize = 128;

const _: () = assert!(AtomOp::BITS == 4 && DataType::BITS == 4);

fn k128(v: u128) -> Constant<Bits<ELEM_BITS>> {
    Constant::new(v.to_bits())
}

fn k16(v: u64) -> Constant<Bits<16>> {
    Constant::new(v.to_bits())
}

/// f16 / bf16 min or max, the golden `float::half_minmax`: a NaN operand is ignored (two NaNs
/// give the canonical NaN 0x7FFF) and -0.0 orders below +0.0.
#[derive(LogicBlock)]
pub struct HalfMinMax {
    pub a: Signal<In, Bits<16>>,
    pub b: Signal<In, Bits<16>>,
    /// 1 = bf16, 0 = f16.
    pub bf16: Signal<In, Bit>,
    /// 1 = max, 0 = min.
    pub max: Signal<In, Bit>,
    pub result: Signal<Out, Bits<16>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    a_key: Signal<Local, Bits<16>>,
    b_key: Signal<Local, Bits<16>>,
    k_f16_exp: Constant<Bits<16>>,
    k_f16_frac: Constant<Bits<16>>,
    k_bf16_exp: Constant<Bits<16>>,
    k_bf16_frac: Constant<Bits<16>>,
    k_sign: Constant<Bits<16>>,
    k_nan: Constant<Bits<16>>,
}

impl Default for HalfMinMax {
    fn default() -> Self {
        HalfMinMax {
            a: Default::default(),
            b: Default::default(),
            bf16: Default::default(),
            max: Default::default(),
            result: Default::default(),
            a_nan: Default::default(),
            b_nan: Default::default(),
            a_key: Default::default(),
            b_key: Default::default(),
            k_f16_exp: k16(0x7C00),
            k_f16_frac: k16(0x03FF),
            k_bf16_exp: k16(0x7F80),
            k_bf16_frac: k16(0x007F),
            k_sign: k16(0x8000),
            k_nan: k16(smsync_contract::encoding::canonical_nan::HALF as u64),
        }
    }
}

impl Logic for HalfMinMax {
    #[hdl_gen]
    fn update(&mut self) {
        self.a_nan.next = ((self.a.val() & self.k_f16_exp.val()) == self.k_f16_exp.val())
            & (self.a.val() & self.k_f16_frac.val()).any();
        self.b_nan.next = ((self.b.val() & self.k_f16_exp.val()) == self.k_f16_exp.val())
            & (self.b.val() & self.k_f16_frac.val()).any();
        if self.bf16.val() {
            self.a_nan.next = ((self.a.val() & self.k_bf16_exp.val()) == self.k_bf16_exp.val())
                & (self.a.val() & self.k_bf16_frac.val()).any();
            self.b_nan.next = ((self.b.val() & self.k_bf16_exp.val()) == self.k_bf16_exp.val())
                & (self.b.val() & self.k_bf16_frac.val()).any();
        }
        // Order-preserving keys of sign-magnitude values (-0 below +0).
        self.a_key.next = self.a.val() | self.k_sign.val();
        if (self.a.val() & self.k_sign.val()).any() {
            self.a_key.next = !self.a.val();
        }
        self.b_key.next = self.b.val() | self.k_sign.val();
        if (self.b.val() & self.k_sign.val()).any() {
            self.b_key.next = !self.b.val();
        }
        self.result.next = self.b.val();
        if self.max.val() {
            if self.a_key.val() >= self.b_key.val() {
                self.result.next = self.a.val();
            }
        } else if self.a_key.val() <= self.b_key.val() {
            self.result.next = self.a.val();
        }
        if self.a_nan.val() {
            self.result.next = self.b.val();
        }
        if self.b_nan.val() {
            self.result.next = self.a.val();
        }
        if self.a_nan.val() & self.b_nan.val() {
            self.result.next = self.k_nan.val();
        }
    }
}

/// The element types an [`AtomicElement`] computes (the integer types up to 64 bits always).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementKinds {
    /// b128 (cas / exch on 16 bytes): the integer path's upper 64 bits.
    pub b128: bool,
    /// f32 add (one `FloatAdder<32>`).
    pub f32: bool,
    /// f64 add (one `FloatAdder<64>`, the largest part: about a third of a full element).
    pub f64: bool,
    /// f16 / bf16 / f16x2 / bf16x2 add, min and max (four `FloatAdder<16>`, two `HalfMinMax`).
    pub half: bool,
}

impl ElementKinds {
    /// Every type (the golden `element`).
    pub const ALL: ElementKinds = ElementKinds { b128: true, f32: true, f64: true, half: true };

    /// Whether an element built for these kinds computes `dtype` (every op on it).
    pub fn supports(self, dtype: DataType) -> bool {
        match dtype {
            DataType::B128 => self.b128,
            DataType::F32 => self.f32,
            DataType::F64 => self.f64,
            DataType::F16 | DataType::Bf16 | DataType::F16x2 | DataType::Bf16x2 => self.half,
            _ => true,
        }
    }
}

/// One element's new value; see the module documentation for the ports.
#[derive(LogicBlock)]
pub struct AtomicElement {
    pub clock: Signal<In, Clock>,
    pub en: Signal<In, Bit>,
    pub op: Signal<In, Bits<ATOM_OP_BITS>>,
    pub dtype: Signal<In, Bits<DTYPE_BITS>>,
    pub r: Signal<In, Bits<ELEM_BITS>>,
    pub s: Signal<In, Bits<ELEM_BITS>>,
    pub t: Signal<In, Bits<ELEM_BITS>>,
    pub ftz_f32: Signal<In, Bit>,
    pub value: Signal<Out, Bits<ELEM_BITS>>,

    add_f32: FloatAdder<32>,
    add_f64: FloatAdder<64>,
    add_f16_lo: FloatAdder<16>,
    add_f16_hi: FloatAdder<16>,
    add_bf16_lo: FloatAdder<16>,
    add_bf16_hi: FloatAdder<16>,
    minmax_lo: HalfMinMax,
    minmax_hi: HalfMinMax,
    /// The float results widened to the element width (see `super::width` for why blocks).
    wide_f32: ZeroExtend<32, ELEM_BITS>,
    wide_f64: ZeroExtend<64, ELEM_BITS>,
    wide_half_lo: ZeroExtend<16, ELEM_BITS>,
    wide_half_hi: ZeroExtend<16, ELEM_BITS>,
    wide_minmax_lo: ZeroExtend<16, ELEM_BITS>,
    wide_minmax_hi: ZeroExtend<16, ELEM_BITS>,

    // ---- decoded type ----
    /// The sign bit of s32 (bit 31) and of s64 (bit 63) flipped for a signed min / max, in the
    /// compare's 16- and 32-bit parts that hold them.
    flip31: Signal<Local, Bits<16>>,
    flip63: Signal<Local, Bits<32>>,
    is_f32: Signal<Local, Bit>,
    is_f64: Signal<Local, Bit>,
    is_f16: Signal<Local, Bit>,
    is_bf16: Signal<Local, Bit>,
    is_f16x2: Signal<Local, Bit>,
    is_bf16x2: Signal<Local, Bit>,
    /// bf16 or bf16x2: the 16-bit halves come from the bf16 units.
    is_bf16_kind: Signal<Local, Bit>,
    /// The 16-bit sums of the low and high halves, f16 or bf16 by type.
    half_sum_lo: Signal<Local, Bits<16>>,
    half_sum_hi: Signal<Local, Bits<16>>,
    // ---- compares and integer results (operands unmasked: `value` is masked to the width) ----
    /// The low 64 bits of r / s: the adders' width (add, inc, dec, min and max have no type
    /// wider than 64 bits, PTX ISA §9.7.13.5; b128 is cas / exch alone, which need only the
    /// equality).
    r64: Signal<Local, Bits<64>>,
    s64: Signal<Local, Bits<64>>,
    /// The compare's parts: bits 0..16, 16..32 (with s32's sign bit flipped for a signed
    /// compare), 32..64 (with s64's), 64..128 (equality only).
    r_p0: Signal<Local, Bits<16>>,
    s_p0: Signal<Local, Bits<16>>,
    r_p1: Signal<Local, Bits<16>>,
    s_p1: Signal<Local, Bits<16>>,
    r_p2: Signal<Local, Bits<32>>,
    s_p2: Signal<Local, Bits<32>>,
    r_p3: Signal<Local, Bits<64>>,
    s_p3: Signal<Local, Bits<64>>,
    /// Each part's r < s, r == s and r == 0, from the operands alone (the width class joins
    /// them after: no type decode in front of a carry chain).
    lt0: Signal<Local, Bit>,
    lt1: Signal<Local, Bit>,
    lt2: Signal<Local, Bit>,
    eq0: Signal<Local, Bit>,
    eq1: Signal<Local, Bit>,
    eq2: Signal<Local, Bit>,
    eq3: Signal<Local, Bit>,
    z0: Signal<Local, Bit>,
    z1: Signal<Local, Bit>,
    z2: Signal<Local, Bit>,
    /// r < s over the low 32 and 64 bits.
    lt32: Signal<Local, Bit>,
    lt64: Signal<Local, Bit>,
    /// min or max (the only ops whose compare is signed for s32 / s64).
    minmax_op: Signal<Local, Bit>,
    /// The magnitude compare and the two equalities every integer op decides by, over the
    /// type's width.
    r_lt_s: Signal<Local, Bit>,
    r_eq_s: Signal<Local, Bit>,
    r_zero: Signal<Local, Bit>,
    /// Three adders with no op in front of them: r + s (add), r + 1 (inc), r - 1 (dec); the
    /// op picks among their sums (`sum`).
    sum_add: Signal<Local, Bits<64>>,
    sum_inc: Signal<Local, Bits<64>>,
    sum_dec: Signal<Local, Bits<64>>,
    sum_pick_add: Signal<Local, Bits<64>>,
    sum_pick_inc: Signal<Local, Bits<64>>,
    sum_pick_dec: Signal<Local, Bits<64>>,
    /// The picked sum (0 unless add, inc or dec).
    sum: Signal<Local, Bits<64>>,
    /// `sum` zero-extended to the element width.
    wide_sum: ZeroExtend<64, ELEM_BITS>,
    /// and / or / xor of r and s (0 for the other ops).
    bitwise: Signal<Local, Bits<ELEM_BITS>>,
    /// f16 / bf16 (x2) min / max, widened.
    half_minmax: Signal<Local, Bits<ELEM_BITS>>,
    /// One-hot op decode of the integer path.
    op_is_cas: Signal<Local, Bit>,
    op_is_exch: Signal<Local, Bit>,
    op_is_inc: Signal<Local, Bit>,
    op_is_dec: Signal<Local, Bit>,
    op_is_min: Signal<Local, Bit>,
    op_is_max: Signal<Local, Bit>,
    op_is_add: Signal<Local, Bit>,
    /// f16 / bf16 (x2) min or max: the `HalfMinMax` result (not the integer compare).
    pick_half: Signal<Local, Bit>,
    /// Integer min / max (not of a 16-bit float type).
    int_minmax: Signal<Local, Bit>,
    /// Every op but a float add is "`int_hi` if `int_cond`, else `int_lo`": the two candidates
    /// are picked by the op alone (one-hot AND-OR), `int_cond` is the compare's outcome.
    /// cas: t if r == s, else r; exch: s; add: r + s; inc: r + 1 if r < s, else 0; dec: r - 1
    /// if r != 0 and r <= s, else s; min: r if r <= s, else s; max: r if r >= s, else s
    /// (PTX ISA §9.7.13.5); and / or / xor, 16-bit float min / max: `int_lo` alone.
    int_cond: Signal<Local, Bit>,
    int_hi: Signal<Local, Bits<ELEM_BITS>>,
    int_lo: Signal<Local, Bits<ELEM_BITS>>,
    part_hi_t: Signal<Local, Bits<ELEM_BITS>>,
    part_hi_r: Signal<Local, Bits<ELEM_BITS>>,
    part_hi_sum: Signal<Local, Bits<ELEM_BITS>>,
    part_lo_r: Signal<Local, Bits<ELEM_BITS>>,
    part_lo_s: Signal<Local, Bits<ELEM_BITS>>,
    part_lo_half: Signal<Local, Bits<ELEM_BITS>>,
    /// The candidates and the condition registered after the first stage (the compares, the
    /// adder and the candidate picks), and the pick between them made in the second: the
    /// integer result has the float adders' [`ELEMENT_LATENCY`] stages to ride, and a compare
    /// followed by the pick in one cycle was the element's longest path.
    s1_int_cond: StageReg<Bit>,
    s1_int_hi: StageReg<Bits<ELEM_BITS>>,
    s1_int_lo: StageReg<Bits<ELEM_BITS>>,
    int_val: Signal<Local, Bits<ELEM_BITS>>,
    /// `int_val` carried over the remaining `ELEMENT_LATENCY - 1` stages.
    int_stage: Vec<StageReg<Bits<ELEM_BITS>>>,
    /// The width classes (16, 32, 64 bits; none: 128) of the type decode.
    w16: Signal<Local, Bit>,
    w32: Signal<Local, Bit>,
    w64: Signal<Local, Bit>,
    /// The type decode the output select needs (bit 0 bf16 or bf16x2, 1 f64, 2 f16 or bf16,
    /// 3 f16x2 or bf16x2, 4 a float add, 5..7 the width classes), made from `op` / `dtype` in
    /// the first stage and carried with the operands over the stages (`sel_stage`), so that the
    /// last stage's select starts from registers, not from the ports' decode (in the ALU: the
    /// idle state's pick of the borrower's op and type, then the decode, was in front of the
    /// float adders' rounding on the unit's longest path).
    sel: Signal<Local, Bits<8>>,
    sel_part: Vec<Signal<Local, Bits<8>>>,
    k_sel_bit: Vec<Constant<Bits<8>>>,
    sel_stage: Vec<StageReg<Bits<8>>>,
    out_sel: Signal<Local, Bits<8>>,
    out_mask: Signal<Local, Bits<ELEM_BITS>>,
    /// The float add's result (the adders' outputs) and whether it is the value.
    float_sum: Signal<Local, Bits<ELEM_BITS>>,
    is_float_add: Signal<Local, Bit>,
    raw: Signal<Local, Bits<ELEM_BITS>>,

    op_and: Constant<Bits<ATOM_OP_BITS>>,
    op_or: Constant<Bits<ATOM_OP_BITS>>,
    op_xor: Constant<Bits<ATOM_OP_BITS>>,
    op_cas: Constant<Bits<ATOM_OP_BITS>>,
    op_exch: Constant<Bits<ATOM_OP_BITS>>,
    op_add: Constant<Bits<ATOM_OP_BITS>>,
    op_inc: Constant<Bits<ATOM_OP_BITS>>,
    op_dec: Constant<Bits<ATOM_OP_BITS>>,
    op_min: Constant<Bits<ATOM_OP_BITS>>,
    op_max: Constant<Bits<ATOM_OP_BITS>>,
    t_b16: Constant<Bits<DTYPE_BITS>>,
    t_b32: Constant<Bits<DTYPE_BITS>>,
    t_b64: Constant<Bits<DTYPE_BITS>>,
    t_u32: Constant<Bits<DTYPE_BITS>>,
    t_u64: Constant<Bits<DTYPE_BITS>>,
    t_s32: Constant<Bits<DTYPE_BITS>>,
    t_s64: Constant<Bits<DTYPE_BITS>>,
    t_f32: Constant<Bits<DTYPE_BITS>>,
    t_f64: Constant<Bits<DTYPE_BITS>>,
    t_f16: Constant<Bits<DTYPE_BITS>>,
    t_bf16: Constant<Bits<DTYPE_BITS>>,
    t_f16x2: Constant<Bits<DTYPE_BITS>>,
    t_bf16x2: Constant<Bits<DTYPE_BITS>>,
    k_mask16: Constant<Bits<ELEM_BITS>>,
    k_mask32: Constant<Bits<ELEM_BITS>>,
    k_mask64: Constant<Bits<ELEM_BITS>>,
    k_mask128: Constant<Bits<ELEM_BITS>>,
    k_sign16: Constant<Bits<16>>,
    k_sign32: Constant<Bits<32>>,
    k_zero: Constant<Bits<ELEM_BITS>>,
    k_zero16: Constant<Bits<16>>,
    k_zero32: Constant<Bits<32>>,
    k_zero64: Constant<Bits<64>>,
    k_one: Constant<Bits<64>>,
    k_ones: Constant<Bits<64>>,
    /// The kinds built (`ElementKinds`): a kind not built never decodes.
    k_f32_on: Constant<Bit>,
    k_f64_on: Constant<Bit>,
    k_half_on: Constant<Bit>,
    /// b128 built: without it the equality ignores bits 64..128 (no narrower type has them).
    k_b128_on: Constant<Bit>,
}

impl Default for AtomicElement {
    fn default() -> Self {
        Self::new()
    }
}

impl AtomicElement {
    /// An element for every type.
    pub fn new() -> AtomicElement {
        Self::with_kinds(ElementKinds::ALL)
    }

    /// A combinational element for the integer types up to 64 bits and `kinds`.
    pub fn with_kinds(kinds: ElementKinds) -> AtomicElement {
        Self::build(kinds, false)
    }

    /// A pipelined element (latency [`ELEMENT_LATENCY`]) for the integer types and `kinds`.
    pub fn pipelined(kinds: ElementKinds) -> AtomicElement {
        Self::build(kinds, true)
    }

    /// Pipelined (`registered`) or combinational.
    pub fn build(kinds: ElementKinds, registered: bool) -> AtomicElement {
        let op = |o: AtomOp| Constant::new((o.code() as u64).to_bits());
        let ty = |t: DataType| Constant::new((t.code() as u64).to_bits());
        AtomicElement {
            op: Default::default(),
            dtype: Default::default(),
            r: Default::default(),
            s: Default::default(),
            t: Default::default(),
            ftz_f32: Default::default(),
            value: Default::default(),
            clock: Default::default(),
            en: Default::default(),
            op_is_cas: Default::default(),
            op_is_exch: Default::default(),
            op_is_inc: Default::default(),
            op_is_dec: Default::default(),
            op_is_min: Default::default(),
            op_is_max: Default::default(),
            op_is_add: Default::default(),
            int_minmax: Default::default(),
            int_cond: Default::default(),
            int_hi: Default::default(),
            int_lo: Default::default(),
            part_hi_t: Default::default(),
            part_hi_r: Default::default(),
            part_hi_sum: Default::default(),
            part_lo_r: Default::default(),
            part_lo_s: Default::default(),
            part_lo_half: Default::default(),
            s1_int_cond: StageReg::new(registered),
            s1_int_hi: StageReg::new(registered),
            s1_int_lo: StageReg::new(registered),
            int_val: Default::default(),
            int_stage: (1..ELEMENT_LATENCY).map(|_| StageReg::new(registered)).collect(),
            w16: Default::default(),
            w32: Default::default(),
            w64: Default::default(),
            sel: Default::default(),
            sel_part: (0..8).map(|_| Default::default()).collect(),
            k_sel_bit: (0..8).map(|i| Constant::new((1u64 << i).to_bits())).collect(),
            sel_stage: (0..ELEMENT_LATENCY).map(|_| StageReg::new(registered)).collect(),
            out_sel: Default::default(),
            out_mask: Default::default(),
            float_sum: Default::default(),
            is_float_add: Default::default(),
            add_f32: FloatAdder::new(F32, registered),
            add_f64: FloatAdder::new(F64, registered),
            add_f16_lo: FloatAdder::new(F16, registered),
            add_f16_hi: FloatAdder::new(F16, registered),
            add_bf16_lo: FloatAdder::new(BF16, registered),
            add_bf16_hi: FloatAdder::new(BF16, registered),
            minmax_lo: Default::default(),
            minmax_hi: Default::default(),
            wide_f32: Default::default(),
            wide_f64: Default::default(),
            wide_half_lo: Default::default(),
            wide_half_hi: Default::default(),
            wide_minmax_lo: Default::default(),
            wide_minmax_hi: Default::default(),
            flip31: Default::default(),
            flip63: Default::default(),
            is_f32: Default::default(),
            is_f64: Default::default(),
            is_f16: Default::default(),
            is_bf16: Default::default(),
            is_f16x2: Default::default(),
            is_bf16x2: Default::default(),
            is_bf16_kind: Default::default(),
            half_sum_lo: Default::default(),
            half_sum_hi: Default::default(),
            r64: Default::default(),
            s64: Default::default(),
            r_p0: Default::default(),
            s_p0: Default::default(),
            r_p1: Default::default(),
            s_p1: Default::default(),
            r_p2: Default::default(),
            s_p2: Default::default(),
            r_p3: Default::default(),
            s_p3: Default::default(),
            lt0: Default::default(),
            lt1: Default::default(),
            lt2: Default::default(),
            eq0: Default::default(),
            eq1: Default::default(),
            eq2: Default::default(),
            eq3: Default::default(),
            z0: Default::default(),
            z1: Default::default(),
            z2: Default::default(),
            lt32: Default::default(),
            lt64: Default::default(),
            minmax_op: Default::default(),
            r_lt_s: Default::default(),
            r_eq_s: Default::default(),
            r_zero: Default::default(),
            sum_add: Default::default(),
            sum_inc: Default::default(),
            sum_dec: Default::default(),
            sum_pick_add: Default::default(),
            sum_pick_inc: Default::default(),
            sum_pick_dec: Default::default(),
            sum: Default::default(),
            wide_sum: Default::default(),
            bitwise: Default::default(),
            half_minmax: Default::default(),
            pick_half: Default::default(),
            raw: Default::default(),
            op_and: op(AtomOp::And),
            op_or: op(AtomOp::Or),
            op_xor: op(AtomOp::Xor),
            op_cas: op(AtomOp::Cas),
            op_exch: op(AtomOp::Exch),
            op_add: op(AtomOp::Add),
            op_inc: op(AtomOp::Inc),
            op_dec: op(AtomOp::Dec),
            op_min: op(AtomOp::Min),
            op_max: op(AtomOp::Max),
            t_b16: ty(DataType::B16),
            t_b32: ty(DataType::B32),
            t_b64: ty(DataType::B64),
            t_u32: ty(DataType::U32),
            t_u64: ty(DataType::U64),
            t_s32: ty(DataType::S32),
            t_s64: ty(DataType::S64),
            t_f32: ty(DataType::F32),
            t_f64: ty(DataType::F64),
            t_f16: ty(DataType::F16),
            t_bf16: ty(DataType::Bf16),
            t_f16x2: ty(DataType::F16x2),
            t_bf16x2: ty(DataType::Bf16x2),
            k_mask16: k128(0xFFFF),
            k_mask32: k128(0xFFFF_FFFF),
            k_mask64: k128(u64::MAX as u128),
            // Without b128 the widest type is 64 bits: masking there drops the upper half.
            k_mask128: k128(if kinds.b128 { u128::MAX } else { u64::MAX as u128 }),
            k_sign16: Constant::new(0x8000u64.to_bits()),
            k_sign32: Constant::new(0x8000_0000u64.to_bits()),
            k_zero: k128(0),
            k_zero16: Constant::new(0u64.to_bits()),
            k_zero32: Constant::new(0u64.to_bits()),
            k_zero64: Constant::new(0u64.to_bits()),
            k_one: Constant::new(1u64.to_bits()),
            k_ones: Constant::new(u64::MAX.to_bits()),
            k_f32_on: Constant::new(kinds.f32),
            k_f64_on: Constant::new(kinds.f64),
            k_half_on: Constant::new(kinds.half),
            k_b128_on: Constant::new(kinds.b128),
        }
    }
}

// The width decode below lists the types by size; pin the sizes to the table.
const _: () = assert!(
    DataType::B16.bytes() == 2
        && DataType::F16.bytes() == 2
        && DataType::Bf16.bytes() == 2
        && DataType::F16x2.bytes() == 4
        && DataType::Bf16x2.bytes() == 4
        && DataType::F64.bytes() == 8
        && DataType::B128.bytes() == 16
);

impl Logic for AtomicElement {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- type decode: element width, signedness, float kind ----
        self.w16.next = (self.dtype.val() == self.t_b16.val())
            | (self.dtype.val() == self.t_f16.val())
            | (self.dtype.val() == self.t_bf16.val());
        self.w32.next = (self.dtype.val() == self.t_b32.val())
            | (self.dtype.val() == self.t_u32.val())
            | (self.dtype.val() == self.t_s32.val())
            | (self.dtype.val() == self.t_f32.val())
            | (self.dtype.val() == self.t_f16x2.val())
            | (self.dtype.val() == self.t_bf16x2.val());
        self.w64.next = (self.dtype.val() == self.t_b64.val())
            | (self.dtype.val() == self.t_u64.val())
            | (self.dtype.val() == self.t_s64.val())
            | (self.dtype.val() == self.t_f64.val());
        // Signed order (min / max of s32, s64) = unsigned order after flipping the sign bit; inc
        // and dec compare unsigned whatever the type (the golden `element`).
        self.minmax_op.next = (self.op.val() == self.op_min.val()) | (self.op.val() == self.op_max.val());
        self.flip31.next = self.k_zero16.val();
        if self.minmax_op.val() & (self.dtype.val() == self.t_s32.val()) {
            self.flip31.next = self.k_sign16.val();
        }
        self.flip63.next = self.k_zero32.val();
        if self.minmax_op.val() & (self.dtype.val() == self.t_s64.val()) {
            self.flip63.next = self.k_sign32.val();
        }
        self.is_f32.next = (self.dtype.val() == self.t_f32.val()) & self.k_f32_on.val();
        self.is_f64.next = (self.dtype.val() == self.t_f64.val()) & self.k_f64_on.val();
        self.is_f16.next = (self.dtype.val() == self.t_f16.val()) & self.k_half_on.val();
        self.is_bf16.next = (self.dtype.val() == self.t_bf16.val()) & self.k_half_on.val();
        self.is_f16x2.next = (self.dtype.val() == self.t_f16x2.val()) & self.k_half_on.val();
        self.is_bf16x2.next = (self.dtype.val() == self.t_bf16x2.val()) & self.k_half_on.val();
        self.is_bf16_kind.next = self.is_bf16.val() | self.is_bf16x2.val();

        self.r64.next = self.r.val().get_bits::<64>(0);
        self.s64.next = self.s.val().get_bits::<64>(0);
        self.r_p0.next = self.r.val().get_bits::<16>(0);
        self.s_p0.next = self.s.val().get_bits::<16>(0);
        self.r_p1.next = self.r.val().get_bits::<16>(16) ^ self.flip31.val();
        self.s_p1.next = self.s.val().get_bits::<16>(16) ^ self.flip31.val();
        self.r_p2.next = self.r.val().get_bits::<32>(32) ^ self.flip63.val();
        self.s_p2.next = self.s.val().get_bits::<32>(32) ^ self.flip63.val();
        self.r_p3.next = self.r.val().get_bits::<64>(64);
        self.s_p3.next = self.s.val().get_bits::<64>(64);

        // ---- float units ----
        // Fed the operands unmasked: each unit reads only bits inside the width of the types
        // whose result it gives (f32: 32, f64: 64, the low 16-bit units: 16 or 32, the high
        // ones: the x2 types' 32), where the width mask changes nothing; so the type decode is
        // not on the path into their first stage.
        self.add_f32.a.next = self.r.val().get_bits::<32>(0);
        self.add_f32.b.next = self.s.val().get_bits::<32>(0);
        self.add_f32.ftz.next = self.ftz_f32.val();
        self.add_f64.a.next = self.r.val().get_bits::<64>(0);
        self.add_f64.b.next = self.s.val().get_bits::<64>(0);
        self.add_f64.ftz.next = false;
        self.add_f16_lo.a.next = self.r.val().get_bits::<16>(0);
        self.add_f16_lo.b.next = self.s.val().get_bits::<16>(0);
        self.add_f16_lo.ftz.next = false;
        self.add_f16_hi.a.next = self.r.val().get_bits::<16>(16);
        self.add_f16_hi.b.next = self.s.val().get_bits::<16>(16);
        self.add_f16_hi.ftz.next = false;
        self.add_bf16_lo.a.next = self.r.val().get_bits::<16>(0);
        self.add_bf16_lo.b.next = self.s.val().get_bits::<16>(0);
        self.add_bf16_lo.ftz.next = false;
        self.add_bf16_hi.a.next = self.r.val().get_bits::<16>(16);
        self.add_bf16_hi.b.next = self.s.val().get_bits::<16>(16);
        self.add_bf16_hi.ftz.next = false;
        self.minmax_lo.a.next = self.r.val().get_bits::<16>(0);
        self.minmax_lo.b.next = self.s.val().get_bits::<16>(0);
        self.minmax_lo.bf16.next = self.is_bf16_kind.val();
        self.minmax_lo.max.next = self.op.val() == self.op_max.val();
        self.minmax_hi.a.next = self.r.val().get_bits::<16>(16);
        self.minmax_hi.b.next = self.s.val().get_bits::<16>(16);
        self.minmax_hi.bf16.next = self.is_bf16_kind.val();
        self.minmax_hi.max.next = self.op.val() == self.op_max.val();

        self.add_f32.clock.next = self.clock.val();
        self.add_f32.en.next = self.en.val();
        self.add_f64.clock.next = self.clock.val();
        self.add_f64.en.next = self.en.val();
        self.add_f16_lo.clock.next = self.clock.val();
        self.add_f16_lo.en.next = self.en.val();
        self.add_f16_hi.clock.next = self.clock.val();
        self.add_f16_hi.en.next = self.en.val();
        self.add_bf16_lo.clock.next = self.clock.val();
        self.add_bf16_lo.en.next = self.en.val();
        self.add_bf16_hi.clock.next = self.clock.val();
        self.add_bf16_hi.en.next = self.en.val();

        // ---- every op but a float add, from the operands at once ----
        // Three adders and one magnitude compare serve add, inc, dec, min and max; the result is
        // one of two candidates picked by AND-OR of one-hot terms (a mux chain per op was ~3x
        // the LUTs), the compare's outcome choosing between them a stage later.
        self.lt0.next = self.r_p0.val() < self.s_p0.val();
        self.lt1.next = self.r_p1.val() < self.s_p1.val();
        self.lt2.next = self.r_p2.val() < self.s_p2.val();
        self.eq0.next = self.r_p0.val() == self.s_p0.val();
        self.eq1.next = self.r_p1.val() == self.s_p1.val();
        self.eq2.next = self.r_p2.val() == self.s_p2.val();
        self.eq3.next = (self.r_p3.val() == self.s_p3.val()) | !self.k_b128_on.val();
        self.z0.next = self.r_p0.val() == self.k_zero16.val();
        self.z1.next = self.r.val().get_bits::<16>(16) == self.k_zero16.val();
        self.z2.next = self.r.val().get_bits::<32>(32) == self.k_zero32.val();
        self.lt32.next = self.lt1.val() | (self.eq1.val() & self.lt0.val());
        self.lt64.next = self.lt2.val() | (self.eq2.val() & self.lt32.val());
        // Over the type's width (the 128-bit class compares magnitudes over 64 bits: no
        // instruction has a b128 min / max / inc / dec).
        self.r_lt_s.next = self.lt64.val();
        if self.w32.val() {
            self.r_lt_s.next = self.lt32.val();
        }
        if self.w16.val() {
            self.r_lt_s.next = self.lt0.val();
        }
        self.r_eq_s.next = self.eq0.val()
            & (self.w16.val()
                | (self.eq1.val() & (self.w32.val() | (self.eq2.val() & (self.w64.val() | self.eq3.val())))));
        self.r_zero.next = self.z0.val() & (self.w16.val() | (self.z1.val() & (self.w32.val() | self.z2.val())));
        self.sum_add.next = self.r64.val() + self.s64.val();
        self.sum_inc.next = self.r64.val() + self.k_one.val();
        self.sum_dec.next = self.r64.val() + self.k_ones.val();
        self.op_is_add.next = self.op.val() == self.op_add.val();
        // One-hot AND-OR of the three sums (0 for the other ops).
        self.sum_pick_add.next = self.k_zero64.val();
        if self.op_is_add.val() {
            self.sum_pick_add.next = self.sum_add.val();
        }
        self.sum_pick_inc.next = self.k_zero64.val();
        if self.op.val() == self.op_inc.val() {
            self.sum_pick_inc.next = self.sum_inc.val();
        }
        self.sum_pick_dec.next = self.k_zero64.val();
        if self.op.val() == self.op_dec.val() {
            self.sum_pick_dec.next = self.sum_dec.val();
        }
        self.sum.next = self.sum_pick_add.val() | self.sum_pick_inc.val() | self.sum_pick_dec.val();
        self.wide_sum.narrow.next = self.sum.val();
        self.bitwise.next = self.k_zero.val();
        if self.op.val() == self.op_and.val() {
            self.bitwise.next = self.r.val() & self.s.val();
        }
        if self.op.val() == self.op_or.val() {
            self.bitwise.next = self.r.val() | self.s.val();
        }
        if self.op.val() == self.op_xor.val() {
            self.bitwise.next = self.r.val() ^ self.s.val();
        }
        self.wide_minmax_lo.narrow.next = self.minmax_lo.result.val();
        self.wide_minmax_hi.narrow.next = self.minmax_hi.result.val();
        self.half_minmax.next = self.wide_minmax_lo.wide.val();
        if self.is_f16x2.val() | self.is_bf16x2.val() {
            self.half_minmax.next = self.wide_minmax_lo.wide.val() | (self.wide_minmax_hi.wide.val() << 16);
        }
        self.pick_half.next = self.minmax_op.val()
            & (self.is_f16.val() | self.is_bf16.val() | self.is_f16x2.val() | self.is_bf16x2.val());
        self.op_is_cas.next = self.op.val() == self.op_cas.val();
        self.op_is_exch.next = self.op.val() == self.op_exch.val();
        self.op_is_inc.next = self.op.val() == self.op_inc.val();
        self.op_is_dec.next = self.op.val() == self.op_dec.val();
        self.op_is_min.next = self.op.val() == self.op_min.val();
        self.op_is_max.next = self.op.val() == self.op_max.val();
        self.int_minmax.next = self.minmax_op.val() & !self.pick_half.val();
        // The condition: the only part of the integer result that waits for a compare.
        self.int_cond.next = self.op_is_add.val()
            | (self.op_is_cas.val() & self.r_eq_s.val())
            | (self.op_is_inc.val() & self.r_lt_s.val())
            | (self.op_is_dec.val() & !self.r_zero.val() & (self.r_lt_s.val() | self.r_eq_s.val()))
            | (self.op_is_min.val() & !self.pick_half.val() & (self.r_lt_s.val() | self.r_eq_s.val()))
            | (self.op_is_max.val() & !self.pick_half.val() & !self.r_lt_s.val());
        // The candidates, by the op alone (each op sets at most one part of each).
        self.part_hi_t.next = self.k_zero.val();
        if self.op_is_cas.val() {
            self.part_hi_t.next = self.t.val();
        }
        self.part_hi_r.next = self.k_zero.val();
        if self.int_minmax.val() {
            self.part_hi_r.next = self.r.val();
        }
        self.part_hi_sum.next = self.wide_sum.wide.val();
        self.part_lo_r.next = self.k_zero.val();
        if self.op_is_cas.val() {
            self.part_lo_r.next = self.r.val();
        }
        self.part_lo_s.next = self.k_zero.val();
        if self.op_is_exch.val() | self.op_is_dec.val() | self.int_minmax.val() {
            self.part_lo_s.next = self.s.val();
        }
        self.part_lo_half.next = self.k_zero.val();
        if self.pick_half.val() {
            self.part_lo_half.next = self.half_minmax.val();
        }
        self.int_hi.next = self.part_hi_t.val() | self.part_hi_r.val() | self.part_hi_sum.val();
        self.int_lo.next = self.bitwise.val() | self.part_lo_r.val() | self.part_lo_s.val() | self.part_lo_half.val();
        // Stage registers (wires in a combinational element): the candidates and the condition,
        // then the picked value over the remaining stages.
        self.s1_int_cond.clock.next = self.clock.val();
        self.s1_int_cond.en.next = self.en.val();
        self.s1_int_cond.d.next = self.int_cond.val();
        self.s1_int_hi.clock.next = self.clock.val();
        self.s1_int_hi.en.next = self.en.val();
        self.s1_int_hi.d.next = self.int_hi.val();
        self.s1_int_lo.clock.next = self.clock.val();
        self.s1_int_lo.en.next = self.en.val();
        self.s1_int_lo.d.next = self.int_lo.val();
        self.int_val.next = self.s1_int_lo.q.val();
        if self.s1_int_cond.q.val() {
            self.int_val.next = self.s1_int_hi.q.val();
        }
        for k in 0..self.int_stage.len() {
            self.int_stage[k].clock.next = self.clock.val();
            self.int_stage[k].en.next = self.en.val();
        }
        for k in 0..self.int_stage.len().min(1) {
            self.int_stage[k].d.next = self.int_val.val();
        }
        for k in 1..self.int_stage.len() {
            self.int_stage[k].d.next = self.int_stage[k - 1].q.val();
        }

        // ---- the output select's decode, carried with the operands ----
        self.is_float_add.next = (self.op.val() == self.op_add.val())
            & (self.is_f32.val()
                | self.is_f64.val()
                | self.is_f16.val()
                | self.is_bf16.val()
                | self.is_f16x2.val()
                | self.is_bf16x2.val());
        for i in 0..self.sel_part.len() {
            self.sel_part[i].next = 0.into();
        }
        if self.is_bf16_kind.val() {
            self.sel_part[0].next = self.k_sel_bit[0].val();
        }
        if self.is_f64.val() {
            self.sel_part[1].next = self.k_sel_bit[1].val();
        }
        if self.is_f16.val() | self.is_bf16.val() {
            self.sel_part[2].next = self.k_sel_bit[2].val();
        }
        if self.is_f16x2.val() | self.is_bf16x2.val() {
            self.sel_part[3].next = self.k_sel_bit[3].val();
        }
        if self.is_float_add.val() {
            self.sel_part[4].next = self.k_sel_bit[4].val();
        }
        if self.w16.val() {
            self.sel_part[5].next = self.k_sel_bit[5].val();
        }
        if self.w32.val() {
            self.sel_part[6].next = self.k_sel_bit[6].val();
        }
        if self.w64.val() {
            self.sel_part[7].next = self.k_sel_bit[7].val();
        }
        self.sel.next = self.sel_part[0].val()
            | self.sel_part[1].val()
            | self.sel_part[2].val()
            | self.sel_part[3].val()
            | self.sel_part[4].val()
            | self.sel_part[5].val()
            | self.sel_part[6].val()
            | self.sel_part[7].val();
        for k in 0..self.sel_stage.len() {
            self.sel_stage[k].clock.next = self.clock.val();
            self.sel_stage[k].en.next = self.en.val();
        }
        for k in 0..self.sel_stage.len().min(1) {
            self.sel_stage[k].d.next = self.sel.val();
        }
        for k in 1..self.sel_stage.len() {
            self.sel_stage[k].d.next = self.sel_stage[k - 1].q.val();
        }
        self.out_sel.next = self.sel.val();
        for k in 0..self.sel_stage.len() {
            self.out_sel.next = self.sel_stage[k].q.val();
        }

        // ---- the float add's result, widened to the element width (by the carried decode) ----
        self.half_sum_lo.next = self.add_f16_lo.sum.val();
        self.half_sum_hi.next = self.add_f16_hi.sum.val();
        if self.out_sel.val().get_bit(0) {
            self.half_sum_lo.next = self.add_bf16_lo.sum.val();
            self.half_sum_hi.next = self.add_bf16_hi.sum.val();
        }
        self.wide_f32.narrow.next = self.add_f32.sum.val();
        self.wide_f64.narrow.next = self.add_f64.sum.val();
        self.wide_half_lo.narrow.next = self.half_sum_lo.val();
        self.wide_half_hi.narrow.next = self.half_sum_hi.val();
        self.float_sum.next = self.wide_f32.wide.val();
        if self.out_sel.val().get_bit(1) {
            self.float_sum.next = self.wide_f64.wide.val();
        }
        if self.out_sel.val().get_bit(2) {
            self.float_sum.next = self.wide_half_lo.wide.val();
        }
        if self.out_sel.val().get_bit(3) {
            self.float_sum.next = self.wide_half_lo.wide.val() | (self.wide_half_hi.wide.val() << 16);
        }
        self.out_mask.next = self.k_mask128.val();
        if self.out_sel.val().get_bit(5) {
            self.out_mask.next = self.k_mask16.val();
        }
        if self.out_sel.val().get_bit(6) {
            self.out_mask.next = self.k_mask32.val();
        }
        if self.out_sel.val().get_bit(7) {
            self.out_mask.next = self.k_mask64.val();
        }

        // ---- select ----
        self.raw.next = self.int_val.val();
        for k in 0..self.int_stage.len() {
            self.raw.next = self.int_stage[k].q.val();
        }
        if self.out_sel.val().get_bit(4) {
            self.raw.next = self.float_sum.val();
        }
        self.value.next = self.raw.val() & self.out_mask.val();
    }
}
