//! The launch file: grid and block shape, global buffers with their initial contents, and the
//! kernel's `.param` values; plus the JSON the `run` command prints (buffers typed as declared).
//!
//! ```yaml
//! entry: vote_all          # optional when the module has one .entry
//! grid: [1, 1, 1]          # optional, default [1,1,1]
//! block: [64, 1, 1]
//! shared_bytes: 1024       # dynamic shared memory, optional
//! cluster: [1, 1, 1]       # optional
//! buffers:                 # allocated in this order, 256-byte aligned from memory::GLOBAL_BASE
//!   input:  { type: u32, data: [2, 4] }
//!   output: { type: u32, len: 64 }        # zero-filled
//! params: [input, output]  # a buffer name (its address) or e.g. {u32: 7}
//! # by-value aggregates (`.param .align 16 .b8 p[32]`): {bytes: [1, 0, ...]} or a C struct's
//! # fields at their natural alignment, {fields: [{f32: 1.5}, {s32: 2}, {pad: 8}, {f64: 0.25}]}
//! # a tensor map by value or as a buffer: {tensor_map: {...}} with cuTensorMapEncodeTiled's
//! # fields (see `tmap`)
//! ```
//!
//! The file is read into an order-preserving tree first (buffer order matters) and then walked
//! by hand, so that every error names the field path (`buffers.input.data[3]`).

use super::error::{launch_err, ExecError};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// An element type of a buffer or a parameter value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemType {
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    Bf16,
    F32,
    F64,
}

impl ElemType {
    pub const ALL: &'static [(&'static str, ElemType)] = &[
        ("u8", ElemType::U8),
        ("u16", ElemType::U16),
        ("u32", ElemType::U32),
        ("u64", ElemType::U64),
        ("s8", ElemType::S8),
        ("s16", ElemType::S16),
        ("s32", ElemType::S32),
        ("s64", ElemType::S64),
        ("f16", ElemType::F16),
        ("bf16", ElemType::Bf16),
        ("f32", ElemType::F32),
        ("f64", ElemType::F64),
    ];
    pub fn from_name(s: &str) -> Option<ElemType> {
        ElemType::ALL.iter().find(|(n, _)| *n == s).map(|(_, t)| *t)
    }
    pub fn name(self) -> &'static str {
        ElemType::ALL.iter().find(|(_, t)| *t == self).map(|(n, _)| *n).unwrap_or("?")
    }
    pub fn bytes(self) -> usize {
        match self {
            ElemType::U8 | ElemType::S8 => 1,
            ElemType::U16 | ElemType::S16 | ElemType::F16 | ElemType::Bf16 => 2,
            ElemType::U32 | ElemType::S32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::S64 | ElemType::F64 => 8,
        }
    }
    fn allowed() -> String {
        ElemType::ALL.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
    }

    /// Encode one YAML scalar as little-endian bits of this type (range-checked, never wrapped).
    pub fn encode(self, v: &Yaml, field: &str) -> Result<u64, ExecError> {
        let float = |v: &Yaml| -> Result<f64, ExecError> {
            match v {
                Yaml::Int(i) => Ok(*i as f64),
                Yaml::UInt(u) => Ok(*u as f64),
                Yaml::Float(f) => Ok(*f),
                Yaml::Str(s) => match s.as_str() {
                    "nan" | "NaN" => Ok(f64::NAN),
                    "inf" | "+inf" => Ok(f64::INFINITY),
                    "-inf" => Ok(f64::NEG_INFINITY),
                    _ => Err(launch_err(
                        field,
                        format!("`{s}` is not a number (floats also take \"nan\", \"inf\", \"-inf\")"),
                    )),
                },
                other => Err(launch_err(field, format!("expected a number, found {}", other.kind()))),
            }
        };
        let int = |v: &Yaml| -> Result<i128, ExecError> {
            match v {
                Yaml::Int(i) => Ok(*i as i128),
                Yaml::UInt(u) => Ok(*u as i128),
                Yaml::Float(f) if f.fract() == 0.0 && f.abs() < 1.9e19 => Ok(*f as i128),
                other => Err(launch_err(
                    field,
                    format!("expected an integer for type {}, found {}", self.name(), other.kind()),
                )),
            }
        };
        let ranged = |lo: i128, hi: i128| -> Result<u64, ExecError> {
            let i = int(v)?;
            if i < lo || i > hi {
                return Err(launch_err(field, format!("{i} is out of range for {}: allowed {lo}..={hi}", self.name())));
            }
            Ok(i as i64 as u64 & mask(self.bytes() * 8))
        };
        Ok(match self {
            ElemType::U8 => ranged(0, u8::MAX as i128)?,
            ElemType::U16 => ranged(0, u16::MAX as i128)?,
            ElemType::U32 => ranged(0, u32::MAX as i128)?,
            ElemType::U64 => ranged(0, u64::MAX as i128)?,
            ElemType::S8 => ranged(i8::MIN as i128, i8::MAX as i128)?,
            ElemType::S16 => ranged(i16::MIN as i128, i16::MAX as i128)?,
            ElemType::S32 => ranged(i32::MIN as i128, i32::MAX as i128)?,
            ElemType::S64 => ranged(i64::MIN as i128, i64::MAX as i128)?,
            ElemType::F16 => half::f16::from_f64(float(v)?).to_bits() as u64,
            ElemType::Bf16 => half::bf16::from_f64(float(v)?).to_bits() as u64,
            ElemType::F32 => (float(v)? as f32).to_bits() as u64,
            ElemType::F64 => float(v)?.to_bits(),
        })
    }

    /// Decode little-endian bits of this type into a JSON value (non-finite floats as strings).
    pub fn decode(self, bits: u64) -> serde_json::Value {
        let f = |x: f64| -> serde_json::Value {
            if x.is_nan() {
                "nan".into()
            } else if x == f64::INFINITY {
                "inf".into()
            } else if x == f64::NEG_INFINITY {
                "-inf".into()
            } else {
                serde_json::Value::from(x)
            }
        };
        match self {
            ElemType::U8 | ElemType::U16 | ElemType::U32 | ElemType::U64 => bits.into(),
            ElemType::S8 => (bits as i8).into(),
            ElemType::S16 => (bits as i16).into(),
            ElemType::S32 => (bits as i32).into(),
            ElemType::S64 => (bits as i64).into(),
            ElemType::F16 => f(half::f16::from_bits(bits as u16).to_f64()),
            ElemType::Bf16 => f(half::bf16::from_bits(bits as u16).to_f64()),
            ElemType::F32 => f(f32::from_bits(bits as u32) as f64),
            ElemType::F64 => f(f64::from_bits(bits)),
        }
    }
}

pub(crate) fn mask(bits: usize) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// A global buffer of the launch.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferSpec {
    pub name: String,
    pub ty: ElemType,
    /// Initial contents (already encoded, little-endian), `len * ty.bytes()` long.
    pub bytes: Vec<u8>,
    /// A 128-byte tensor map built at load (`{tensor_map: {...}}`), when the buffer holds one.
    pub tensor_map: Option<super::tmap::TensorMapSpec>,
}

impl BufferSpec {
    pub fn len(&self) -> usize {
        self.bytes.len() / self.ty.bytes()
    }
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// One `.param` value of the kernel.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// The global address of a buffer.
    Buffer(String),
    /// A typed scalar (bits already encoded).
    Scalar { ty: ElemType, bits: u64 },
    /// A by-value aggregate (`.param .align 16 .b8 p[32]`, a C struct): its little-endian bytes,
    /// the byte offsets that take a buffer's address (patched in at load), and whether the
    /// value may be shorter than the parameter (a struct's tail padding, zero-filled).
    Bytes { bytes: Vec<u8>, buffers: Vec<(usize, String)>, tail_padding: bool },
    /// A tensor map by value (`const __grid_constant__ CUtensorMap`), built at load.
    TensorMap(super::tmap::TensorMapSpec),
}

/// A parsed launch file.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    pub entry: Option<String>,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    pub cluster: [u32; 3],
    pub buffers: Vec<BufferSpec>,
    pub params: Vec<ParamValue>,
}

impl Launch {
    /// A launch of one CTA of `threads` threads with no buffers or params (tests build on it).
    pub fn simple(threads: u32) -> Launch {
        Launch {
            entry: None,
            grid: [1, 1, 1],
            block: [threads, 1, 1],
            dynamic_shared: 0,
            cluster: [1, 1, 1],
            buffers: vec![],
            params: vec![],
        }
    }
    pub fn threads_per_cta(&self) -> u32 {
        self.block.iter().product()
    }
    pub fn ctas(&self) -> u32 {
        self.grid.iter().product()
    }

    pub fn from_file(path: &std::path::Path) -> Result<Launch, ExecError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| launch_err("(file)", format!("{}: {e}", path.display())))?;
        Launch::from_yaml(&text)
    }

    pub fn from_yaml(text: &str) -> Result<Launch, ExecError> {
        let doc: Yaml =
            serde_saphyr::from_str(text).map_err(|e| launch_err("(document)", format!("not valid YAML: {e}")))?;
        let Yaml::Map(fields) = doc else {
            return Err(launch_err(
                "(document)",
                format!("a launch file is a mapping of fields, found {}", doc.kind()),
            ));
        };
        const KNOWN: &[&str] = &["entry", "grid", "block", "shared_bytes", "cluster", "buffers", "params"];
        for (k, _) in &fields {
            if !KNOWN.contains(&k.as_str()) {
                return Err(launch_err(k, format!("unknown field; allowed: {}", KNOWN.join(", "))));
            }
        }
        let get = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v);
        let entry = match get("entry") {
            None | Some(Yaml::Null) => None,
            Some(Yaml::Str(s)) => Some(s.clone()),
            Some(v) => return Err(launch_err("entry", format!("expected a kernel name, found {}", v.kind()))),
        };
        let dim3 = |k: &str, default: Option<[u32; 3]>| -> Result<[u32; 3], ExecError> {
            let Some(v) = get(k) else {
                return default.ok_or_else(|| launch_err(k, "missing (required), e.g. `block: [64, 1, 1]`"));
            };
            let items: Vec<Yaml> = match v {
                Yaml::Seq(s) => s.clone(),
                Yaml::Int(_) | Yaml::UInt(_) => vec![v.clone()],
                _ => return Err(launch_err(k, format!("expected [x, y, z], found {}", v.kind()))),
            };
            if items.is_empty() || items.len() > 3 {
                return Err(launch_err(k, format!("expected 1 to 3 dimensions, found {}", items.len())));
            }
            let mut out = [1u32; 3];
            for (i, it) in items.iter().enumerate() {
                let f = format!("{k}[{i}]");
                let n = it
                    .as_u64()
                    .ok_or_else(|| launch_err(&f, format!("expected a positive integer, found {}", it.kind())))?;
                if n == 0 || n > u32::MAX as u64 {
                    return Err(launch_err(&f, format!("{n} is out of range: allowed 1..={}", u32::MAX)));
                }
                out[i] = n as u32;
            }
            Ok(out)
        };
        let grid = dim3("grid", Some([1, 1, 1]))?;
        let block = dim3("block", None)?;
        let cluster = dim3("cluster", Some([1, 1, 1]))?;
        let dynamic_shared = match get("shared_bytes") {
            None => 0,
            Some(v) => {
                let n = v
                    .as_u64()
                    .ok_or_else(|| launch_err("shared_bytes", format!("expected a byte count, found {}", v.kind())))?;
                u32::try_from(n).map_err(|_| launch_err("shared_bytes", format!("{n} is too large")))?
            }
        };

        let mut buffers = Vec::new();
        match get("buffers") {
            None | Some(Yaml::Null) => {}
            Some(Yaml::Map(m)) => {
                let names: Vec<String> = m.iter().map(|(n, _)| n.clone()).collect();
                for (name, spec) in m {
                    buffers.push(match spec {
                        Yaml::Map(f) if f.len() == 1 && f[0].0 == "tensor_map" => {
                            // a map in global memory (a `const CUtensorMap*` parameter)
                            let spec = super::tmap::parse(&f[0].1, &format!("buffers.{name}.tensor_map"), &names)?;
                            BufferSpec {
                                name: name.clone(),
                                ty: ElemType::U8,
                                bytes: vec![0; crate::units::tensormap::BYTES],
                                tensor_map: Some(spec),
                            }
                        }
                        _ => parse_buffer(name, spec)?,
                    });
                }
            }
            Some(v) => {
                return Err(launch_err(
                    "buffers",
                    format!("expected a mapping name -> {{type, data|len}}, found {}", v.kind()),
                ))
            }
        }

        let mut params = Vec::new();
        match get("params") {
            None | Some(Yaml::Null) => {}
            Some(Yaml::Seq(items)) => {
                for (i, it) in items.iter().enumerate() {
                    let field = format!("params[{i}]");
                    params.push(match it {
                        Yaml::Str(s) => {
                            if !buffers.iter().any(|b| &b.name == s) {
                                return Err(launch_err(
                                    &field,
                                    format!(
                                        "`{s}` is not a buffer of this launch; buffers: {}",
                                        buffers.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(", ")
                                    ),
                                ));
                            }
                            ParamValue::Buffer(s.clone())
                        }
                        Yaml::Map(m) if m.len() == 1 && m[0].0 == "bytes" => ParamValue::Bytes {
                            bytes: param_bytes(&m[0].1, &field)?,
                            buffers: vec![],
                            tail_padding: false,
                        },
                        Yaml::Map(m) if m.len() == 1 && m[0].0 == "fields" => param_fields(&m[0].1, &field, &buffers)?,
                        Yaml::Map(m) if m.len() == 1 && m[0].0 == "tensor_map" => {
                            let names: Vec<String> = buffers.iter().map(|b| b.name.clone()).collect();
                            ParamValue::TensorMap(super::tmap::parse(&m[0].1, &format!("{field}.tensor_map"), &names)?)
                        }
                        Yaml::Map(m) if m.len() == 1 => {
                            let (tn, v) = &m[0];
                            let ty = ElemType::from_name(tn).ok_or_else(|| {
                                launch_err(
                                    format!("{field}.{tn}"),
                                    format!("unknown type; allowed: {}", ElemType::allowed()),
                                )
                            })?;
                            let bits = ty.encode(v, &format!("{field}.{tn}"))?;
                            ParamValue::Scalar { ty, bits }
                        }
                        other => {
                            return Err(launch_err(
                                &field,
                                format!(
                                    "expected a buffer name, {{type: value}} such as {{u32: 7}}, {{bytes: [..]}}, \
                                     {{fields: [..]}} or {{tensor_map: {{..}}}}, found {}",
                                    other.kind()
                                ),
                            ))
                        }
                    });
                }
            }
            Some(v) => return Err(launch_err("params", format!("expected a list, found {}", v.kind()))),
        }

        Ok(Launch { entry, grid, block, dynamic_shared, cluster, buffers, params })
    }
}

/// `{bytes: [b0, b1, ...]}`: a by-value parameter's bytes, each 0..=255.
fn param_bytes(v: &Yaml, field: &str) -> Result<Vec<u8>, ExecError> {
    let Yaml::Seq(items) = v else {
        return Err(launch_err(format!("{field}.bytes"), format!("expected a list of bytes, found {}", v.kind())));
    };
    items.iter().enumerate().map(|(j, it)| Ok(ElemType::U8.encode(it, &format!("{field}.bytes[{j}]"))? as u8)).collect()
}

/// `{fields: [{f32: 1.5}, {s32: -2}, out, {pad: 4}, ...]}`: a C struct's fields in order, each
/// at its natural alignment as a CUDA compiler lays out a struct (a buffer name is its 8-byte
/// address; `{pad: N}` skips N zero bytes). The parameter's declared size is checked at load.
fn param_fields(v: &Yaml, field: &str, buffers: &[BufferSpec]) -> Result<ParamValue, ExecError> {
    let Yaml::Seq(items) = v else {
        return Err(launch_err(format!("{field}.fields"), format!("expected a list of fields, found {}", v.kind())));
    };
    let mut out: Vec<u8> = Vec::new();
    let mut addrs = Vec::new();
    for (j, it) in items.iter().enumerate() {
        let f = format!("{field}.fields[{j}]");
        let (bytes, align): (Vec<u8>, usize) = match it {
            Yaml::Str(s) if buffers.iter().any(|b| &b.name == s) => (vec![0; 8], 8),
            Yaml::Str(s) => {
                return Err(launch_err(
                    &f,
                    format!(
                        "`{s}` is not a buffer of this launch; buffers: {}",
                        buffers.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                ))
            }
            Yaml::Map(m) if m.len() == 1 && m[0].0 == "pad" => {
                let n = m[0].1.as_u64().filter(|n| *n <= 1 << 16).ok_or_else(|| {
                    launch_err(format!("{f}.pad"), format!("expected a byte count 0..=65536, found {}", m[0].1.kind()))
                })?;
                (vec![0; n as usize], 1)
            }
            Yaml::Map(m) if m.len() == 1 => {
                let (tn, val) = &m[0];
                let ty = ElemType::from_name(tn).ok_or_else(|| {
                    launch_err(format!("{f}.{tn}"), format!("unknown type; allowed: {}, pad", ElemType::allowed()))
                })?;
                let bits = ty.encode(val, &format!("{f}.{tn}"))?;
                (bits.to_le_bytes()[..ty.bytes()].to_vec(), ty.bytes())
            }
            other => {
                return Err(launch_err(
                    &f,
                    format!("expected {{type: value}}, {{pad: N}} or a buffer name, found {}", other.kind()),
                ))
            }
        };
        out.resize(out.len().div_ceil(align) * align, 0);
        if let Yaml::Str(s) = it {
            // the buffer's address is only known at load, which patches it in
            addrs.push((out.len(), s.clone()));
        }
        out.extend_from_slice(&bytes);
    }
    Ok(ParamValue::Bytes { bytes: out, buffers: addrs, tail_padding: true })
}

fn parse_buffer(name: &str, spec: &Yaml) -> Result<BufferSpec, ExecError> {
    let base = format!("buffers.{name}");
    let Yaml::Map(m) = spec else {
        return Err(launch_err(
            &base,
            format!("expected {{type: T, data: [...]}} or {{type: T, len: N}}, found {}", spec.kind()),
        ));
    };
    for (k, _) in m {
        if !["type", "data", "len"].contains(&k.as_str()) {
            return Err(launch_err(format!("{base}.{k}"), "unknown field; allowed: type, data, len"));
        }
    }
    let get = |k: &str| m.iter().find(|(n, _)| n == k).map(|(_, v)| v);
    let ty = match get("type") {
        Some(Yaml::Str(s)) => ElemType::from_name(s).ok_or_else(|| {
            launch_err(
                format!("{base}.type"),
                format!("`{s}` is not an element type; allowed: {}", ElemType::allowed()),
            )
        })?,
        Some(v) => return Err(launch_err(format!("{base}.type"), format!("expected a type name, found {}", v.kind()))),
        None => return Err(launch_err(format!("{base}.type"), "missing (required)")),
    };
    let data = match get("data") {
        None => None,
        Some(Yaml::Seq(items)) => Some(items),
        Some(v) => {
            return Err(launch_err(format!("{base}.data"), format!("expected a list of values, found {}", v.kind())))
        }
    };
    let len = match get("len") {
        None => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| {
            launch_err(format!("{base}.len"), format!("expected an element count, found {}", v.kind()))
        })?),
    };
    let count = match (data, len) {
        (None, None) => return Err(launch_err(&base, "needs `data` or `len`")),
        (Some(d), None) => d.len() as u64,
        (None, Some(n)) => n,
        (Some(d), Some(n)) => {
            if (d.len() as u64) > n {
                return Err(launch_err(
                    format!("{base}.len"),
                    format!("{n} is smaller than data's {} elements", d.len()),
                ));
            }
            n
        }
    };
    const MAX_BYTES: u64 = 1 << 30;
    if count * ty.bytes() as u64 > MAX_BYTES {
        return Err(launch_err(
            format!("{base}.len"),
            format!("{count} elements exceed the 1 GiB limit of one buffer"),
        ));
    }
    let mut bytes = vec![0u8; count as usize * ty.bytes()];
    if let Some(items) = data {
        for (i, it) in items.iter().enumerate() {
            let bits = ty.encode(it, &format!("{base}.data[{i}]"))?;
            let w = ty.bytes();
            bytes[i * w..(i + 1) * w].copy_from_slice(&bits.to_le_bytes()[..w]);
        }
    }
    Ok(BufferSpec { name: name.to_string(), ty, bytes, tensor_map: None })
}

/// An order-preserving YAML tree (serde_json's map would sort the buffers by name).
#[derive(Clone, Debug, PartialEq)]
pub enum Yaml {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Yaml>),
    Map(Vec<(String, Yaml)>),
}

impl Yaml {
    fn kind(&self) -> String {
        match self {
            Yaml::Null => "nothing".into(),
            Yaml::Bool(b) => format!("the boolean {b}"),
            Yaml::Int(i) => format!("the integer {i}"),
            Yaml::UInt(u) => format!("the integer {u}"),
            Yaml::Float(f) => format!("the number {f}"),
            Yaml::Str(s) => format!("the string `{s}`"),
            Yaml::Seq(_) => "a list".into(),
            Yaml::Map(_) => "a mapping".into(),
        }
    }
    fn as_u64(&self) -> Option<u64> {
        match self {
            Yaml::Int(i) if *i >= 0 => Some(*i as u64),
            Yaml::UInt(u) => Some(*u),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Yaml {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Yaml, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Yaml;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a YAML value")
            }
            fn visit_unit<E>(self) -> Result<Yaml, E> {
                Ok(Yaml::Null)
            }
            fn visit_none<E>(self) -> Result<Yaml, E> {
                Ok(Yaml::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Yaml, D::Error> {
                Yaml::deserialize(d)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Yaml, E> {
                Ok(Yaml::Bool(b))
            }
            fn visit_i64<E>(self, i: i64) -> Result<Yaml, E> {
                Ok(Yaml::Int(i))
            }
            fn visit_u64<E>(self, u: u64) -> Result<Yaml, E> {
                Ok(if u <= i64::MAX as u64 { Yaml::Int(u as i64) } else { Yaml::UInt(u) })
            }
            fn visit_f64<E>(self, f: f64) -> Result<Yaml, E> {
                Ok(Yaml::Float(f))
            }
            fn visit_str<E>(self, s: &str) -> Result<Yaml, E> {
                Ok(Yaml::Str(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Yaml, E> {
                Ok(Yaml::Str(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Yaml, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element()? {
                    v.push(x);
                }
                Ok(Yaml::Seq(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Yaml, A::Error> {
                let mut v = Vec::new();
                while let Some((k, x)) = a.next_entry::<String, Yaml>()? {
                    v.push((k, x));
                }
                Ok(Yaml::Map(v))
            }
        }
        d.deserialize_any(V)
    }
}
