//! The generic address map shared by the golden model and the RTL: where global, shared::cta,
//! shared::cluster and local memory sit in a generic address.
//!
//! Generic address map (project choice; PTX leaves the windows to the implementation):
//!
//! | window                         | generic addresses                                  |
//! |--------------------------------|----------------------------------------------------|
//! | local (per thread)             | `LOCAL_BASE ..  LOCAL_BASE + 2^24`                  |
//! | shared::cta (own CTA)          | `SHARED_BASE .. SHARED_BASE + 2^24`                 |
//! | shared::cluster (rank r)       | `CLUSTER_BASE + r * 2^24 ..`                         |
//! | global                         | `GLOBAL_BASE ..` (buffers are 256-byte aligned)     |
//!
//! A `.shared` address is the offset into the CTA's shared memory (what `cvta.to.shared` yields).

pub const WINDOW: u64 = 1 << 24;
pub const LOCAL_BASE: u64 = 0x0100_0000;
pub const SHARED_BASE: u64 = 0x0200_0000;
pub const CLUSTER_BASE: u64 = 0x1000_0000;
pub const GLOBAL_BASE: u64 = 0x1_0000_0000;

/// Where a generic address points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generic {
    Global(u64),
    /// Offset in the executing CTA's shared memory.
    Shared(u32),
    /// (cluster rank, offset) in a CTA of the cluster.
    Cluster(u32, u32),
    Local(u32),
    Invalid,
}

pub fn classify(addr: u64) -> Generic {
    if (LOCAL_BASE..LOCAL_BASE + WINDOW).contains(&addr) {
        Generic::Local((addr - LOCAL_BASE) as u32)
    } else if (SHARED_BASE..SHARED_BASE + WINDOW).contains(&addr) {
        Generic::Shared((addr - SHARED_BASE) as u32)
    } else if (CLUSTER_BASE..CLUSTER_BASE + 16 * WINDOW).contains(&addr) {
        let off = addr - CLUSTER_BASE;
        Generic::Cluster((off / WINDOW) as u32, (off % WINDOW) as u32)
    } else if addr >= GLOBAL_BASE {
        Generic::Global(addr)
    } else {
        Generic::Invalid
    }
}
