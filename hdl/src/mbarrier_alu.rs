//! mbarrier_alu (being written).
