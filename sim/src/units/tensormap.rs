//! The project's 128-byte tensor-map layout (PTX §5.5 is not in the seeds; see PREAMBLE / units.md):
//!
//! | off | field |
//! |---|---|
//! | 0 | u32 magic 0x50414D54 ("TMAP") |
//! | 4 | u32 dims (1..5) |
//! | 8 | u32 elem_bytes (1, 2, 4, 8, 16) |
//! | 12 | u32 oob_fill: 0 zero, 1 all-ones bytes |
//! | 16 | u64 global_base |
//! | 24 | u32 tensor_size[5] (unused dims 1) |
//! | 44 | u32 box_size[5] (unused 1; box_size[0]*elem_bytes a multiple of 16) |
//! | 64 | u64 stride_bytes[4] (dimensions 1..4) |
//! | 96 | u32 elem_type: 0 = untyped, else `DataType` code + 1 (additive: only tensor reduces read it) |
//! | 100..128 | reserved |

use crate::encoding::{DataType, ErrorCode};
use crate::memory::MemorySystem;

pub use smsync_contract::tensor_map_layout::{BYTES, MAGIC, MAX_BOX_ELEMENTS};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    pub dims: usize,
    pub elem_bytes: u64,
    pub fill_ones: bool,
    pub base: u64,
    pub size: [u32; 5],
    pub boxs: [u32; 5],
    pub stride: [u64; 4],
    pub elem_type: Option<DataType>,
}

impl TensorMap {
    /// Read and validate the map at global address `addr`; `dims` is the instruction's .dim.
    pub fn read(mem: &MemorySystem, addr: u64, dims: u32) -> Result<TensorMap, ErrorCode> {
        let raw = mem.global.slice(addr, BYTES).ok_or(ErrorCode::GlobalOutOfRange)?;
        let u32_at = |o: usize| u32::from_le_bytes(raw[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(raw[o..o + 8].try_into().unwrap());
        let bad = ErrorCode::TensorMap;
        if u32_at(0) != MAGIC || u32_at(4) != dims || !(1..=5).contains(&dims) {
            return Err(bad);
        }
        let elem_bytes = u32_at(8) as u64;
        if ![1, 2, 4, 8, 16].contains(&elem_bytes) || u32_at(12) > 1 {
            return Err(bad);
        }
        let mut size = [1u32; 5];
        let mut boxs = [1u32; 5];
        for d in 0..5 {
            size[d] = u32_at(24 + 4 * d);
            boxs[d] = u32_at(44 + 4 * d);
            if d < dims as usize && (size[d] == 0 || boxs[d] == 0) {
                return Err(bad);
            }
        }
        if !(boxs[0] as u64 * elem_bytes).is_multiple_of(16) {
            return Err(bad);
        }
        let total: u64 = boxs[..dims as usize].iter().map(|&b| b as u64).product();
        if total > MAX_BOX_ELEMENTS {
            return Err(bad);
        }
        let stride = [u64_at(64), u64_at(72), u64_at(80), u64_at(88)];
        let elem_type = match u32_at(96) {
            0 => None,
            code => {
                let t = u8::try_from(code - 1).ok().and_then(DataType::from_code).ok_or(bad)?;
                if t.bytes() as u64 != elem_bytes {
                    return Err(bad);
                }
                Some(t)
            }
        };
        Ok(TensorMap {
            dims: dims as usize,
            elem_bytes,
            fill_ones: u32_at(12) == 1,
            base: u64_at(16),
            size,
            boxs,
            stride,
            elem_type,
        })
    }

    pub fn box_elements(&self) -> u64 {
        self.boxs[..self.dims].iter().map(|&b| b as u64).product()
    }

    pub fn box_bytes(&self) -> u64 {
        self.box_elements() * self.elem_bytes
    }

    /// For box element `i` (dimension 0 fastest) at start `coords`: the element's global address,
    /// or None when it lies outside the tensor.
    pub fn element(&self, coords: &[i32; 5], i: u64) -> Option<u64> {
        let mut rest = i;
        let mut addr = self.base as i128;
        for d in 0..self.dims {
            let c = coords[d] as i64 + (rest % self.boxs[d] as u64) as i64;
            rest /= self.boxs[d] as u64;
            if c < 0 || c >= self.size[d] as i64 {
                return None;
            }
            let step = if d == 0 { self.elem_bytes as i128 } else { self.stride[d - 1] as i128 };
            addr += c as i128 * step;
        }
        u64::try_from(addr).ok()
    }

    /// The reduction element type: the map's, or for an untyped map the unsigned integer (bitwise
    /// ops: the bit type) of the element size.
    pub fn reduce_type(&self, bitwise: bool) -> Option<DataType> {
        self.elem_type.or(match (self.elem_bytes, bitwise) {
            (4, false) => Some(DataType::U32),
            (8, false) => Some(DataType::U64),
            (4, true) => Some(DataType::B32),
            (8, true) => Some(DataType::B64),
            _ => None,
        })
    }
}
