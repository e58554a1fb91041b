//! The live map (`hdl/src/sync_unit/live_map.rs`, the copy engine's plain-access check) against
//! a host model of every slot's live words: random row updates (often into the same 512-byte
//! entry on consecutive cycles, to reach the forwarding), random CTA launches and a random probe
//! every cycle, each probe's `hits` compared with the model's answer two cycles later. The
//! model follows the block's contract: an update presented in cycle t counts for the probes from
//! cycle t+1, a launch in cycle t for the probes from t (and it erases the update presented in
//! t-1, which lands at the same edge), except that a probe presented in t+1 that reads the
//! updated entry (its first, last or mbarrier word's) is undefined and not compared; a probe
//! hits slot s when s has a live word w with
//! `lo <= w <= hi`, or in `lo`'s 16-word line at a bit of `xh`, or in `hi`'s at a bit of `xt`.
//!
//! Campaigns: `SMSYNC_LIVE_MAP_SEEDS=1,2 SMSYNC_LIVE_MAP_COUNT=100000 cargo test -p smsync-hdl --test live_map`.

use rust_hdl::prelude::*;
use smsync_hdl::sync_unit::live_map::LiveMap;
use smsync_hdl::sync_unit::top::{shared_row_bits, shared_row_bytes};
use smsync_sim::config::Config;
use smsync_testkit::hdl_sim::{settle, tick};
use smsync_testkit::{Campaign, Rng};
use std::collections::VecDeque;

struct Probe {
    lo: usize,
    hi: usize,
    xh: u16,
    xt: u16,
    empty: bool,
    /// One word (the copy's mbarrier), answered per slot on `mb_live`.
    mb: usize,
}

fn expected(live: &[Vec<bool>], p: &Probe) -> (u32, u32) {
    let mut hits = 0u32;
    let mut mb = 0u32;
    for (s, words) in live.iter().enumerate() {
        let hit = !p.empty
            && words.iter().enumerate().any(|(w, &l)| {
                l && ((p.lo..=p.hi).contains(&w)
                    || (w >> 4 == p.lo >> 4 && p.xh >> (w & 15) & 1 == 1)
                    || (w >> 4 == p.hi >> 4 && p.xt >> (w & 15) & 1 == 1))
            });
        hits |= (hit as u32) << s;
        mb |= (words[p.mb] as u32) << s;
    }
    (hits, mb)
}

fn run(config: &Config, seed: u64, count: usize) {
    let slots = config.cta_slots as usize;
    let row_words = shared_row_bytes(config) / 8;
    let row_bits = shared_row_bits(config);
    let rows = (config.shared_bytes as usize).div_ceil(shared_row_bytes(config));
    let words = rows * row_words;
    let mut u = LiveMap::new(config);
    u.connect_all();
    let mut rng = Rng::new(seed);
    let mut live = vec![vec![false; words]; slots];
    // The update presented last cycle (it lands at this cycle's edge) and the hits due.
    let mut landing: Option<(usize, usize, u16)> = None;
    let mut due: VecDeque<(Option<(u32, u32)>, String)> = VecDeque::new();
    let mut hot = (0usize, 0usize);
    let (mut probes_hit, mut mb_live, mut compared) = (0, 0, 0);
    for cycle in 0..count {
        // An update: a row near the last one (the same entry, to reach the forwarding) or anywhere.
        let update = rng.chance(2).then(|| {
            if rng.chance(3) {
                hot = (rng.below(slots as u64) as usize, rng.below(rows as u64) as usize);
            }
            let row = (hot.1 + rng.below(4) as usize).min(rows - 1);
            // Sparse live bits; the bits past the row's words must be ignored.
            let mut bits = rng.next() as u16 & rng.next() as u16 & rng.next() as u16;
            if rng.chance(4) {
                bits = 0;
            }
            (hot.0, row, bits)
        });
        let launch = rng.chance(60).then(|| rng.below(slots as u64) as usize);
        let lo = rng.below(words as u64) as usize;
        let span = match rng.below(3) {
            0 => rng.below(4),
            1 => rng.below(200),
            _ => rng.below(words as u64),
        } as usize;
        let probe = Probe {
            lo,
            hi: (lo + span).min(words - 1),
            xh: if rng.chance(4) { rng.next() as u16 } else { 0 },
            xt: if rng.chance(4) { rng.next() as u16 } else { 0 },
            empty: rng.chance(20),
            // near the last update's row (often live) or anywhere
            mb: if rng.chance(2) {
                hot.1 * row_words + rng.below(row_words as u64) as usize
            } else {
                rng.below(words as u64) as usize
            },
        };
        u.upd_valid.next = update.is_some();
        if let Some((slot, row, bits)) = update {
            u.upd_row.next = (((slot << row_bits) | row) as u64).to_bits();
            u.upd_live.next = (bits as u64).to_bits();
        }
        u.launch.next = launch.is_some();
        u.launch_slot.next = (launch.unwrap_or(0) as u64).to_bits();
        u.probe_lo.next = (probe.lo as u64).to_bits();
        u.probe_hi.next = (probe.hi as u64).to_bits();
        u.probe_xh.next = (probe.xh as u64).to_bits();
        u.probe_xt.next = (probe.xt as u64).to_bits();
        u.probe_empty.next = probe.empty;
        u.probe_mb.next = (probe.mb as u64).to_bits();
        // Last cycle's update writes its entry at the edge where this probe reads: undefined if
        // it is one of the probe's entries (32 words each).
        let undefined = landing.is_some_and(|(_, row, _)| {
            let e = (row * row_words) >> 5;
            [probe.lo, probe.hi, probe.mb].iter().any(|&w| w >> 5 == e)
        });
        // The model at this cycle's edge: last cycle's update, then this cycle's launch.
        if let Some((slot, row, bits)) = landing.take() {
            for j in 0..row_words {
                live[slot][row * row_words + j] = bits >> j & 1 == 1;
            }
        }
        if let Some(slot) = launch {
            live[slot].iter_mut().for_each(|w| *w = false);
        }
        let want = expected(&live, &probe);
        probes_hit += (want.0 != 0) as usize;
        mb_live += (want.1 != 0) as usize;
        due.push_back((
            (!undefined).then_some(want),
            format!(
                "probe of cycle {cycle}: words {}..={} xh {:#x} xt {:#x} empty {}, mbarrier word {}",
                probe.lo, probe.hi, probe.xh, probe.xt, probe.empty, probe.mb
            ),
        ));
        settle(&mut u);
        if due.len() == 3 {
            let (want, what) = due.pop_front().unwrap();
            let got = (u.hits.val().to_u64() as u32, u.mb_live.val().to_u64() as u32);
            if let Some(want) = want {
                assert_eq!(
                    got, want,
                    "{} seed {seed}: {what}: (hits, mb_live) {got:x?}, expected {want:x?}",
                    config.name
                );
                compared += 1;
            }
        }
        tick(&mut u, |u| u.clock.next = Clock { clk: true }, |u| u.clock.next = Clock { clk: false }, |_| {});
        landing = update;
    }
    // Most probes are defined; the random probes reach both answers.
    assert!(compared > count * 3 / 4, "{}: {compared} of {count} probes compared", config.name);
    assert!(
        probes_hit > count / 20 && probes_hit < count - count / 20,
        "{}: {probes_hit} of {count} probes hit",
        config.name
    );
    assert!(
        mb_live > count / 100 && mb_live < count - count / 20,
        "{}: {mb_live} of {count} mbarrier words live",
        config.name
    );
}

fn campaign() -> (Vec<u64>, usize) {
    Campaign::new("LIVE_MAP", (&[1, 2], 3000), (&[1, 2, 3, 4], 50_000)).split()
}

#[test]
fn probes_answer_the_live_words_of_their_range() {
    let (seeds, count) = campaign();
    let mut wide = Config::fpga_small();
    // 128-byte rows: 16 live words per row update, two rows per 128-byte line... of 512-byte entries.
    wide.copy_port_bytes = 128;
    wide.shared_bytes = 4096;
    for seed in seeds {
        run(&Config::fpga_small(), seed, count);
        run(&wide, seed, count);
        run(&Config::default(), seed, count / 4);
    }
}
