//! smsync RTL: one rust-hdl block per sync unit, mirroring `smsync_sim::units` one to one, and the
//! `sync_unit` top that wires them to shared memory and the request/response ports.
//!
//! `common` holds what every block shares: port conventions, the encoding table as rust-hdl
//! constants, Verilog generation and the example block the tool flow is tested on.

pub mod common;
pub mod depth_ram;
pub mod formal;
pub mod pack_lanes;
pub mod stage_reg;

pub mod atomic_alu;
pub mod barrier_file;
pub mod copy_engine;
pub mod mbarrier_alu;
pub mod warp_network;

pub mod sync_unit;
