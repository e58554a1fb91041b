//! smsync RTL: one rust-hdl block per sync unit, mirroring `smsync_sim::units` one to one, and the
//! `sync_unit` top that wires them to shared memory and the request/response ports.

pub mod atomic_alu;
pub mod barrier_file;
pub mod copy_engine;
pub mod mbarrier_alu;
pub mod warp_network;
