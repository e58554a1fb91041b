//! f16 / bf16 adds on the element's f64 and f32 adders: [`HalfWiden`] converts a 16-bit float
//! exactly to the adder's format, and [`HalfNarrow`] rounds the adder's sum back to the 16-bit
//! format, to nearest even.
//!
//! Why this is exact: the sum of two p-bit floats rounded to nearest even in a format of
//! p' >= 2p + 2 bits, then rounded to nearest even in the p-bit format, equals the sum rounded
//! once (double rounding is innocuous for addition when p' >= 2p + 2; f16 p = 11, bf16 p = 8;
//! f32 p' = 24, f64 p' = 53). The exponent range holds as well: every f16 value is an f32 and an
//! f64 normal, every bf16 value an f64 normal, and bf16 has f32's exponent field (the f32 path
//! keeps bf16 bits as they are: a bf16 is the upper half of the f32 of the same value, its
//! subnormals included). A sum in the 16-bit format's subnormal range is a multiple of that
//! format's smallest subnormal and so is exact in both formats, and an overflow in the wide
//! format's rounding is one in the 16-bit format's. The golden model computes the same adds in
//! f64 and rounds once (`smsync_sim::units::float::half_add`); PTX ISA §9.7.13.5 (`atom`,
//! `red`): `.noftz` f16 / bf16 adds round to nearest even and keep subnormals.
//!
//! So the element needs no 16-bit adders: the low half (and the scalar types) goes through the
//! f64 adder, the high half of f16x2 / bf16x2 through the f32 adder (the f32 adder's flush-to-zero
//! is off for them).
//!
//! Both blocks are combinational. `bf16` selects the 16-bit format (1 = bf16, 0 = f16).

use rust_hdl::prelude::*;

use super::float_add::FloatFormat;
use super::width::{Truncate, ZeroExtend};

/// A 16-bit format's fields: exponent bits, fraction bits, bias.
struct HalfFormat {
    exp_bits: usize,
    man_bits: usize,
    bias: u64,
}

const F16_FIELDS: HalfFormat = HalfFormat { exp_bits: 5, man_bits: 10, bias: 15 };
const BF16_FIELDS: HalfFormat = HalfFormat { exp_bits: 8, man_bits: 7, bias: 127 };

fn k16(v: u64) -> Constant<Bits<16>> {
    Constant::new(v.to_bits())
}

fn kw<const W: usize>(v: u64) -> Constant<Bits<W>> {
    Constant::new(v.to_bits())
}

fn mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn wide_bias(wide: FloatFormat) -> u64 {
    mask(wide.exp_bits - 1)
}

/// A 16-bit float (f16 or bf16) as the same value in the W-bit format.
#[derive(LogicBlock)]
pub struct HalfWiden<const W: usize> {
    pub half: Signal<In, Bits<16>>,
    pub bf16: Signal<In, Bit>,
    pub wide: Signal<Out, Bits<W>>,
    /// The exponent field and the fraction, bf16's 7 fraction bits moved up to f16's 10.
    exp_h: Signal<Local, Bits<16>>,
    frac10: Signal<Local, Bits<16>>,
    /// Leading zeros of a subnormal's fraction (within its 10 bits), and the fraction normalised
    /// (the leading one shifted out).
    lz: Signal<Local, Bits<16>>,
    frac_norm: Signal<Local, Bits<16>>,
    /// The wide format's exponent field and the top 10 bits of its fraction.
    wexp: Signal<Local, Bits<16>>,
    wfrac: Signal<Local, Bits<16>>,
    rebias: Signal<Local, Bits<16>>,
    exp_max: Signal<Local, Bits<16>>,
    sign_w: Signal<Local, Bits<W>>,
    widen_exp: ZeroExtend<16, W>,
    widen_frac: ZeroExtend<16, W>,
    widen_half: ZeroExtend<16, W>,
    k_lz: Vec<Constant<Bits<16>>>,
    k_rebias_f16: Constant<Bits<16>>,
    k_rebias_bf16: Constant<Bits<16>>,
    k_wexp_max: Constant<Bits<16>>,
    k_man_w: Constant<Bits<16>>,
    k_frac_at: Constant<Bits<16>>,
    k_sign: Constant<Bits<W>>,
    /// bf16 in an f32: its bits are the f32's upper half.
    k_bf16_direct: Constant<Bit>,
    k_5bits: Constant<Bits<16>>,
    k_7bits: Constant<Bits<16>>,
    k_8bits: Constant<Bits<16>>,
    k_10bits: Constant<Bits<16>>,
}

impl<const W: usize> HalfWiden<W> {
    pub fn new(wide: FloatFormat) -> Self {
        assert_eq!(1 + wide.exp_bits + wide.man_bits, W);
        HalfWiden {
            half: Default::default(),
            bf16: Default::default(),
            wide: Default::default(),
            exp_h: Default::default(),
            frac10: Default::default(),
            lz: Default::default(),
            frac_norm: Default::default(),
            wexp: Default::default(),
            wfrac: Default::default(),
            rebias: Default::default(),
            exp_max: Default::default(),
            sign_w: Default::default(),
            widen_exp: Default::default(),
            widen_frac: Default::default(),
            widen_half: Default::default(),
            k_lz: (0..10).map(|i| k16(9 - i)).collect(),
            k_rebias_f16: k16(wide_bias(wide) - F16_FIELDS.bias),
            k_rebias_bf16: k16(wide_bias(wide) - BF16_FIELDS.bias),
            k_wexp_max: k16(mask(wide.exp_bits)),
            k_man_w: k16(wide.man_bits as u64),
            k_frac_at: k16((wide.man_bits - 10) as u64),
            k_sign: kw(1u64 << (W - 1)),
            k_bf16_direct: Constant::new(wide.exp_bits == BF16_FIELDS.exp_bits),
            k_5bits: k16(0x1F),
            k_7bits: k16(0x7F),
            k_8bits: k16(0xFF),
            k_10bits: k16(0x3FF),
        }
    }
}

impl<const W: usize> Logic for HalfWiden<W> {
    #[hdl_gen]
    fn update(&mut self) {
        // f16: 1 | 5 | 10; bf16: 1 | 8 | 7.
        self.exp_h.next = (self.half.val() >> 10) & self.k_5bits.val();
        self.frac10.next = self.half.val() & self.k_10bits.val();
        self.rebias.next = self.k_rebias_f16.val();
        self.exp_max.next = 0x1F.into();
        if self.bf16.val() {
            self.exp_h.next = (self.half.val() >> 7) & self.k_8bits.val();
            self.frac10.next = (self.half.val() & self.k_7bits.val()) << 3;
            self.rebias.next = self.k_rebias_bf16.val();
            self.exp_max.next = 0xFF.into();
        }
        // Ascending, so the highest set bit's count is the last assignment.
        self.lz.next = 0.into();
        for i in 0..10 {
            if self.frac10.val().get_bit(i) {
                self.lz.next = self.k_lz[i].val();
            }
        }
        self.frac_norm.next = (self.frac10.val() << (self.lz.val() + 1u64)) & self.k_10bits.val();
        // A normal keeps its fraction; a subnormal 0.f * 2^(1 - bias) is 1.f' * 2^(-bias - lz).
        self.wexp.next = self.exp_h.val() + self.rebias.val();
        self.wfrac.next = self.frac10.val();
        if self.exp_h.val() == 0 {
            self.wexp.next = self.rebias.val() - self.lz.val();
            self.wfrac.next = self.frac_norm.val();
            if self.frac10.val() == 0 {
                self.wexp.next = 0.into();
            }
        }
        if self.exp_h.val() == self.exp_max.val() {
            // Infinity keeps a zero fraction, a NaN a non-zero one (the adder makes it canonical).
            self.wexp.next = self.k_wexp_max.val();
        }
        self.sign_w.next = 0.into();
        if self.half.val().get_bit(15) {
            self.sign_w.next = self.k_sign.val();
        }
        self.widen_exp.narrow.next = self.wexp.val();
        self.widen_frac.narrow.next = self.wfrac.val();
        self.widen_half.narrow.next = self.half.val();
        self.wide.next = self.sign_w.val()
            | (self.widen_exp.wide.val() << self.k_man_w.val())
            | (self.widen_frac.wide.val() << self.k_frac_at.val());
        if self.bf16.val() & self.k_bf16_direct.val() {
            self.wide.next = self.widen_half.wide.val() << 16;
        }
    }
}

/// A W-bit float, the sum of two widened 16-bit values, rounded to nearest even in the 16-bit
/// format. The wide value is never subnormal here (module documentation) except a bf16 in an
/// f32, whose bits are rounded directly.
#[derive(LogicBlock)]
pub struct HalfNarrow<const W: usize> {
    pub wide: Signal<In, Bits<W>>,
    pub bf16: Signal<In, Bit>,
    pub half: Signal<Out, Bits<16>>,
    exp_field: Signal<Local, Bits<W>>,
    cut_exp: Truncate<W, 16>,
    wexp: Signal<Local, Bits<16>>,
    sig: Signal<Local, Bits<W>>,
    is_nan: Signal<Local, Bit>,
    is_inf: Signal<Local, Bit>,
    /// The 16-bit format's constants, by `bf16`.
    rebias: Signal<Local, Bits<16>>,
    man_h: Signal<Local, Bits<16>>,
    over_at: Signal<Local, Bits<16>>,
    cap: Signal<Local, Bits<16>>,
    inf_h: Signal<Local, Bits<16>>,
    /// The significand cut to the 16-bit fraction plus guard and round bits, and the bits below
    /// them OR-ed (sticky).
    top: Signal<Local, Bits<W>>,
    cut_top: Truncate<W, 16>,
    top16: Signal<Local, Bits<16>>,
    sticky_low: Signal<Local, Bit>,
    /// A result below the normal range: its extra right shift (capped), the bits it shifts out.
    normal: Signal<Local, Bit>,
    extra: Signal<Local, Bits<16>>,
    shifted: Signal<Local, Bits<16>>,
    sticky: Signal<Local, Bit>,
    quot: Signal<Local, Bits<16>>,
    round_up: Signal<Local, Bit>,
    round_w: Signal<Local, Bits<16>>,
    base: Signal<Local, Bits<16>>,
    mag: Signal<Local, Bits<16>>,
    sign_h: Signal<Local, Bits<16>>,
    /// bf16 from f32 bits: the upper half, rounded to nearest even on the lower.
    direct: Signal<Local, Bits<W>>,
    cut_direct: Truncate<W, 16>,
    k_man_w: Constant<Bits<16>>,
    k_frac_w: Constant<Bits<W>>,
    k_hidden_w: Constant<Bits<W>>,
    k_wexp_max: Constant<Bits<16>>,
    k_shift_f16: Constant<Bits<16>>,
    k_shift_bf16: Constant<Bits<16>>,
    k_low_f16: Constant<Bits<W>>,
    k_low_bf16: Constant<Bits<W>>,
    k_rebias_f16: Constant<Bits<16>>,
    k_rebias_bf16: Constant<Bits<16>>,
    k_over_f16: Constant<Bits<16>>,
    k_over_bf16: Constant<Bits<16>>,
    k_direct_round: Constant<Bits<W>>,
    k_bf16_direct: Constant<Bit>,
    k_ones16: Constant<Bits<16>>,
    k_sign_w: Constant<Bits<W>>,
    k_one_w: Constant<Bits<W>>,
    k_nan: Constant<Bits<16>>,
}

impl<const W: usize> HalfNarrow<W> {
    pub fn new(wide: FloatFormat) -> Self {
        assert_eq!(1 + wide.exp_bits + wide.man_bits, W);
        let m = wide.man_bits;
        let (f, b) = (F16_FIELDS, BF16_FIELDS);
        let rebias = |h: &HalfFormat| wide_bias(wide) - h.bias;
        HalfNarrow {
            wide: Default::default(),
            bf16: Default::default(),
            half: Default::default(),
            exp_field: Default::default(),
            cut_exp: Default::default(),
            wexp: Default::default(),
            sig: Default::default(),
            is_nan: Default::default(),
            is_inf: Default::default(),
            rebias: Default::default(),
            man_h: Default::default(),
            over_at: Default::default(),
            cap: Default::default(),
            inf_h: Default::default(),
            top: Default::default(),
            cut_top: Default::default(),
            top16: Default::default(),
            sticky_low: Default::default(),
            normal: Default::default(),
            extra: Default::default(),
            shifted: Default::default(),
            sticky: Default::default(),
            quot: Default::default(),
            round_up: Default::default(),
            round_w: Default::default(),
            base: Default::default(),
            mag: Default::default(),
            sign_h: Default::default(),
            direct: Default::default(),
            cut_direct: Default::default(),
            k_man_w: k16(m as u64),
            k_frac_w: kw(mask(m)),
            k_hidden_w: kw(1u64 << m),
            k_wexp_max: k16(mask(wide.exp_bits)),
            k_shift_f16: k16((m - f.man_bits - 2) as u64),
            k_shift_bf16: k16((m - b.man_bits - 2) as u64),
            k_low_f16: kw(mask(m - f.man_bits - 2)),
            k_low_bf16: kw(mask(m - b.man_bits - 2)),
            k_rebias_f16: k16(rebias(&f)),
            k_rebias_bf16: k16(rebias(&b)),
            // The 16-bit exponent field reaches its all-ones value: overflow before rounding.
            k_over_f16: k16(rebias(&f) + mask(f.exp_bits)),
            k_over_bf16: k16(rebias(&b) + mask(b.exp_bits)),
            k_direct_round: kw(0x7FFF),
            k_bf16_direct: Constant::new(wide.exp_bits == b.exp_bits),
            k_ones16: k16(0xFFFF),
            k_sign_w: kw(1u64 << (W - 1)),
            k_one_w: kw(1),
            k_nan: k16(smsync_contract::encoding::canonical_nan::HALF as u64),
        }
    }
}

impl<const W: usize> Logic for HalfNarrow<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.exp_field.next = self.wide.val() >> self.k_man_w.val();
        self.cut_exp.wide.next = self.exp_field.val();
        self.wexp.next = self.cut_exp.narrow.val() & self.k_wexp_max.val();
        self.sig.next = (self.wide.val() & self.k_frac_w.val()) | self.k_hidden_w.val();
        self.is_nan.next = (self.wexp.val() == self.k_wexp_max.val()) & (self.wide.val() & self.k_frac_w.val()).any();
        self.is_inf.next = (self.wexp.val() == self.k_wexp_max.val()) & !(self.wide.val() & self.k_frac_w.val()).any();
        // f16: 10 fraction bits, exponent field 5 bits; bf16: 7 and 8. The cap: a shift of
        // man_h + 2 moves the whole significand below the round bit (it rounds to 0).
        self.rebias.next = self.k_rebias_f16.val();
        self.man_h.next = 10.into();
        self.over_at.next = self.k_over_f16.val();
        self.cap.next = 12.into();
        self.inf_h.next = 0x7C00.into();
        self.top.next = self.sig.val() >> self.k_shift_f16.val();
        self.sticky_low.next = (self.sig.val() & self.k_low_f16.val()).any();
        if self.bf16.val() {
            self.rebias.next = self.k_rebias_bf16.val();
            self.man_h.next = 7.into();
            self.over_at.next = self.k_over_bf16.val();
            self.cap.next = 9.into();
            self.inf_h.next = 0x7F80.into();
            self.top.next = self.sig.val() >> self.k_shift_bf16.val();
            self.sticky_low.next = (self.sig.val() & self.k_low_bf16.val()).any();
        }
        self.cut_top.wide.next = self.top.val();
        self.top16.next = self.cut_top.narrow.val();
        // The 16-bit exponent field is wexp - rebias; at 0 or below the result is subnormal and
        // shifts right by 1 - (wexp - rebias) more.
        self.normal.next = self.wexp.val() > self.rebias.val();
        self.extra.next = 0.into();
        if !self.normal.val() {
            self.extra.next = self.rebias.val() + 1u64 - self.wexp.val();
            if self.extra.val() > self.cap.val() {
                self.extra.next = self.cap.val();
            }
        }
        self.shifted.next = self.top16.val() >> self.extra.val();
        self.sticky.next = self.shifted.val().get_bit(0)
            | self.sticky_low.val()
            | (self.top16.val() & !(self.k_ones16.val() << self.extra.val())).any();
        self.quot.next = self.shifted.val() >> 2;
        self.round_up.next = self.shifted.val().get_bit(1) & (self.sticky.val() | self.quot.val().get_bit(0));
        self.round_w.next = 0.into();
        if self.round_up.val() {
            self.round_w.next = 1.into();
        }
        // (exp - 1) << man_h plus the significand with its hidden bit, as the adder composes: a
        // rounding carry moves to the next exponent (the largest finite value to infinity).
        self.base.next = 0.into();
        if self.normal.val() {
            self.base.next = (self.wexp.val() - self.rebias.val() - 1u64) << self.man_h.val();
        }
        self.mag.next = self.base.val() + self.quot.val() + self.round_w.val();
        self.sign_h.next = 0.into();
        if (self.wide.val() & self.k_sign_w.val()).any() {
            self.sign_h.next = 0x8000.into();
        }
        self.half.next = self.sign_h.val() | self.mag.val();
        if self.wexp.val() >= self.over_at.val() {
            self.half.next = self.sign_h.val() | self.inf_h.val();
        }
        if self.wexp.val() == 0 {
            self.half.next = self.sign_h.val();
        }
        if self.is_inf.val() {
            self.half.next = self.sign_h.val() | self.inf_h.val();
        }
        // bf16 in f32 bits: the classic round-to-nearest-even on the upper half (a carry reaches
        // the exponent, and the largest finite values round to infinity), subnormals included.
        self.direct.next =
            (self.wide.val() + self.k_direct_round.val() + ((self.wide.val() >> 16) & self.k_one_w.val())) >> 16;
        self.cut_direct.wide.next = self.direct.val();
        if self.bf16.val() & self.k_bf16_direct.val() {
            self.half.next = self.cut_direct.narrow.val();
        }
        if self.is_nan.val() {
            self.half.next = self.k_nan.val();
        }
    }
}
