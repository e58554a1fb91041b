//! The `sync_unit` top's response egress (`hdl/src/sync_unit/egress.rs`): random responses (with
//! and without values) from a bench model of the core's response register, through the egress,
//! with both readies stalled at random, must come out whole, once each and in order (each channel
//! in its order: the k-th run of beats belongs to the k-th header with values); the core's
//! register must be released (`taken`) exactly once per response, and only after everything the
//! egress needs was copied (the bench scrambles the register the cycle it is released).
//!
//! Campaigns: `SMSYNC_EGRESS_SEEDS=1,2 SMSYNC_EGRESS_COUNT=20000 cargo test -p smsync-hdl --test response_egress`.

use rust_hdl::prelude::*;
use smsync_hdl::sync_unit::egress::ResponseEgress;
use smsync_sim::config::Config;
use smsync_testkit::hdl_sim::{settle, tick};
use smsync_testkit::{Campaign, Rng};

const LANES: usize = 32;

/// One response as the port carries it: the header fields, and the values when it has them.
#[derive(Clone, Debug, PartialEq)]
struct Resp {
    tag: u64,
    cta: u64,
    warp: u64,
    lanes: u64,
    preds: u64,
    error: u64,
    error_lane: u64,
    values: Option<Vec<u128>>,
}

fn random_response(rng: &mut Rng) -> Resp {
    let value = |rng: &mut Rng| match rng.below(4) {
        0 => 0,
        1 => rng.below(1 << 20) as u128,
        _ => (rng.next() as u128) << 64 | rng.next() as u128,
    };
    Resp {
        tag: rng.next(),
        cta: rng.below(32),
        warp: rng.below(32),
        lanes: rng.u32() as u64,
        preds: rng.u32() as u64,
        error: rng.below(64),
        error_lane: rng.below(32),
        values: rng.chance(2).then(|| (0..LANES).map(|_| value(rng)).collect()),
    }
}

/// The core's side: the response register holding `r` (or garbage when empty), and the row of
/// its values that the egress names (`row`, a register of the egress: read after a settle).
fn drive_register(u: &mut ResponseEgress, r: Option<&Resp>, rng: &mut Rng) {
    u.valid.next = r.is_some();
    let garbage = Resp { values: Some((0..LANES).map(|_| rng.next() as u128).collect()), ..random_response(rng) };
    let r = r.unwrap_or(&garbage);
    u.o_tag.next = r.tag.to_bits();
    u.o_cta.next = r.cta.to_bits();
    u.o_warp.next = r.warp.to_bits();
    u.o_lanes.next = r.lanes.to_bits();
    u.o_preds.next = r.preds.to_bits();
    u.o_error.next = r.error.to_bits();
    u.o_error_lane.next = r.error_lane.to_bits();
    u.o_has_values.next = r.values.is_some();
    settle(u);
    let l = u.row_values.len();
    let row = u.row.val().index();
    let zeros = vec![0u128; LANES];
    let values = r.values.as_ref().unwrap_or(&zeros);
    for (port, v) in u.row_values.iter_mut().zip(&values[row * l..(row + 1) * l]) {
        port.next = v.to_bits();
    }
}

/// Send `count` random responses through the egress for `config`, readies high with probability
/// `ready_pct` %; returns the cycles taken.
fn run(config: &Config, seed: u64, count: usize, ready_pct: u64) -> u64 {
    let l = config.lanes_per_beat as usize;
    let beats = LANES / l;
    let mut rng = Rng::new(seed);
    let sent: Vec<Resp> = (0..count).map(|_| random_response(&mut rng)).collect();
    let mut u = ResponseEgress::new(config);
    u.connect_all();
    let clock = |u: &mut ResponseEgress| {
        tick(u, |u| u.clock.next = Clock { clk: true }, |u| u.clock.next = Clock { clk: false }, |_| {})
    };
    u.reset.next = true;
    drive_register(&mut u, None, &mut rng);
    settle(&mut u);
    clock(&mut u);
    u.reset.next = false;

    let (mut next, mut loaded, mut cycles) = (0usize, false, 0u64);
    // Headers and beats as taken, each channel in its own order: the k-th run of `32 / L` beats
    // belongs to the k-th header with values (a beat may be taken before its header).
    let mut headers: Vec<(Resp, bool)> = Vec::new();
    let mut beats_taken: Vec<Vec<u128>> = Vec::new();
    let limit = 40 * (count as u64 + 10) * beats as u64;
    while headers.len() < count || beats_taken.len() < beats * headers.iter().filter(|h| h.1).count() {
        let value_headers = headers.iter().filter(|h| h.1).count();
        assert!(cycles < limit, "seed {seed}: {value_headers} of {count} headers out after {cycles} cycles");
        // The bench core loads its register some cycles after it was released.
        if !loaded && next < count && rng.chance(2) {
            loaded = true;
        }
        drive_register(&mut u, loaded.then(|| &sent[next]), &mut rng);
        u.resp_ready.next = rng.below(100) < ready_pct;
        u.resp_beat_ready.next = rng.below(100) < ready_pct;
        settle(&mut u);
        if u.taken.val() {
            assert!(loaded, "seed {seed}: `taken` with no response in the register (cycle {cycles})");
            loaded = false;
            next += 1;
        }
        if u.resp_valid.val() && u.resp_ready.val() {
            // The order rule: every earlier response's beats have been taken (or go now).
            let due = beats * value_headers;
            let now = (u.resp_beat_valid.val() && u.resp_beat_ready.val()) as usize;
            assert!(
                beats_taken.len() + now >= due,
                "seed {seed}: a header while {} of {due} earlier beats are out (cycle {cycles})",
                beats_taken.len()
            );
            let header = Resp {
                tag: u.resp_tag.val().to_u64(),
                cta: u.resp_cta.val().to_u64(),
                warp: u.resp_warp.val().to_u64(),
                lanes: u.resp_lanes.val().to_u64(),
                preds: u.resp_preds.val().to_u64(),
                error: u.resp_error.val().to_u64(),
                error_lane: u.resp_error_lane.val().to_u64(),
                values: None,
            };
            headers.push((header, u.resp_has_values.val()));
        }
        if u.resp_beat_valid.val() && u.resp_beat_ready.val() {
            // At most one response's beats run ahead of the headers taken.
            assert!(
                beats_taken.len() < beats * (headers.iter().filter(|h| h.1).count() + 1),
                "seed {seed}: a beat two responses ahead of its header (cycle {cycles})"
            );
            beats_taken.push(u.resp_beat_values.iter().map(|v| v.val().to_u128()).collect());
        }
        clock(&mut u);
        cycles += 1;
    }
    let mut runs = beats_taken.chunks(beats);
    let received: Vec<Resp> = headers
        .into_iter()
        .map(|(h, has_values)| Resp { values: has_values.then(|| runs.next().unwrap().concat()), ..h })
        .collect();
    assert_eq!(received.len(), count, "seed {seed}: responses out");
    for (i, (got, want)) in received.iter().zip(&sent).enumerate() {
        assert_eq!(got, want, "seed {seed}, L = {l}: response {i} differs");
    }
    cycles
}

fn campaign() -> (Vec<u64>, usize) {
    Campaign::new("EGRESS", (&[1, 2], 400), (&[1, 2, 3, 4], 20_000)).split()
}

#[test]
fn responses_leave_whole_and_in_order_under_random_stalls() {
    let (seeds, count) = campaign();
    for config in [Config::fpga_small(), Config::default()] {
        for &seed in &seeds {
            for ready_pct in [100, 60, 20] {
                run(&config, seed, count, ready_pct);
            }
        }
    }
}

/// One response into an idle egress with both readies high: `taken` the cycle its header is
/// copied (no values) or its last row is (`32 / L - 1` cycles later); the header and beat 0 on
/// the port the cycle after the register was loaded, then one beat per cycle.
#[test]
fn an_always_ready_consumer_takes_one_beat_per_cycle() {
    for config in [Config::fpga_small(), Config::default()] {
        let beats = LANES / config.lanes_per_beat as usize;
        for with_values in [false, true] {
            let mut rng = Rng::new(3);
            let r = Resp { values: with_values.then(|| (1..=LANES as u128).collect()), ..random_response(&mut rng) };
            let mut u = ResponseEgress::new(&config);
            u.connect_all();
            u.resp_ready.next = true;
            u.resp_beat_ready.next = true;
            u.reset.next = true;
            drive_register(&mut u, None, &mut rng);
            settle(&mut u);
            tick(&mut u, |u| u.clock.next = Clock { clk: true }, |u| u.clock.next = Clock { clk: false }, |_| {});
            u.reset.next = false;
            let (mut taken_at, mut header_at, mut beats_at) = (None, None, Vec::new());
            let mut loaded = true;
            for cycle in 0..(beats + 4) {
                drive_register(&mut u, loaded.then_some(&r), &mut rng);
                settle(&mut u);
                if u.taken.val() {
                    taken_at = Some(cycle);
                    loaded = false;
                }
                if u.resp_valid.val() {
                    header_at.get_or_insert(cycle);
                }
                if u.resp_beat_valid.val() {
                    beats_at.push(cycle);
                }
                tick(&mut u, |u| u.clock.next = Clock { clk: true }, |u| u.clock.next = Clock { clk: false }, |_| {});
            }
            let l = config.lanes_per_beat;
            assert_eq!(header_at, Some(1), "L = {l}, values {with_values}: header");
            if with_values {
                assert_eq!(taken_at, Some(beats - 1), "L = {l}: the register is released after its last row");
                assert_eq!(beats_at, (1..=beats).collect::<Vec<_>>(), "L = {l}: one beat per cycle");
            } else {
                assert_eq!(taken_at, Some(0), "L = {l}: released with the header");
                assert!(beats_at.is_empty(), "L = {l}: no beat for a response without values");
            }
        }
    }
}
