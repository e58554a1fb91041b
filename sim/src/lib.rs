//! smsync golden model: the architecture config, the encoding table shared with the RTL, the PTX
//! front end, the executor and the golden sync units.

pub mod config;
pub mod encoding;
pub mod exec;
pub mod memory;
pub mod ptx;
pub mod units;
