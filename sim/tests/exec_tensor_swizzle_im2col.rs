//! cp.async.bulk.tensor with a swizzled shared-memory side (PTX ISA §5.5.7) and im2col loads
//! (PTX ISA §5.5.4), run end to end on hand-written PTX kernels whose maps come from launch files.
//!
//! The expected bytes come from host references written here from the ISA text, never from the
//! model: the swizzled image from §5.5.7's pattern tables (copied below as tables, not as the XOR
//! the model computes), the im2col column from the convolution it feeds (a filter base walking
//! the output positions of a padded image, each reading the input at base + im2col offset, zero
//! outside the image).

mod exec_support;
use exec_support::*;
use smsync_sim::exec::{ExecError, Launch};
use smsync_sim::ptx;

/// PTX ISA §5.5.7's tables: row `r` (the 128-byte line's index within the pattern) lists, for
/// each 16-byte slot of the line, the chunk of the unswizzled data that lands there.
const SW32: [[usize; 8]; 2] = [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6]];
const SW64: [[usize; 8]; 4] =
    [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6], [2, 3, 0, 1, 6, 7, 4, 5], [3, 2, 1, 0, 7, 6, 5, 4]];
const SW128: [[usize; 8]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [1, 0, 3, 2, 5, 4, 7, 6],
    [2, 3, 0, 1, 6, 7, 4, 5],
    [3, 2, 1, 0, 7, 6, 5, 4],
    [4, 5, 6, 7, 0, 1, 2, 3],
    [5, 4, 7, 6, 1, 0, 3, 2],
    [6, 7, 4, 5, 2, 3, 0, 1],
    [7, 6, 5, 4, 3, 2, 1, 0],
];

fn table(swizzle: &str) -> &'static [[usize; 8]] {
    match swizzle {
        "32B" => &SW32,
        "64B" => &SW64,
        "128B" => &SW128,
        _ => &[[0, 1, 2, 3, 4, 5, 6, 7]],
    }
}

/// Shared memory after a box whose unswizzled image is `lin` landed at shared address `dst`:
/// the window [0, window) as bytes. Each line's slot `s` holds chunk `table[line % rows][s]` of
/// the same line of the unswizzled image (the pattern's phase is the absolute line, which is
/// §5.5.7's base offset `(dstMem / 128) % rows` for a destination not aligned to the pattern).
fn swizzled_image(swizzle: &str, dst: usize, lin: &[u8], window: usize) -> Vec<u8> {
    let t = table(swizzle);
    let mut plain = vec![None; window];
    for (i, &b) in lin.iter().enumerate() {
        plain[dst + i] = Some(b);
    }
    let mut out = vec![0u8; window];
    for line in 0..window / 128 {
        for slot in 0..8 {
            let from = line * 128 + t[line % t.len()][slot] * 16;
            for k in 0..16 {
                if let Some(b) = plain[from + k] {
                    out[line * 128 + slot * 16 + k] = b;
                }
            }
        }
    }
    out
}

/// The inverse view for stores: the unswizzled image of `len` bytes at `src` in `smem`.
fn unswizzled(swizzle: &str, src: usize, smem: &[u8], len: usize) -> Vec<u8> {
    let t = table(swizzle);
    let mut lin = vec![0u8; len];
    for line in 0..smem.len() / 128 {
        for slot in 0..8 {
            let from = line * 128 + t[line % t.len()][slot] * 16;
            for k in 0..16 {
                if (src..src + len).contains(&(from + k)) {
                    lin[from + k - src] = smem[line * 128 + slot * 16 + k];
                }
            }
        }
    }
    lin
}

/// Tile-mode box image: elements of `eb` bytes, box dims `bx` at `start`, tensor dims `dims`
/// (innermost first, densely packed rows of `dims[0]` elements), zero outside the tensor.
fn tile_image(tensor: &[u8], eb: usize, dims: &[usize], bx: &[usize], start: &[i64]) -> Vec<u8> {
    let mut out = Vec::new();
    let n: usize = bx.iter().product();
    for i in 0..n {
        let (mut rest, mut off, mut inside, mut pitch) = (i, 0usize, true, eb);
        for d in 0..dims.len() {
            let c = start[d] + (rest % bx[d]) as i64;
            rest /= bx[d];
            inside &= (0..dims[d] as i64).contains(&c);
            off += c.max(0) as usize * pitch;
            pitch *= dims[d];
        }
        if inside {
            out.extend_from_slice(&tensor[off..off + eb]);
        } else {
            out.extend(std::iter::repeat_n(0u8, eb));
        }
    }
    out
}

fn bytes(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2654435761).wrapping_add(12345);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 8) as u8
        })
        .collect()
}

fn list(v: &[u8]) -> String {
    v.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ")
}

const SMEM: usize = 8192;

/// A kernel whose thread 0 issues one tensor load of `nbytes` into `tile + off` (the map by
/// value, `__grid_constant__` style), then copies shared [tile, tile + SMEM) to `out` and the
/// shared address of `tile` to `at`.
fn load_kernel(dims: usize, im2col: bool) -> String {
    let coords: Vec<String> = (0..dims).map(|d| format!("%r{}", 20 + d)).collect();
    let (mode, info) = if im2col {
        let offs: Vec<String> = (0..dims - 2).map(|s| format!("%rs{}", 1 + s)).collect();
        ("im2col", format!(", {{{}}}", offs.join(", ")))
    } else {
        ("tile", String::new())
    };
    format!(
        r#".version 8.0
.target sm_90
.address_size 64
.visible .entry load_raw(.param .align 64 .b8 tmap[128], .param .u64 out, .param .u64 at, .param .u32 off,
    .param .u32 nbytes, .param .s32 c0, .param .s32 c1, .param .s32 c2, .param .s32 c3, .param .s32 c4,
    .param .u16 o0, .param .u16 o1, .param .u16 o2)
{{
    .reg .b64 %rd<10>;
    .reg .b32 %r<30>;
    .reg .b16 %rs<4>;
    .reg .pred %p<4>;
    .shared .align 1024 .b8 tile[{SMEM}];
    .shared .align 8 .b64 bar;
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra SYNC;
    mbarrier.init.shared::cta.b64 [bar], 1;
SYNC:
    bar.sync 0;
    @%p1 bra WAIT;
    ld.param.u32 %r2, [nbytes];
    mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [bar], %r2;
    mov.b64 %rd2, tmap;
    cvta.param.u64 %rd2, %rd2;
    mov.u32 %r3, tile;
    ld.param.u32 %r4, [off];
    add.u32 %r3, %r3, %r4;
    ld.param.s32 %r20, [c0];
    ld.param.s32 %r21, [c1];
    ld.param.s32 %r22, [c2];
    ld.param.s32 %r23, [c3];
    ld.param.s32 %r24, [c4];
    ld.param.u16 %rs1, [o0];
    ld.param.u16 %rs2, [o1];
    ld.param.u16 %rs3, [o2];
    cp.async.bulk.tensor.{dims}d.shared::cluster.global.{mode}.mbarrier::complete_tx::bytes [%r3], [%rd2, {{{coords}}}], [bar]{info};
WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
    @!%p2 bra WAIT;
    ld.param.u64 %rd3, [out];
    mov.u32 %r10, tile;
    shl.b32 %r11, %r1, 2;
LOOP:
    setp.ge.u32 %p3, %r11, {SMEM};
    @%p3 bra DONE;
    add.u32 %r12, %r10, %r11;
    ld.shared.u32 %r13, [%r12];
    cvt.u64.u32 %rd4, %r11;
    add.u64 %rd5, %rd3, %rd4;
    st.global.u32 [%rd5], %r13;
    add.u32 %r11, %r11, 128;
    bra LOOP;
DONE:
    @%p1 ret;
    ld.param.u64 %rd6, [at];
    st.global.u32 [%rd6], %r10;
    ret;
}}
"#,
        coords = coords.join(", ")
    )
}

struct Load<'a> {
    map: String,
    tensor: &'a [u8],
    off: usize,
    nbytes: usize,
    coords: [i64; 5],
    offsets: [u16; 3],
}

/// Runs `load_kernel` and returns (shared window bytes, shared address of `tile`).
fn run_load(dims: usize, im2col: bool, l: &Load) -> Result<(Vec<u8>, usize), ExecError> {
    let text = load_kernel(dims, im2col);
    let m = ptx::parse(&text, "load_raw.ptx").unwrap_or_else(|e| panic!("{e}"));
    let c = l.coords;
    let o = l.offsets;
    let yaml = format!(
        "block: [32]\nbuffers:\n  tensor: {{type: u8, data: [{}]}}\n  out: {{type: u8, len: {SMEM}}}\n  at: {{type: u32, len: 1}}\n\
         params: [{{tensor_map: {}}}, out, at, {{u32: {}}}, {{u32: {}}}, {{s32: {}}}, {{s32: {}}}, {{s32: {}}}, {{s32: {}}}, \
         {{s32: {}}}, {{u16: {}}}, {{u16: {}}}, {{u16: {}}}]\n",
        list(l.tensor),
        l.map,
        l.off,
        l.nbytes,
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        o[0],
        o[1],
        o[2]
    );
    let launch = Launch::from_yaml(&yaml).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&m, &launch)?;
    let out: Vec<u8> = r.bits("out").unwrap().iter().map(|&b| b as u8).collect();
    let at = r.bits("at").unwrap()[0] as usize;
    Ok((out, at))
}

/// One swizzled 2D float32 tile load at (x, y) of a 64 x 20 tensor, checked against the table.
fn check_2d(swizzle: &str, bx: [usize; 2], off: usize, x: i64, y: i64) {
    let (w, h) = (64usize, 20usize);
    let tensor = bytes(w * h * 4, 7);
    let map = format!(
        "{{data_type: float32, rank: 2, global: tensor, dims: [{w}, {h}], strides: [{}], box: [{}, {}], swizzle: {swizzle}}}",
        w * 4,
        bx[0],
        bx[1]
    );
    let nbytes = bx[0] * bx[1] * 4;
    let l = Load { map, tensor: &tensor, off, nbytes, coords: [x, y, 0, 0, 0], offsets: [0; 3] };
    let (smem, at) = run_load(2, false, &l).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(at % 1024, 0, "tile is declared .align 1024");
    let lin = tile_image(&tensor, 4, &[w, h], &bx, &[x, y]);
    let want = swizzled_image(swizzle, off, &lin, SMEM);
    assert_eq!(smem, want, "{swizzle} box {bx:?} at smem +{off}, start ({x}, {y})");
    // the check is not vacuous: the swizzle moved bytes away from the plain image
    if swizzle != "none" && nbytes > 128 {
        assert_ne!(smem, swizzled_image("none", off, &lin, SMEM), "{swizzle} left the image unswizzled");
    }
}

#[test]
fn swizzle_128b_load_full_span() {
    check_2d("128B", [32, 8], 0, 16, 4);
    check_2d("128B", [32, 16], 0, 0, 0);
}

#[test]
fn swizzle_64b_and_32b_loads() {
    check_2d("64B", [16, 8], 0, 8, 3);
    check_2d("32B", [8, 6], 0, 40, 11);
}

#[test]
fn swizzle_with_out_of_bounds_fill() {
    // the box hangs over the top-left and bottom-right corners; the fill is swizzled as well
    check_2d("128B", [32, 8], 0, -8, -3);
    check_2d("64B", [16, 8], 0, 56, 16);
}

#[test]
fn swizzle_inner_box_narrower_than_span() {
    // 64-byte rows under the 128-byte pattern: two box rows share one line
    check_2d("128B", [16, 12], 0, 4, 2);
    check_2d("64B", [8, 10], 0, 4, 2);
}

#[test]
fn swizzle_destination_off_the_pattern_boundary() {
    // §5.5.7: the pattern's base offset is (dstMem / 128) % rows when dstMem is not aligned to it
    check_2d("128B", [32, 8], 384, 0, 0);
    check_2d("64B", [16, 8], 640, 8, 0);
    check_2d("32B", [8, 8], 128, 0, 5);
}

#[test]
fn unswizzled_load_is_the_plain_image() {
    check_2d("none", [16, 8], 0, 3, 3);
}

#[test]
fn swizzle_3d_uint8_load() {
    let dims = [96usize, 5, 4];
    let tensor = bytes(dims.iter().product(), 11);
    let map = "{data_type: uint8, rank: 3, global: tensor, dims: [96, 5, 4], strides: [96, 480], box: [64, 4, 3], swizzle: 128B}";
    let bx = [64usize, 4, 3];
    let start = [16i64, 2, 1];
    let l = Load {
        map: map.into(),
        tensor: &tensor,
        off: 0,
        nbytes: 768,
        coords: [start[0], start[1], start[2], 0, 0],
        offsets: [0; 3],
    };
    let (smem, _) = run_load(3, false, &l).unwrap_or_else(|e| panic!("{e}"));
    let lin = tile_image(&tensor, 1, &dims, &bx, &start);
    assert_eq!(smem, swizzled_image("128B", 0, &lin, SMEM));
}

/// A kernel that fills shared [tile, tile + SMEM) from `src`, then thread 0 stores the box at
/// `tile + off` to the tensor with a 2D tensor store.
fn store_kernel() -> String {
    format!(
        r#".version 8.0
.target sm_90
.address_size 64
.visible .entry store_raw(.param .align 64 .b8 tmap[128], .param .u64 src, .param .u32 off, .param .s32 c0, .param .s32 c1)
{{
    .reg .b64 %rd<10>;
    .reg .b32 %r<30>;
    .reg .pred %p<4>;
    .shared .align 1024 .b8 tile[{SMEM}];
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd3, [src];
    mov.u32 %r10, tile;
    shl.b32 %r11, %r1, 2;
LOOP:
    setp.ge.u32 %p3, %r11, {SMEM};
    @%p3 bra DONE;
    cvt.u64.u32 %rd4, %r11;
    add.u64 %rd5, %rd3, %rd4;
    ld.global.u32 %r13, [%rd5];
    add.u32 %r12, %r10, %r11;
    st.shared.u32 [%r12], %r13;
    add.u32 %r11, %r11, 128;
    bra LOOP;
DONE:
    bar.sync 0;
    fence.proxy.async.shared::cta;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 ret;
    mov.b64 %rd2, tmap;
    cvta.param.u64 %rd2, %rd2;
    ld.param.u32 %r4, [off];
    add.u32 %r3, %r10, %r4;
    ld.param.s32 %r20, [c0];
    ld.param.s32 %r21, [c1];
    cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd2, {{%r20, %r21}}], [%r3];
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group 0;
    ret;
}}
"#
    )
}

#[test]
fn swizzled_stores_read_the_permuted_shared_image() {
    let (w, h) = (64usize, 20usize);
    for (swizzle, bx, off, x, y) in
        [("128B", [32usize, 8usize], 0usize, 16i64, 4i64), ("64B", [16, 8], 512, 40, 12), ("32B", [8, 8], 256, 0, 0)]
    {
        let tensor = bytes(w * h * 4, 3);
        let smem = bytes(SMEM, 5);
        let m = ptx::parse(&store_kernel(), "store_raw.ptx").unwrap_or_else(|e| panic!("{e}"));
        let yaml = format!(
            "block: [32]\nbuffers:\n  tensor: {{type: u8, data: [{}]}}\n  src: {{type: u8, data: [{}]}}\n\
             params: [{{tensor_map: {{data_type: float32, rank: 2, global: tensor, dims: [{w}, {h}], strides: [{}], \
             box: [{}, {}], swizzle: {swizzle}}}}}, src, {{u32: {off}}}, {{s32: {x}}}, {{s32: {y}}}]\n",
            list(&tensor),
            list(&smem),
            w * 4,
            bx[0],
            bx[1]
        );
        let launch = Launch::from_yaml(&yaml).unwrap_or_else(|e| panic!("{e}"));
        let r = run(&m, &launch).unwrap_or_else(|e| panic!("{e}"));
        let got: Vec<u8> = r.bits("tensor").unwrap().iter().map(|&b| b as u8).collect();
        // host reference: the box's elements in row order are the unswizzled image
        let lin = unswizzled(swizzle, off, &smem, bx[0] * bx[1] * 4);
        let mut want = tensor.clone();
        for (i, e) in lin.chunks(4).enumerate() {
            let (cx, cy) = (x as usize + i % bx[0], y as usize + i / bx[0]);
            let at = (cy * w + cx) * 4;
            want[at..at + 4].copy_from_slice(e);
        }
        assert_eq!(got, want, "{swizzle} store of box {bx:?} from smem +{off}");
        assert_ne!(lin, smem[off..off + lin.len()].to_vec(), "{swizzle}: the store must permute");
    }
}

/// The im2col column of PTX ISA §5.5.4 computed as the convolution sees it: an NHWC image
/// (`c`, `w`, `h`, `n` = dims), output positions (filter bases) walked W fastest over
/// [lower, size - 1 + upper] per spatial dim and then over images, from the base `start`; each
/// position contributes `cpp` channels from `c0` at input (base + offset), zero outside.
#[allow(clippy::too_many_arguments)]
fn im2col_reference(
    tensor: &[u8],
    eb: usize,
    dims: [usize; 4],
    lower: [i64; 2],
    upper: [i64; 2],
    cpp: usize,
    ppc: usize,
    start: [i64; 4],
    offs: [i64; 2],
) -> Vec<u8> {
    let [c, w, h, n] = dims;
    let mut positions = Vec::new();
    for img in 0..n as i64 + 4 {
        for y in lower[1]..=h as i64 - 1 + upper[1] {
            for x in lower[0]..=w as i64 - 1 + upper[0] {
                positions.push((x, y, img));
            }
        }
    }
    let first = positions.iter().position(|&p| p == (start[1], start[2], start[3])).expect("base inside the box");
    let mut out = Vec::new();
    for &(x, y, img) in &positions[first..first + ppc] {
        let (ix, iy) = (x + offs[0], y + offs[1]);
        for ch in start[0]..start[0] + cpp as i64 {
            let inside = (0..c as i64).contains(&ch)
                && (0..w as i64).contains(&ix)
                && (0..h as i64).contains(&iy)
                && (0..n as i64).contains(&img);
            if inside {
                let at = (((img as usize * h + iy as usize) * w + ix as usize) * c + ch as usize) * eb;
                out.extend_from_slice(&tensor[at..at + eb]);
            } else {
                out.extend(std::iter::repeat_n(0u8, eb));
            }
        }
    }
    out
}

fn im2col_map(swizzle: &str, cpp: usize, ppc: usize, lower: [i64; 2], upper: [i64; 2]) -> String {
    format!(
        "{{mode: im2col, data_type: bfloat16, rank: 4, global: tensor, dims: [16, 9, 6, 2], strides: [32, 288, 1728], \
         pixel_box_lower_corner: [{}, {}], pixel_box_upper_corner: [{}, {}], channels_per_pixel: {cpp}, \
         pixels_per_column: {ppc}, swizzle: {swizzle}}}",
        lower[0], lower[1], upper[0], upper[1]
    )
}

#[test]
fn im2col_load_walks_the_bounding_box_with_padding() {
    let dims = [16usize, 9, 6, 2];
    let tensor = bytes(dims.iter().product::<usize>() * 2, 21);
    // a 3 x 3 filter with padding 1: corners -1 / -1 (PTX ISA §5.5.4.1, example 1)
    // (swizzle, channels per pixel, pixels per column, coordinates C W H N, offsets W H)
    type Case = (&'static str, usize, usize, [i64; 4], [i64; 2]);
    let cases: [Case; 5] = [
        ("none", 8, 32, [8, 5, 4, 0], [2, 1]),    // crosses rows and into image 1
        ("none", 16, 20, [0, -1, -1, 1], [0, 0]), // base at the padded corner: first row all padding
        ("32B", 16, 24, [0, 3, 2, 0], [1, 2]),
        ("none", 8, 64, [8, 7, 4, 1], [2, 2]), // runs past the last image: OOB fill (§5.5.4.3)
        ("none", 8, 10, [12, 2, 0, 0], [1, 0]), // channels 12..20 of 16: the upper half is OOB
    ];
    for (swizzle, cpp, ppc, start, offs) in cases {
        let l = Load {
            map: im2col_map(swizzle, cpp, ppc, [-1, -1], [-1, -1]),
            tensor: &tensor,
            off: 0,
            nbytes: cpp * ppc * 2,
            coords: [start[0], start[1], start[2], start[3], 0],
            offsets: [offs[0] as u16, offs[1] as u16, 0],
        };
        let (smem, _) = run_load(4, true, &l).unwrap_or_else(|e| panic!("{e}"));
        let lin = im2col_reference(&tensor, 2, dims, [-1, -1], [-1, -1], cpp, ppc, start, offs);
        assert_eq!(
            smem,
            swizzled_image(swizzle, 0, &lin, SMEM),
            "{swizzle} cpp {cpp} ppc {ppc} at {start:?} + {offs:?}"
        );
    }
}

#[test]
fn im2col_load_without_padding() {
    // PTX ISA §5.5.4.1 example 2: corners 0 / -2, offsets (2, 2): a 3 x 3 filter inside the image
    let dims = [16usize, 9, 6, 2];
    let tensor = bytes(dims.iter().product::<usize>() * 2, 4);
    let (start, offs) = ([0i64, 3, 1, 0], [2i64, 2]);
    let l = Load {
        map: im2col_map("none", 8, 30, [0, 0], [-2, -2]),
        tensor: &tensor,
        off: 0,
        nbytes: 8 * 30 * 2,
        coords: [start[0], start[1], start[2], start[3], 0],
        offsets: [2, 2, 0],
    };
    let (smem, _) = run_load(4, true, &l).unwrap_or_else(|e| panic!("{e}"));
    let lin = im2col_reference(&tensor, 2, dims, [0, 0], [-2, -2], 8, 30, start, offs);
    assert_eq!(smem, swizzled_image("none", 0, &lin, SMEM));
}

#[test]
fn im2col_filter_base_outside_the_bounding_box_is_flagged() {
    let dims = [16usize, 9, 6, 2];
    let tensor = bytes(dims.iter().product::<usize>() * 2, 4);
    // W positions are -1..=7 with corners -1 / -1; 8 is outside
    let l = Load {
        map: im2col_map("none", 8, 4, [-1, -1], [-1, -1]),
        tensor: &tensor,
        off: 0,
        nbytes: 64,
        coords: [0, 8, 0, 0, 0],
        offsets: [0; 3],
    };
    let e = run_load(4, true, &l).expect_err("base outside the box").to_string();
    assert!(e.contains("filter base outside the bounding box"), "{e}");
    // a 4d offset above 2^8 - 1 (PTX ISA §5.5.4.1)
    let l = Load { coords: [0, 0, 0, 0, 0], offsets: [256, 0, 0], ..l };
    let e = run_load(4, true, &l).expect_err("offset out of range").to_string();
    assert!(e.contains("im2col offset out of range"), "{e}");
}

#[test]
fn load_mode_must_match_the_map() {
    let dims = [16usize, 9, 6, 2];
    let tensor = bytes(dims.iter().product::<usize>() * 2, 4);
    // a tiled instruction on an im2col map
    let l = Load {
        map: im2col_map("none", 8, 4, [-1, -1], [-1, -1]),
        tensor: &tensor,
        off: 0,
        nbytes: 64,
        coords: [0; 5],
        offsets: [0; 3],
    };
    let e = run_load(4, false, &l).expect_err("tile load of an im2col map").to_string();
    assert!(e.contains("malformed tensor map"), "{e}");
    // an im2col instruction on a tiled map
    let map = "{data_type: bfloat16, rank: 4, global: tensor, dims: [16, 9, 6, 2], strides: [32, 288, 1728], box: [8, 2, 2, 1]}";
    let l = Load { map: map.into(), ..l };
    let e = run_load(4, true, &l).expect_err("im2col load of a tiled map").to_string();
    assert!(e.contains("malformed tensor map"), "{e}");
}
