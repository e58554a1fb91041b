//! The constants of smsync's opaque 128-byte tensor-map layout that both the golden model's map
//! reader (`smsync_sim::units::tensormap`) and the RTL copy engine check. The layout itself is
//! written out in the golden reader; PTX leaves the tensor-map object opaque (its fields are set by
//! the driver, `cuTensorMapEncodeTiled`).

/// The first word of a valid map.
pub const MAGIC: u32 = 0x5041_4D54;
/// Size of a map in bytes.
pub const BYTES: usize = 128;
/// Largest box accepted (elements), so that a malformed map cannot exhaust memory.
pub const MAX_BOX_ELEMENTS: u64 = 1 << 20;
