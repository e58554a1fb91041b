//! The SM's side of two answers the `sync_unit` top gives per lane rather than per request, shared
//! by every backend that drives the top (`RtlSyncUnit` over Verilator, `UartHost` over a board):
//!
//! * **suspended try_waits**: a try_wait's lanes that its response leaves out wait in the top's
//!   waiter table; the top answers each later on its untagged `wake_*` port, and [`WaitingLanes::wake`]
//!   turns that into a one-lane response with the try_wait's tag;
//! * **rendezvous**: a warp-network op reached by part of its lanes is taken without an answer;
//!   the request or `exit` that completes the rendezvous gets one response covering every
//!   arrived lane, and [`WaitingLanes::route`] hands each waiting request its own lanes of it, as an
//!   SM hands each waiting instruction its lanes. A barrier release is answered the same way: one
//!   response per warp covering every lane that waits at the barrier (a divergent warp's
//!   bar.sync / bar.red requests arrive separately, PTX ISA §9.7.13.1).

use smsync_sim::encoding::{ErrorCode, Op, Unit};
use smsync_sim::units::{Request, Response, WARP};
use std::collections::{BTreeMap, HashMap};

/// Lanes waiting for a later answer, by (CTA slot, warp, lane): the tag of their request.
#[derive(Default)]
pub struct WaitingLanes {
    suspended: HashMap<(u16, u16, u8), u64>,
    rendezvous: HashMap<(u16, u16, u8), u64>,
    /// Requests answered under their own tag and lanes only (bar.arrive, loads, ...), by tag:
    /// their CTA slot. A lane may wait at a barrier while its fire-and-forget bar.arrive's
    /// answer is still on its way; that answer must not take the waiting request's lanes.
    direct: HashMap<u64, u16>,
    /// Wakes for a lane that had no suspended try_wait (a top bug; counted, not dropped silently).
    pub unmatched_wakes: u64,
}

impl WaitingLanes {
    /// Forget everything (a reset of the top).
    pub fn clear(&mut self) {
        self.suspended.clear();
        self.rendezvous.clear();
        self.direct.clear();
    }

    /// A CTA starts in `slot`: nothing of the slot's previous CTA waits any more.
    pub fn clear_slot(&mut self, slot: u16) {
        self.suspended.retain(|k, _| k.0 != slot);
        self.rendezvous.retain(|k, _| k.0 != slot);
        self.direct.retain(|_, s| *s != slot);
    }

    /// `req` is about to be sent: its lanes may be answered later — a try_wait's in the waiter
    /// table, a rendezvous op's at the rendezvous, a bar.sync / bar.red's at the release. Every active lane is registered under its tag
    /// now, and an answer under that tag clears the lanes it covers ([`WaitingLanes::route`]),
    /// so the bookkeeping does not depend on when the answer leaves the top (requests may queue
    /// ahead of the top, and an answer may leave after the top takes the next request). A lane
    /// waits in one request at a time, so its entry is always its latest waiting request's; a
    /// request that never waits (other than an exit, whose answer may carry a rendezvous) is
    /// recorded as answered directly.
    pub fn expect(&mut self, req: &Request) {
        let table = if req.op == Op::MbTryWait {
            &mut self.suspended
        } else if (req.op.unit() == Unit::WarpNetwork && req.op != Op::Activemask)
            || matches!(req.op, Op::BarSync | Op::BarRedPopc | Op::BarRedAnd | Op::BarRedOr | Op::BarClusterWait)
        {
            &mut self.rendezvous
        } else {
            if req.op != Op::WarpExit {
                self.direct.insert(req.tag, req.cta);
            }
            return;
        };
        for lane in 0..WARP as u8 {
            if req.active_mask >> lane & 1 == 1 {
                table.insert((req.cta, req.warp, lane), req.tag);
            }
        }
    }

    /// A `wake_*` pulse: the suspended try_wait lane's answer, or `None` (counted) if no
    /// try_wait waited there.
    pub fn wake(&mut self, cta: u16, warp: u16, lane: u8, pred: bool) -> Option<Response> {
        match self.suspended.remove(&(cta, warp, lane)) {
            Some(tag) => Some(Response {
                tag,
                cta,
                warp,
                lanes: 1 << lane,
                values: [0; WARP],
                preds: (pred as u32) << lane,
                error: ErrorCode::None,
                error_lane: 0,
            }),
            None => {
                self.unmatched_wakes += 1;
                None
            }
        }
    }

    /// Pass a response of the top on to `out`, giving each request waiting at a rendezvous its
    /// lanes of it; the rest keeps its tag. An error answer is split the same way, each part
    /// naming its own first lane (as the golden model answers every request of a failed
    /// rendezvous).
    pub fn route(&mut self, r: Response, out: &mut Vec<Response>) {
        if self.direct.remove(&r.tag).is_some() {
            out.push(r);
            return;
        }
        // A try_wait's own answer: the lanes it covers are not suspended; an error answers them all.
        if r.error != ErrorCode::None {
            self.suspended.retain(|k, t| !(*t == r.tag && k.0 == r.cta && k.1 == r.warp));
        } else {
            for lane in 0..WARP as u8 {
                if r.lanes >> lane & 1 == 1 && self.suspended.get(&(r.cta, r.warp, lane)) == Some(&r.tag) {
                    self.suspended.remove(&(r.cta, r.warp, lane));
                }
            }
        }
        let mut moved: BTreeMap<u64, u32> = BTreeMap::new();
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
        let rest = r.lanes & !moved.values().fold(0, |a, &m| a | m);
        for (&tag, &lanes) in &moved {
            let error_lane = if r.error == ErrorCode::None { r.error_lane } else { lanes.trailing_zeros() as u8 };
            out.push(Response { tag, lanes, preds: r.preds & lanes, error_lane, ..r.clone() });
        }
        if rest != 0 {
            out.push(Response { lanes: rest, preds: r.preds & rest, ..r });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(tag: u64, op: Op, active: u32) -> Request {
        let mut r = Request::new(tag, 1, 2, op);
        r.active_mask = active;
        r
    }

    #[test]
    fn a_fired_rendezvous_answers_each_waiting_request_its_lanes() {
        let mut w = WaitingLanes::default();
        // lanes 0..3 arrive first (no answer), lanes 4..7 complete the rendezvous
        w.expect(&req(10, Op::VoteSync, 0x0F));
        w.expect(&req(11, Op::VoteSync, 0xF0));
        let mut fired = Response::to(&req(11, Op::VoteSync, 0xF0), 0xFF);
        fired.preds = 0x33;
        fired.values = [7; WARP];
        let mut out = Vec::new();
        w.route(fired, &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!((out[0].tag, out[0].lanes, out[0].preds, out[0].values[0]), (10, 0x0F, 0x03, 7));
        assert_eq!((out[1].tag, out[1].lanes, out[1].preds), (11, 0xF0, 0x30));
        // nothing waits any more: a later answer passes unchanged
        let mut again = Vec::new();
        let again_req = req(12, Op::VoteSync, 0x0F);
        w.expect(&again_req);
        w.route(Response::to(&again_req, 0x0F), &mut again);
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].tag, 12);
    }

    #[test]
    fn a_barrier_release_answers_each_partial_arrival_its_lanes() {
        let mut w = WaitingLanes::default();
        // a divergent warp: lanes 0..15 then 16..31 reach bar.red.popc; one release covers both
        w.expect(&req(50, Op::BarRedPopc, 0x0000_FFFF));
        w.expect(&req(51, Op::BarRedPopc, 0xFFFF_0000));
        let mut release = Response::to(&req(51, Op::BarRedPopc, 0xFFFF_0000), 0xFFFF_FFFF);
        release.values = [9; WARP];
        let mut out = Vec::new();
        w.route(release, &mut out);
        let parts: Vec<(u64, u32, u128)> = out.iter().map(|r| (r.tag, r.lanes, r.values[0])).collect();
        assert_eq!(parts, vec![(50, 0x0000_FFFF, 9), (51, 0xFFFF_0000, 9)]);
        // a lane waits at a barrier while its earlier bar.arrive's answer is on its way: that
        // answer keeps its tag and lanes, the release still goes to the waiting request
        let arrive = req(52, Op::BarArrive, 0xF);
        w.expect(&arrive);
        w.expect(&req(53, Op::BarSync, 0xF));
        let mut out = Vec::new();
        w.route(Response::to(&arrive, 0xF), &mut out);
        w.route(Response::to(&req(54, Op::BarSync, 0xFF), 0xFF), &mut out);
        let parts: Vec<(u64, u32)> = out.iter().map(|r| (r.tag, r.lanes)).collect();
        assert_eq!(parts, vec![(52, 0xF), (53, 0xF), (54, 0xF0)]);
    }

    #[test]
    fn an_exit_answer_goes_entirely_to_the_waiting_requests_and_errors_name_each_first_lane() {
        let mut w = WaitingLanes::default();
        w.expect(&req(20, Op::ReduxSync, 0x0000_0F00));
        w.expect(&req(21, Op::ReduxSync, 0x0000_00F0));
        let exit = req(22, Op::WarpExit, 0);
        let mut answer = Response::error(&exit, ErrorCode::MemberMaskMismatch, 4);
        answer.lanes = 0x0FF0;
        let mut out = Vec::new();
        w.route(answer, &mut out);
        let parts: Vec<(u64, u32, u8)> = out.iter().map(|r| (r.tag, r.lanes, r.error_lane)).collect();
        assert_eq!(parts, vec![(20, 0x0F00, 8), (21, 0x00F0, 4)]);
    }

    #[test]
    fn suspended_try_wait_lanes_are_woken_by_tag_and_stray_wakes_counted() {
        let mut w = WaitingLanes::default();
        let tw = req(30, Op::MbTryWait, 0b110);
        w.expect(&tw);
        let mut out = Vec::new();
        w.route(Response::to(&tw, 0b010), &mut out);
        assert_eq!(out.len(), 1);
        assert!(w.wake(1, 2, 1, true).is_none(), "lane 1 was answered, not suspended");
        let r = w.wake(1, 2, 2, true).expect("lane 2 was suspended");
        assert_eq!((r.tag, r.lanes, r.preds), (30, 0b100, 0b100));
        assert!(w.wake(1, 2, 2, true).is_none());
        assert_eq!(w.unmatched_wakes, 2);
        w.expect(&tw);
        w.clear_slot(1);
        assert!(w.wake(1, 2, 1, false).is_none());
    }

    #[test]
    fn a_failed_try_wait_suspends_none_of_its_lanes() {
        let mut w = WaitingLanes::default();
        let tw = req(40, Op::MbTryWait, 0b1100);
        w.expect(&tw);
        let mut out = Vec::new();
        w.route(Response::error(&tw, ErrorCode::MbStaleToken, 2), &mut out);
        assert!(w.wake(1, 2, 2, true).is_none());
        assert!(w.wake(1, 2, 3, true).is_none());
    }

    #[test]
    fn an_answer_that_leaves_after_the_next_request_was_sent_is_still_routed() {
        // The top may take the next request before the previous one's answer leaves it: lanes
        // are registered when sent, so the order of "sent" and "answered" does not matter.
        let mut w = WaitingLanes::default();
        let first = req(50, Op::VoteSync, 0x0F);
        let second = req(51, Op::VoteSync, 0xF0);
        w.expect(&first);
        w.expect(&second);
        let mut out = Vec::new();
        w.route(Response::to(&second, 0xFF), &mut out);
        let parts: Vec<(u64, u32)> = out.iter().map(|r| (r.tag, r.lanes)).collect();
        assert_eq!(parts, vec![(50, 0x0F), (51, 0xF0)]);
    }
}
