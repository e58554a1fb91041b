//! One IEEE-754 binary add with round-to-nearest-even, for any format whose total width `W` is
//! the datapath width: f16 / bf16 (`W = 16`), f32 (`W = 32`), f64 (`W = 64`). The exponent and
//! mantissa widths are per-instance constants (`FloatFormat`), so one block serves every format
//! (rust-hdl cannot derive a width like `M + 5` from const generics; `W` is always wide enough:
//! the significand with its hidden bit, three guard/round/sticky bits and a carry bit need
//! `M + 5 <= 1 + E + M` bits, true for `E >= 4`).
//!
//! Ports (combinational when built with `registered = false`; else `sum` is the add of the
//! operands [`ADD_LATENCY`] enabled clock edges before, `ftz` going with them):
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `en` | in | 1 | the stage registers move at an edge where `en` is high |
//! | `a`, `b` | in | W | operands |
//! | `ftz` | in | 1 | flush subnormal inputs and a subnormal result to zero, sign kept (f32 global rule) |
//! | `sum` | out | W | `a + b` rounded to nearest even |
//!
//! Stages (registered instance): 1 unpack, classify, order by magnitude, exponent difference;
//! 2 align and add (and the normalising shift's limit from the exponent); 3 leading zeros and
//! normalise; 4 round, compose, flush, special operands.
//!
//! Rules, as `smsync_sim::units::float` (the golden model this block is tested against):
//! a NaN result (NaN operand, or inf + -inf) is the format's canonical NaN (`0x7FFF`,
//! `0x7FFF_FFFF`, `0x7FFF_FFFF_FFFF_FFFF`); subnormals are kept unless `ftz`; an exact zero sum
//! of operands with different signs is +0; overflow rounds to infinity.
//!
//! Datapath: order the operands by magnitude, shift the smaller significand right by the
//! exponent difference (the bits shifted out OR-ed into a sticky bit), add or subtract, then
//! normalise (one right shift after a carry, or a left shift by the leading-zero count, limited
//! so the exponent does not go below the subnormal exponent), round on the guard / round /
//! sticky bits, and compose `((exp - 1) << M) + significand`, which lets a rounding carry move a
//! subnormal to the smallest normal and the largest finite value to infinity without a special
//! case.
//!
//! Area and depth: the shift amounts are cut to log2(W) bits, the sticky bit is the aligned-out
//! bits under a thermometer mask (not a second shift back and a compare), the rounding increment
//! and the sign are each one adder / OR, and the normalising left shift is stopped by a floor
//! bit (not a W-deep priority chain with a clamp after it). The shift runs in steps from the
//! largest down, each step's zero test a mux tree over window ORs of its input (moved by the
//! earlier steps' outcomes), not a test of the shifted value and not after a full leading-zero
//! count: the steps follow each other one mux apart (the count, for the exponent, is the steps'
//! outcomes). Before, a smear / one-hot / OR tree counted the zeros and a shifter by the count
//! followed (17 LUT levels for f64, 30 with the priority chain, 2026-12-03,
//! docs/units/atomic_alu.md).

use rust_hdl::prelude::*;

use super::width::{Truncate, ZeroExtend};
use crate::stage_reg::StageReg;

/// Exponent and mantissa (fraction) widths of a binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatFormat {
    pub exp_bits: usize,
    pub man_bits: usize,
    /// The NaN every NaN result is replaced with (as the golden model and NVIDIA units do).
    pub canonical_nan: u64,
}

pub const F16: FloatFormat = FloatFormat { exp_bits: 5, man_bits: 10, canonical_nan: 0x7FFF };
pub const BF16: FloatFormat = FloatFormat { exp_bits: 8, man_bits: 7, canonical_nan: 0x7FFF };
pub const F32: FloatFormat = FloatFormat { exp_bits: 8, man_bits: 23, canonical_nan: 0x7FFF_FFFF };
pub const F64: FloatFormat = FloatFormat { exp_bits: 11, man_bits: 52, canonical_nan: 0x7FFF_FFFF_FFFF_FFFF };

/// Width of the exponent arithmetic (biased exponents up to 2047 plus a carry).
const EXP_W: usize = 16;

/// Bits of a leading-zero count (P < W <= 64).
const LZ_BITS: usize = 6;

/// Clock edges from the operands to `sum` in a registered adder.
pub const ADD_LATENCY: usize = 3;

#[derive(LogicBlock)]
pub struct FloatAdder<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub en: Signal<In, Bit>,
    pub a: Signal<In, Bits<W>>,
    pub b: Signal<In, Bits<W>>,
    pub ftz: Signal<In, Bit>,
    pub sum: Signal<Out, Bits<W>>,

    // ---- unpacked operands ----
    fa: Signal<Local, Bits<W>>,
    fb: Signal<Local, Bits<W>>,
    /// The exponent fields shifted down, still W bits wide, and cut to EXP_W bits.
    xa: Signal<Local, Bits<W>>,
    xb: Signal<Local, Bits<W>>,
    cut_ea: Truncate<W, EXP_W>,
    cut_eb: Truncate<W, EXP_W>,
    ea: Signal<Local, Bits<EXP_W>>,
    eb: Signal<Local, Bits<EXP_W>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    a_sig: Signal<Local, Bits<W>>,
    b_sig: Signal<Local, Bits<W>>,
    a_exp: Signal<Local, Bits<EXP_W>>,
    b_exp: Signal<Local, Bits<EXP_W>>,
    /// The result for a NaN or infinite operand (canonical NaN, or the infinity), and whether
    /// it replaces the sum; from stage 1 on.
    special: Signal<Local, Bits<W>>,
    is_special: Signal<Local, Bit>,
    // ---- stage registers after stage 1, 2, 3 ----
    s1_big_sig: StageReg<Bits<W>>,
    s1_small_sig: StageReg<Bits<W>>,
    s1_big_exp: StageReg<Bits<EXP_W>>,
    s1_exp_diff: StageReg<Bits<EXP_W>>,
    s1_big_sign: StageReg<Bit>,
    s1_small_sign: StageReg<Bit>,
    s1_special: StageReg<Bits<W>>,
    s1_is_special: StageReg<Bit>,
    s2_raw: StageReg<Bits<W>>,
    s2_big_exp: StageReg<Bits<EXP_W>>,
    s2_big_sign: StageReg<Bit>,
    s2_small_sign: StageReg<Bit>,
    s2_special: StageReg<Bits<W>>,
    s2_is_special: StageReg<Bit>,
    s2_floor: StageReg<Bits<W>>,
    s3_normed: StageReg<Bits<W>>,
    s3_exp_n: StageReg<Bits<EXP_W>>,
    s3_raw_zero: StageReg<Bit>,
    s3_big_sign: StageReg<Bit>,
    s3_small_sign: StageReg<Bit>,
    s3_special: StageReg<Bits<W>>,
    s3_is_special: StageReg<Bit>,
    /// `ftz` carried with the operands to the last stage's flush (so that it starts from a
    /// register, not from the port's driver).
    s1_ftz: StageReg<Bit>,
    s2_ftz: StageReg<Bit>,
    s3_ftz: StageReg<Bit>,
    // ---- ordered by magnitude ----
    swap: Signal<Local, Bit>,
    big_sig: Signal<Local, Bits<W>>,
    small_sig: Signal<Local, Bits<W>>,
    big_exp: Signal<Local, Bits<EXP_W>>,
    small_exp: Signal<Local, Bits<EXP_W>>,
    big_sign: Signal<Local, Bit>,
    small_sign: Signal<Local, Bit>,
    exp_diff: Signal<Local, Bits<EXP_W>>,
    /// `exp_diff` cut to log2(W) bits by a mask, so that the shifters have that many stages
    /// (where it is used the difference is below `k_far` <= W - 1).
    align_shift: Signal<Local, Bits<EXP_W>>,
    ext_small: Signal<Local, Bits<W>>,
    /// The bits the alignment shifts out (a thermometer mask of `align_shift` bits), and the sticky
    /// bit (any of them set) as a W-bit 0 or 1: no second shifter.
    out_mask: Signal<Local, Bits<W>>,
    sticky: Signal<Local, Bits<W>>,
    aligned: Signal<Local, Bits<W>>,
    raw: Signal<Local, Bits<W>>,
    /// `big_exp - 1`, the furthest a left shift may normalise (not below the subnormal
    /// exponent), and the floor bit `1 << (P - floor_dist)` (0 when that is below bit 0): OR-ed
    /// into `raw` before the leading zeros are counted, it stops the count at the limit, so no
    /// compare and mux follow the count.
    floor_dist: Signal<Local, Bits<EXP_W>>,
    floor: Signal<Local, Bits<W>>,
    // ---- normalise and round ----
    /// `raw | floor`, and that moved up so that bit `P` is the top bit (`y`).
    lz_in: Signal<Local, Bits<W>>,
    y: Signal<Local, Bits<W>>,
    /// The normalising shift in steps from the largest down (32, 16, 8, 4, 2, 1; the steps not
    /// below W left out): step m shifts left by its amount when the top `amount` bits of the
    /// value the earlier steps left are all zero (`z[m]`). The test is not made on the shifted
    /// value: `win[k]` bit i is the OR of the `2^k` bits of `y` ending at bit i, and step m's
    /// test is the top bit of its window, moved by the earlier steps' outcomes (`zrow`, the
    /// same shifts applied to the window bits; only the top bit is used, a mux tree), so the
    /// steps follow each other one mux apart, the largest step first (its test the earliest),
    /// not after a full count.
    win: Vec<Signal<Local, Bits<W>>>,
    zrow: Vec<Signal<Local, Bits<W>>>,
    z: Vec<Signal<Local, Bit>>,
    /// `raw` after each step (`shifted[LZ_BITS]`: normalised), and the count's bits.
    shifted: Vec<Signal<Local, Bits<W>>>,
    lz_bit: Vec<Signal<Local, Bits<EXP_W>>>,
    /// The left shift that normalises `raw`: its leading zeros from the hidden-bit position
    /// `P` down, at most `floor_dist`.
    lz: Signal<Local, Bits<EXP_W>>,
    normed: Signal<Local, Bits<W>>,
    exp_n: Signal<Local, Bits<EXP_W>>,
    round_up: Signal<Local, Bit>,
    /// 1 when rounding up, else 0; the sign bit or 0: each added / OR-ed in one expression, so
    /// that each is one adder, not one per branch.
    round_w: Signal<Local, Bits<W>>,
    sign_w: Signal<Local, Bits<W>>,
    mant: Signal<Local, Bits<W>>,
    /// The result's exponent field (exp - 1), widened to W bits to be shifted into place.
    exp_field: Signal<Local, Bits<EXP_W>>,
    widen_exp: ZeroExtend<EXP_W, W>,
    result: Signal<Local, Bits<W>>,
    flushed: Signal<Local, Bits<W>>,

    // ---- format constants ----
    k_sign: Constant<Bits<W>>,
    k_mag: Constant<Bits<W>>,
    k_frac: Constant<Bits<W>>,
    k_exp_field: Constant<Bits<W>>,
    k_hidden: Constant<Bits<W>>,
    /// A carry out of the significand addition.
    k_carry: Constant<Bits<W>>,
    k_nan: Constant<Bits<W>>,
    k_inf: Constant<Bits<W>>,
    k_zero: Constant<Bits<W>>,
    k_one: Constant<Bits<W>>,
    k_exp_max: Constant<Bits<EXP_W>>,
    k_e0: Constant<Bits<EXP_W>>,
    k_e1: Constant<Bits<EXP_W>>,
    /// Exponent differences at or beyond this shift the smaller significand out entirely.
    k_far: Constant<Bits<EXP_W>>,
    /// `W - 1` (W a power of two): the mask that cuts a shift amount to log2(W) bits.
    k_dist_mask: Constant<Bits<EXP_W>>,
    k_ones: Constant<Bits<W>>,
    /// The hidden-bit position `P`, and that bit alone.
    k_p: Constant<Bits<EXP_W>>,
    k_top: Constant<Bits<W>>,
    /// `W - 1 - P` (bit P of `lz_in` to the top), the top bit, the steps' amounts (32 .. 1)
    /// and whether each is below W.
    k_align: Constant<Bits<W>>,
    k_msb: Constant<Bits<W>>,
    k_amt: Vec<Constant<Bits<W>>>,
    k_step_on: Vec<Constant<Bit>>,
    /// `1 << j`, the count's bit j.
    k_pow: Vec<Constant<Bits<EXP_W>>>,
    k_man_bits: Constant<Bits<EXP_W>>,
}

fn bits_of<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

fn mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl<const W: usize> FloatAdder<W> {
    /// An adder for `format`: pipelined over [`ADD_LATENCY`] clock edges (`registered`), or
    /// combinational.
    pub fn new(format: FloatFormat, registered: bool) -> Self {
        let (e, m) = (format.exp_bits, format.man_bits);
        assert_eq!(1 + e + m, W, "FloatAdder<{W}> needs a format of {W} bits");
        assert!(e >= 4, "the datapath needs E >= 4 for its guard and carry bits");
        // Position of the hidden bit after <<3: P = M + 3; the significand occupies bits P..0.
        let p = m + 3;
        assert!(W.is_power_of_two() && p + 1 < W, "FloatAdder<{W}>: W a power of two above P + 1");
        FloatAdder {
            clock: Default::default(),
            en: Default::default(),
            special: Default::default(),
            is_special: Default::default(),
            s1_big_sig: StageReg::new(registered),
            s1_small_sig: StageReg::new(registered),
            s1_big_exp: StageReg::new(registered),
            s1_exp_diff: StageReg::new(registered),
            s1_big_sign: StageReg::new(registered),
            s1_small_sign: StageReg::new(registered),
            s1_special: StageReg::new(registered),
            s1_is_special: StageReg::new(registered),
            s2_raw: StageReg::new(registered),
            s2_big_exp: StageReg::new(registered),
            s2_big_sign: StageReg::new(registered),
            s2_small_sign: StageReg::new(registered),
            s2_special: StageReg::new(registered),
            s2_is_special: StageReg::new(registered),
            s2_floor: StageReg::new(registered),
            s3_normed: StageReg::new(registered),
            s3_exp_n: StageReg::new(registered),
            s3_raw_zero: StageReg::new(registered),
            s3_big_sign: StageReg::new(registered),
            s3_small_sign: StageReg::new(registered),
            s3_special: StageReg::new(registered),
            s3_is_special: StageReg::new(registered),
            s1_ftz: StageReg::new(registered),
            s2_ftz: StageReg::new(registered),
            s3_ftz: StageReg::new(registered),
            a: Default::default(),
            b: Default::default(),
            ftz: Default::default(),
            sum: Default::default(),
            fa: Default::default(),
            fb: Default::default(),
            xa: Default::default(),
            xb: Default::default(),
            cut_ea: Default::default(),
            cut_eb: Default::default(),
            ea: Default::default(),
            eb: Default::default(),
            a_nan: Default::default(),
            b_nan: Default::default(),
            a_inf: Default::default(),
            b_inf: Default::default(),
            a_sig: Default::default(),
            b_sig: Default::default(),
            a_exp: Default::default(),
            b_exp: Default::default(),
            swap: Default::default(),
            big_sig: Default::default(),
            small_sig: Default::default(),
            big_exp: Default::default(),
            small_exp: Default::default(),
            big_sign: Default::default(),
            small_sign: Default::default(),
            exp_diff: Default::default(),
            align_shift: Default::default(),
            ext_small: Default::default(),
            out_mask: Default::default(),
            sticky: Default::default(),
            aligned: Default::default(),
            raw: Default::default(),
            floor_dist: Default::default(),
            floor: Default::default(),
            lz_in: Default::default(),
            y: Default::default(),
            win: (0..LZ_BITS).map(|_| Default::default()).collect(),
            zrow: (0..LZ_BITS * (LZ_BITS - 1) / 2).map(|_| Default::default()).collect(),
            z: (0..LZ_BITS).map(|_| Default::default()).collect(),
            shifted: (0..=LZ_BITS).map(|_| Default::default()).collect(),
            lz_bit: (0..LZ_BITS).map(|_| Default::default()).collect(),
            lz: Default::default(),
            normed: Default::default(),
            exp_n: Default::default(),
            round_up: Default::default(),
            round_w: Default::default(),
            sign_w: Default::default(),
            mant: Default::default(),
            exp_field: Default::default(),
            widen_exp: Default::default(),
            result: Default::default(),
            flushed: Default::default(),
            k_sign: bits_of(1u64 << (W - 1)),
            k_mag: bits_of(mask(W - 1)),
            k_frac: bits_of(mask(m)),
            k_exp_field: bits_of(mask(e) << m),
            k_hidden: bits_of(1u64 << m),
            k_carry: bits_of(1u64 << (p + 1)),
            k_nan: bits_of(format.canonical_nan),
            k_inf: bits_of(mask(e) << m),
            k_zero: bits_of(0),
            k_one: bits_of(1),
            k_exp_max: bits_of(mask(e)),
            k_e0: bits_of(0),
            k_e1: bits_of(1),
            k_far: bits_of((p + 1) as u64),
            k_dist_mask: bits_of(W as u64 - 1),
            k_ones: bits_of(mask(W)),
            k_p: bits_of(p as u64),
            k_top: bits_of(1u64 << p),
            k_align: bits_of((W - 1 - p) as u64),
            k_msb: bits_of(1u64 << (W - 1)),
            k_amt: (0..LZ_BITS).map(|m| bits_of(1u64 << (LZ_BITS - 1 - m))).collect(),
            k_step_on: (0..LZ_BITS).map(|m| Constant::new((1usize << (LZ_BITS - 1 - m)) < W)).collect(),
            k_pow: (0..LZ_BITS).map(|j| bits_of(1u64 << j)).collect(),
            k_man_bits: bits_of(m as u64),
        }
    }
}

impl<const W: usize> Logic for FloatAdder<W> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- flush (f32 global rule), unpack, classify ----
        self.fa.next = self.a.val();
        if self.ftz.val() & ((self.a.val() & self.k_exp_field.val()) == self.k_zero.val()) {
            self.fa.next = self.a.val() & self.k_sign.val();
        }
        self.fb.next = self.b.val();
        if self.ftz.val() & ((self.b.val() & self.k_exp_field.val()) == self.k_zero.val()) {
            self.fb.next = self.b.val() & self.k_sign.val();
        }
        self.xa.next = (self.fa.val() & self.k_exp_field.val()) >> self.k_man_bits.val();
        self.xb.next = (self.fb.val() & self.k_exp_field.val()) >> self.k_man_bits.val();
        self.cut_ea.wide.next = self.xa.val();
        self.cut_eb.wide.next = self.xb.val();
        self.ea.next = self.cut_ea.narrow.val();
        self.eb.next = self.cut_eb.narrow.val();
        self.a_nan.next = (self.ea.val() == self.k_exp_max.val()) & (self.fa.val() & self.k_frac.val()).any();
        self.b_nan.next = (self.eb.val() == self.k_exp_max.val()) & (self.fb.val() & self.k_frac.val()).any();
        self.a_inf.next = (self.ea.val() == self.k_exp_max.val()) & !(self.fa.val() & self.k_frac.val()).any();
        self.b_inf.next = (self.eb.val() == self.k_exp_max.val()) & !(self.fb.val() & self.k_frac.val()).any();
        // Significand with the hidden bit; a subnormal has exponent 1 and no hidden bit.
        self.a_sig.next = (self.fa.val() & self.k_frac.val()) | self.k_hidden.val();
        self.a_exp.next = self.ea.val();
        if self.ea.val() == self.k_e0.val() {
            self.a_sig.next = self.fa.val() & self.k_frac.val();
            self.a_exp.next = self.k_e1.val();
        }
        self.b_sig.next = (self.fb.val() & self.k_frac.val()) | self.k_hidden.val();
        self.b_exp.next = self.eb.val();
        if self.eb.val() == self.k_e0.val() {
            self.b_sig.next = self.fb.val() & self.k_frac.val();
            self.b_exp.next = self.k_e1.val();
        }

        // ---- order by magnitude (the encoding orders non-NaN magnitudes) ----
        self.swap.next = (self.fb.val() & self.k_mag.val()) > (self.fa.val() & self.k_mag.val());
        self.big_sig.next = self.a_sig.val();
        self.big_exp.next = self.a_exp.val();
        self.big_sign.next = (self.fa.val() & self.k_sign.val()).any();
        self.small_sig.next = self.b_sig.val();
        self.small_exp.next = self.b_exp.val();
        self.small_sign.next = (self.fb.val() & self.k_sign.val()).any();
        if self.swap.val() {
            self.big_sig.next = self.b_sig.val();
            self.big_exp.next = self.b_exp.val();
            self.big_sign.next = (self.fb.val() & self.k_sign.val()).any();
            self.small_sig.next = self.a_sig.val();
            self.small_exp.next = self.a_exp.val();
            self.small_sign.next = (self.fa.val() & self.k_sign.val()).any();
        }

        // NaN or infinite operands decide the result alone (checked at stage 4's end).
        self.special.next = self.fa.val();
        if self.b_inf.val() {
            self.special.next = self.fb.val();
        }
        if self.a_nan.val()
            | self.b_nan.val()
            | (self.a_inf.val() & self.b_inf.val() & (self.big_sign.val() != self.small_sign.val()))
        {
            self.special.next = self.k_nan.val();
        }
        self.is_special.next = self.a_inf.val() | self.b_inf.val() | self.a_nan.val() | self.b_nan.val();
        self.exp_diff.next = self.big_exp.val() - self.small_exp.val();

        // ==== stage 2 ====
        self.s1_big_sig.clock.next = self.clock.val();
        self.s1_big_sig.en.next = self.en.val();
        self.s1_big_sig.d.next = self.big_sig.val();
        self.s1_small_sig.clock.next = self.clock.val();
        self.s1_small_sig.en.next = self.en.val();
        self.s1_small_sig.d.next = self.small_sig.val();
        self.s1_big_exp.clock.next = self.clock.val();
        self.s1_big_exp.en.next = self.en.val();
        self.s1_big_exp.d.next = self.big_exp.val();
        self.s1_exp_diff.clock.next = self.clock.val();
        self.s1_exp_diff.en.next = self.en.val();
        self.s1_exp_diff.d.next = self.exp_diff.val();
        self.s1_big_sign.clock.next = self.clock.val();
        self.s1_big_sign.en.next = self.en.val();
        self.s1_big_sign.d.next = self.big_sign.val();
        self.s1_small_sign.clock.next = self.clock.val();
        self.s1_small_sign.en.next = self.en.val();
        self.s1_small_sign.d.next = self.small_sign.val();
        self.s1_special.clock.next = self.clock.val();
        self.s1_special.en.next = self.en.val();
        self.s1_special.d.next = self.special.val();
        self.s1_is_special.clock.next = self.clock.val();
        self.s1_is_special.en.next = self.en.val();
        self.s1_is_special.d.next = self.is_special.val();
        self.s1_ftz.clock.next = self.clock.val();
        self.s1_ftz.en.next = self.en.val();
        self.s1_ftz.d.next = self.ftz.val();
        // ---- align: shift the smaller one right, bits shifted out become the sticky bit ----
        self.ext_small.next = self.s1_small_sig.q.val() << 3;
        self.align_shift.next = self.s1_exp_diff.q.val() & self.k_dist_mask.val();
        self.out_mask.next = !(self.k_ones.val() << self.align_shift.val());
        self.sticky.next = self.k_zero.val();
        if (self.ext_small.val() & self.out_mask.val()).any() {
            self.sticky.next = self.k_one.val();
        }
        if self.s1_exp_diff.q.val() >= self.k_far.val() {
            self.aligned.next = self.k_zero.val();
            if self.ext_small.val().any() {
                self.aligned.next = self.k_one.val();
            }
        } else {
            self.aligned.next = (self.ext_small.val() >> self.align_shift.val()) | self.sticky.val();
        }
        // ---- add or subtract (big >= small in magnitude, so the difference is not negative) ----
        if self.s1_big_sign.q.val() == self.s1_small_sign.q.val() {
            self.raw.next = (self.s1_big_sig.q.val() << 3) + self.aligned.val();
        } else {
            self.raw.next = (self.s1_big_sig.q.val() << 3) - self.aligned.val();
        }

        // ---- the normalising shift's limit, from the exponent (beside the add) ----
        self.floor_dist.next = self.s1_big_exp.q.val() - self.k_e1.val();
        self.floor.next = self.k_zero.val();
        if self.floor_dist.val() <= self.k_p.val() {
            self.floor.next = self.k_top.val() >> (self.floor_dist.val() & self.k_dist_mask.val());
        }

        // ==== stage 3 ====
        self.s2_floor.clock.next = self.clock.val();
        self.s2_floor.en.next = self.en.val();
        self.s2_floor.d.next = self.floor.val();
        self.s2_raw.clock.next = self.clock.val();
        self.s2_raw.en.next = self.en.val();
        self.s2_raw.d.next = self.raw.val();
        self.s2_big_exp.clock.next = self.clock.val();
        self.s2_big_exp.en.next = self.en.val();
        self.s2_big_exp.d.next = self.s1_big_exp.q.val();
        self.s2_big_sign.clock.next = self.clock.val();
        self.s2_big_sign.en.next = self.en.val();
        self.s2_big_sign.d.next = self.s1_big_sign.q.val();
        self.s2_small_sign.clock.next = self.clock.val();
        self.s2_small_sign.en.next = self.en.val();
        self.s2_small_sign.d.next = self.s1_small_sign.q.val();
        self.s2_special.clock.next = self.clock.val();
        self.s2_special.en.next = self.en.val();
        self.s2_special.d.next = self.s1_special.q.val();
        self.s2_is_special.clock.next = self.clock.val();
        self.s2_is_special.en.next = self.en.val();
        self.s2_is_special.d.next = self.s1_is_special.q.val();
        self.s2_ftz.clock.next = self.clock.val();
        self.s2_ftz.en.next = self.en.val();
        self.s2_ftz.d.next = self.s1_ftz.q.val();
        // ---- leading zeros from the hidden-bit position down, stopped at the floor bit ----
        // (A carry leaves lz 0, unused; raw = 0 gives the zero result below whatever lz is.)
        self.lz_in.next = self.s2_raw.q.val() | self.s2_floor.q.val();
        self.y.next = self.lz_in.val() << self.k_align.val();
        self.win[0].next = self.y.val();
        for k in 1..6 {
            self.win[k].next = self.win[k - 1].val() | (self.win[k - 1].val() << self.k_amt[6 - k].val());
        }
        self.shifted[0].next = self.s2_raw.q.val();
        // step 0: shift by 32
        self.z[0].next = self.k_step_on[0].val() & !(self.win[5].val() & self.k_msb.val()).any();
        self.shifted[1].next = self.shifted[0].val();
        self.lz_bit[5].next = self.k_e0.val();
        if self.z[0].val() {
            self.shifted[1].next = self.shifted[0].val() << self.k_amt[0].val();
            self.lz_bit[5].next = self.k_pow[5].val();
        }
        // step 1: shift by 16
        self.zrow[0].next = self.win[4].val();
        if self.z[0].val() {
            self.zrow[0].next = self.win[4].val() << self.k_amt[0].val();
        }
        self.z[1].next = self.k_step_on[1].val() & !(self.zrow[0].val() & self.k_msb.val()).any();
        self.shifted[2].next = self.shifted[1].val();
        self.lz_bit[4].next = self.k_e0.val();
        if self.z[1].val() {
            self.shifted[2].next = self.shifted[1].val() << self.k_amt[1].val();
            self.lz_bit[4].next = self.k_pow[4].val();
        }
        // step 2: shift by 8
        self.zrow[1].next = self.win[3].val();
        if self.z[0].val() {
            self.zrow[1].next = self.win[3].val() << self.k_amt[0].val();
        }
        self.zrow[2].next = self.zrow[1].val();
        if self.z[1].val() {
            self.zrow[2].next = self.zrow[1].val() << self.k_amt[1].val();
        }
        self.z[2].next = self.k_step_on[2].val() & !(self.zrow[2].val() & self.k_msb.val()).any();
        self.shifted[3].next = self.shifted[2].val();
        self.lz_bit[3].next = self.k_e0.val();
        if self.z[2].val() {
            self.shifted[3].next = self.shifted[2].val() << self.k_amt[2].val();
            self.lz_bit[3].next = self.k_pow[3].val();
        }
        // step 3: shift by 4
        self.zrow[3].next = self.win[2].val();
        if self.z[0].val() {
            self.zrow[3].next = self.win[2].val() << self.k_amt[0].val();
        }
        self.zrow[4].next = self.zrow[3].val();
        if self.z[1].val() {
            self.zrow[4].next = self.zrow[3].val() << self.k_amt[1].val();
        }
        self.zrow[5].next = self.zrow[4].val();
        if self.z[2].val() {
            self.zrow[5].next = self.zrow[4].val() << self.k_amt[2].val();
        }
        self.z[3].next = self.k_step_on[3].val() & !(self.zrow[5].val() & self.k_msb.val()).any();
        self.shifted[4].next = self.shifted[3].val();
        self.lz_bit[2].next = self.k_e0.val();
        if self.z[3].val() {
            self.shifted[4].next = self.shifted[3].val() << self.k_amt[3].val();
            self.lz_bit[2].next = self.k_pow[2].val();
        }
        // step 4: shift by 2
        self.zrow[6].next = self.win[1].val();
        if self.z[0].val() {
            self.zrow[6].next = self.win[1].val() << self.k_amt[0].val();
        }
        self.zrow[7].next = self.zrow[6].val();
        if self.z[1].val() {
            self.zrow[7].next = self.zrow[6].val() << self.k_amt[1].val();
        }
        self.zrow[8].next = self.zrow[7].val();
        if self.z[2].val() {
            self.zrow[8].next = self.zrow[7].val() << self.k_amt[2].val();
        }
        self.zrow[9].next = self.zrow[8].val();
        if self.z[3].val() {
            self.zrow[9].next = self.zrow[8].val() << self.k_amt[3].val();
        }
        self.z[4].next = self.k_step_on[4].val() & !(self.zrow[9].val() & self.k_msb.val()).any();
        self.shifted[5].next = self.shifted[4].val();
        self.lz_bit[1].next = self.k_e0.val();
        if self.z[4].val() {
            self.shifted[5].next = self.shifted[4].val() << self.k_amt[4].val();
            self.lz_bit[1].next = self.k_pow[1].val();
        }
        // step 5: shift by 1
        self.zrow[10].next = self.win[0].val();
        if self.z[0].val() {
            self.zrow[10].next = self.win[0].val() << self.k_amt[0].val();
        }
        self.zrow[11].next = self.zrow[10].val();
        if self.z[1].val() {
            self.zrow[11].next = self.zrow[10].val() << self.k_amt[1].val();
        }
        self.zrow[12].next = self.zrow[11].val();
        if self.z[2].val() {
            self.zrow[12].next = self.zrow[11].val() << self.k_amt[2].val();
        }
        self.zrow[13].next = self.zrow[12].val();
        if self.z[3].val() {
            self.zrow[13].next = self.zrow[12].val() << self.k_amt[3].val();
        }
        self.zrow[14].next = self.zrow[13].val();
        if self.z[4].val() {
            self.zrow[14].next = self.zrow[13].val() << self.k_amt[4].val();
        }
        self.z[5].next = self.k_step_on[5].val() & !(self.zrow[14].val() & self.k_msb.val()).any();
        self.shifted[6].next = self.shifted[5].val();
        self.lz_bit[0].next = self.k_e0.val();
        if self.z[5].val() {
            self.shifted[6].next = self.shifted[5].val() << self.k_amt[5].val();
            self.lz_bit[0].next = self.k_pow[0].val();
        }
        self.lz.next = self.lz_bit[0].val()
            | self.lz_bit[1].val()
            | self.lz_bit[2].val()
            | self.lz_bit[3].val()
            | self.lz_bit[4].val()
            | self.lz_bit[5].val();

        // ---- normalise: carry -> one right shift (sticky kept); else left by lz ----
        if (self.s2_raw.q.val() & self.k_carry.val()).any() {
            self.normed.next = (self.s2_raw.q.val() >> 1) | (self.s2_raw.q.val() & self.k_one.val());
            self.exp_n.next = self.s2_big_exp.q.val() + self.k_e1.val();
        } else {
            self.normed.next = self.shifted[6].val();
            self.exp_n.next = self.s2_big_exp.q.val() - self.lz.val();
        }
        // ==== stage 4 ====
        self.s3_normed.clock.next = self.clock.val();
        self.s3_normed.en.next = self.en.val();
        self.s3_normed.d.next = self.normed.val();
        self.s3_exp_n.clock.next = self.clock.val();
        self.s3_exp_n.en.next = self.en.val();
        self.s3_exp_n.d.next = self.exp_n.val();
        self.s3_raw_zero.clock.next = self.clock.val();
        self.s3_raw_zero.en.next = self.en.val();
        self.s3_raw_zero.d.next = !self.s2_raw.q.val().any();
        self.s3_big_sign.clock.next = self.clock.val();
        self.s3_big_sign.en.next = self.en.val();
        self.s3_big_sign.d.next = self.s2_big_sign.q.val();
        self.s3_small_sign.clock.next = self.clock.val();
        self.s3_small_sign.en.next = self.en.val();
        self.s3_small_sign.d.next = self.s2_small_sign.q.val();
        self.s3_special.clock.next = self.clock.val();
        self.s3_special.en.next = self.en.val();
        self.s3_special.d.next = self.s2_special.q.val();
        self.s3_is_special.clock.next = self.clock.val();
        self.s3_is_special.en.next = self.en.val();
        self.s3_is_special.d.next = self.s2_is_special.q.val();
        self.s3_ftz.clock.next = self.clock.val();
        self.s3_ftz.en.next = self.en.val();
        self.s3_ftz.d.next = self.s2_ftz.q.val();
        // ---- round to nearest even on guard (bit 2), round (1), sticky (0), lsb (3) ----
        self.round_up.next = self.s3_normed.q.val().get_bit(2)
            & (self.s3_normed.q.val().get_bit(3)
                | self.s3_normed.q.val().get_bit(1)
                | self.s3_normed.q.val().get_bit(0));
        self.round_w.next = self.k_zero.val();
        if self.round_up.val() {
            self.round_w.next = self.k_one.val();
        }
        self.mant.next = (self.s3_normed.q.val() >> 3) + self.round_w.val();
        // (exp - 1) << M plus the significand with its hidden bit: a subnormal (no hidden bit,
        // exp 1) composes to exponent field 0, a rounding carry bumps the exponent field.
        self.exp_field.next = self.s3_exp_n.q.val() - self.k_e1.val();
        self.widen_exp.narrow.next = self.exp_field.val();
        self.sign_w.next = self.k_zero.val();
        if self.s3_big_sign.q.val() {
            self.sign_w.next = self.k_sign.val();
        }
        self.result.next = ((self.widen_exp.wide.val() << self.k_man_bits.val()) + self.mant.val()) | self.sign_w.val();
        if self.s3_exp_n.q.val() >= self.k_exp_max.val() {
            self.result.next = self.k_inf.val();
            if self.s3_big_sign.q.val() {
                self.result.next = self.k_inf.val() | self.k_sign.val();
            }
        }
        if self.s3_raw_zero.q.val() {
            // An exact zero: -0 only for (-0) + (-0); x + (-x) is +0 under round-to-nearest.
            self.result.next = self.k_zero.val();
            if self.s3_big_sign.q.val() & self.s3_small_sign.q.val() {
                self.result.next = self.k_sign.val();
            }
        }
        self.flushed.next = self.result.val();
        if self.s3_ftz.q.val() & ((self.result.val() & self.k_exp_field.val()) == self.k_zero.val()) {
            self.flushed.next = self.result.val() & self.k_sign.val();
        }

        // ---- special operands ----
        self.sum.next = self.flushed.val();
        if self.s3_is_special.q.val() {
            self.sum.next = self.s3_special.q.val();
        }
    }
}
