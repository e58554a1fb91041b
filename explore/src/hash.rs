//! A content hash that is stable across Rust versions and runs (unlike `DefaultHasher`): the
//! cache keys of the sweep's stages. 64-bit FNV-1a; collisions are not a security concern here.

pub fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        // The length first, so that ("ab", "c") and ("a", "bc") differ.
        for b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
            h ^= *b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// `fnv1a` as 16 hex digits.
pub fn key(parts: &[&[u8]]) -> String {
    format!("{:016x}", fnv1a(parts))
}
