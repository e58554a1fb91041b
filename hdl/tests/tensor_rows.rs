//! The copy engine's tensor row walk (`hdl/src/copy_engine/tensor_rows.rs`, `TensorRows`) against
//! a host enumeration of a tiled box's rows (PTX ISA §5.5, "Tensors": a box of `box_d` elements
//! per dimension at the s32 start coordinates `c_d`; an element outside `[0, size_d)` in any
//! dimension is out of bounds). Random boxes of 1 to 5 dimensions, start coordinates before,
//! inside and past the tensor, random strides and element sizes; every row in order, then the walk
//! back to the first row (a multicast load walks the box again).
//!
//! Campaigns: `SMSYNC_TENSOR_ROWS_SEEDS=1,2 SMSYNC_TENSOR_ROWS_COUNT=20000 cargo test -p smsync-hdl --test tensor_rows`.

use rust_hdl::prelude::*;
use smsync_hdl::copy_engine::tensor_rows::TensorRows;
use smsync_testkit::hdl_sim::{settle, tick};
use smsync_testkit::{Campaign, Rng};

/// A tiled box: per dimension (0..5) its size in elements, the tensor's size and the start
/// coordinate; byte strides of dimensions 1..4; log2 of the element size; the box's first row.
struct Box {
    boxes: [u32; 5],
    sizes: [u32; 5],
    coords: [i32; 5],
    strides: [u64; 4],
    lg: u32,
    origin: u64,
}

/// What the walk must show for one row.
#[derive(Debug, PartialEq)]
struct Row {
    base: u64,
    empty: bool,
    last: bool,
}

impl Box {
    fn random(rng: &mut Rng) -> Box {
        let rank = 1 + rng.below(5) as usize;
        let mut b = Box {
            boxes: [1; 5],
            sizes: [1; 5],
            coords: [0; 5],
            strides: [0; 4],
            lg: rng.below(4) as u32,
            origin: rng.next(),
        };
        for d in 0..5 {
            b.sizes[d] = 1 + rng.below(8) as u32;
            if d < rank {
                b.boxes[d] = 1 + rng.below(if d == 0 { 8 } else { 4 }) as u32;
                b.coords[d] = rng.below(14) as i32 - 4;
            }
            if d > 0 {
                b.strides[d - 1] = if rng.chance(2) { rng.below(1 << 12) } else { rng.next() };
            }
        }
        b
    }

    /// The rows in walk order (dimension 1 fastest): base address, out of bounds, last.
    fn rows(&self) -> Vec<Row> {
        let (c0, end0) = (self.coords[0] as i64, self.coords[0] as i64 + self.boxes[0] as i64);
        let empty0 = end0 <= 0 || c0 >= self.sizes[0] as i64;
        let mut rows = Vec::new();
        for i4 in 0..self.boxes[4] {
            for i3 in 0..self.boxes[3] {
                for i2 in 0..self.boxes[2] {
                    for i1 in 0..self.boxes[1] {
                        let idx = [i1, i2, i3, i4];
                        let mut base = self.origin;
                        let mut outside = empty0;
                        for d in 1..5 {
                            base = base.wrapping_add((idx[d - 1] as u64).wrapping_mul(self.strides[d - 1]));
                            let x = self.coords[d] as i64 + idx[d - 1] as i64;
                            outside |= x < 0 || x >= self.sizes[d] as i64;
                        }
                        let last = (1..5).all(|d| idx[d - 1] == self.boxes[d] - 1);
                        rows.push(Row { base, empty: outside, last });
                    }
                }
            }
        }
        rows
    }

    /// Dimension 0's run: bytes of fill before it, its bytes, the row's bytes, its first byte
    /// from the row base (the first two and the last only for a run that is not empty).
    fn run(&self) -> (u64, u64, u64, u64) {
        let c0 = self.coords[0] as i64;
        let lo = c0.max(0);
        let hi = (c0 + self.boxes[0] as i64).min(self.sizes[0] as i64);
        let lg = self.lg;
        (((lo - c0) as u64) << lg, ((hi - lo) as u64) << lg, (self.boxes[0] as u64) << lg, (lo as u64) << lg)
    }
}

fn pack32(v: &[u32; 5]) -> Bits<160> {
    let mut b: Bits<160> = 0.into();
    for (d, x) in v.iter().enumerate() {
        b = b | (bit_cast::<160, 32>((*x as u64).to_bits()) << ((32 * d) as u64));
    }
    b
}

fn clock(u: &mut TensorRows) {
    tick(u, |u| u.clock.next = Clock { clk: true }, |u| u.clock.next = Clock { clk: false }, |_| {});
}

fn walk(u: &mut TensorRows, b: &Box, what: &str) {
    u.m_c.next = pack32(&b.coords.map(|c| c as u32));
    u.m_box.next = pack32(&b.boxes);
    u.m_size.next = pack32(&b.sizes);
    let mut strides: Bits<256> = 0.into();
    for (d, s) in b.strides.iter().enumerate() {
        strides = strides | (bit_cast::<256, 64>(s.to_bits()) << ((64 * d) as u64));
    }
    u.m_stride.next = strides;
    u.m_lg.next = (b.lg as u64).to_bits();
    u.origin.next = b.origin.to_bits();
    u.advance.next = false;
    u.init.next = true;
    settle(u);
    clock(u);
    u.init.next = false;
    let rows = b.rows();
    let (pre, dat, bytes, lo_bytes) = b.run();
    // Twice round: after the last row the walk is back at the first.
    for (n, want) in rows.iter().chain(rows.iter().take(1)).enumerate() {
        settle(u);
        let got = Row { base: u.row_base.val().to_u64(), empty: u.empty.val(), last: u.last.val() };
        assert_eq!(&got, want, "{what}: row {n} of {}", rows.len());
        assert_eq!(u.bytes.val().to_u64(), bytes, "{what}: row bytes");
        if !got.empty {
            assert_eq!(u.pre.val().to_u64(), pre, "{what}: fill before the run");
            assert_eq!(u.pre_zero.val(), pre == 0, "{what}: pre_zero");
            assert_eq!(u.dat.val().to_u64(), dat, "{what}: the run's bytes");
            assert_eq!(u.lo_bytes.val().to_u64(), lo_bytes, "{what}: the run's offset");
        }
        u.advance.next = true;
        settle(u);
        clock(u);
        u.advance.next = false;
    }
}

#[test]
fn the_walk_visits_every_row_of_random_boxes_in_order() {
    let (seeds, count) = Campaign::new("TENSOR_ROWS", (&[1, 2], 300), (&[1, 2, 3, 4], 20_000)).split();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut u = TensorRows::default();
        u.connect_all();
        for k in 0..count {
            let b = Box::random(&mut rng);
            let what = format!(
                "seed {seed}, box {k}: boxes {:?}, sizes {:?}, coords {:?}, lg {}",
                b.boxes, b.sizes, b.coords, b.lg
            );
            walk(&mut u, &b, &what);
        }
    }
}
