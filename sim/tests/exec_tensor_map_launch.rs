//! Tensor maps declared in a launch file with `cuTensorMapEncodeTiled`'s fields (exec::tmap):
//! by value for a `const __grid_constant__ CUtensorMap` parameter and by address from a buffer,
//! run on NVRTC output (sim/tests/data/ptx/tma_grid_constant.cu); bad maps are refused at load
//! with the field, the value and the driver's rule. Expected tiles are computed on the host from
//! the tensor's definition (element (x, y) at global offset y * stride + x * 4, zero outside).

mod exec_support;
use exec_support::*;
use smsync_sim::exec::{ExecError, Launch};
use smsync_sim::ptx;

const W: usize = 64;
const H: usize = 32;

fn module() -> smsync_sim::ptx::ir::Module {
    let path = format!("{}/tests/data/ptx/tma_grid_constant.ptx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test input present");
    ptx::parse(&text, &path).unwrap_or_else(|e| panic!("{e}"))
}

fn input() -> Vec<f32> {
    (0..W * H).map(|i| i as f32 * 0.5 - 7.0).collect()
}

const MAP: &str = "{data_type: float32, rank: 2, global: input, dims: [64, 32], strides: [256], box: [16, 8]}";

fn launch(entry: &str, map_param: &str, extra_buffer: &str, x0: i32, y0: i32) -> String {
    let data = input().iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
    format!(
        "entry: {entry}\nblock: [32]\nbuffers:\n  input: {{type: f32, data: [{data}]}}\n  out: {{type: f32, len: 128}}\n\
         {extra_buffer}params: [{map_param}, out, {{s32: {x0}}}, {{s32: {y0}}}]\n"
    )
}

/// The 8 x 16 tile at (x0, y0), rows of 16, zero-filled outside the 64 x 32 tensor.
fn tile(x0: i32, y0: i32) -> Vec<u64> {
    let t = input();
    (0..128i32)
        .map(|i| {
            let (x, y) = (x0 + i % 16, y0 + i / 16);
            let v = if (0..W as i32).contains(&x) && (0..H as i32).contains(&y) {
                t[y as usize * W + x as usize]
            } else {
                0.0
            };
            v.to_bits() as u64
        })
        .collect()
}

#[test]
fn grid_constant_tensor_map_by_value() {
    let m = module();
    for (x0, y0) in [(0, 0), (24, 9), (56, 28), (-4, -3)] {
        let l = Launch::from_yaml(&launch("tma_2d_grid_constant", &format!("{{tensor_map: {MAP}}}"), "", x0, y0))
            .unwrap_or_else(|e| panic!("{e}"));
        let r = run(&m, &l).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.bits("out").unwrap(), tile(x0, y0), "tile at ({x0}, {y0})");
    }
}

#[test]
fn tensor_map_in_global_memory_by_address() {
    let m = module();
    let l =
        Launch::from_yaml(&launch("tma_2d_global_map", "tmap", &format!("  tmap: {{tensor_map: {MAP}}}\n"), 40, 20))
            .unwrap_or_else(|e| panic!("{e}"));
    let r = run(&m, &l).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.bits("out").unwrap(), tile(40, 20));
}

fn map_error(map: &str) -> (String, String) {
    let y = launch("tma_2d_grid_constant", &format!("{{tensor_map: {map}}}"), "", 0, 0);
    match Launch::from_yaml(&y) {
        Err(ExecError::Launch { field, message }) => (field, message),
        Err(other) => panic!("expected a launch error, got {other}"),
        Ok(l) => match run(&module(), &l).unwrap_err() {
            ExecError::Launch { field, message } => (field, message),
            other => panic!("expected a launch error at load, got {other}"),
        },
    }
}

#[test]
fn bad_tensor_maps_are_refused_with_field_value_and_rule() {
    let base = "data_type: float32, global: input, strides: [256]";
    // a box dim over 256
    let (f, m) = map_error(&format!("{{{base}, rank: 2, dims: [64, 32], box: [16, 300]}}"));
    assert_eq!(f, "params[0].tensor_map.box[1]");
    assert!(m.contains("300") && m.contains("boxDim must be in 1..=256"), "{m}");
    // a stride not a multiple of 16
    let (f, m) =
        map_error("{data_type: float32, global: input, rank: 2, dims: [64, 32], strides: [250], box: [16, 8]}");
    assert_eq!(f, "params[0].tensor_map.strides[0]");
    assert!(m.contains("250") && m.contains("multiple of 16 bytes"), "{m}");
    // a swizzle the box width does not allow: 16 floats = 64 bytes > 32
    let (f, m) = map_error(&format!("{{{base}, rank: 2, dims: [64, 32], box: [16, 8], swizzle: 32B}}"));
    assert_eq!(f, "params[0].tensor_map.swizzle");
    assert!(m.contains("`32B`") && m.contains("<= 32 bytes") && m.contains("64 bytes"), "{m}");
    // a rank mismatch
    let (f, m) = map_error(&format!("{{{base}, rank: 2, dims: [64], box: [16, 8]}}"));
    assert_eq!(f, "params[0].tensor_map.dims");
    assert!(m.contains("1 entries for rank 2"), "{m}");
    // the inner box must be a multiple of 16 bytes
    let (f, m) = map_error(&format!("{{{base}, rank: 2, dims: [64, 32], box: [2, 8]}}"));
    assert_eq!(f, "params[0].tensor_map.box[0]");
    assert!(m.contains("multiple of 16 bytes"), "{m}");
    // other fields
    let (f, _) = map_error(&format!("{{{base}, rank: 6, dims: [64, 32], box: [16, 8]}}"));
    assert_eq!(f, "params[0].tensor_map.rank");
    let (f, _) = map_error(&format!("{{{base}, rank: 2, dims: [64, 32], box: [16, 8], element_strides: [1, 9]}}"));
    assert_eq!(f, "params[0].tensor_map.element_strides[1]");
    let (f, m) =
        map_error("{data_type: uint32, global: input, strides: [256], rank: 2, dims: [64, 32], box: [16, 8], oob_fill: nan_request_zero_fma}");
    assert_eq!(f, "params[0].tensor_map.oob_fill");
    assert!(m.contains("floating-point"), "{m}");
    let (f, m) = map_error(&format!("{{{base}, rank: 2, dims: [64, 33], box: [16, 8]}}"));
    assert_eq!(f, "params[0].tensor_map.dims");
    assert!(m.contains("spans 8448 bytes") && m.contains("holds 8192"), "{m}");
    let (f, m) = map_error(&format!("{{{base}, rank: 2, dims: [64, 32], box: [16, 8], element_strides: [2, 1]}}"));
    assert_eq!(f, "params[0].tensor_map.element_strides");
    assert!(m.contains("elementStrides[0] = 2") && m.contains("not supported by smsync's copy engine yet"), "{m}");
    let (f, _) = map_error("{data_type: float33, global: input, rank: 1, dims: [64], strides: [], box: [16]}");
    assert_eq!(f, "params[0].tensor_map.data_type");
}

/// cuTensorMapEncodeIm2col's fields in a launch file (`mode: im2col`), refused with the field, the
/// value and the rule. The tensor buffer is the 64 x 32 float input read as a 4 x 8 x 8 x 8 NHWC
/// float tensor (2048 floats).
#[test]
fn bad_im2col_maps_are_refused_with_field_value_and_rule() {
    let base = "mode: im2col, data_type: float32, global: input, rank: 4, dims: [4, 8, 8, 8], strides: [16, 128, 1024]";
    let good = "pixel_box_lower_corner: [-1, -1], pixel_box_upper_corner: [-1, -1], channels_per_pixel: 4, pixels_per_column: 64";
    let field = |k: &str| format!("params[0].tensor_map.{k}");
    // the good map loads (its run is a different test's business: the kernel here is tiled)
    let y = launch("tma_2d_grid_constant", &format!("{{tensor_map: {{{base}, {good}}}}}"), "", 0, 0);
    assert!(Launch::from_yaml(&y).is_ok(), "{:?}", Launch::from_yaml(&y).err());
    let cases: &[(&str, &str, &[&str])] = &[
        // rank: im2col tensors are 3d..5d (PTX ISA §5.5.4)
        (
            "mode: im2col, data_type: float32, global: input, rank: 2, dims: [64, 32], strides: [256], channels_per_pixel: 4, pixels_per_column: 8",
            "rank",
            &["2", "im2col tensorRank must be 3..=5"],
        ),
        // corners: one per spatial dimension, in the rank's range (PTX ISA §5.5.4.1)
        (
            &format!("{base}, pixel_box_lower_corner: [-1], pixel_box_upper_corner: [-1, -1], channels_per_pixel: 4, pixels_per_column: 64"),
            "pixel_box_lower_corner",
            &["1 entries for rank 4, need 2"],
        ),
        (
            &format!("{base}, pixel_box_lower_corner: [-1, -129], pixel_box_upper_corner: [-1, -1], channels_per_pixel: 4, pixels_per_column: 64"),
            "pixel_box_lower_corner[1]",
            &["-129", "-128..=127"],
        ),
        (
            &format!("{base}, pixel_box_lower_corner: [-1, -1], channels_per_pixel: 4, pixels_per_column: 64"),
            "pixel_box_upper_corner",
            &["required for `mode: im2col`"],
        ),
        // channelsPerPixel: 1..=256, a multiple of 16 bytes; pixelsPerColumn: 1..=1024
        (
            &format!("{base}, pixel_box_lower_corner: [-1, -1], pixel_box_upper_corner: [-1, -1], channels_per_pixel: 2, pixels_per_column: 64"),
            "channels_per_pixel",
            &["2", "multiple of 16 bytes"],
        ),
        (
            &format!("{base}, pixel_box_lower_corner: [-1, -1], pixel_box_upper_corner: [-1, -1], channels_per_pixel: 260, pixels_per_column: 64"),
            "channels_per_pixel",
            &["260", "channelsPerPixel must be in 1..=256"],
        ),
        (
            &format!("{base}, pixel_box_lower_corner: [-1, -1], pixel_box_upper_corner: [-1, -1], channels_per_pixel: 4, pixels_per_column: 2048"),
            "pixels_per_column",
            &["2048", "pixelsPerColumn must be in 1..=1024"],
        ),
        // the swizzle span bounds channelsPerPixel * elementSize (PTX ISA §5.5.7)
        (
            &format!("{base}, pixel_box_lower_corner: [-1, -1], pixel_box_upper_corner: [-1, -1], channels_per_pixel: 16, pixels_per_column: 64, swizzle: 32B"),
            "swizzle",
            &["`32B`", "channelsPerPixel * elementSize <= 32 bytes", "64 bytes"],
        ),
        // the two encoders' fields do not mix
        (&format!("{base}, {good}, box: [4, 8, 8, 8]"), "box", &["not boxDim"]),
        (
            "data_type: float32, global: input, rank: 2, dims: [64, 32], strides: [256], box: [16, 8], pixels_per_column: 8",
            "pixels_per_column",
            &["8", "a field of `mode: im2col` maps"],
        ),
        (
            "mode: conv, data_type: float32, global: input, rank: 2, dims: [64, 32], strides: [256], box: [16, 8]",
            "mode",
            &["`conv`", "tiled, im2col"],
        ),
    ];
    for (map, f, needles) in cases {
        let (got_f, m) = map_error(&format!("{{{map}}}"));
        assert_eq!(got_f, field(f), "{map}: {m}");
        for n in *needles {
            assert!(m.contains(n), "{map}: `{n}` not in: {m}");
        }
    }
}

#[test]
fn swizzled_map_loads_and_encodes_the_swizzle() {
    // 128B swizzle with a 128-byte inner box (32 floats) is valid; 64B with the same box is not
    let ok =
        "{data_type: float32, rank: 2, global: input, dims: [64, 32], strides: [256], box: [32, 8], swizzle: 128B}";
    let y = launch("tma_2d_grid_constant", &format!("{{tensor_map: {ok}}}"), "", 0, 0);
    assert!(Launch::from_yaml(&y).is_ok());
    let (f, m) = map_error(
        "{data_type: float32, rank: 2, global: input, dims: [64, 32], strides: [256], box: [32, 8], swizzle: 64B}",
    );
    assert_eq!(f, "params[0].tensor_map.swizzle");
    assert!(m.contains("`64B`") && m.contains("<= 64 bytes") && m.contains("128 bytes"), "{m}");
}
