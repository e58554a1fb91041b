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
//! are kept per dimension (`l1..l4`: add the stride when the index advances, no multiply); the
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
    /// Box indices i1..i4 and tensor coordinates x1..x4 (sign-extended) of the current row.
    i1: DFF<Bits<32>>,
    i2: DFF<Bits<32>>,
    i3: DFF<Bits<32>>,
    i4: DFF<Bits<32>>,
    x1: DFF<Bits<64>>,
    x2: DFF<Bits<64>>,
    x3: DFF<Bits<64>>,
    x4: DFF<Bits<64>>,
    /// `o*`: x* outside [0, size); `w*`: i* is the box's last index in its dimension.
    o1: DFF<Bit>,
    o2: DFF<Bit>,
    o3: DFF<Bit>,
    o4: DFF<Bit>,
    w1: DFF<Bit>,
    w2: DFF<Bit>,
    w3: DFF<Bit>,
    w4: DFF<Bit>,
    /// Row bases per level: `l1` the current row's, `ld` that of the row where dimensions
    /// below d are at index 0.
    l1: DFF<Bits<64>>,
    l2: DFF<Bits<64>>,
    l3: DFF<Bits<64>>,
    l4: DFF<Bits<64>>,
    /// The flags for the first index (`*_init*`) and for the next one (`*_next*`).
    xo_init1: Signal<Local, Bit>,
    xo_init2: Signal<Local, Bit>,
    xo_init3: Signal<Local, Bit>,
    xo_init4: Signal<Local, Bit>,
    xo_next1: Signal<Local, Bit>,
    xo_next2: Signal<Local, Bit>,
    xo_next3: Signal<Local, Bit>,
    xo_next4: Signal<Local, Bit>,
    iw_init1: Signal<Local, Bit>,
    iw_init2: Signal<Local, Bit>,
    iw_init3: Signal<Local, Bit>,
    iw_init4: Signal<Local, Bit>,
    iw_next1: Signal<Local, Bit>,
    iw_next2: Signal<Local, Bit>,
    iw_next3: Signal<Local, Bit>,
    iw_next4: Signal<Local, Bit>,
    x_inc1: Signal<Local, Bits<64>>,
    x_inc2: Signal<Local, Bits<64>>,
    x_inc3: Signal<Local, Bits<64>>,
    x_inc4: Signal<Local, Bits<64>>,
    /// The start coordinates x1..x4 sign-extended.
    x_first1: Signal<Local, Bits<64>>,
    x_first2: Signal<Local, Bits<64>>,
    x_first3: Signal<Local, Bits<64>>,
    x_first4: Signal<Local, Bits<64>>,
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
            i1: Default::default(),
            i2: Default::default(),
            i3: Default::default(),
            i4: Default::default(),
            x1: Default::default(),
            x2: Default::default(),
            x3: Default::default(),
            x4: Default::default(),
            o1: Default::default(),
            o2: Default::default(),
            o3: Default::default(),
            o4: Default::default(),
            w1: Default::default(),
            w2: Default::default(),
            w3: Default::default(),
            w4: Default::default(),
            l1: Default::default(),
            l2: Default::default(),
            l3: Default::default(),
            l4: Default::default(),
            xo_init1: Default::default(),
            xo_init2: Default::default(),
            xo_init3: Default::default(),
            xo_init4: Default::default(),
            xo_next1: Default::default(),
            xo_next2: Default::default(),
            xo_next3: Default::default(),
            xo_next4: Default::default(),
            iw_init1: Default::default(),
            iw_init2: Default::default(),
            iw_init3: Default::default(),
            iw_init4: Default::default(),
            iw_next1: Default::default(),
            iw_next2: Default::default(),
            iw_next3: Default::default(),
            iw_next4: Default::default(),
            x_inc1: Default::default(),
            x_inc2: Default::default(),
            x_inc3: Default::default(),
            x_inc4: Default::default(),
            x_first1: Default::default(),
            x_first2: Default::default(),
            x_first3: Default::default(),
            x_first4: Default::default(),
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
        dff_setup!(
            self, clock, i1, i2, i3, i4, x1, x2, x3, x4, o1, o2, o3, o4, w1, w2, w3, w4, l1, l2, l3, l4, pre_q, pre_z,
            dat_q, bytes_q, lo_b, empty0
        );
        self.row_base.next = self.l1.q.val();
        self.pre.next = self.pre_q.q.val();
        self.pre_zero.next = self.pre_z.q.val();
        self.dat.next = self.dat_q.q.val();
        self.bytes.next = self.bytes_q.q.val();
        self.lo_bytes.next = self.lo_b.q.val();
        // The row's run is empty: dimension 0 (registered) or a higher dimension's index
        // outside its size.
        self.empty.next = self.empty0.q.val() | self.o1.q.val() | self.o2.q.val() | self.o3.q.val() | self.o4.q.val();
        self.last.next = self.w1.q.val() & self.w2.q.val() & self.w3.q.val() & self.w4.q.val();

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

        // ---- per dimension: the flags of the first and of the next index ----
        // Outside: a start coordinate (s32) or the next index is outside [0, size_d) (the
        // unsigned compares on the low half as above). Last: the next box index is the last.
        self.x_first1.next = bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(32))
            - ((bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(32)) & self.k_bit31.val()) << 1);
        self.xo_init1.next =
            self.m_c.val().get_bit(63) | (self.m_c.val().get_bits::<32>(32) >= self.m_size.val().get_bits::<32>(32));
        self.x_inc1.next = self.x1.q.val() + 1;
        self.xo_next1.next = self.x_inc1.val().get_bit(63)
            | (self.x_inc1.val().get_bits::<32>(32) != 0)
            | (self.x_inc1.val().get_bits::<32>(0) >= self.m_size.val().get_bits::<32>(32));
        self.iw_init1.next = self.m_box.val().get_bits::<32>(32) == 1;
        self.iw_next1.next = (self.i1.q.val() + 2) == self.m_box.val().get_bits::<32>(32);

        self.x_first2.next = bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(64))
            - ((bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(64)) & self.k_bit31.val()) << 1);
        self.xo_init2.next =
            self.m_c.val().get_bit(95) | (self.m_c.val().get_bits::<32>(64) >= self.m_size.val().get_bits::<32>(64));
        self.x_inc2.next = self.x2.q.val() + 1;
        self.xo_next2.next = self.x_inc2.val().get_bit(63)
            | (self.x_inc2.val().get_bits::<32>(32) != 0)
            | (self.x_inc2.val().get_bits::<32>(0) >= self.m_size.val().get_bits::<32>(64));
        self.iw_init2.next = self.m_box.val().get_bits::<32>(64) == 1;
        self.iw_next2.next = (self.i2.q.val() + 2) == self.m_box.val().get_bits::<32>(64);

        self.x_first3.next = bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(96))
            - ((bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(96)) & self.k_bit31.val()) << 1);
        self.xo_init3.next =
            self.m_c.val().get_bit(127) | (self.m_c.val().get_bits::<32>(96) >= self.m_size.val().get_bits::<32>(96));
        self.x_inc3.next = self.x3.q.val() + 1;
        self.xo_next3.next = self.x_inc3.val().get_bit(63)
            | (self.x_inc3.val().get_bits::<32>(32) != 0)
            | (self.x_inc3.val().get_bits::<32>(0) >= self.m_size.val().get_bits::<32>(96));
        self.iw_init3.next = self.m_box.val().get_bits::<32>(96) == 1;
        self.iw_next3.next = (self.i3.q.val() + 2) == self.m_box.val().get_bits::<32>(96);

        self.x_first4.next = bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(128))
            - ((bit_cast::<64, 32>(self.m_c.val().get_bits::<32>(128)) & self.k_bit31.val()) << 1);
        self.xo_init4.next =
            self.m_c.val().get_bit(159) | (self.m_c.val().get_bits::<32>(128) >= self.m_size.val().get_bits::<32>(128));
        self.x_inc4.next = self.x4.q.val() + 1;
        self.xo_next4.next = self.x_inc4.val().get_bit(63)
            | (self.x_inc4.val().get_bits::<32>(32) != 0)
            | (self.x_inc4.val().get_bits::<32>(0) >= self.m_size.val().get_bits::<32>(128));
        self.iw_init4.next = self.m_box.val().get_bits::<32>(128) == 1;
        self.iw_next4.next = (self.i4.q.val() + 2) == self.m_box.val().get_bits::<32>(128);

        // ---- the walk: dimension 1 fastest; a dimension that wraps resets and carries ----
        if self.advance.val() {
            if !self.w1.q.val() {
                self.i1.d.next = self.i1.q.val() + 1;
                self.x1.d.next = self.x_inc1.val();
                self.o1.d.next = self.xo_next1.val();
                self.w1.d.next = self.iw_next1.val();
                self.l1.d.next = self.l1.q.val() + self.m_stride.val().get_bits::<64>(0);
            } else {
                self.i1.d.next = 0.into();
                self.w1.d.next = self.iw_init1.val();
                self.o1.d.next = self.xo_init1.val();
                self.x1.d.next = self.x_first1.val();
                if !self.w2.q.val() {
                    self.i2.d.next = self.i2.q.val() + 1;
                    self.x2.d.next = self.x_inc2.val();
                    self.o2.d.next = self.xo_next2.val();
                    self.w2.d.next = self.iw_next2.val();
                    self.l2.d.next = self.l2.q.val() + self.m_stride.val().get_bits::<64>(64);
                    self.l1.d.next = self.l2.q.val() + self.m_stride.val().get_bits::<64>(64);
                } else {
                    self.i2.d.next = 0.into();
                    self.w2.d.next = self.iw_init2.val();
                    self.o2.d.next = self.xo_init2.val();
                    self.x2.d.next = self.x_first2.val();
                    if !self.w3.q.val() {
                        self.i3.d.next = self.i3.q.val() + 1;
                        self.x3.d.next = self.x_inc3.val();
                        self.o3.d.next = self.xo_next3.val();
                        self.w3.d.next = self.iw_next3.val();
                        self.l3.d.next = self.l3.q.val() + self.m_stride.val().get_bits::<64>(128);
                        self.l2.d.next = self.l3.q.val() + self.m_stride.val().get_bits::<64>(128);
                        self.l1.d.next = self.l3.q.val() + self.m_stride.val().get_bits::<64>(128);
                    } else {
                        self.i3.d.next = 0.into();
                        self.w3.d.next = self.iw_init3.val();
                        self.o3.d.next = self.xo_init3.val();
                        self.x3.d.next = self.x_first3.val();
                        if !self.w4.q.val() {
                            self.i4.d.next = self.i4.q.val() + 1;
                            self.x4.d.next = self.x_inc4.val();
                            self.o4.d.next = self.xo_next4.val();
                            self.w4.d.next = self.iw_next4.val();
                            self.l4.d.next = self.l4.q.val() + self.m_stride.val().get_bits::<64>(192);
                            self.l3.d.next = self.l4.q.val() + self.m_stride.val().get_bits::<64>(192);
                            self.l2.d.next = self.l4.q.val() + self.m_stride.val().get_bits::<64>(192);
                            self.l1.d.next = self.l4.q.val() + self.m_stride.val().get_bits::<64>(192);
                        } else {
                            // The box's last row: back to the first (a multicast load walks the
                            // box again for its next CTA).
                            self.i4.d.next = 0.into();
                            self.w4.d.next = self.iw_init4.val();
                            self.o4.d.next = self.xo_init4.val();
                            self.x4.d.next = self.x_first4.val();
                            self.l1.d.next = self.origin.val();
                            self.l2.d.next = self.origin.val();
                            self.l3.d.next = self.origin.val();
                            self.l4.d.next = self.origin.val();
                        }
                    }
                }
            }
        }
        if self.init.val() {
            self.i1.d.next = 0.into();
            self.w1.d.next = self.iw_init1.val();
            self.o1.d.next = self.xo_init1.val();
            self.x1.d.next = self.x_first1.val();
            self.i2.d.next = 0.into();
            self.w2.d.next = self.iw_init2.val();
            self.o2.d.next = self.xo_init2.val();
            self.x2.d.next = self.x_first2.val();
            self.i3.d.next = 0.into();
            self.w3.d.next = self.iw_init3.val();
            self.o3.d.next = self.xo_init3.val();
            self.x3.d.next = self.x_first3.val();
            self.i4.d.next = 0.into();
            self.w4.d.next = self.iw_init4.val();
            self.o4.d.next = self.xo_init4.val();
            self.x4.d.next = self.x_first4.val();
            self.l1.d.next = self.origin.val();
            self.l2.d.next = self.origin.val();
            self.l3.d.next = self.origin.val();
            self.l4.d.next = self.origin.val();
        }
    }
}
