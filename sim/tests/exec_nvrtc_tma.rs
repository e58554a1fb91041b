//! NVRTC-compiled (sm_90, ptxas-checked) kernels on the golden model, the way `smsync run` runs
//! them (a launch file's buffers and tensor maps, then `exec::run`): 2D and 3D TMA loads and
//! stores through `__grid_constant__` maps with the 128B swizzle, a warp-specialised
//! producer/consumer GEMM tile loop, and half2 / bf16x2 atomics packed with `__floats2half2_rn`.
//! The kernels are corpus kernels (testbench/cuda, testbench/ptx), which also run under cosim
//! with the launches of testbench/reference; these tests run them at more box positions and
//! launch sizes on the golden model.
//!
//! Expected buffers come from host references written here: the tile of a dense row-major
//! tensor, zero outside; a plain matrix product; exact sums of the packed halves.

mod exec_support;
use exec_support::*;
use smsync_sim::exec::Launch;
use smsync_sim::ptx;

/// The corpus kernel `testbench/ptx/<name>.ptx`.
fn module(name: &str) -> smsync_sim::ptx::ir::Module {
    let path = format!("{}/../testbench/ptx/{name}.ptx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test input present");
    ptx::parse(&text, &path).unwrap_or_else(|e| panic!("{e}"))
}

fn floats(v: &[f32]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

fn f32s(bits: Vec<u64>) -> Vec<f32> {
    bits.into_iter().map(|b| f32::from_bits(b as u32)).collect()
}

/// Element `i` of a dense tensor of `dims` (innermost first) at `c`, or 0 outside.
fn get(t: &[f32], dims: &[i64], c: &[i64]) -> f32 {
    let mut at = 0;
    for d in (0..dims.len()).rev() {
        if !(0..dims[d]).contains(&c[d]) {
            return 0.0;
        }
        at = at * dims[d] + c[d];
    }
    t[at as usize]
}

/// The box `bx` at `start` in row order (dim 0 fastest), zero outside the tensor.
fn tile(t: &[f32], dims: &[i64], bx: &[i64], start: &[i64]) -> Vec<(Vec<i64>, f32)> {
    let n: i64 = bx.iter().product();
    (0..n)
        .map(|i| {
            let mut rest = i;
            let c: Vec<i64> = (0..bx.len())
                .map(|d| {
                    let x = start[d] + rest % bx[d];
                    rest /= bx[d];
                    x
                })
                .collect();
            let v = get(t, dims, &c);
            (c, v)
        })
        .collect()
}

/// Runs one of the round-trip kernels and checks `plain` (the loaded box, unswizzled by the
/// kernel) and `out` (2v + 1 stored back at the box's in-bounds positions, 0 elsewhere).
fn round_trip(entry: &str, dims: &[i64], bx: &[i64], start: &[i64]) {
    let m = module(entry);
    let n: i64 = dims.iter().product();
    let input = tensor(n);
    let strides: Vec<String> = (1..dims.len()).map(|d| (dims[..d].iter().product::<i64>() * 4).to_string()).collect();
    let map = |global: &str| {
        format!(
            "{{tensor_map: {{data_type: float32, rank: {}, global: {global}, dims: {dims:?}, strides: [{}], box: {bx:?}, swizzle: 128B}}}}",
            dims.len(),
            strides.join(", ")
        )
    };
    let coords: Vec<String> = start.iter().map(|c| format!("{{s32: {c}}}")).collect();
    let yaml = format!(
        "entry: {entry}\nblock: [64]\nbuffers:\n  input: {{type: f32, data: [{}]}}\n  out: {{type: f32, len: {n}}}\n  \
         plain: {{type: f32, len: {}}}\nparams: [{}, {}, plain, {}]\n",
        floats(&input),
        bx.iter().product::<i64>(),
        map("input"),
        map("out"),
        coords.join(", ")
    );
    let launch = Launch::from_yaml(&yaml).unwrap_or_else(|e| panic!("{e}"));
    check_round_trip(&m, &launch, &input, dims, bx, start);
}

fn check_round_trip(
    m: &smsync_sim::ptx::ir::Module,
    launch: &Launch,
    input: &[f32],
    dims: &[i64],
    bx: &[i64],
    start: &[i64],
) {
    let n: i64 = dims.iter().product();
    let entry = launch.entry.clone().unwrap_or_default();
    let r = run(m, launch).unwrap_or_else(|e| panic!("{entry} at {start:?}: {e}"));
    let want_tile = tile(input, dims, bx, start);
    let plain: Vec<f32> = want_tile.iter().map(|(_, v)| *v).collect();
    assert_eq!(f32s(r.bits("plain").unwrap()), plain, "{entry} at {start:?}: loaded tile");
    let mut out = vec![0.0f32; n as usize];
    for (c, v) in &want_tile {
        if c.iter().zip(dims).all(|(x, d)| (0..*d).contains(x)) {
            let at = (0..dims.len()).rev().fold(0, |a, d| a * dims[d] + c[d]);
            out[at as usize] = 2.0 * v + 1.0;
        }
    }
    assert_eq!(f32s(r.bits("out").unwrap()), out, "{entry} at {start:?}: stored tile");
}

fn tensor(n: i64) -> Vec<f32> {
    (0..n).map(|i| (i % 97) as f32 * 0.25 - 11.0).collect()
}

#[test]
fn committed_launch_file_runs_as_smsync_run_would() {
    // sim/tests/data/ptx/tma2d_swizzle128.launch.yaml: the same tensor, the box at (16, 4)
    let path = format!("{}/tests/data/ptx/tma2d_swizzle128.launch.yaml", env!("CARGO_MANIFEST_DIR"));
    let launch = Launch::from_file(std::path::Path::new(&path)).unwrap_or_else(|e| panic!("{e}"));
    check_round_trip(&module("tma2d_swizzle128"), &launch, &tensor(64 * 20), &[64, 20], &[32, 8], &[16, 4]);
}

#[test]
fn tma_2d_load_and_store_with_128b_swizzle() {
    // stores need non-negative starts (PTX ISA §9.7.9.25.5.1); [40, 16] runs over both far edges
    for start in [[16, 4], [0, 12], [40, 16]] {
        round_trip("tma2d_swizzle128", &[64, 20], &[32, 8], &start);
    }
}

#[test]
fn tma_3d_load_and_store_with_128b_swizzle() {
    for start in [[0, 0, 0], [32, 3, 1], [16, 2, 2]] {
        round_trip("tma3d_swizzle128", &[64, 6, 3], &[32, 4, 2], &start);
    }
}

#[test]
fn warp_specialised_gemm_with_full_and_empty_mbarriers() {
    let (mm, nn, kk) = (32usize, 32usize, 128usize);
    // small integers: every partial sum is exact in f32, so any FMA order gives the same bits
    let a: Vec<f32> = (0..mm * kk).map(|i| ((i * 7 + 3) % 11) as f32 - 5.0).collect();
    let b: Vec<f32> = (0..nn * kk).map(|i| ((i * 5 + 1) % 9) as f32 - 4.0).collect();
    let map = |g: &str, rows: usize| {
        format!(
            "{{tensor_map: {{data_type: float32, rank: 2, global: {g}, dims: [{kk}, {rows}], strides: [{}], box: [32, 16], swizzle: 128B}}}}",
            kk * 4
        )
    };
    let yaml = format!(
        "entry: gemm_ws\ngrid: [2, 2, 1]\nblock: [96]\nbuffers:\n  a: {{type: f32, data: [{}]}}\n  b: {{type: f32, data: [{}]}}\n  \
         c: {{type: f32, len: {}}}\nparams: [{}, {}, c, {{s32: {nn}}}, {{s32: {}}}]\n",
        floats(&a),
        floats(&b),
        mm * nn,
        map("a", mm),
        map("b", nn),
        kk / 32
    );
    let launch = Launch::from_yaml(&yaml).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&module("tma_gemm_ws"), &launch).unwrap_or_else(|e| panic!("{e}"));
    let mut want = vec![0.0f32; mm * nn];
    for i in 0..mm {
        for j in 0..nn {
            want[i * nn + j] = (0..kk).map(|k| a[i * kk + k] * b[j * kk + k]).sum();
        }
    }
    assert_eq!(f32s(r.bits("c").unwrap()), want);
    assert!(want.iter().any(|&v| v != 0.0), "a non-trivial product");
}

#[test]
fn half2_and_bf16x2_atomics_from_floats2half2_rn() {
    // multiples of 0.5 in [-8, 8): every partial sum of 4 is exact in f16 and in bf16 (8
    // significant bits), so the atomics' order does not matter. One block of 64 threads: global
    // slot j gets the 4 threads g % 16 == j, shared slot j the 16 threads g % 4 == j.
    let x: Vec<f32> = (0..128).map(|i| ((i * 13 + 5) % 32) as f32 * 0.5 - 8.0).collect();
    let yaml = format!(
        "block: [64]\nbuffers:\n  x: {{type: f32, data: [{}]}}\n  h: {{type: u32, len: 16}}\n  b: {{type: u32, len: 16}}\n  \
         hs: {{type: u32, len: 4}}\nparams: [x, h, b, hs]\n",
        floats(&x)
    );
    let launch = Launch::from_yaml(&yaml).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&module("half2_atomics"), &launch).unwrap_or_else(|e| panic!("{e}"));
    // __half2 / __nv_bfloat162: .x (the first argument of __floats2half2_rn) in the low half;
    // each sum starts from +0.0 as the buffer does
    let sum = |slots: usize, j: usize, k: usize, sign: f32| -> f32 {
        (0..64).filter(|i| i % slots == j).fold(0.0, |a, i| a + sign * x[2 * i + k])
    };
    let h16 = |v: f32| half::f16::from_f32(v).to_bits() as u64;
    let b16 = |v: f32| half::bf16::from_f32(v).to_bits() as u64;
    let want_h: Vec<u64> = (0..16).map(|j| h16(sum(16, j, 0, 1.0)) | h16(sum(16, j, 1, 1.0)) << 16).collect();
    let want_b: Vec<u64> = (0..16).map(|j| b16(sum(16, j, 0, 1.0)) | b16(sum(16, j, 1, -1.0)) << 16).collect();
    let want_s: Vec<u64> = (0..4).map(|j| h16(sum(4, j, 1, 1.0)) | h16(sum(4, j, 0, 1.0)) << 16).collect();
    assert_eq!(r.bits("h").unwrap(), want_h, "global atomicAdd(__half2*)");
    assert_eq!(r.bits("b").unwrap(), want_b, "global atomicAdd(__nv_bfloat162*)");
    assert_eq!(r.bits("hs").unwrap(), want_s, "shared atomicAdd(__half2*)");
}
