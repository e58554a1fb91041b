//! FPGA flow: synthesis / place-and-route drivers (yosys, nextpnr) with report parsing, and the
//! board top-levels with a host bridge.
//!
//! Not built yet (issue 5): this crate is the place reserved for it in the workspace layout.
