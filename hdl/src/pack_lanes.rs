//! `PackLanes<W, N>`: a warp's 32 per-lane operands of `W` bits as one `N = 32 W`-bit word,
//! lane `j` in bits `[W j + W - 1 : W j]`.
//!
//! Why: a lane chosen at run time is then a part-select of the word at offset `W * lane`
//! (`word.get_bits::<W>(offset)`), which yosys builds as a 32:1 mux tree, 5 levels for a
//! power-of-two `W` (the offset's low bits are constant zero); selecting with an if-chain over
//! the 32 lanes builds 32 muxes in a row instead. The word is written in one expression (a
//! `Local` accumulated over a loop would read back its own assignment, which rust-hdl's
//! simulator does not model); the shifts are by constants, so it is wiring only.
//!
//! `LaneNumber`: the number (0..32) of the lane a one-hot 32-bit pick names; `LanePart<W, N, B>`:
//! the low `W` bits from a numbered lane on of a `PackLanes<N / 32, N>` word, or of a window of
//! fewer lanes (`B` = log2 N, the offset's true width).

use crate::common::WARP_LANES;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PackLanes<const W: usize, const N: usize> {
    pub lane: Vec<Signal<In, Bits<W>>>,
    pub word: Signal<Out, Bits<N>>,
    /// `W * j`, lane j's offset in `word`.
    k_off: Vec<Constant<Bits<16>>>,
}

impl<const W: usize, const N: usize> PackLanes<W, N> {
    pub fn new() -> Self {
        assert_eq!(N, W * WARP_LANES, "PackLanes<{W}, {N}>: N must be 32 W");
        PackLanes {
            lane: (0..WARP_LANES).map(|_| Default::default()).collect(),
            word: Default::default(),
            k_off: (0..WARP_LANES as u64).map(|j| Constant::new((W as u64 * j).to_bits())).collect(),
        }
    }
}

impl<const W: usize, const N: usize> Default for PackLanes<W, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const N: usize> Logic for PackLanes<W, N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.word.next = (bit_cast::<N, W>(self.lane[0].val()) << self.k_off[0].val())
            | (bit_cast::<N, W>(self.lane[1].val()) << self.k_off[1].val())
            | (bit_cast::<N, W>(self.lane[2].val()) << self.k_off[2].val())
            | (bit_cast::<N, W>(self.lane[3].val()) << self.k_off[3].val())
            | (bit_cast::<N, W>(self.lane[4].val()) << self.k_off[4].val())
            | (bit_cast::<N, W>(self.lane[5].val()) << self.k_off[5].val())
            | (bit_cast::<N, W>(self.lane[6].val()) << self.k_off[6].val())
            | (bit_cast::<N, W>(self.lane[7].val()) << self.k_off[7].val())
            | (bit_cast::<N, W>(self.lane[8].val()) << self.k_off[8].val())
            | (bit_cast::<N, W>(self.lane[9].val()) << self.k_off[9].val())
            | (bit_cast::<N, W>(self.lane[10].val()) << self.k_off[10].val())
            | (bit_cast::<N, W>(self.lane[11].val()) << self.k_off[11].val())
            | (bit_cast::<N, W>(self.lane[12].val()) << self.k_off[12].val())
            | (bit_cast::<N, W>(self.lane[13].val()) << self.k_off[13].val())
            | (bit_cast::<N, W>(self.lane[14].val()) << self.k_off[14].val())
            | (bit_cast::<N, W>(self.lane[15].val()) << self.k_off[15].val())
            | (bit_cast::<N, W>(self.lane[16].val()) << self.k_off[16].val())
            | (bit_cast::<N, W>(self.lane[17].val()) << self.k_off[17].val())
            | (bit_cast::<N, W>(self.lane[18].val()) << self.k_off[18].val())
            | (bit_cast::<N, W>(self.lane[19].val()) << self.k_off[19].val())
            | (bit_cast::<N, W>(self.lane[20].val()) << self.k_off[20].val())
            | (bit_cast::<N, W>(self.lane[21].val()) << self.k_off[21].val())
            | (bit_cast::<N, W>(self.lane[22].val()) << self.k_off[22].val())
            | (bit_cast::<N, W>(self.lane[23].val()) << self.k_off[23].val())
            | (bit_cast::<N, W>(self.lane[24].val()) << self.k_off[24].val())
            | (bit_cast::<N, W>(self.lane[25].val()) << self.k_off[25].val())
            | (bit_cast::<N, W>(self.lane[26].val()) << self.k_off[26].val())
            | (bit_cast::<N, W>(self.lane[27].val()) << self.k_off[27].val())
            | (bit_cast::<N, W>(self.lane[28].val()) << self.k_off[28].val())
            | (bit_cast::<N, W>(self.lane[29].val()) << self.k_off[29].val())
            | (bit_cast::<N, W>(self.lane[30].val()) << self.k_off[30].val())
            | (bit_cast::<N, W>(self.lane[31].val()) << self.k_off[31].val());
    }
}

/// The number of the lane named by a one-hot `onehot` (0 when it is zero): bit k of the number is
/// set when the hot bit is among the lanes whose number has bit k set, so five 32-input ORs
/// (instead of a 32-deep priority chain).
#[derive(LogicBlock)]
pub struct LaneNumber {
    pub onehot: Signal<In, Bits<WARP_LANES>>,
    pub number: Signal<Out, Bits<5>>,
    bit: Vec<Signal<Local, Bits<5>>>,
    /// Lanes whose number has bit k set.
    k_num_mask: Vec<Constant<Bits<WARP_LANES>>>,
    k_pow2: Vec<Constant<Bits<5>>>,
}

impl Default for LaneNumber {
    fn default() -> Self {
        let mask = |k: u64| (0..WARP_LANES as u64).filter(|j| j >> k & 1 == 1).fold(0u64, |m, j| m | 1 << j);
        LaneNumber {
            onehot: Default::default(),
            number: Default::default(),
            bit: (0..5).map(|_| Default::default()).collect(),
            k_num_mask: (0..5).map(|k| Constant::new(mask(k).to_bits())).collect(),
            k_pow2: (0..5u64).map(|k| Constant::new((1u64 << k).to_bits())).collect(),
        }
    }
}

impl Logic for LaneNumber {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..5 {
            self.bit[k].next = 0.into();
            if (self.onehot.val() & self.k_num_mask[k].val()).any() {
                self.bit[k].next = self.k_pow2[k].val();
            }
        }
        self.number.next =
            self.bit[0].val() | self.bit[1].val() | self.bit[2].val() | self.bit[3].val() | self.bit[4].val();
    }
}

/// The low `W` bits from lane `number` on of a packed word of lanes of `stride` bits: a
/// part-select at offset `number * stride`, `B = log2 N` bits wide (a narrower offset cannot
/// reach every lane, a wider one would carry bits no lane uses). The word holds 32 lanes of
/// `N / 32` bits by default ([`Default`]); [`LanePart::with_stride`] names another stride (a
/// window of fewer lanes). `W` may span several lanes: the part is then a window of lanes
/// (bits past the word's end read as zero in simulation and are never used).
#[derive(LogicBlock)]
pub struct LanePart<const W: usize, const N: usize, const B: usize> {
    pub word: Signal<In, Bits<N>>,
    pub number: Signal<In, Bits<5>>,
    pub part: Signal<Out, Bits<W>>,
    offset: Signal<Local, Bits<B>>,
    /// log2 of the lane stride.
    k_stride_log: Constant<Bits<B>>,
}

impl<const W: usize, const N: usize, const B: usize> LanePart<W, N, B> {
    /// A part of a word of lanes `stride` bits apart (a power of two, at most `N`).
    pub fn with_stride(stride: usize) -> Self {
        assert!(
            stride.is_power_of_two() && stride <= N && W <= N && 1 << B == N,
            "LanePart<{W}, {N}, {B}>: stride {stride} must be a power of two <= N, W <= N, B = log2 N"
        );
        LanePart {
            word: Default::default(),
            number: Default::default(),
            part: Default::default(),
            offset: Default::default(),
            k_stride_log: Constant::new((stride.trailing_zeros() as u64).to_bits()),
        }
    }
}

impl<const W: usize, const N: usize, const B: usize> Default for LanePart<W, N, B> {
    fn default() -> Self {
        assert_eq!(N % WARP_LANES, 0, "LanePart<{W}, {N}, {B}>: N must be 32 lanes");
        Self::with_stride(N / WARP_LANES)
    }
}

impl<const W: usize, const N: usize, const B: usize> Logic for LanePart<W, N, B> {
    #[hdl_gen]
    fn update(&mut self) {
        self.offset.next = bit_cast::<B, 5>(self.number.val()) << self.k_stride_log.val();
        self.part.next = self.word.val().get_bits::<W>(self.offset.val().index());
    }
}
