//! Warp network: vote.sync, match.sync, redux.sync, elect.sync, activemask, bar.warp.sync and
//! shfl.sync (PTX ISA §9.7.13.2 and §9.7.13.8-§9.7.13.14; shfl.sync from the PTX ISA data-movement
//! section, which is not among the seed texts).
//!
//! Every *.sync op is a rendezvous of one warp's lanes: the executor may deliver it as several
//! partial requests (divergent lanes, independent thread scheduling). A rendezvous is identified by
//! (CTA, warp, membermask, op and qualifiers); it completes when every live lane of the membermask
//! has arrived with that op, qualifiers and membermask. Then every partial request gets its
//! Response (in arrival order). Exited lanes count as arrived (project decision §22.2, also for
//! bar.warp.sync) and contribute nothing; a `WarpExit` request that shrinks a warp's live mask
//! re-checks its pending rendezvous.
//!
//! One warp may have several rendezvous pending at once. PTX (vote.sync, match.sync, redux.sync,
//! bar.warp.sync, elect.sync) only requires that each waiting lane be released once every
//! (non-exited) lane of its membermask has executed the op with the same qualifiers and mask; under
//! independent thread scheduling, lanes 0..15 may still wait at a collective of mask 0x0000ffff
//! while lanes 16..31 finish their own collective and wait at a later one of mask 0xffffffff.
//! That is legal: lanes 16..31 wait there until lanes 0..15 arrive.
//!
//! Errors: an executing lane outside its membermask (`NotInMemberMask`, for every op with a mask);
//! `MemberMaskMismatch` when a request makes a hang certain: its lanes already wait at another
//! pending rendezvous (a lane arriving twice), or the rendezvous it joins is on a cycle of
//! rendezvous that wait for each other's lanes (R waits for Q when a lane R still needs is blocked
//! at Q). The simplest cycle: lanes 0..3 wait with mask 0xff and lanes 4..7 arrive with mask 0xff
//! but another op, or with mask 0x1f. Every request of every rendezvous on the cycle fails (the
//! new one last), so that no lane of it hangs. A rendezvous that merely waits for lanes blocked
//! elsewhere is not an error; if those lanes never come, the executor reports the deadlock (with
//! [`WarpNetwork::describe_waits`]). Op families not built in the config answer `NotBuilt`.
//!
//! Documented choices: elect.sync picks the lowest arrived lane; the canonical NaN of redux.f32 is
//! 0x7FFFFFFF; for shfl.sync, when the source lane j is in range (p = 1) but is not a participant
//! (outside membermask or exited), PTX leaves d undefined and this model returns the lane's own `a`.

use super::{Request, Response};
use crate::config::Config;
use crate::encoding::{flags, DataType, ErrorCode, Op, ReduxOp, ShflMode, VoteMode};

/// The canonical NaN of redux.sync.f32 (project constant: PTX ISA §9.7.13.12 gives no bit pattern).
pub const CANONICAL_NAN_F32: u32 = 0x7FFF_FFFF;

/// One pending rendezvous.
#[derive(Clone, Debug)]
struct Rendezvous {
    cta: u16,
    warp: u16,
    mask: u32,
    /// Lanes that have arrived so far, and the warp's live lanes as last reported.
    arrived: u32,
    live: u32,
    /// The partial requests, in arrival order.
    reqs: Vec<Request>,
}

impl Rendezvous {
    fn same_kind(&self, r: &Request) -> bool {
        let f = &self.reqs[0];
        (f.op, f.sub, f.dtype, f.flags) == (r.op, r.sub, r.dtype, r.flags)
    }
    /// Live lanes of the mask that have not arrived yet.
    fn missing(&self) -> u32 {
        self.mask & self.live & !self.arrived
    }
    fn complete(&self) -> bool {
        self.missing() == 0
    }
    /// Some lane this rendezvous still needs is blocked at `other`.
    fn waits_for(&self, other: &Rendezvous) -> bool {
        self.missing() & other.arrived != 0
    }
}

pub struct WarpNetwork {
    redux_f32: bool,
    match_sync: bool,
    pending: Vec<Rendezvous>,
}

impl WarpNetwork {
    pub fn new(config: &Config) -> Self {
        WarpNetwork {
            redux_f32: config.features.redux_f32,
            match_sync: config.features.match_sync,
            pending: Vec::new(),
        }
    }

    pub fn launch_cta(&mut self, slot: u16) {
        self.pending.retain(|g| g.cta != slot);
    }

    pub fn submit(&mut self, req: &Request, out: &mut Vec<Response>) {
        let lane0 = req.first_active().unwrap_or(0);
        match req.op {
            Op::WarpExit => return self.lanes_exited(req, out),
            Op::Activemask => {
                let mut r = Response::to(req, req.active_mask);
                for l in req.active_lanes() {
                    r.values[l] = req.active_mask as u128;
                }
                return out.push(r);
            }
            Op::MatchAny | Op::MatchAll if !self.match_sync => {
                return out.push(Response::error(req, ErrorCode::NotBuilt, lane0))
            }
            Op::ReduxSync if req.dtype == DataType::F32 && !self.redux_f32 => {
                return out.push(Response::error(req, ErrorCode::NotBuilt, lane0))
            }
            _ => {}
        }
        let outside = req.active_mask & !req.member_mask;
        if outside != 0 {
            return out.push(Response::error(req, ErrorCode::NotInMemberMask, outside.trailing_zeros() as usize));
        }
        // A lane already blocked at a pending rendezvous cannot arrive anywhere else.
        let twice = self
            .pending
            .iter()
            .position(|g| (g.cta, g.warp) == (req.cta, req.warp) && g.arrived & req.active_mask != 0);
        if let Some(i) = twice {
            let g = self.pending.remove(i);
            return fail(&[g], req, out);
        }
        // Join the rendezvous of the same mask and kind, or open one.
        let join = self
            .pending
            .iter()
            .position(|g| (g.cta, g.warp, g.mask) == (req.cta, req.warp, req.member_mask) && g.same_kind(req));
        let i = match join {
            Some(i) => i,
            None => {
                self.pending.push(Rendezvous {
                    cta: req.cta,
                    warp: req.warp,
                    mask: req.member_mask,
                    arrived: 0,
                    live: req.live_mask,
                    reqs: Vec::new(),
                });
                self.pending.len() - 1
            }
        };
        let g = &mut self.pending[i];
        g.arrived |= req.active_mask;
        g.live = req.live_mask;
        g.reqs.push(req.clone());
        if g.complete() {
            let g = self.pending.remove(i);
            return finish(&g, out);
        }
        let cycle = self.cycle_through(i);
        if !cycle.is_empty() {
            // Remove from the highest index down so the lower indices stay valid.
            let (mut others, mut own) = (Vec::new(), None);
            for &j in cycle.iter().rev() {
                let g = self.pending.remove(j);
                if j == i {
                    own = Some(g);
                } else {
                    others.push(g);
                }
            }
            others.reverse();
            // The rendezvous of the new request goes last, without it: `fail` answers it last.
            let mut own = own.expect("a cycle through rendezvous i contains i");
            own.reqs.pop();
            others.push(own);
            fail(&others, req, out);
        }
    }

    /// The pending rendezvous (indices, ascending) on a wait-for cycle through rendezvous `start`,
    /// or none: those that `start` reaches by "waits for" and that reach `start` back.
    fn cycle_through(&self, start: usize) -> Vec<usize> {
        let s = &self.pending[start];
        let warp: Vec<usize> = (0..self.pending.len())
            .filter(|&j| (self.pending[j].cta, self.pending[j].warp) == (s.cta, s.warp))
            .collect();
        let closure = |edge: &dyn Fn(usize, usize) -> bool| {
            let mut seen = vec![start];
            let mut k = 0;
            while k < seen.len() {
                let from = seen[k];
                for &to in &warp {
                    if !seen.contains(&to) && edge(from, to) {
                        seen.push(to);
                    }
                }
                k += 1;
            }
            seen
        };
        let forward = closure(&|a, b| self.pending[a].waits_for(&self.pending[b]));
        let backward = closure(&|a, b| self.pending[b].waits_for(&self.pending[a]));
        let on_cycle_back = forward.iter().any(|&j| self.pending[j].waits_for(s));
        if !on_cycle_back {
            return Vec::new();
        }
        let mut cycle: Vec<usize> = forward.into_iter().filter(|j| backward.contains(j)).collect();
        cycle.sort_unstable();
        cycle
    }

    /// Some or all lanes of a warp exited: pending rendezvous of the warp may now be complete.
    fn lanes_exited(&mut self, req: &Request, out: &mut Vec<Response>) {
        let mut i = 0;
        while i < self.pending.len() {
            let g = &mut self.pending[i];
            if (g.cta, g.warp) == (req.cta, req.warp) {
                g.live = req.live_mask;
                if g.complete() {
                    let g = self.pending.remove(i);
                    finish(&g, out);
                    continue;
                }
            }
            i += 1;
        }
    }

    pub fn describe_waits(&self) -> Vec<String> {
        self.pending
            .iter()
            .map(|g| {
                format!(
                    "cta {} warp {} lanes {}: {} (mask 0x{:08x}) waiting for lanes {}",
                    g.cta,
                    g.warp,
                    lane_list(g.arrived),
                    g.reqs[0].op.name(),
                    g.mask,
                    lane_list(g.mask & g.live & !g.arrived)
                )
            })
            .collect()
    }
}

/// Answer `MemberMaskMismatch` to every request of `groups` (in order), then to `req`.
fn fail(groups: &[Rendezvous], req: &Request, out: &mut Vec<Response>) {
    for r in groups.iter().flat_map(|g| g.reqs.iter()).chain(std::iter::once(req)) {
        out.push(Response::error(r, ErrorCode::MemberMaskMismatch, r.first_active().unwrap_or(0)));
    }
}

/// "0-15,17" style list of the set bits.
fn lane_list(mask: u32) -> String {
    let mut parts = Vec::new();
    let mut l = 0;
    while l < 32 {
        if mask >> l & 1 == 1 {
            let start = l;
            while l + 1 < 32 && mask >> (l + 1) & 1 == 1 {
                l += 1;
            }
            parts.push(if start == l { format!("{start}") } else { format!("{start}-{l}") });
        }
        l += 1;
    }
    parts.join(",")
}

/// Compute a completed rendezvous and answer each of its partial requests.
fn finish(g: &Rendezvous, out: &mut Vec<Response>) {
    let first = &g.reqs[0];
    let part = g.arrived;
    // Gather every participant's operands.
    let mut lanes = [super::LaneOps::default(); 32];
    for r in &g.reqs {
        for l in r.active_lanes() {
            lanes[l] = r.lanes[l];
        }
    }
    let members = || (0..32usize).filter(move |l| part >> l & 1 == 1);
    let mut values = [0u128; 32];
    let mut preds = 0u32;
    match first.op {
        Op::VoteSync => {
            let p = |l: usize| (lanes[l].a & 1 == 1) != first.has(flags::NEGATE);
            let ballot = members().filter(|&l| p(l)).fold(0u32, |m, l| m | 1 << l);
            let result = match VoteMode::from_code(first.sub) {
                Some(VoteMode::All) => ballot == part,
                Some(VoteMode::Any) => ballot != 0,
                Some(VoteMode::Uni) => ballot == part || ballot == 0,
                _ => false,
            };
            preds = if result { part } else { 0 };
            values = [ballot as u128; 32];
        }
        Op::MatchAny | Op::MatchAll => {
            let width = if first.dtype == DataType::B64 { u64::MAX as u128 } else { u32::MAX as u128 };
            let equal_to =
                |v: u128| members().filter(|&m| lanes[m].a & width == v & width).fold(0u32, |acc, m| acc | 1 << m);
            if first.op == Op::MatchAny {
                for l in members() {
                    values[l] = equal_to(lanes[l].a) as u128;
                }
            } else {
                let lead = part.trailing_zeros() as usize;
                let all = part != 0 && equal_to(lanes[lead].a) == part;
                values = [if all { part as u128 } else { 0 }; 32];
                preds = if all { part } else { 0 };
            }
        }
        Op::ReduxSync => {
            let v = redux(first, members().map(|l| lanes[l].a as u32).collect());
            values = [v as u128; 32];
        }
        Op::ElectSync => {
            let leader = part.trailing_zeros();
            values = [leader as u128; 32];
            preds = if part != 0 { 1 << leader } else { 0 };
        }
        Op::ShflSync => {
            let mode = ShflMode::from_code(first.sub).unwrap_or(ShflMode::Idx);
            for l in members() {
                let (j, pval) = shfl_source(mode, l as u32, lanes[l].b as u32, lanes[l].c as u32);
                let src = if pval && part >> j & 1 == 1 { j as usize } else { l };
                values[l] = lanes[src].a;
                preds |= (pval as u32) << l;
            }
        }
        _ => {} // bar.warp.sync: the release is the result
    }
    for r in &g.reqs {
        let mut resp = Response::to(r, r.active_mask);
        for l in r.active_lanes() {
            resp.values[l] = values[l];
        }
        resp.preds = preds & r.active_mask;
        out.push(resp);
    }
}

/// The PTX shfl.sync source-lane computation: (source lane j, validity p).
pub fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let bval = b & 0x1f;
    let cval = c & 0x1f;
    let segmask = (c >> 8) & 0x1f;
    let max_lane = (lane & segmask) | (cval & !segmask);
    let min_lane = lane & segmask;
    let (j, pval) = match mode {
        ShflMode::Up => {
            let j = lane as i32 - bval as i32;
            (j, j >= max_lane as i32)
        }
        ShflMode::Down => {
            let j = (lane + bval) as i32;
            (j, j <= max_lane as i32)
        }
        ShflMode::Bfly => {
            let j = (lane ^ bval) as i32;
            (j, j <= max_lane as i32)
        }
        ShflMode::Idx => {
            let j = (min_lane | (bval & !segmask)) as i32;
            (j, j <= max_lane as i32)
        }
    };
    if pval {
        (j as u32, true)
    } else {
        (lane, false)
    }
}

/// redux.sync over the participants' 32-bit sources.
fn redux(req: &Request, v: Vec<u32>) -> u32 {
    let op = ReduxOp::from_code(req.sub).unwrap_or(ReduxOp::Add);
    if req.dtype == DataType::F32 {
        return redux_f32(op == ReduxOp::Max, req.has(flags::MOD_A), req.has(flags::MOD_B), &v);
    }
    let signed = req.dtype == DataType::S32;
    match op {
        ReduxOp::Add => v.iter().fold(0u32, |a, &x| a.wrapping_add(x)),
        ReduxOp::Min if signed => v.iter().map(|&x| x as i32).min().unwrap_or(0) as u32,
        ReduxOp::Max if signed => v.iter().map(|&x| x as i32).max().unwrap_or(0) as u32,
        ReduxOp::Min => v.iter().copied().min().unwrap_or(0),
        ReduxOp::Max => v.iter().copied().max().unwrap_or(0),
        ReduxOp::And => v.iter().fold(u32::MAX, |a, &x| a & x),
        ReduxOp::Or => v.iter().fold(0, |a, &x| a | x),
        ReduxOp::Xor => v.iter().fold(0, |a, &x| a ^ x),
    }
}

/// redux.sync.{min,max}{.abs}{.NaN}.f32: -0.0 < +0.0; NaNs are ignored unless `.NaN`; the
/// canonical NaN when `.NaN` saw a NaN or when every input is NaN.
pub fn redux_f32(max: bool, abs: bool, nan: bool, v: &[u32]) -> u32 {
    let is_nan = |x: u32| x & 0x7FFF_FFFF > 0x7F80_0000;
    // Order-preserving key on non-NaN floats that puts -0.0 below +0.0.
    let key = |x: u32| if x & 0x8000_0000 != 0 { !x } else { x | 0x8000_0000 };
    let vals: Vec<u32> = v.iter().map(|&x| if abs { x & 0x7FFF_FFFF } else { x }).collect();
    if nan && vals.iter().any(|&x| is_nan(x)) {
        return CANONICAL_NAN_F32;
    }
    let numbers = vals.into_iter().filter(|&x| !is_nan(x));
    let best = if max { numbers.max_by_key(|&x| key(x)) } else { numbers.min_by_key(|&x| key(x)) };
    best.unwrap_or(CANONICAL_NAN_F32)
}
