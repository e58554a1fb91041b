//! `PackLanes<W, N>`: a warp's 32 per-lane operands of `W` bits as one `N = 32 W`-bit word,
//! lane `j` in bits `[W j + W - 1 : W j]`.
//!
//! Why: a lane chosen at run time is then a part-select of the word at offset `W * lane`
//! (`word.get_bits::<W>(offset)`), which yosys builds as a 32:1 mux tree, 5 levels for a
//! power-of-two `W` (the offset's low bits are constant zero); selecting with an if-chain over
//! the 32 lanes builds 32 muxes in a row instead. The word is written in one expression (a
//! `Local` accumulated over a loop would read back its own assignment, which rust-hdl's
//! simulator does not model); the shifts are by constants, so it is wiring only.

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
