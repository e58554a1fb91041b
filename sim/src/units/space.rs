//! Address resolution shared by the units: turns a request's (space, address) into the CTA slot and
//! the offset in that slot's shared memory.
//!
//! A `.shared::cta` address is an offset in the requesting CTA's shared memory. A `.shared::cluster`
//! address is a cluster-window address (`memory::CLUSTER_BASE + rank * WINDOW + offset`); rank r of
//! a cluster lives in CTA slot `first_slot_of_cluster + r`, because a cluster occupies
//! `cluster_size` consecutive slots (config rule: cluster_size divides cta_slots).

use crate::encoding::{ErrorCode, Space};
use crate::memory::{CLUSTER_BASE, WINDOW};

/// Slot of cluster rank `rank` for a CTA in `cta` (None when the rank is outside the cluster).
pub fn slot_of_rank(cta: u16, cluster_size: u32, rank: u32) -> Option<usize> {
    (rank < cluster_size).then(|| (cta as u32 / cluster_size * cluster_size + rank) as usize)
}

/// The CTA slots of the cluster that `cta` belongs to.
pub fn cluster_slots(cta: u16, cluster_size: u32) -> std::ops::Range<usize> {
    let first = (cta as u32 / cluster_size * cluster_size) as usize;
    first..first + cluster_size as usize
}

/// Resolve a shared-memory address to (slot, offset). A global address is not shared memory.
pub fn resolve_shared(cta: u16, cluster_size: u32, space: Space, addr: u64) -> Result<(usize, u64), ErrorCode> {
    match space {
        Space::SharedCta => Ok((cta as usize, addr)),
        Space::SharedCluster => {
            let off = addr.checked_sub(CLUSTER_BASE).ok_or(ErrorCode::SharedOutOfRange)?;
            let rank = off / WINDOW;
            let slot = u32::try_from(rank).ok().and_then(|r| slot_of_rank(cta, cluster_size, r));
            slot.map(|s| (s, off % WINDOW)).ok_or(ErrorCode::SharedOutOfRange)
        }
        Space::Global => Err(ErrorCode::SharedOutOfRange),
    }
}
