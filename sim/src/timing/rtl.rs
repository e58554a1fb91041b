//! The RTL profile of the sync unit's golden timing back end (`timing.model: rtl`): **when**
//! the generated `sync_unit` top, driven as the timed cosim drives it (`smsync cosim --timing`),
//! would answer each request, so that `smsync run --timing` predicts the RTL back end's kernel
//! cycles without building the RTL. Results and errors stay the golden units' at issue
//! ([`super::TimedUnits`]); only the answer times differ from the H100 profile.
//!
//! The top (docs/units/sync_unit.md, "Request queue", "Timing"), sized by the config:
//! * **one request port**: a header, then `32 / lanes_per_beat` operand beats, one per cycle (the
//!   first with the header); a header is taken only while one of the `requests_in_flight` queue
//!   entries is free, and an entry frees when the core has finished its request;
//! * **one core**, one request at a time in arrival order: the unit's cycles
//!   ([`super::rtl_costs::core_cycles`]), the response leaving (a header, or `32 / lanes_per_beat`
//!   value beats), the next entry's selection. A barrier release walks the released warps through
//!   the core after the answer to the arrival that completed it; a wait_group (complete when
//!   the awaited groups' copies are, PTX ISA §9.7.9.25.3.3 and §9.7.9.25.6.2) holds the core
//!   until then (the core answers a copy-engine request when every lane has been); a partial
//!   arrival at a warp collective (its other member lanes still to come, PTX ISA
//!   §9.7.13.9-§9.7.13.12) is recorded without a response;
//! * **the copy engine** behind the core: lane ops enter its `copy_queue_depth`-entry queue one
//!   per cycle, its controller takes each for [`k::COPY_CONTROLLER`] cycles, and the mover streams a
//!   move's bytes through the `copy_port_bytes` port one beat per cycle, waiting for the previous
//!   move's data unless a global-source move follows another (docs/units/copy_engine.md); global
//!   data comes `rtl_gm_latency` after its read.
//!
//! The top's "passing" of a refused warp-network request is not modelled: the golden units
//! answer a partial arrival later, and the core is not held by it in either.

use super::rtl_costs::{self, k};
use crate::config::Config;
use crate::encoding::{Op, Unit};
use crate::units::copy_engine::Move;
use crate::units::{Request, Response};
use std::collections::VecDeque;

/// What the scheduler keeps of a request until it has been through the core.
pub(super) struct Pending {
    pub req: Request,
    pub issued: u64,
    /// The golden units' answers made at issue (its own, and others' it completed).
    pub made: Vec<Response>,
    /// Its header's cycle once the port has taken it.
    pub header: Option<u64>,
    /// The golden copy engine's operations it queued (number, how its bytes move).
    pub moves: Vec<(u64, Move)>,
}

/// An answer and the cycle it leaves the top.
pub(super) type Timed = (u64, Response);

/// The top's port, queue, core and copy engine, as cycle counters.
#[derive(Default)]
pub(super) struct RtlTop {
    /// First cycle the port can take a header.
    port_free: u64,
    /// Cycles the last `requests_in_flight` entries free, oldest first.
    entry_free: VecDeque<u64>,
    /// First cycle the core can start a request.
    core_free: u64,
    /// A wait_group holding the core: its tag and when its lane ops were done.
    blocked: Option<(u64, u64)>,
    pending: VecDeque<Pending>,
    /// Copy engine: the controller's first free cycle, the start cycles of the lane ops in its
    /// queue (newest last), and the controller's finishing cycle of each lane op not yet given
    /// its move.
    ctrl_free: u64,
    ctrl_starts: VecDeque<u64>,
    /// The mover: first free cycle, the last move's landing and whether it read global memory.
    mover_free: u64,
    last_land: u64,
    last_global: bool,
    /// Per unit (as `Unit::ALL`): cycles the core worked for it and requests waited for it.
    pub busy: [u64; 6],
    pub queued: [u64; 6],
    /// Copy operations given their landing cycle, in number order: (number, cycle).
    pub landings: Vec<(u64, u64)>,
}

impl RtlTop {
    /// Requests not through the core yet (behind a wait_group that holds it).
    pub fn busy_with_requests(&self) -> bool {
        !self.pending.is_empty() || self.blocked.is_some()
    }

    /// Whether `tag` is still waiting for its turn in the core.
    pub fn holds(&self, tag: u64) -> bool {
        self.pending.iter().any(|p| p.req.tag == tag)
    }

    /// An answer made later for a request still waiting for the core: it leaves with it.
    pub fn add_made(&mut self, r: Response) {
        if let Some(p) = self.pending.iter_mut().find(|p| p.req.tag == r.tag) {
            p.made.push(r);
        }
    }

    /// Whether the core waits for the later answer of `tag` (a wait_group).
    pub fn blocked_on(&self, tag: u64) -> bool {
        self.blocked.is_some_and(|(t, _)| t == tag)
    }

    /// A request issued at `now`: schedule what can be scheduled; answers with their cycles go
    /// to `out`.
    pub fn submit(&mut self, cfg: &Config, p: Pending, out: &mut Vec<Timed>) {
        self.pending.push_back(p);
        self.run(cfg, out);
    }

    /// The core's wait_group answered at `now` (its groups complete): the answer leaves and the
    /// core takes the next requests.
    pub fn unblock(&mut self, cfg: &Config, now: u64, r: Response, out: &mut Vec<Timed>) {
        let (_, done) = self.blocked.take().expect("unblock only a blocked core");
        let end = now.max(done);
        out.push((end + 1, r));
        self.finish(cfg, end, false);
        self.run(cfg, out);
    }

    /// A copy operation handed to the mover when it is free, from `ready`: returns the cycle
    /// the mover took it; its landing goes to `landings`.
    fn move_one(&mut self, cfg: &Config, ready: u64, seq: u64, m: Move) -> u64 {
        let port = cfg.copy_port_bytes.max(1) as u64;
        let gm = cfg.timing.rtl_gm_latency as u64;
        let mut begin = ready.max(self.mover_free);
        if !(m.global_source && self.last_global) {
            begin = begin.max(self.last_land);
        }
        let beats = if m.rows > 0 {
            // a tensor box moves row by row; a swizzled box one 16-byte chunk per beat
            // (docs/units/copy_engine.md, "Timing")
            let chunk = if m.swizzled { port.min(16) } else { port };
            (m.rows * m.row_bytes.div_ceil(chunk)).max(1)
        } else {
            m.bytes.div_ceil(port).max(1)
        };
        let body = if m.elements > 0 {
            // a reduction: each element's global word read, combined, written back
            m.elements * (gm + k::REDUCE_ELEMENT)
        } else if m.rows > 0 && !m.global_source {
            // a tensor store's rows are moves of their own from shared memory: each waits for
            // the previous one's writes (the mover drains unless a global-source move follows
            // another), as a bulk store's completion does
            k::MOVE_SETUP + beats + (m.rows - 1) * k::STORE_LAND
        } else if m.row_moves > 0 {
            // a tensor load's rows are the mover's moves, started by the controller one at a
            // time: short rows go at its pace, not the port's
            k::MOVE_SETUP + beats.max(m.row_moves * k::ROW_MOVE)
        } else {
            k::MOVE_SETUP + beats
        };
        // a tensor copy first reads its 128-byte map through the port
        let fixed = if m.rows > 0 { tensor_fixed(cfg) } else { 0 };
        let latency = if m.global_source { gm + k::COPY_LAND } else { k::STORE_LAND };
        self.mover_free = begin + fixed + body;
        let read = m.source_bytes.div_ceil(port);
        if 0 < read && read < beats {
            // a zero-filled tail of whole beats: the mover waits for the read beats' data before
            // the next move (lat_cp_async_zfill_w32); a partial last beat is one masked beat
            self.mover_free = self.mover_free.max(begin + read + gm + k::ZFILL_DRAIN);
        }
        let land = self.mover_free.max(begin + fixed + body) + latency;
        self.last_land = land;
        self.last_global = m.global_source;
        self.landings.push((seq, land));
        begin
    }

    /// Take pending requests through the port and the core while the core is not held.
    fn run(&mut self, cfg: &Config, out: &mut Vec<Timed>) {
        let q = cfg.requests_in_flight.max(1) as usize;
        let nb = rtl_costs::beats(cfg);
        // Headers the port can take while the core is held: the entries not in use.
        if self.blocked.is_some() {
            let in_use = 1 + self.pending.iter().filter(|p| p.header.is_some()).count();
            let free = q.saturating_sub(in_use);
            for p in self.pending.iter_mut().filter(|p| p.header.is_none()).take(free) {
                let h = (p.issued + k::ISSUE).max(self.port_free);
                p.header = Some(h);
                self.port_free = h + nb;
            }
            return;
        }
        while let Some(p) = self.pending.pop_front() {
            let header = p.header.unwrap_or_else(|| {
                let mut h = (p.issued + k::ISSUE).max(self.port_free);
                if self.entry_free.len() >= q {
                    h = h.max(self.entry_free[self.entry_free.len() - q]);
                }
                self.port_free = h + nb;
                h
            });
            let ready = header + nb + k::INGRESS;
            let start = ready.max(self.core_free);
            let u = super::unit_index(p.req.op.unit());
            self.queued[u] += start - ready;
            self.schedule(cfg, p, start, out);
            if self.blocked.is_some() {
                // the requests behind it get their headers while it holds the core
                return self.run(cfg, out);
            }
        }
    }

    /// Request `p` starts in the core at `start`.
    fn schedule(&mut self, cfg: &Config, p: Pending, start: u64, out: &mut Vec<Timed>) {
        let nb = rtl_costs::beats(cfg);
        let u = super::unit_index(p.req.op.unit());
        let own_answered = p.made.iter().any(|r| r.tag == p.req.tag);
        // cp.async.mbarrier.arrive is coded in the mbarrier range but goes to the copy engine,
        // a lane op per lane (docs/units/sync_unit.md)
        let work = if p.req.op.unit() == Unit::CopyEngine || p.req.op == Op::MbCpAsyncArrive {
            let done = self.copy_lane_ops(cfg, &p.req, start, &p.moves);
            done.last().map_or(self.ctrl_free, |&d| d.max(self.ctrl_free)) + k::COPY_ANSWER - start
        } else {
            rtl_costs::core_cycles(cfg, &p.req)
        };
        let values = rtl_costs::has_values(p.req.op);
        let loaded = start + work;
        let answer = loaded + if values { nb } else { 1 };
        self.busy[u] += work;
        let waits_in_core = matches!(p.req.op, Op::CpAsyncWait | Op::BulkWait) && !own_answered;
        if waits_in_core {
            self.blocked = Some((p.req.tag, loaded));
            return;
        }
        // A warp-network partial arrival (recorded, answered when its rendezvous fires) sends no
        // response: the core is free once the unit has it (hdl/src/sync_unit/top.rs, S_WN_WAIT).
        let silent = !own_answered && p.req.op.unit() == Unit::WarpNetwork;
        let mut end = if silent { self.finish_after(cfg, loaded, 0) } else { self.finish(cfg, loaded, values) };
        let mut walk = 0;
        let mut wakes = 0;
        for r in p.made {
            if r.tag == p.req.tag {
                out.push((answer, r));
            } else if p.req.op.unit() == Unit::BarrierFile {
                // a release: walked out of the blocked-warp table by the core
                walk += k::RELEASE_WALK;
                out.push((answer + walk, r));
            } else if p.req.op.unit() == Unit::MbarrierAlu {
                // suspended try_waits of a completed phase, one per cycle on `wake_*`
                wakes += 1;
                out.push((loaded + k::WAKE + wakes, r));
            } else {
                out.push((answer, r));
            }
        }
        if walk > 0 {
            end += walk;
            self.core_free = end + k::SELECT;
            // The entry counts as held through the walk: measured, thr_bar_sync_8w (5435 RTL
            // cycles; 5239 with the entry free when the arrival's answer loads).
            *self.entry_free.back_mut().expect("finish pushed the entry") = end + 1;
        }
    }

    /// The core is done with a request whose response register loaded at `loaded`.
    fn finish(&mut self, cfg: &Config, loaded: u64, values: bool) -> u64 {
        self.finish_after(cfg, loaded, if values { rtl_costs::beats(cfg) } else { 1 })
    }

    /// The core is done `leave` cycles after `loaded` (its response's cycles on the port).
    fn finish_after(&mut self, cfg: &Config, loaded: u64, leave: u64) -> u64 {
        let q = cfg.requests_in_flight.max(1) as usize;
        let end = loaded + leave;
        self.core_free = end + k::SELECT;
        // The queue entry frees when the core loads the response register (its `done`), not
        // when the response has left: the next header may come while the values leave.
        self.entry_free.push_back(loaded + 1);
        while self.entry_free.len() > q {
            self.entry_free.pop_front();
        }
        end
    }

    /// The lane ops of a copy-engine request from `start`: each enters the engine's queue a
    /// cycle after the previous one, when the queue has room; the controller takes each for
    /// [`k::COPY_CONTROLLER`] cycles, and one that moves bytes (the k-th of `moves` for the k-th
    /// lane op) until the mover takes it. Returns the cycle each lane op is done.
    fn copy_lane_ops(&mut self, cfg: &Config, req: &Request, start: u64, moves: &[(u64, Move)]) -> Vec<u64> {
        let depth = cfg.copy_queue_depth.max(1) as usize;
        let lanes = (req.active_mask.count_ones() as usize).max(1);
        let mut done = Vec::new();
        let mut enter = start;
        for i in 0..lanes {
            if self.ctrl_starts.len() >= depth {
                enter = enter.max(self.ctrl_starts[self.ctrl_starts.len() - depth]);
            }
            let begin = enter.max(self.ctrl_free);
            self.ctrl_free = begin + k::COPY_CONTROLLER;
            // the last lane op takes any operations beyond one per lane
            let mine = if i + 1 == lanes { moves.get(i..).unwrap_or(&[]) } else { moves.get(i..=i).unwrap_or(&[]) };
            for &(seq, m) in mine {
                let taken = self.move_one(cfg, self.ctrl_free, seq, m);
                self.ctrl_free = self.ctrl_free.max(taken) + k::MOVE_HANDOVER;
                if m.rows > 0 {
                    // a tensor copy is answered after its map's read and checks (the controller's
                    // MAP, MUL and CHECK; docs/units/copy_engine.md, "Tensor tile mode"), which
                    // the mover's time from `taken` counts first
                    self.ctrl_free = self.ctrl_free.max(taken + tensor_fixed(cfg));
                }
                if !m.global_source && m.elements == 0 {
                    // a store's lane op is done when its shared-memory beats have been read
                    // (lat_bulk_store: 62 per hop)
                    let port = cfg.copy_port_bytes.max(1) as u64;
                    self.ctrl_free = self.ctrl_free.max(taken + m.bytes.div_ceil(port));
                }
            }
            self.ctrl_starts.push_back(begin);
            while self.ctrl_starts.len() > depth {
                self.ctrl_starts.pop_front();
            }
            done.push(self.ctrl_free);
            enter += 1;
        }
        done
    }
}

/// A tensor copy's cycles before its first row moves: its 128-byte map read through the port
/// (the global latency and the beats) and [`k::TENSOR_FIXED`].
fn tensor_fixed(cfg: &Config) -> u64 {
    let port = cfg.copy_port_bytes.max(1) as u64;
    cfg.timing.rtl_gm_latency as u64 + 128u64.div_ceil(port) + k::TENSOR_FIXED
}
