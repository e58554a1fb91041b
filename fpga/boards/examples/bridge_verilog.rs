//! Print the Verilog of the UART host bridge alone (module `host_bridge`, the fpga-small copy
//! port: 64 bits, 8 byte enables; 4 lanes per beat), e.g. to synthesize it on its own:
//!
//!     cargo run -p smsync-boards --example bridge_verilog > host_bridge.v
//!     yosys -p "read_verilog host_bridge.v; synth_ecp5 -top host_bridge; stat"

use smsync_boards::bridge::HostBridge;

fn main() {
    let mut bridge = HostBridge::<64, 8>::new(4);
    match smsync_hdl::common::try_verilog_named(&mut bridge, "host_bridge") {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
