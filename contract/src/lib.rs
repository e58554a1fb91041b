//! The contract between smsync's golden model (`smsync-sim`) and its RTL (`smsync-hdl`): one
//! definition of each thing both sides must agree on, so that the RTL does not pull in the PTX
//! front end and the two crates compile side by side.
//!
//! * [`config`]: the architecture config (YAML, validated field by field);
//! * [`encoding`]: the op / field encoding table (op codes, sub-op codes, data types, spaces,
//!   error codes, flags, the mbarrier word and state-token layouts), written into the manifest;
//! * [`request`]: the warp-level request and response types of the sync unit;
//! * [`port`]: the `sync_unit` top's port table (names, widths per config, channels);
//! * [`memory_map`]: the generic address map (global, shared::cta, shared::cluster, local);
//! * [`legality`]: the reduction op x type tables of the bulk and tensor reductions;
//! * [`tensor_map_layout`]: the constants of the opaque tensor-map layout.

pub mod config;
pub mod encoding;
pub mod legality;
pub mod memory_map;
pub mod port;
pub mod request;
pub mod tensor_map_layout;
