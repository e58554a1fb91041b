//! atomic_alu (being written).
