//! Helpers for the unit tests: build requests by hand and drive `GoldenUnits` through the
//! `SyncUnit` trait, exactly as the executor does.
#![allow(dead_code)]

use smsync_sim::config::Config;
use smsync_sim::encoding::{ErrorCode, Op};
use smsync_sim::memory::MemorySystem;
use smsync_sim::units::{GoldenUnits, Request, Response, SyncUnit};

/// A unit under test, its memory, and a tag counter.
pub struct Bench {
    pub units: GoldenUnits,
    pub mem: MemorySystem,
    next_tag: u64,
}

impl Bench {
    /// Default config, one CTA of `warps` warps in slot 0 (and every other slot), 64 KiB global.
    pub fn new(warps: u16) -> Bench {
        Bench::with_config(Config::default(), warps)
    }

    pub fn with_config(config: Config, warps: u16) -> Bench {
        let mut units = GoldenUnits::new(&config);
        units.enable_trace();
        let mem = MemorySystem::new(1 << 16, config.cta_slots as usize, 64 * 1024.min(config.shared_bytes as usize));
        for slot in 0..config.cta_slots as u16 {
            units.launch_cta(slot, warps, warps as u32 * 32);
        }
        Bench { units, mem, next_tag: 1 }
    }

    /// A request of `op` for (cta 0, `warp`) with only lane 0 active, all lanes live.
    pub fn req(&mut self, op: Op, warp: u16) -> Request {
        let tag = self.next_tag;
        self.next_tag += 1;
        let mut r = Request::new(tag, 0, warp, op);
        r.active_mask = 1;
        r
    }

    /// Submit and return every response pushed.
    pub fn submit(&mut self, r: &Request) -> Vec<Response> {
        let mut out = Vec::new();
        self.units.submit(r, &mut self.mem, &mut out);
        out
    }

    /// Submit a request that must answer at once without error; return that answer.
    pub fn ok(&mut self, r: &Request) -> Response {
        let out = self.submit(r);
        let mine: Vec<_> = out.iter().filter(|x| x.tag == r.tag).collect();
        assert_eq!(mine.len(), 1, "expected one immediate response to {:?}, got {:?}", r.op, out);
        assert_eq!(mine[0].error, ErrorCode::None, "{:?} failed: {:?}", r.op, mine[0]);
        mine[0].clone()
    }

    /// Submit a request that must fail with `code`; return the failing lane.
    pub fn err(&mut self, r: &Request, code: ErrorCode) -> u8 {
        let out = self.submit(r);
        let mine: Vec<_> = out.iter().filter(|x| x.tag == r.tag).collect();
        assert_eq!(mine.len(), 1, "expected one response to {:?}, got {:?}", r.op, out);
        assert_eq!(mine[0].error, code, "{:?}: wrong error", r.op);
        mine[0].error_lane
    }

    pub fn tick(&mut self, idle: bool) -> (bool, Vec<Response>) {
        let mut out = Vec::new();
        let busy = self.units.tick(&mut self.mem, idle, &mut out);
        (busy, out)
    }

    /// Tick (idle) until nothing is in flight; return every response.
    pub fn drain(&mut self) -> Vec<Response> {
        let mut all = Vec::new();
        for _ in 0..8 {
            let (busy, out) = self.tick(true);
            all.extend(out);
            if !busy {
                break;
            }
        }
        all
    }

    pub fn shared_u64(&self, slot: usize, off: u64) -> u64 {
        self.mem.read_shared(slot, off, 8).unwrap() as u64
    }
}

/// Responses answering `tag`.
pub fn answers(out: &[Response], tag: u64) -> Vec<Response> {
    out.iter().filter(|r| r.tag == tag).cloned().collect()
}
