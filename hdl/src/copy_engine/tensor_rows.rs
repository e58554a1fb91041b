//! The tensor sequencer's row walk: which box row a tiled cp.async.bulk.tensor moves next, where
//! the row starts in global memory and how its bytes split into fill and in-bounds data.
//!
//! For a tiled tensor copy (PTX ISA §5.5, "Tensors"; §9.7.9.25.5.1) the box is walked row by row,
//! dimension 0 being the row: the box indices `i1..i4` count from 0 to `box_d - 1` (dimension 1
//! fastest) and the tensor coordinates `x_d = c_d + i_d` go with them. A row is **outside** the
//! tensor when some `x_d` (d >= 1) is outside `[0, size_d)`: a load fills it, a store skips it.
//! Its dimension-0 run (the same for every row of the box) is `[c_0, c_0 + box_0)` clipped to
//! `[0, size_0)`: bytes of fill before it (`pre`), the run's bytes (`dat`), the whole row's bytes
//! (`bytes`) and the run's first byte from the row base (`lo_bytes`).
//!
//! Why registers everywhere: the controller decides a row's move in one cycle (ROWS, state 6)
//! from these outputs, so every output is a flip-flop or one gate of flip-flops. The row bases
//! are kept per dimension (`l`: add the stride when the index advances, no multiply); the
//! "outside" and "last index" flags of each dimension are registered with its index, from
//! values computed off registers (`xo_*`, `iw_*`); the dimension-0 run is computed every cycle
//! from the map's registers and registered (the map is loaded at least two edges before the
//! rows start).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `m_c`, `m_box`, `m_size` | in | 160 | the op's start coordinates (s32) and the map's box and tensor sizes, dimension d at bit 32d |
//! | `m_stride` | in | 256 | byte strides of dimensions 1..4, dimension d at bit 64(d-1) |
//! | `m_lg` | in | 3 | log2 of the element size in bytes |
//! | `origin` | in | 64 | the box's first row address (`TensorOrigin::addr`) |
//! | `init` | in | 1 | load the first row (the controller's state 5) |
//! | `advance` | in | 1 | the current row is done: step to the next (after the last, back to the first) |
//! | `row_base` | out | 64 | the current row's global address of coordinate 0 |
//! | `empty` | out | 1 | the row has no in-bounds byte (outside in a higher dimension, or an empty dimension-0 run) |
//! | `last` | out | 1 | the row is the box's last |
//! | `pre`, `pre_zero`, `dat`, `bytes`, `lo_bytes` | out | 64, 1, 64, 64, 64 | the dimension-0 run (above) |

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct TensorRows {
    pub clock: Signal<In, Clock>,
    pub m_c: Signal<In, Bits<160>>,
    pub m_box: Signal<In, Bits<160>>,
    pub m_size: Signal<In, Bits<160>>,
    pub m_stride: Signal<In, Bits<256>>,
    pub m_lg: Signal<In, Bits<3>>,
    pub origin: Signal<In, Bits<64>>,
    pub init: Signal<In, Bit>,
    pub advance: Signal<In, Bit>,
    pub row_base: Signal<Out, Bits<64>>,
    pub empty: Signal<Out, Bit>,
    pub last: Signal<Out, Bit>,
    pub pre: Signal<Out, Bits<64>>,
    pub pre_zero: Signal<Out, Bit>,
    pub dat: Signal<Out, Bits<64>>,
    pub bytes: Signal<Out, Bits<64>>,
    pub lo_bytes: Signal<Out, Bits<64>>,
    /// Per dimension 1..4 (index d - 1): the box index and tensor coordinate (sign-extended) of
    /// the current row; `o`: the coordinate is outside [0, size_d); `w`: the index is the box's
    /// last in its dimension; `l`: the row base of the row where the dimensions below d are at
    /// index 0 (`l[0]` the current row's).
    i: Vec<DFF<Bits<32>>>,
    x: Vec<DFF<Bits<64>>>,
    o: Vec<DFF<Bit>>,
    w: Vec<DFF<Bit>>,
    l: Vec<DFF<Bits<64>>>,
    /// The flags for the first index (`*_init`) and for the next one (`*_next`), the start
    /// coordinate sign-extended, the coordinate plus one.
    xo_init: Vec<Signal<Local, Bit>>,
    xo_next: Vec<Signal<Local, Bit>>,
    iw_init: Vec<Signal<Local, Bit>>,
    iw_next: Vec<Signal<Local, Bit>>,
    x_first: Vec<Signal<Local, Bits<64>>>,
    x_inc: Vec<Signal<Local, Bits<64>>>,
    /// `carry[d]`: every dimension below d + 1 is at its last index, so dimension d + 1 moves at
    /// an advance (`carry[0]` high; `carry[4]`: the box's last row).
    carry: Vec<Signal<Local, Bit>>,
    /// The new row base when a dimension's index advances (the advancing one's base plus its stride).
    step_base: Signal<Local, Bits<64>>,
    /// The dimension-0 run: coordinate c0 (sign-extended), end, clipped bounds.
    r_c0: Signal<Local, Bits<64>>,
    r_end: Signal<Local, Bits<64>>,
    r_lo: Signal<Local, Bits<64>>,
    r_hi: Signal<Local, Bits<64>>,
    rw_pre: Signal<Local, Bits<64>>,
    rw_empty0: Signal<Local, Bit>,
    pre_q: DFF<Bits<64>>,
    pre_z: DFF<Bit>,
    dat_q: DFF<Bits<64>>,
    bytes_q: DFF<Bits<64>>,
    lo_b: DFF<Bits<64>>,
    empty0: DFF<Bit>,
    k_bit31: Constant<Bits<64>>,
}

impl Default for TensorRows {
    fn default() -> Self {
        TensorRows {
            clock: Default::default(),
            m_c: Default::default(),
            m_box: Default::default(),
            m_size: Default::default(),
            m_stride: Default::default(),
            m_lg: Default::default(),
            origin: Default::default(),
            init: Default::default(),
            advance: Default::default(),
            row_base: Default::default(),
            empty: Default::default(),
            last: Default::default(),
            pre: Default::default(),
            pre_zero: Default::default(),
            dat: Default::default(),
            bytes: Default::default(),
            lo_bytes: Default::default(),
            i: (0..4).map(|_| Default::default()).collect(),
            x: (0..4).map(|_| Default::default()).collect(),
            o: (0..4).map(|_| Default::default()).collect(),
            w: (0..4).map(|_| Default::default()).collect(),
            l: (0..4).map(|_| Default::default()).collect(),
            xo_init: (0..4).map(|_| Default::default()).collect(),
            xo_next: (0..4).map(|_| Default::default()).collect(),
            iw_init: (0..4).map(|_| Default::default()).collect(),
            iw_next: (0..4).map(|_| Default::default()).collect(),
            x_first: (0..4).map(|_| Default::default()).collect(),
            x_inc: (0..4).map(|_| Default::default()).collect(),
            carry: (0..5).map(|_| Default::default()).collect(),
            step_base: Default::default(),
            r_c0: Default::default(),
            r_end: Default::default(),
            r_lo: Default::default(),
            r_hi: Default::default(),
            rw_pre: Default::default(),
            rw_empty0: Default::default(),
            pre_q: Default::default(),
            pre_z: Default::default(),
            dat_q: Default::default(),
            bytes_q: Default::default(),
            lo_b: Default::default(),
            empty0: Default::default(),
            k_bit31: Constant::new(0x8000_0000u64.to_bits()),
        }
    }
}

impl Logic for TensorRows {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pre_q, pre_z, dat_q, bytes_q, lo_b, empty0);
        for d in 0..4 {
            self.i[d].clock.next = self.clock.val();
            self.i[d].d.next = self.i[d].q.val();
            self.x[d].clock.next = self.clock.val();
            self.x[d].d.next = self.x[d].q.val();
            self.o[d].clock.next = self.clock.val();
            self.o[d].d.next = self.o[d].q.val();
            self.w[d].clock.next = self.clock.val();
            self.w[d].d.next = self.w[d].q.val();
            self.l[d].clock.next = self.clock.val();
            self.l[d].d.next = self.l[d].q.val();
        }
        self.row_base.next = self.l[0].q.val();
        self.pre.next = self.pre_q.q.val();
        self.pre_zero.next = self.pre_z.q.val();
        self.dat.next = self.dat_q.q.val();
        self.bytes.next = self.bytes_q.q.val();
        self.lo_bytes.next = self.lo_b.q.val();
        // The row's run is empty: dimension 0 (registered) or a higher dimension's index
        // outside its size.
        self.empty.next =
            self.empty0.q.val() | self.o[0].q.val() | self.o[1].q.val() | self.o[2].q.val() | self.o[3].q.val();

        // ---- the dimension-0 run, registered every cycle ----
        self.r_c0.next = bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(0))
            - ((bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(0)) & self.k_bit31.val()) << 1);
        self.r_end.next = self.r_c0.val() + bit_cast::<64, 32>(self.m_box.val().get_bits::<32>(0));
        self.r_lo.next = self.r_c0.val();
        if self.r_c0.val().get_bit(63) {
            self.r_lo.next = 0.into();
        }
        self.r_hi.next = self.r_end.val();
        // Unsigned compares of a 64-bit value with a 32-bit size are written as "high half
        // nonzero, or low half compared": the same result with a 32-bit carry chain instead of
        // a 64-bit one (synthesis does not narrow a compare whose operand is only zero-extended).
        if (self.r_end.val().get_bits::<32>(32) != 0)
            | (self.r_end.val().get_bits::<32>(0) > self.m_size.val().get_bits::<32>(0))
        {
            self.r_hi.next = bit_cast::<64, 32>(self.m_size.val().get_bits::<32>(0));
        }
        self.rw_empty0.next = self.r_end.val().get_bit(63)
            | (self.r_end.val() == 0)
            // (r_c0 is a sign-extended 32-bit coordinate: non-negative, its high half is 0.)
            | (!self.r_c0.val().get_bit(63) & (self.r_c0.val().get_bits::<32>(0) >= self.m_size.val().get_bits::<32>(0)));
        self.rw_pre.next = (self.r_lo.val() - self.r_c0.val()) << self.m_lg.val();
        self.pre_q.d.next = self.rw_pre.val();
        self.pre_z.d.next = self.rw_pre.val() == 0;
        self.dat_q.d.next = (self.r_hi.val() - self.r_lo.val()) << self.m_lg.val();
        self.bytes_q.d.next = bit_cast::<64, 32>(self.m_box.val().get_bits::<32>(0)) << self.m_lg.val();
        self.lo_b.d.next = self.r_lo.val() << self.m_lg.val();
        self.empty0.d.next = self.rw_empty0.val();

        // ---- per dimension d + 1: the flags of the first and of the next index ----
        // Outside: a start coordinate (s32) or the next index is outside [0, size) (the
        // unsigned compares on the low half as above). Last: the next box index is the last.
        // (The sign extensions written out: hdl_gen takes no loop index inside a `bit_cast`.)
        self.x_first[0].next = bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(32))
            - ((bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(32)) & self.k_bit31.val()) << 1);
        self.x_first[1].next = bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(64))
            - ((bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(64)) & self.k_bit31.val()) << 1);
        self.x_first[2].next = bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(96))
            - ((bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(96)) & self.k_bit31.val()) << 1);
        self.x_first[3].next = bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(128))
            - ((bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(128)) & self.k_bit31.val()) << 1);
        for d in 0..4 {
            self.xo_init[d].next = self.m_c.val().get_bit(32 * d + 63)
                | (self.m_c.val().get_bits::<32>(32 * d + 32) >= self.m_size.val().get_bits::<32>(32 * d + 32));
            self.x_inc[d].next = self.x[d].q.val() + 1;
            self.xo_next[d].next = self.x_inc[d].val().get_bit(63)
                | (self.x_inc[d].val().get_bits::<32>(32) != 0)
                | (self.x_inc[d].val().get_bits::<32>(0) >= self.m_size.val().get_bits::<32>(32 * d + 32));
            self.iw_init[d].next = self.m_box.val().get_bits::<32>(32 * d + 32) == 1;
            self.iw_next[d].next = (self.i[d].q.val() + 2) == self.m_box.val().get_bits::<32>(32 * d + 32);
        }

        // ---- the walk: dimension 1 fastest; a dimension at its last index resets and carries ----
        self.carry[0].next = true;
        for d in 0..4 {
            self.carry[d + 1].next = self.carry[d].val() & self.w[d].q.val();
        }
        self.last.next = self.carry[4].val();
        // The dimension that advances (the lowest not at its last index) takes its stride, and
        // the rows below it start from its new base.
        self.step_base.next = self.l[0].q.val() + self.m_stride.val().get_bits::<64>(0);
        for d in 0..4 {
            if self.carry[d].val() & !self.w[d].q.val() {
                self.step_base.next = self.l[d].q.val() + self.m_stride.val().get_bits::<64>(64 * d);
            }
        }
        if self.advance.val() {
            for d in 0..4 {
                if self.carry[d].val() {
                    if self.w[d].q.val() {
                        self.i[d].d.next = 0.into();
                        self.w[d].d.next = self.iw_init[d].val();
                        self.o[d].d.next = self.xo_init[d].val();
                        self.x[d].d.next = self.x_first[d].val();
                    } else {
                        self.i[d].d.next = self.i[d].q.val() + 1;
                        self.x[d].d.next = self.x_inc[d].val();
                        self.o[d].d.next = self.xo_next[d].val();
                        self.w[d].d.next = self.iw_next[d].val();
                    }
                }
                // Dimension d + 1 or a higher one advances: this level's base is the new one.
                if self.carry[d].val() & !self.carry[4].val() {
                    self.l[d].d.next = self.step_base.val();
                }
            }
            // After the box's last row, back to the first (a multicast load walks the box again
            // for its next CTA).
            if self.carry[4].val() {
                for d in 0..4 {
                    self.l[d].d.next = self.origin.val();
                }
            }
        }
        if self.init.val() {
            for d in 0..4 {
                self.i[d].d.next = 0.into();
                self.w[d].d.next = self.iw_init[d].val();
                self.o[d].d.next = self.xo_init[d].val();
                self.x[d].d.next = self.x_first[d].val();
                self.l[d].d.next = self.origin.val();
            }
        }
    }
}
