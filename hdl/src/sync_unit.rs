//! The RTL that `smsync gen` emits: the list of unit blocks built so far and, once the units
//! it wires exist, the `sync_unit` top.
//!
//! Each entry of [`modules`] turns a `Config` into the Verilog of one file. A unit appears here
//! when its block lands; `smsync gen` writes one `.v` per entry and lists the units not yet
//! built in the manifest, so a partial RTL is visible as partial.

pub mod shared_mem;
pub mod top;

use crate::atomic_alu::atomic_alu_verilog;
use crate::barrier_file::BarrierFile;
use crate::common::{try_verilog_named, VerilogError};
use crate::copy_engine::copy_engine_verilog;
use crate::mbarrier_alu::MbarrierAlu;
use crate::warp_network::WarpNetwork;
use smsync_contract::config::Config;
use smsync_contract::encoding::Unit;

/// One generated Verilog file: module `module` in `<module>.v`.
pub struct RtlModule {
    /// Top module name (and file stem).
    pub module: &'static str,
    /// The unit it implements, or `None` for the top.
    pub unit: Option<Unit>,
    pub generate: fn(&Config) -> Result<String, VerilogError>,
}

/// Every module `smsync gen` writes for `config`, units first, the top last.
pub fn modules(config: &Config) -> Vec<RtlModule> {
    let _ = config; // feature-dependent units (copy engine) will consult it
    vec![
        RtlModule {
            module: "barrier_file",
            unit: Some(Unit::BarrierFile),
            generate: |c| unit_verilog(BarrierFile::new(c), "barrier_file"),
        },
        RtlModule {
            module: "mbarrier_alu",
            unit: Some(Unit::MbarrierAlu),
            generate: |c| unit_verilog(MbarrierAlu::new(c), "mbarrier_alu"),
        },
        RtlModule {
            module: "atomic_alu",
            unit: Some(Unit::AtomicAlu),
            generate: |c| atomic_alu_verilog(c, "atomic_alu"),
        },
        RtlModule {
            module: "warp_network",
            unit: Some(Unit::WarpNetwork),
            generate: |c| unit_verilog(WarpNetwork::new(c), "warp_network"),
        },
        RtlModule {
            module: "copy_engine",
            unit: Some(Unit::CopyEngine),
            // The port width is a const generic: copy_engine_verilog picks the instance.
            generate: |c| copy_engine_verilog(c, "copy_engine"),
        },
        // The top: request decode, lane sequencer, shared RAM, response port (sync_unit/top.rs).
        RtlModule { module: "sync_unit", unit: None, generate: |c| top::sync_unit_verilog(c, "sync_unit") },
    ]
}

/// The units whose RTL is not generated yet (`Lsu` is part of the top, not a unit block).
pub fn missing_units(config: &Config) -> Vec<Unit> {
    let built: Vec<Unit> = modules(config).iter().filter_map(|m| m.unit).collect();
    Unit::ALL.iter().copied().filter(|u| *u != Unit::Lsu && !built.contains(u)).collect()
}

/// Verilog of a unit block built by `new(config)`, its top module named `module`.
fn unit_verilog<B: rust_hdl::prelude::Block>(mut block: B, module: &str) -> Result<String, VerilogError> {
    try_verilog_named(&mut block, module)
}
