//! smsync golden model: the architecture config, the encoding table shared with the RTL, the PTX
//! front end, the executor and the golden sync units.

/// The config and the encoding table are the contract with the RTL (`smsync-contract`).
pub use smsync_contract::{config, encoding};
pub mod exec;
pub mod memory;
pub mod ptx;
pub mod timing;
pub mod units;
