//! Memory of the simulated GPU: global memory (the launch's buffers), per-CTA-slot shared memory,
//! and the generic address map that ties them together (`smsync_contract::memory_map`, re-exported
//! here: the RTL uses the same map).

pub use smsync_contract::memory_map::*;

use crate::encoding::ErrorCode;

/// A flat byte array at a base address, with bounds-checked typed access.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Region {
    pub base: u64,
    pub bytes: Vec<u8>,
}

impl Region {
    pub fn new(base: u64, len: usize) -> Region {
        Region { base, bytes: vec![0; len] }
    }

    #[inline]
    fn range(&self, addr: u64, len: usize) -> Option<std::ops::Range<usize>> {
        let start = addr.checked_sub(self.base)? as usize;
        let end = start.checked_add(len)?;
        (end <= self.bytes.len()).then_some(start..end)
    }

    #[inline]
    pub fn slice(&self, addr: u64, len: usize) -> Option<&[u8]> {
        self.range(addr, len).map(|r| &self.bytes[r])
    }

    #[inline]
    pub fn slice_mut(&mut self, addr: u64, len: usize) -> Option<&mut [u8]> {
        self.range(addr, len).map(move |r| &mut self.bytes[r])
    }

    /// Little-endian read of `len` (1..=16) bytes.
    #[inline]
    pub fn read(&self, addr: u64, len: usize) -> Option<u128> {
        let s = self.slice(addr, len)?;
        let mut buf = [0u8; 16];
        buf[..len].copy_from_slice(s);
        Some(u128::from_le_bytes(buf))
    }

    /// Little-endian write of the low `len` (1..=16) bytes of `value`.
    #[inline]
    pub fn write(&mut self, addr: u64, len: usize, value: u128) -> Option<()> {
        let s = self.slice_mut(addr, len)?;
        s.copy_from_slice(&value.to_le_bytes()[..len]);
        Some(())
    }
}

/// Global memory plus the shared memory of every CTA slot.
#[derive(Clone, Debug, Default)]
pub struct MemorySystem {
    pub global: Region,
    /// Shared memory of each CTA slot; offsets start at 0.
    pub shared: Vec<Region>,
    /// When `Some`, every [`MemorySystem::write_global`] (the executor's plain global stores;
    /// the golden units write through `global` directly) is also recorded here, so the cosim can
    /// replay them into the RTL's mirror of global memory. `None` (the default) records nothing.
    pub global_journal: Option<Vec<GlobalWrite>>,
}

/// One recorded plain global store: `len` (1..=16) little-endian bytes of `value` at `addr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalWrite {
    pub addr: u64,
    pub len: usize,
    pub value: u128,
}

impl MemorySystem {
    pub fn new(global_bytes: usize, cta_slots: usize, shared_bytes: usize) -> MemorySystem {
        MemorySystem {
            global: Region::new(GLOBAL_BASE, global_bytes),
            shared: (0..cta_slots).map(|_| Region::new(0, shared_bytes)).collect(),
            global_journal: None,
        }
    }

    pub fn read_global(&self, addr: u64, len: usize) -> Result<u128, ErrorCode> {
        self.global.read(addr, len).ok_or(ErrorCode::GlobalOutOfRange)
    }
    pub fn write_global(&mut self, addr: u64, len: usize, v: u128) -> Result<(), ErrorCode> {
        self.global.write(addr, len, v).ok_or(ErrorCode::GlobalOutOfRange)?;
        if let Some(j) = &mut self.global_journal {
            j.push(GlobalWrite { addr, len, value: v });
        }
        Ok(())
    }
    pub fn read_shared(&self, slot: usize, off: u64, len: usize) -> Result<u128, ErrorCode> {
        self.shared.get(slot).and_then(|r| r.read(off, len)).ok_or(ErrorCode::SharedOutOfRange)
    }
    pub fn write_shared(&mut self, slot: usize, off: u64, len: usize, v: u128) -> Result<(), ErrorCode> {
        self.shared.get_mut(slot).and_then(|r| r.write(off, len, v)).ok_or(ErrorCode::SharedOutOfRange)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_classify() {
        assert_eq!(classify(SHARED_BASE + 16), Generic::Shared(16));
        assert_eq!(classify(GLOBAL_BASE + 4), Generic::Global(GLOBAL_BASE + 4));
        assert_eq!(classify(CLUSTER_BASE + 2 * WINDOW + 8), Generic::Cluster(2, 8));
        assert_eq!(classify(8), Generic::Invalid);
    }

    #[test]
    fn region_bounds() {
        let mut r = Region::new(100, 8);
        assert!(r.write(100, 8, 0x0102030405060708).is_some());
        assert_eq!(r.read(104, 4), Some(0x01020304));
        assert!(r.read(105, 4).is_none());
        assert!(r.read(99, 1).is_none());
    }
}
