//! Tensor maps in a launch file, described with the fields of the CUDA driver's
//! `cuTensorMapEncodeTiled` (or `cuTensorMapEncodeIm2col`) and checked with its rules, so a kernel
//! written for the driver API
//! (a `const __grid_constant__ CUtensorMap` parameter, or a map's address in global memory) runs
//! unchanged. The 128-byte map the copy engine reads keeps smsync's own layout
//! ([`crate::units::tensormap`]); only this module builds it.
//!
//! ```yaml
//! params:
//!   - tensor_map:
//!       data_type: float32      # CU_TENSOR_MAP_DATA_TYPE_* without the prefix, lower case
//!       rank: 2
//!       global: input           # a buffer of the launch (its address is globalAddress)
//!       dims: [64, 32]          # globalDim, innermost first
//!       strides: [256]          # globalStrides in bytes, rank - 1 of them
//!       box: [16, 8]            # boxDim
//!       element_strides: [1, 1] # optional (default all 1)
//!       interleave: none        # optional: none, 16B, 32B
//!       swizzle: none           # optional: none, 32B, 64B, 128B
//!       l2_promotion: none      # optional: none, 64B, 128B, 256B
//!       oob_fill: none          # optional: none, nan_request_zero_fma
//! ```
//!
//! An im2col map (PTX ISA §5.5.4) takes `mode: im2col`, rank 3..5 (NWC, NHWC, NDHWC) and,
//! instead of `box`, cuTensorMapEncodeIm2col's bounding box:
//!
//! ```yaml
//!       mode: im2col
//!       pixel_box_lower_corner: [-1, -1]  # rank - 2 ints, W, H, D order
//!       pixel_box_upper_corner: [-1, -1]
//!       channels_per_pixel: 8             # 1..=256, a multiple of 16 bytes
//!       pixels_per_column: 64             # 1..=1024
//! ```

use super::error::{launch_err, ExecError};
use super::launch::Yaml;
use crate::encoding::DataType;
use crate::units::tensormap;

/// A validated tensor map description; [`TensorMapSpec::encode`] builds the 128 bytes once the
/// global buffer's address is known.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorMapSpec {
    /// The launch-file path of the description, for load-time errors.
    pub field: String,
    pub elem_bytes: u32,
    /// The element type reductions use (None: untyped, e.g. uint8).
    pub elem_type: Option<DataType>,
    pub rank: usize,
    pub global: String,
    pub dims: Vec<u64>,
    pub strides: Vec<u64>,
    /// boxDim, or for im2col [channelsPerPixel, pixelsPerColumn].
    pub boxs: Vec<u32>,
    pub fill_nan: bool,
    /// `CU_TENSOR_MAP_SWIZZLE_*` code (0 none, 1 32B, 2 64B, 3 128B).
    pub swizzle: u32,
    /// The bounding box of a `cuTensorMapEncodeIm2col` map (None: tiled).
    pub im2col: Option<tensormap::Im2col>,
}

/// CU_TENSOR_MAP_DATA_TYPE_*: (name, element bytes, reduction type, floating point).
const DATA_TYPES: &[(&str, u32, Option<DataType>, bool)] = &[
    ("uint8", 1, None, false),
    ("uint16", 2, None, false),
    ("uint32", 4, Some(DataType::U32), false),
    ("int32", 4, Some(DataType::S32), false),
    ("uint64", 8, Some(DataType::U64), false),
    ("int64", 8, Some(DataType::S64), false),
    ("float16", 2, Some(DataType::F16), true),
    ("float32", 4, Some(DataType::F32), true),
    ("float64", 8, Some(DataType::F64), true),
    ("bfloat16", 2, Some(DataType::Bf16), true),
    ("float32_ftz", 4, Some(DataType::F32), true),
    ("tfloat32", 4, Some(DataType::F32), true),
    ("tfloat32_ftz", 4, Some(DataType::F32), true),
];

const KNOWN: &[&str] = &[
    "mode",
    "data_type",
    "rank",
    "global",
    "dims",
    "strides",
    "box",
    "element_strides",
    "interleave",
    "swizzle",
    "l2_promotion",
    "oob_fill",
];

fn choice<'a>(v: Option<&'a Yaml>, field: &str, allowed: &[&'a str], default: &'a str) -> Result<&'a str, ExecError> {
    match v {
        None => Ok(default),
        Some(Yaml::Str(s)) if allowed.contains(&s.as_str()) => Ok(s.as_str()),
        Some(other) => Err(launch_err(field, format!("{} is not one of: {}", describe(other), allowed.join(", ")))),
    }
}

fn describe(v: &Yaml) -> String {
    match v {
        Yaml::Str(s) => format!("`{s}`"),
        Yaml::Int(i) => i.to_string(),
        Yaml::UInt(u) => u.to_string(),
        other => format!("{other:?}"),
    }
}

/// A list of `n` unsigned integers, each checked by `rule` (which returns the broken rule).
fn uints(
    v: Option<&Yaml>,
    field: &str,
    n: usize,
    what: &str,
    rule: impl Fn(usize, u64) -> Option<String>,
) -> Result<Vec<u64>, ExecError> {
    let Some(v) = v else { return Err(launch_err(field, format!("missing (required): {what}"))) };
    let Yaml::Seq(items) = v else {
        return Err(launch_err(field, format!("expected a list ({what}), found {}", describe(v))));
    };
    if items.len() != n {
        return Err(launch_err(
            field,
            format!("{} entries for rank {}, need {n} ({what})", items.len(), n_rank(n, what)),
        ));
    }
    let mut out = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let f = format!("{field}[{i}]");
        let x = match it {
            Yaml::Int(x) if *x >= 0 => *x as u64,
            Yaml::UInt(x) => *x,
            other => return Err(launch_err(&f, format!("expected an unsigned integer, found {}", describe(other)))),
        };
        if let Some(broken) = rule(i, x) {
            return Err(launch_err(&f, format!("{x}: {broken}")));
        }
        out.push(x);
    }
    Ok(out)
}

fn n_rank(n: usize, what: &str) -> usize {
    if what.starts_with("globalStrides") {
        n + 1
    } else {
        n
    }
}

/// The fields every map has, validated: (data type name, element bytes, reduction type, float).
struct Common<'a> {
    dt: &'a str,
    elem_bytes: u32,
    elem_type: Option<DataType>,
    float: bool,
    rank: usize,
    im2col: bool,
    interleave: &'a str,
    global: String,
    dims: Vec<u64>,
    strides: Vec<u64>,
}

type Fields<'a> = [(String, Yaml)];

fn get<'a>(m: &'a Fields, k: &str) -> Option<&'a Yaml> {
    m.iter().find(|(n, _)| n == k).map(|(_, v)| v)
}

/// Data type, rank (1..=5 tiled, 3..=5 im2col), interleave, global buffer, dims and strides.
fn common<'a>(m: &'a Fields, field: &str, buffers: &[String]) -> Result<Common<'a>, ExecError> {
    let f = |k: &str| format!("{field}.{k}");
    let names: Vec<&str> = DATA_TYPES.iter().map(|d| d.0).collect();
    let dt = match get(m, "data_type") {
        None => return Err(launch_err(f("data_type"), format!("missing (required); one of: {}", names.join(", ")))),
        some => choice(some, &f("data_type"), &names, "")?,
    };
    let &(_, elem_bytes, elem_type, float) = DATA_TYPES.iter().find(|d| d.0 == dt).expect("chosen from the table");
    let im2col = choice(get(m, "mode"), &f("mode"), &["tiled", "im2col"], "tiled")? == "im2col";
    // cuTensorMapEncodeIm2col: tensorRank must be 3, 4 or 5 (PTX ISA §5.5.4: NWC, NHWC, NDHWC)
    let (low, rule) = if im2col { (3, "im2col tensorRank must be 3..=5") } else { (1, "tensorRank must be 1..=5") };
    let rank = match get(m, "rank") {
        Some(Yaml::Int(r)) if (low..=5).contains(r) => *r as usize,
        Some(other) => return Err(launch_err(f("rank"), format!("{}: {rule}", describe(other)))),
        None => return Err(launch_err(f("rank"), format!("missing (required): {rule}"))),
    };
    let interleave = choice(get(m, "interleave"), &f("interleave"), &["none", "16B", "32B"], "none")?;
    if interleave != "none" && rank < 3 {
        return Err(launch_err(f("interleave"), format!("`{interleave}` needs tensorRank >= 3 (rank is {rank})")));
    }
    let global = match get(m, "global") {
        Some(Yaml::Str(s)) if buffers.contains(s) => s.clone(),
        Some(other) => {
            return Err(launch_err(
                f("global"),
                format!("{} is not a buffer of this launch; buffers: {}", describe(other), buffers.join(", ")),
            ))
        }
        None => return Err(launch_err(f("global"), "missing (required): the buffer holding the tensor")),
    };
    let dims = uints(get(m, "dims"), &f("dims"), rank, "globalDim", |_, x| {
        (x == 0 || x > 1 << 32).then(|| "globalDim must be in 1..=2^32".to_string())
    })?;
    let stride_align = if interleave == "32B" { 32 } else { 16 };
    let strides = uints(get(m, "strides"), &f("strides"), rank - 1, "globalStrides in bytes", |_, x| {
        if !x.is_multiple_of(stride_align) {
            Some(format!("globalStrides must be a multiple of {stride_align} bytes"))
        } else if x >= 1 << 40 {
            Some("globalStrides must be below 2^40".into())
        } else {
            None
        }
    })?;
    Ok(Common { dt, elem_bytes, elem_type, float, rank, im2col, interleave, global, dims, strides })
}

/// cuTensorMapEncodeTiled's boxDim: `rank` sizes in 1..=256, the inner one a multiple of 16 bytes.
fn tiled_box(m: &Fields, field: &str, c: &Common) -> Result<Vec<u64>, ExecError> {
    for k in IM2COL_ONLY {
        if let Some(v) = get(m, k) {
            return Err(launch_err(
                format!("{field}.{k}"),
                format!("{}: a field of `mode: im2col` maps (cuTensorMapEncodeIm2col), this map is tiled", describe(v)),
            ));
        }
    }
    uints(get(m, "box"), &format!("{field}.box"), c.rank, "boxDim", |i, x| {
        if x == 0 || x > 256 {
            Some("boxDim must be in 1..=256".into())
        } else if i == 0 && c.interleave == "none" && !(x * c.elem_bytes as u64).is_multiple_of(16) {
            Some(format!("boxDim[0] * elementSize ({} bytes) must be a multiple of 16 bytes", x * c.elem_bytes as u64))
        } else {
            None
        }
    })
}

/// The fields only cuTensorMapEncodeIm2col takes.
const IM2COL_ONLY: [&str; 4] =
    ["pixel_box_lower_corner", "pixel_box_upper_corner", "channels_per_pixel", "pixels_per_column"];

/// One int per spatial dimension (W, H, D) in the corner range of PTX ISA §5.5.4.1.
fn corner(m: &Fields, field: &str, k: &str, rank: usize) -> Result<[i32; 3], ExecError> {
    let f = format!("{field}.{k}");
    let range = tensormap::im2col_corner_range(rank);
    let Some(Yaml::Seq(items)) = get(m, k) else {
        return Err(launch_err(f, format!("required for `mode: im2col`: a list of {} ints (W, H, D order)", rank - 2)));
    };
    if items.len() != rank - 2 {
        return Err(launch_err(
            f,
            format!("{} entries for rank {rank}, need {} (W, H, D order)", items.len(), rank - 2),
        ));
    }
    let mut out = [0; 3];
    for (i, it) in items.iter().enumerate() {
        let v = match it {
            Yaml::Int(v) => *v,
            Yaml::UInt(v) => i64::try_from(*v).unwrap_or(i64::MAX),
            other => {
                return Err(launch_err(format!("{f}[{i}]"), format!("expected an int, found {}", describe(other))))
            }
        };
        if !(*range.start() as i64..=*range.end() as i64).contains(&v) {
            return Err(launch_err(
                format!("{f}[{i}]"),
                format!("{v}: a rank-{rank} corner must be in {}..={} (PTX ISA §5.5.4.1)", range.start(), range.end()),
            ));
        }
        out[i] = v as i32;
    }
    Ok(out)
}

/// cuTensorMapEncodeIm2col's bounding box: corners, channelsPerPixel (1..=256, a multiple of 16
/// bytes) and pixelsPerColumn (1..=1024); the box is stored as [channels, pixels].
fn im2col_box(m: &Fields, field: &str, c: &Common) -> Result<(Vec<u64>, tensormap::Im2col), ExecError> {
    if get(m, "box").is_some() {
        return Err(launch_err(
            format!("{field}.box"),
            "`mode: im2col` maps take channels_per_pixel and pixels_per_column, not boxDim",
        ));
    }
    let one = |k: &str, what: &str, rule: &dyn Fn(u64) -> Option<String>| -> Result<u64, ExecError> {
        let f = format!("{field}.{k}");
        match get(m, k) {
            None => Err(launch_err(f, format!("required for `mode: im2col`: {what}"))),
            Some(v) => {
                uints(Some(&Yaml::Seq(vec![v.clone()])), &f, 1, what, |_, x| rule(x)).map(|v| v[0]).map_err(|e| match e
                {
                    ExecError::Launch { message, .. } => launch_err(&f, message),
                    other => other,
                })
            }
        }
    };
    let eb = c.elem_bytes as u64;
    let channels = one("channels_per_pixel", "channelsPerPixel", &|x| {
        if x == 0 || x > 256 {
            Some("channelsPerPixel must be in 1..=256".into())
        } else if c.interleave == "none" && !(x * eb).is_multiple_of(16) {
            Some(format!("channelsPerPixel * elementSize ({} bytes) must be a multiple of 16 bytes", x * eb))
        } else {
            None
        }
    })?;
    let pixels = one("pixels_per_column", "pixelsPerColumn", &|x| {
        (x == 0 || x > 1024).then(|| "pixelsPerColumn must be in 1..=1024".to_string())
    })?;
    let lower = corner(m, field, "pixel_box_lower_corner", c.rank)?;
    let upper = corner(m, field, "pixel_box_upper_corner", c.rank)?;
    Ok((vec![channels, pixels], tensormap::Im2col { lower, upper }))
}

/// Parses and validates `{tensor_map: {...}}` at `field` with the rules of
/// `cuTensorMapEncodeTiled` (default, `mode: tiled`) or `cuTensorMapEncodeIm2col` (`mode: im2col`).
pub fn parse(v: &Yaml, field: &str, buffers: &[String]) -> Result<TensorMapSpec, ExecError> {
    let Yaml::Map(m) = v else {
        return Err(launch_err(
            field,
            format!("expected a mapping of the cuTensorMapEncodeTiled fields, found {}", describe(v)),
        ));
    };
    for (k, _) in m {
        if !KNOWN.contains(&k.as_str()) && !IM2COL_ONLY.contains(&k.as_str()) {
            return Err(launch_err(
                format!("{field}.{k}"),
                format!("unknown field; allowed: {}, {}", KNOWN.join(", "), IM2COL_ONLY.join(", ")),
            ));
        }
    }
    let f = |k: &str| format!("{field}.{k}");
    let c = common(m, field, buffers)?;
    let (boxs, im2col) = if c.im2col {
        let (b, im) = im2col_box(m, field, &c)?;
        (b, Some(im))
    } else {
        (tiled_box(m, field, &c)?, None)
    };
    let box_elements: u64 = boxs.iter().product();
    if box_elements > tensormap::MAX_BOX_ELEMENTS {
        return Err(launch_err(
            f("box"),
            format!("{box_elements} elements per box exceed smsync's limit of {}", tensormap::MAX_BOX_ELEMENTS),
        ));
    }
    let element_strides = match get(m, "element_strides") {
        None => vec![1; c.rank],
        some => uints(some, &f("element_strides"), c.rank, "elementStrides", |_, x| {
            (x == 0 || x > 8).then(|| "elementStrides must be in 1..=8".to_string())
        })?,
    };
    let swizzle = swizzle(m, field, &c, boxs[0])?;
    choice(get(m, "l2_promotion"), &f("l2_promotion"), &["none", "64B", "128B", "256B"], "none")?;
    let oob = choice(get(m, "oob_fill"), &f("oob_fill"), &["none", "nan_request_zero_fma"], "none")?;
    if oob != "none" && !c.float {
        return Err(launch_err(f("oob_fill"), format!("`{oob}` needs a floating-point data_type, not `{}`", c.dt)));
    }
    // Valid for the driver; what the copy engine does not implement yet is refused plainly.
    let unsupported = |k: &str, what: String| {
        Err(launch_err(f(k), format!("{what} is valid but not supported by smsync's copy engine yet")))
    };
    if c.interleave != "none" {
        return unsupported("interleave", format!("interleave `{}`", c.interleave));
    }
    if let Some(i) = element_strides.iter().position(|&s| s != 1) {
        return unsupported("element_strides", format!("elementStrides[{i}] = {}", element_strides[i]));
    }
    Ok(TensorMapSpec {
        field: field.to_string(),
        elem_bytes: c.elem_bytes,
        elem_type: c.elem_type,
        rank: c.rank,
        global: c.global,
        dims: c.dims,
        strides: c.strides,
        boxs: boxs.iter().map(|&b| b as u32).collect(),
        fill_nan: oob != "none",
        swizzle,
        im2col,
    })
}

/// The swizzle's `CU_TENSOR_MAP_SWIZZLE_*` code; the box's inner dimension (boxDim[0], or
/// channelsPerPixel for im2col) must fit its span (PTX ISA §5.5.7; the driver's rule).
fn swizzle(m: &Fields, field: &str, c: &Common, inner_elems: u64) -> Result<u32, ExecError> {
    let f = format!("{field}.swizzle");
    let name = choice(get(m, "swizzle"), &f, &["none", "32B", "64B", "128B"], "none")?;
    let code = ["none", "32B", "64B", "128B"].iter().position(|&n| n == name).expect("chosen from the list") as u32;
    let span = tensormap::swizzle_span(code).expect("codes 0..=3 have a span");
    let inner = inner_elems * c.elem_bytes as u64;
    let what = if c.im2col { "channelsPerPixel" } else { "boxDim[0]" };
    if c.interleave == "none" && inner > span {
        return Err(launch_err(
            f,
            format!("`{name}` needs {what} * elementSize <= {span} bytes, the box's inner dimension is {inner} bytes"),
        ));
    }
    Ok(code)
}

impl TensorMapSpec {
    /// The 128-byte map for a global buffer at `base` of `len` bytes; the tensor must lie in it.
    pub fn encode(&self, base: u64, len: usize) -> Result<Vec<u8>, ExecError> {
        // the last byte addressed: sum of (dim - 1) * stride over the outer dimensions + the row
        let mut end = self.dims[0] * self.elem_bytes as u64;
        for d in 1..self.rank {
            end = end.saturating_add((self.dims[d] - 1).saturating_mul(self.strides[d - 1]));
        }
        if end > len as u64 {
            return Err(launch_err(
                format!("{}.dims", self.field),
                format!("the tensor spans {end} bytes, buffer `{}` holds {len}", self.global),
            ));
        }
        if self.dims.iter().any(|&d| d > u32::MAX as u64) {
            return Err(launch_err(
                format!("{}.dims", self.field),
                "globalDim above 2^32 - 1 is not supported by smsync",
            ));
        }
        let mut b = vec![0u8; tensormap::BYTES];
        let put32 = |b: &mut Vec<u8>, o: usize, v: u32| b[o..o + 4].copy_from_slice(&v.to_le_bytes());
        put32(&mut b, 0, tensormap::MAGIC);
        put32(&mut b, 4, self.rank as u32);
        put32(&mut b, 8, self.elem_bytes);
        put32(&mut b, 12, self.fill_nan as u32);
        b[16..24].copy_from_slice(&base.to_le_bytes());
        for d in 0..5 {
            put32(&mut b, 24 + 4 * d, self.dims.get(d).map(|&x| x as u32).unwrap_or(1));
            put32(&mut b, 44 + 4 * d, self.boxs.get(d).copied().unwrap_or(1));
        }
        for (d, s) in self.strides.iter().enumerate() {
            b[64 + 8 * d..72 + 8 * d].copy_from_slice(&s.to_le_bytes());
        }
        put32(&mut b, 96, self.elem_type.map(|t| t.code() as u32 + 1).unwrap_or(0));
        put32(&mut b, tensormap::offset::SWIZZLE, self.swizzle);
        if let Some(im) = &self.im2col {
            put32(&mut b, tensormap::offset::MODE, 1);
            for s in 0..3 {
                let (lo, up) = (tensormap::offset::LOWER + 2 * s, tensormap::offset::UPPER + 2 * s);
                b[lo..lo + 2].copy_from_slice(&(im.lower[s] as i16).to_le_bytes());
                b[up..up + 2].copy_from_slice(&(im.upper[s] as i16).to_le_bytes());
            }
        }
        Ok(b)
    }
}
