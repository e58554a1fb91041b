//! The project's 128-byte tensor-map layout. PTX leaves the map opaque (PTX ISA §5.5.8: "created
//! using CUDA APIs"); this is smsync's own encoding of the properties PTX ISA §5.5 defines:
//!
//! | off | field |
//! |---|---|
//! | 0 | u32 magic 0x50414D54 ("TMAP") |
//! | 4 | u32 dims (1..5) |
//! | 8 | u32 elem_bytes (1, 2, 4, 8, 16) |
//! | 12 | u32 oob_fill: 0 zero, 1 all-ones bytes |
//! | 16 | u64 global_base |
//! | 24 | u32 tensor_size[5] (unused dims 1) |
//! | 44 | u32 box_size[5] (unused 1; box_size[0]*elem_bytes a multiple of 16); im2col: [channels per pixel, pixels per column, 1, ..] |
//! | 64 | u64 stride_bytes[4] (dimensions 1..4) |
//! | 96 | u32 elem_type: 0 = untyped, else `DataType` code + 1 (additive: only tensor reduces read it) |
//! | 100 | u32 swizzle: 0 none, 1 32B, 2 64B, 3 128B (the `CU_TENSOR_MAP_SWIZZLE_*` codes; PTX ISA §5.5.7) |
//! | 104 | u32 mode: 0 tiled (PTX ISA §5.5.3), 1 im2col (PTX ISA §5.5.4) |
//! | 108 | i16 im2col bounding-box lower corner [W, H, D] (unused 0) |
//! | 114 | i16 im2col bounding-box upper corner [W, H, D] (unused 0) |
//! | 120..128 | reserved |
//!
//! Bytes 100..128 were reserved (zero) before swizzle and im2col, so older maps read as tiled and
//! unswizzled.

use crate::encoding::{DataType, ErrorCode};
use crate::memory::MemorySystem;

pub use smsync_contract::tensor_map_layout::{BYTES, MAGIC, MAX_BOX_ELEMENTS};

/// Byte offsets of the fields added after the first layout (see the table above).
pub mod offset {
    pub const SWIZZLE: usize = 100;
    pub const MODE: usize = 104;
    pub const LOWER: usize = 108;
    pub const UPPER: usize = 114;
}

/// The im2col bounding box of PTX ISA §5.5.4.1 (spatial dimensions in W, H, D order); the
/// pixels per column and channels per pixel are the map's box sizes 1 and 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Im2col {
    pub lower: [i32; 3],
    pub upper: [i32; 3],
}

/// The bounding-box corner range of PTX ISA §5.5.4.1 for a tensor of `dims` dimensions.
pub fn im2col_corner_range(dims: usize) -> std::ops::RangeInclusive<i32> {
    match dims {
        3 => -(1 << 15)..=(1 << 15) - 1,
        4 => -(1 << 7)..=(1 << 7) - 1,
        _ => -(1 << 4)..=(1 << 4) - 1,
    }
}

/// The largest im2col offset of PTX ISA §5.5.4.1 for a tensor of `dims` dimensions.
pub fn im2col_offset_max(dims: usize) -> u32 {
    match dims {
        3 => (1 << 16) - 1,
        4 => (1 << 8) - 1,
        _ => (1 << 5) - 1,
    }
}

/// Swizzle span in bytes of a `CU_TENSOR_MAP_SWIZZLE_*` code (0 = none).
pub fn swizzle_span(code: u32) -> Option<u64> {
    match code {
        0 => Some(u64::MAX),
        1 => Some(32),
        2 => Some(64),
        3 => Some(128),
        _ => None,
    }
}

/// The shared-memory address a byte of the box's linear image lands at (PTX ISA §5.5.7): the
/// 16-byte chunks of each 128-byte line are permuted by XOR with the line's index within the
/// pattern (2 lines for 32B, 4 for 64B, 8 for 128B), taken from the address itself, so a
/// destination that is not aligned to the pattern starts at the base offset
/// `(dstMem / 128) % lines` as the section's formula says.
pub fn swizzle(code: u32, addr: u64) -> u64 {
    let lines = match code {
        1 => 2,
        2 => 4,
        3 => 8,
        _ => return addr,
    };
    addr ^ (((addr >> 7) % lines) << 4)
}

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
    /// `CU_TENSOR_MAP_SWIZZLE_*` code (0 none .. 3 128B).
    pub swizzle: u32,
    pub im2col: Option<Im2col>,
}

impl TensorMap {
    /// Read and validate the map at global address `addr`; `dims` is the instruction's .dim.
    pub fn read(mem: &MemorySystem, addr: u64, dims: u32) -> Result<TensorMap, ErrorCode> {
        let raw = mem.global.slice(addr, BYTES).ok_or(ErrorCode::GlobalOutOfRange)?;
        let u32_at = |o: usize| u32::from_le_bytes(raw[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(raw[o..o + 8].try_into().unwrap());
        let i16_at = |o: usize| i16::from_le_bytes(raw[o..o + 2].try_into().unwrap()) as i32;
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
        let inner = boxs[0] as u64 * elem_bytes;
        let swizzle = u32_at(offset::SWIZZLE);
        // PTX ISA §5.5.7: the box's inner dimension must fit the swizzle span.
        if !inner.is_multiple_of(16) || swizzle_span(swizzle).is_none_or(|span| inner > span) {
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
        let im2col = match u32_at(offset::MODE) {
            0 => None,
            1 => Some(Self::read_im2col(
                dims as usize,
                &boxs,
                |s| i16_at(offset::LOWER + 2 * s),
                |s| i16_at(offset::UPPER + 2 * s),
            )?),
            _ => return Err(bad),
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
            swizzle,
            im2col,
        })
    }

    /// The im2col fields: a 3d..5d tensor (PTX ISA §5.5.4), a box of channels x pixels, corners
    /// in the range of PTX ISA §5.5.4.1.
    fn read_im2col(
        dims: usize,
        boxs: &[u32; 5],
        lower: impl Fn(usize) -> i32,
        upper: impl Fn(usize) -> i32,
    ) -> Result<Im2col, ErrorCode> {
        if dims < 3 || boxs[2..].iter().any(|&b| b != 1) {
            return Err(ErrorCode::TensorMap);
        }
        let range = im2col_corner_range(dims);
        let mut im = Im2col { lower: [0; 3], upper: [0; 3] };
        for s in 0..dims - 2 {
            im.lower[s] = lower(s);
            im.upper[s] = upper(s);
            if !range.contains(&im.lower[s]) || !range.contains(&im.upper[s]) {
                return Err(ErrorCode::TensorMap);
            }
        }
        Ok(im)
    }

    pub fn box_elements(&self) -> u64 {
        self.boxs[..self.dims].iter().map(|&b| b as u64).product()
    }

    pub fn box_bytes(&self) -> u64 {
        self.box_elements() * self.elem_bytes
    }

    /// Rows of the box (its elements over dimension 0's box size), each a contiguous run of
    /// `boxs[0]` elements in global memory.
    pub fn box_rows(&self) -> u64 {
        self.box_elements() / (self.boxs[0] as u64).max(1)
    }

    /// Bytes of one box row (dimension 0).
    pub fn box_row_bytes(&self) -> u64 {
        self.boxs[0] as u64 * self.elem_bytes
    }

    /// The stride in bytes of dimension `d`.
    fn step(&self, d: usize) -> i128 {
        if d == 0 {
            self.elem_bytes as i128
        } else {
            self.stride[d - 1] as i128
        }
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
            addr += c as i128 * self.step(d);
        }
        u64::try_from(addr).ok()
    }

    /// The spatial (D, H, W) extents of the im2col bounding box of filter-base positions:
    /// from the lower corner to the last pixel plus the upper corner (PTX ISA §5.5.4.1; a
    /// 3 x 3 filter with padding 1 has corners -1 and -1, so all W positions -1..W-2 are bases).
    fn im2col_extents(&self, im: &Im2col) -> [i64; 3] {
        let mut ext = [1i64; 3];
        for (s, e) in ext.iter_mut().enumerate().take(self.dims - 2) {
            *e = self.size[s + 1] as i64 - 1 + im.upper[s] as i64 - im.lower[s] as i64 + 1;
        }
        ext
    }

    /// Checks an im2col load's filter base (inside the bounding box, PTX ISA §5.5.4.1) and
    /// offsets (in the range of the same section).
    pub fn im2col_check(&self, coords: &[i32; 5], offsets: &[u16; 3]) -> Result<(), ErrorCode> {
        let Some(im) = &self.im2col else { return Err(ErrorCode::TensorMap) };
        let ext = self.im2col_extents(im);
        for s in 0..self.dims - 2 {
            let rel = coords[s + 1] as i64 - im.lower[s] as i64;
            if rel < 0 || rel >= ext[s] || offsets[s] as u32 > im2col_offset_max(self.dims) {
                return Err(ErrorCode::TensorIm2col);
            }
        }
        Ok(())
    }

    /// For element `i` of an im2col load (channels fastest, then pixels): its global address, or
    /// None outside the tensor. Pixels walk the bounding box from the filter base, W fastest,
    /// then H, D and N (PTX ISA §5.5.4); the im2col offsets move every pixel's access point.
    pub fn im2col_element(&self, coords: &[i32; 5], offsets: &[u16; 3], i: u64) -> Option<u64> {
        let im = self.im2col.as_ref()?;
        let (channels, spatial) = (self.boxs[0] as u64, self.dims - 2);
        let ext = self.im2col_extents(im);
        let c = coords[0] as i64 + (i % channels) as i64;
        // linear position of the pixel in the (W, H, D, N) grid of filter bases
        let mut pos = (i / channels) as i64 + coords[self.dims - 1] as i64 * ext[..spatial].iter().product::<i64>();
        let mut scale = 1;
        for s in 0..spatial {
            pos += (coords[s + 1] as i64 - im.lower[s] as i64) * scale;
            scale *= ext[s];
        }
        let mut at = vec![c];
        for s in 0..spatial {
            at.push(im.lower[s] as i64 + pos.rem_euclid(ext[s]) + offsets[s] as i64);
            pos = pos.div_euclid(ext[s]);
        }
        at.push(pos);
        let mut addr = self.base as i128;
        for (d, &x) in at.iter().enumerate() {
            if x < 0 || x >= self.size[d] as i64 {
                return None;
            }
            addr += x as i128 * self.step(d);
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
