//! Tensor maps in a launch file, described with the fields of the CUDA driver's
//! `cuTensorMapEncodeTiled` and checked with its rules, so a kernel written for the driver API
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
    pub boxs: Vec<u32>,
    pub fill_nan: bool,
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

/// Parses and validates `{tensor_map: {...}}` at `field` with `cuTensorMapEncodeTiled`'s rules.
pub fn parse(v: &Yaml, field: &str, buffers: &[String]) -> Result<TensorMapSpec, ExecError> {
    let Yaml::Map(m) = v else {
        return Err(launch_err(
            field,
            format!("expected a mapping of the cuTensorMapEncodeTiled fields, found {}", describe(v)),
        ));
    };
    for (k, _) in m {
        if !KNOWN.contains(&k.as_str()) {
            return Err(launch_err(format!("{field}.{k}"), format!("unknown field; allowed: {}", KNOWN.join(", "))));
        }
    }
    let get = |k: &str| m.iter().find(|(n, _)| n == k).map(|(_, v)| v);
    let f = |k: &str| format!("{field}.{k}");
    let names: Vec<&str> = DATA_TYPES.iter().map(|d| d.0).collect();
    let dt = match get("data_type") {
        None => return Err(launch_err(f("data_type"), format!("missing (required); one of: {}", names.join(", ")))),
        some => choice(some, &f("data_type"), &names, "")?,
    };
    let &(_, elem_bytes, elem_type, float) = DATA_TYPES.iter().find(|d| d.0 == dt).expect("chosen from the table");
    let rank = match get("rank") {
        Some(Yaml::Int(r)) if (1..=5).contains(r) => *r as usize,
        Some(other) => return Err(launch_err(f("rank"), format!("{}: tensorRank must be 1..=5", describe(other)))),
        None => return Err(launch_err(f("rank"), "missing (required): tensorRank 1..=5")),
    };
    let interleave = choice(get("interleave"), &f("interleave"), &["none", "16B", "32B"], "none")?;
    if interleave != "none" && rank < 3 {
        return Err(launch_err(f("interleave"), format!("`{interleave}` needs tensorRank >= 3 (rank is {rank})")));
    }
    let global = match get("global") {
        Some(Yaml::Str(s)) if buffers.contains(s) => s.clone(),
        Some(other) => {
            return Err(launch_err(
                f("global"),
                format!("{} is not a buffer of this launch; buffers: {}", describe(other), buffers.join(", ")),
            ))
        }
        None => return Err(launch_err(f("global"), "missing (required): the buffer holding the tensor")),
    };
    let dims = uints(get("dims"), &f("dims"), rank, "globalDim", |_, x| {
        (x == 0 || x > 1 << 32).then(|| "globalDim must be in 1..=2^32".to_string())
    })?;
    let stride_align = if interleave == "32B" { 32 } else { 16 };
    let strides = uints(get("strides"), &f("strides"), rank - 1, "globalStrides in bytes", |_, x| {
        if !x.is_multiple_of(stride_align) {
            Some(format!("globalStrides must be a multiple of {stride_align} bytes"))
        } else if x >= 1 << 40 {
            Some("globalStrides must be below 2^40".into())
        } else {
            None
        }
    })?;
    let boxs = uints(get("box"), &f("box"), rank, "boxDim", |i, x| {
        if x == 0 || x > 256 {
            Some("boxDim must be in 1..=256".into())
        } else if i == 0 && interleave == "none" && !(x * elem_bytes as u64).is_multiple_of(16) {
            Some(format!("boxDim[0] * elementSize ({} bytes) must be a multiple of 16 bytes", x * elem_bytes as u64))
        } else {
            None
        }
    })?;
    let box_elements: u64 = boxs.iter().product();
    if box_elements > tensormap::MAX_BOX_ELEMENTS {
        return Err(launch_err(
            f("box"),
            format!("{box_elements} elements per box exceed smsync's limit of {}", tensormap::MAX_BOX_ELEMENTS),
        ));
    }
    let element_strides = match get("element_strides") {
        None => vec![1; rank],
        some => uints(some, &f("element_strides"), rank, "elementStrides", |_, x| {
            (x == 0 || x > 8).then(|| "elementStrides must be in 1..=8".to_string())
        })?,
    };
    let swizzle = choice(get("swizzle"), &f("swizzle"), &["none", "32B", "64B", "128B"], "none")?;
    let span = match swizzle {
        "32B" => 32,
        "64B" => 64,
        "128B" => 128,
        _ => u64::MAX,
    };
    let inner = boxs[0] * elem_bytes as u64;
    if interleave == "none" && inner > span {
        return Err(launch_err(
            f("swizzle"),
            format!(
                "`{swizzle}` needs boxDim[0] * elementSize <= {span} bytes, the box's inner dimension is {inner} bytes"
            ),
        ));
    }
    choice(get("l2_promotion"), &f("l2_promotion"), &["none", "64B", "128B", "256B"], "none")?;
    let oob = choice(get("oob_fill"), &f("oob_fill"), &["none", "nan_request_zero_fma"], "none")?;
    if oob != "none" && !float {
        return Err(launch_err(f("oob_fill"), format!("`{oob}` needs a floating-point data_type, not `{dt}`")));
    }
    // Valid for the driver; what the copy engine does not implement yet is refused plainly.
    let unsupported = |k: &str, what: String| {
        Err(launch_err(f(k), format!("{what} is valid but not supported by smsync's copy engine yet")))
    };
    if interleave != "none" {
        return unsupported("interleave", format!("interleave `{interleave}`"));
    }
    if swizzle != "none" {
        return unsupported("swizzle", format!("swizzle `{swizzle}`"));
    }
    if let Some(i) = element_strides.iter().position(|&s| s != 1) {
        return unsupported("element_strides", format!("elementStrides[{i}] = {}", element_strides[i]));
    }
    Ok(TensorMapSpec {
        field: field.to_string(),
        elem_bytes,
        elem_type,
        rank,
        global,
        dims,
        strides,
        boxs: boxs.iter().map(|&b| b as u32).collect(),
        fill_nan: oob != "none",
    })
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
        Ok(b)
    }
}
