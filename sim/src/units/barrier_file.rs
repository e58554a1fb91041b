//! Named-barrier file and cluster barrier: the golden model of PTX ISA §9.7.13.1 (bar/barrier) and
//! §9.7.13.3 (barrier.cluster).
//!
//! Named barriers. Each CTA slot has `config.named_barriers` barriers. Arrivals are per warp: a warp
//! arrives once all of its non-exited lanes have reached the barrier (the executor usually sends one
//! converged request; partial requests of a divergent warp are accumulated), and each warp arrival
//! counts 32 threads (PTX ISA §9.7.13.1 counting rule). A barrier with a thread count `b` completes when
//! 32 * arrivals >= b; without a count it completes when every non-exited warp of the CTA has
//! arrived. `WarpExit` removes a warp from the CTA's live set, which can complete a whole-CTA
//! barrier that was waiting only on exited warps. bar.arrive answers at once; bar.sync and bar.red
//! answer when the barrier completes. Completion answers every blocked request in the order the
//! requests arrived, then resets the barrier at once for reuse.
//!
//! Errors (the request fails and the barrier is left unchanged): id >= named_barriers
//! (`BarIdRange`); a count that is 0 or not a multiple of 32 (`BarCountNotWarpMultiple`); bar.arrive
//! without a count (`BarArriveNeedsCount`); a count above the CTA's warps * 32 (`BarCountTooLarge`,
//! the CTA's thread count rounded up to whole warps, since warps count 32 each); a count differing
//! from the one the barrier's current round started with, a counted form mixed with the
//! whole-CTA form included (`BarCountMismatch`); bar.red mixed with bar.sync/bar.arrive in one round
//! (`BarRedMixed`); two different red ops in one round (`BarRedOpMismatch`).
//!
//! Cluster barrier. The CTAs of a cluster occupy `cluster_size` consecutive slots. A round completes
//! when every non-exited warp of every CTA of the cluster has arrived; then each warp's wait (earlier
//! or later) returns. A warp arriving twice in one round (`BarClusterArriveTwice`) and a wait with no
//! preceding arrive (`BarClusterWaitNoArrive`: PTX ISA §9.7.13.3 does not define it; project choice: UB)
//! are flagged.

use std::collections::BTreeMap;

use super::space::cluster_slots;
use super::{Request, Response, TraceEvent};
use crate::config::Config;
use crate::encoding::{flags, ErrorCode, Op};

/// What kind of operation a barrier's current round is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundKind {
    /// bar.sync / bar.arrive (may be mixed: producer/consumer).
    Plain,
    /// bar.red with this op (BarRedPopc, BarRedAnd or BarRedOr).
    Red(Op),
}

/// One named barrier's current round.
#[derive(Clone, Debug, Default)]
struct NamedBarrier {
    /// Set by the round's first arrival: the thread count (None = whole CTA) and the kind.
    round: Option<(Option<u32>, RoundKind)>,
    /// Warps that have fully arrived (bit = warp index) and the number of warp arrivals.
    arrived: u64,
    arrivals: u32,
    /// Lanes that reached the barrier for warps that have not fully arrived yet.
    partial: BTreeMap<u16, u32>,
    /// bar.sync / bar.red requests waiting for completion, in arrival order.
    blocked: Vec<Request>,
    /// bar.red accumulators over the participating threads.
    popc: u32,
    all: bool,
    any: bool,
}

impl NamedBarrier {
    fn idle(&self) -> bool {
        self.round.is_none()
    }
}

/// One CTA slot's barriers and warps.
#[derive(Clone, Debug, Default)]
struct CtaState {
    warps: u16,
    /// Non-exited warps (bit = warp index).
    live: u64,
    barriers: Vec<NamedBarrier>,
    /// Cluster barrier: warps arrived in the current round.
    cluster_arrived: u64,
    /// Cluster barrier: the round in which each warp last arrived and has not waited yet.
    cluster_pending: BTreeMap<u16, u64>,
}

/// One cluster's barrier.
#[derive(Clone, Debug, Default)]
struct ClusterState {
    round: u64,
    /// Waits blocked on the current round.
    waiting: Vec<Request>,
}

pub struct BarrierFile {
    named_barriers: u32,
    cluster_size: u32,
    ctas: Vec<CtaState>,
    clusters: Vec<ClusterState>,
}

impl BarrierFile {
    pub fn new(config: &Config) -> Self {
        BarrierFile {
            named_barriers: config.named_barriers,
            cluster_size: config.cluster_size,
            ctas: (0..config.cta_slots).map(|_| CtaState::default()).collect(),
            clusters: (0..config.cta_slots / config.cluster_size).map(|_| ClusterState::default()).collect(),
        }
    }

    pub fn launch_cta(&mut self, slot: u16, warps: u16, _threads: u32) {
        let Some(cta) = self.ctas.get_mut(slot as usize) else { return };
        *cta = CtaState {
            warps,
            live: if warps >= 64 { u64::MAX } else { (1u64 << warps) - 1 },
            barriers: vec![NamedBarrier::default(); self.named_barriers as usize],
            ..CtaState::default()
        };
        let cluster = slot as usize / self.cluster_size as usize;
        if let Some(c) = self.clusters.get_mut(cluster) {
            c.waiting.retain(|r| r.cta != slot);
        }
    }

    pub fn submit(&mut self, req: &Request, out: &mut Vec<Response>, events: &mut Vec<TraceEvent>) {
        if req.cta as usize >= self.ctas.len() {
            out.push(Response::error(req, ErrorCode::BarIdRange, req.first_active().unwrap_or(0)));
            return;
        }
        match req.op {
            Op::WarpExit => self.warp_exit(req, out, events),
            Op::BarClusterArrive | Op::BarClusterWait => self.cluster(req, out),
            _ => self.named(req, out, events),
        }
    }

    /// Validate a named-barrier request; returns (barrier id, thread count, round kind).
    fn check(&self, req: &Request) -> Result<(usize, Option<u32>, RoundKind), ErrorCode> {
        let cta = &self.ctas[req.cta as usize];
        if req.imm >= self.named_barriers {
            return Err(ErrorCode::BarIdRange);
        }
        let count = if req.has(flags::HAS_COUNT) {
            let b = req.imm2;
            if b == 0 && req.op == Op::BarArrive {
                return Err(ErrorCode::BarArriveNeedsCount);
            }
            if b == 0 || !b.is_multiple_of(32) {
                return Err(ErrorCode::BarCountNotWarpMultiple);
            }
            if b > cta.warps as u32 * 32 {
                return Err(ErrorCode::BarCountTooLarge);
            }
            Some(b)
        } else if req.op == Op::BarArrive {
            return Err(ErrorCode::BarArriveNeedsCount);
        } else {
            None
        };
        let kind = match req.op {
            Op::BarSync | Op::BarArrive => RoundKind::Plain,
            op => RoundKind::Red(op),
        };
        let bar = &cta.barriers[req.imm as usize];
        if let Some((round_count, round_kind)) = bar.round {
            match (round_kind, kind) {
                (RoundKind::Plain, RoundKind::Red(_)) | (RoundKind::Red(_), RoundKind::Plain) => {
                    return Err(ErrorCode::BarRedMixed)
                }
                (RoundKind::Red(a), RoundKind::Red(b)) if a != b => return Err(ErrorCode::BarRedOpMismatch),
                _ => {}
            }
            if round_count != count {
                return Err(ErrorCode::BarCountMismatch);
            }
        }
        Ok((req.imm as usize, count, kind))
    }

    fn named(&mut self, req: &Request, out: &mut Vec<Response>, events: &mut Vec<TraceEvent>) {
        let (id, count, kind) = match self.check(req) {
            Ok(x) => x,
            Err(e) => {
                out.push(Response::error(req, e, req.first_active().unwrap_or(0)));
                return;
            }
        };
        let bar = &mut self.ctas[req.cta as usize].barriers[id];
        if bar.idle() {
            *bar = NamedBarrier { round: Some((count, kind)), all: true, ..NamedBarrier::default() };
        }
        for lane in req.active_lanes() {
            let p = (req.lanes[lane].a & 1 == 1) != req.has(flags::NEGATE);
            bar.popc += p as u32;
            bar.all &= p;
            bar.any |= p;
        }
        let lanes = bar.partial.remove(&req.warp).unwrap_or(0) | req.active_mask;
        if lanes & req.live_mask == req.live_mask {
            bar.arrived |= 1 << req.warp;
            bar.arrivals += 1;
        } else {
            bar.partial.insert(req.warp, lanes);
        }
        if req.op == Op::BarArrive {
            out.push(Response::to(req, req.active_mask));
        } else {
            bar.blocked.push(req.clone());
        }
        self.try_complete(req.cta as usize, id, out, events);
    }

    /// Complete barrier `id` of `cta` if its count is reached: answer the blocked requests and reset.
    fn try_complete(&mut self, cta: usize, id: usize, out: &mut Vec<Response>, events: &mut Vec<TraceEvent>) {
        let state = &mut self.ctas[cta];
        let live = state.live;
        let bar = &mut state.barriers[id];
        let Some((count, kind)) = bar.round else { return };
        let done = match count {
            Some(b) => bar.arrivals * 32 >= b,
            None => bar.arrivals > 0 && live & !bar.arrived == 0,
        };
        if !done {
            return;
        }
        let bar = std::mem::take(bar);
        for req in &bar.blocked {
            let mut r = Response::to(req, req.active_mask);
            match kind {
                RoundKind::Red(Op::BarRedPopc) => {
                    for lane in req.active_lanes() {
                        r.values[lane] = bar.popc as u128;
                    }
                }
                RoundKind::Red(Op::BarRedAnd) if bar.all => r.preds = req.active_mask,
                RoundKind::Red(Op::BarRedOr) if bar.any => r.preds = req.active_mask,
                _ => {}
            }
            out.push(r);
        }
        let mut warps = bar.arrived;
        for w in bar.partial.keys() {
            warps |= 1 << w;
        }
        events.push(TraceEvent::BarrierRelease { cta: cta as u16, id: id as u32, warps });
        self.ctas[cta].barriers[id] = NamedBarrier::default();
    }

    /// A warp exited (live_mask == 0) or some of its lanes did (only whole warps matter here).
    fn warp_exit(&mut self, req: &Request, out: &mut Vec<Response>, events: &mut Vec<TraceEvent>) {
        if req.live_mask != 0 {
            return;
        }
        let cta = req.cta as usize;
        self.ctas[cta].live &= !(1u64 << req.warp);
        for id in 0..self.ctas[cta].barriers.len() {
            // A partial arrival of the exited warp can never finish: its lanes are gone.
            self.ctas[cta].barriers[id].partial.remove(&req.warp);
            self.try_complete(cta, id, out, events);
        }
        self.ctas[cta].cluster_pending.remove(&req.warp);
        self.try_complete_cluster(req.cta, out);
    }

    fn cluster(&mut self, req: &Request, out: &mut Vec<Response>) {
        let cluster = req.cta as usize / self.cluster_size as usize;
        let round = self.clusters[cluster].round;
        let cta = &mut self.ctas[req.cta as usize];
        let lane = req.first_active().unwrap_or(0);
        if req.op == Op::BarClusterArrive {
            if cta.cluster_pending.get(&req.warp) == Some(&round) {
                out.push(Response::error(req, ErrorCode::BarClusterArriveTwice, lane));
                return;
            }
            cta.cluster_pending.insert(req.warp, round);
            cta.cluster_arrived |= 1 << req.warp;
            out.push(Response::to(req, req.active_mask));
            self.try_complete_cluster(req.cta, out);
        } else {
            match cta.cluster_pending.get(&req.warp).copied() {
                None => out.push(Response::error(req, ErrorCode::BarClusterWaitNoArrive, lane)),
                Some(r) if r < round => {
                    cta.cluster_pending.remove(&req.warp);
                    out.push(Response::to(req, req.active_mask));
                }
                Some(_) => self.clusters[cluster].waiting.push(req.clone()),
            }
        }
    }

    fn try_complete_cluster(&mut self, cta: u16, out: &mut Vec<Response>) {
        let slots = cluster_slots(cta, self.cluster_size);
        let members = &self.ctas[slots.clone()];
        let any = members.iter().any(|c| c.cluster_arrived != 0);
        let all = members.iter().all(|c| c.live & !c.cluster_arrived == 0);
        if !(any && all) {
            return;
        }
        let cluster = &mut self.clusters[cta as usize / self.cluster_size as usize];
        cluster.round += 1;
        let waiting = std::mem::take(&mut cluster.waiting);
        for c in &mut self.ctas[slots] {
            c.cluster_arrived = 0;
        }
        for req in waiting {
            self.ctas[req.cta as usize].cluster_pending.remove(&req.warp);
            out.push(Response::to(&req, req.active_mask));
        }
    }

    pub fn describe_waits(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (slot, cta) in self.ctas.iter().enumerate() {
            for (id, bar) in cta.barriers.iter().enumerate() {
                let Some((count, _)) = bar.round else { continue };
                let needed = match count {
                    Some(b) => b.div_ceil(32),
                    None => cta.live.count_ones(),
                };
                for req in &bar.blocked {
                    lines.push(format!(
                        "cta {slot} warp {}: {} {id} ({}/{needed} warps arrived)",
                        req.warp,
                        req.op.name(),
                        bar.arrivals
                    ));
                }
            }
        }
        for (i, cluster) in self.clusters.iter().enumerate() {
            for req in &cluster.waiting {
                let slots = i * self.cluster_size as usize..(i + 1) * self.cluster_size as usize;
                let missing: u32 = self.ctas[slots].iter().map(|c| (c.live & !c.cluster_arrived).count_ones()).sum();
                lines.push(format!(
                    "cta {} warp {}: barrier.cluster.wait ({missing} warps of the cluster not arrived)",
                    req.cta, req.warp
                ));
            }
        }
        lines
    }
}
