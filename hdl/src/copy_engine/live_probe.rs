//! The live map's probe for a copy's shared-memory destination (combinational; the engine
//! registers it): the words `[off, off + len)` covers, and for a swizzled tensor box the words
//! its first and last 128-byte lines' chunks land on.
//!
//! The golden copy engine checks the destination range and then every 16-byte chunk of a
//! swizzled box at its swizzled address (PTX ISA §5.5.7: chunk `c` of line `L` lands at chunk
//! `c ^ (L mod lines)` of the same line, `lines` = 2 / 4 / 8 for 32B / 64B / 128B). A line the
//! box covers whole is covered whole either way; only the first and the last line can hold
//! chunks outside the linear range, so the probe adds those two lines' landing chunks
//! (`xh`, `xt`: one bit per 8-byte word of the line) to the range.

use rust_hdl::prelude::*;

use crate::sync_unit::live_map::WORD_BITS;

#[derive(LogicBlock)]
pub struct LiveProbe {
    /// Shared-memory byte offset within the slot and length (bytes past 2^18 are out of range,
    /// which the engine refuses before this probe counts).
    pub off: Signal<In, Bits<18>>,
    pub len: Signal<In, Bits<32>>,
    /// The swizzle pattern's lines - 1 (the engine's `m_swz`: 0 none, 1 / 3 / 7 for 32B / 64B /
    /// 128B): the XOR mask of a line's index.
    pub swz: Signal<In, Bits<3>>,
    pub lo: Signal<Out, Bits<WORD_BITS>>,
    pub hi: Signal<Out, Bits<WORD_BITS>>,
    pub xh: Signal<Out, Bits<16>>,
    pub xt: Signal<Out, Bits<16>>,
    pub empty: Signal<Out, Bit>,
    /// The last byte; the XOR pattern's mask; the first and last line's chunk runs [a, b) and
    /// their XOR values.
    last: Signal<Local, Bits<19>>,
    xmask: Signal<Local, Bits<4>>,
    same_line: Signal<Local, Bit>,
    h_x: Signal<Local, Bits<4>>,
    h_a: Signal<Local, Bits<4>>,
    h_b: Signal<Local, Bits<4>>,
    t_x: Signal<Local, Bits<4>>,
    t_a: Signal<Local, Bits<4>>,
    t_b: Signal<Local, Bits<4>>,
    /// Per chunk position p of a line: the linear chunk that lands there, and the words so far.
    h_src: Vec<Signal<Local, Bits<4>>>,
    t_src: Vec<Signal<Local, Bits<4>>>,
    h_acc: Vec<Signal<Local, Bits<16>>>,
    t_acc: Vec<Signal<Local, Bits<16>>>,
    k_pos: Vec<Constant<Bits<4>>>,
    k_words: Vec<Constant<Bits<16>>>,
}

impl Default for LiveProbe {
    fn default() -> Self {
        LiveProbe {
            off: Default::default(),
            len: Default::default(),
            swz: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            xh: Default::default(),
            xt: Default::default(),
            empty: Default::default(),
            last: Default::default(),
            xmask: Default::default(),
            same_line: Default::default(),
            h_x: Default::default(),
            h_a: Default::default(),
            h_b: Default::default(),
            t_x: Default::default(),
            t_a: Default::default(),
            t_b: Default::default(),
            h_src: (0..8).map(|_| Default::default()).collect(),
            t_src: (0..8).map(|_| Default::default()).collect(),
            h_acc: (0..8).map(|_| Default::default()).collect(),
            t_acc: (0..8).map(|_| Default::default()).collect(),
            k_pos: (0..8u64).map(|p| Constant::new(p.to_bits())).collect(),
            k_words: (0..8).map(|p| Constant::new((3u64 << (2 * p)).to_bits())).collect(),
        }
    }
}

impl Logic for LiveProbe {
    #[hdl_gen]
    fn update(&mut self) {
        self.last.next = bit_cast::<19, 18>(self.off.val()) + bit_cast::<19, 32>(self.len.val() & 0x3_FFFF) - 1u64;
        self.empty.next = self.len.val() == 0;
        self.lo.next = bit_cast::<WORD_BITS, 18>(self.off.val() >> 3);
        self.hi.next = bit_cast::<WORD_BITS, 19>(self.last.val() >> 3);
        self.xmask.next = bit_cast::<4, 3>(self.swz.val());
        self.same_line.next = (bit_cast::<19, 18>(self.off.val()) >> 7) == (self.last.val() >> 7);
        self.h_x.next = bit_cast::<4, 18>(self.off.val() >> 7) & self.xmask.val();
        self.t_x.next = bit_cast::<4, 19>(self.last.val() >> 7) & self.xmask.val();
        self.h_a.next = bit_cast::<4, 18>((self.off.val() >> 4) & 7);
        self.t_b.next = bit_cast::<4, 19>((self.last.val() >> 4) & 7) + 1u64;
        self.h_b.next = 8.into();
        self.t_a.next = 0.into();
        if self.same_line.val() {
            self.h_b.next = self.t_b.val();
            self.t_a.next = self.h_a.val();
        }
        // Position p holds linear chunk p ^ x; its two words count when that chunk is the box's.
        for p in 0..8 {
            self.h_src[p].next = self.k_pos[p].val() ^ self.h_x.val();
            self.t_src[p].next = self.k_pos[p].val() ^ self.t_x.val();
        }
        self.h_acc[0].next = 0.into();
        self.t_acc[0].next = 0.into();
        if (self.h_src[0].val() >= self.h_a.val()) && (self.h_src[0].val() < self.h_b.val()) {
            self.h_acc[0].next = self.k_words[0].val();
        }
        if (self.t_src[0].val() >= self.t_a.val()) && (self.t_src[0].val() < self.t_b.val()) {
            self.t_acc[0].next = self.k_words[0].val();
        }
        for p in 1..8 {
            self.h_acc[p].next = self.h_acc[p - 1].val();
            self.t_acc[p].next = self.t_acc[p - 1].val();
            if (self.h_src[p].val() >= self.h_a.val()) && (self.h_src[p].val() < self.h_b.val()) {
                self.h_acc[p].next = self.h_acc[p - 1].val() | self.k_words[p].val();
            }
            if (self.t_src[p].val() >= self.t_a.val()) && (self.t_src[p].val() < self.t_b.val()) {
                self.t_acc[p].next = self.t_acc[p - 1].val() | self.k_words[p].val();
            }
        }
        self.xh.next = 0.into();
        self.xt.next = 0.into();
        if self.xmask.val() != 0 {
            self.xh.next = self.h_acc[7].val();
            self.xt.next = self.t_acc[7].val();
        }
    }
}
