//! The result store (`hdl/src/sync_unit/result_store.rs`; the lane sequencer's and the atomic
//! ALU's): random writes of up to one lane per bank per cycle, random clears and a random row
//! read every cycle, against a host model of 32 lanes (a lane reads the value last written to it
//! since the last clear, else 0; a write or a clear shows from the next cycle; a clear wins over
//! a write in its cycle). On both configs'
//! `lanes_per_beat` and on 1 and 32 (the extremes: 32 banks of one word, one bank of 32 words).
//!
//! Campaigns: `SMSYNC_RESULT_STORE_SEEDS=1,2 SMSYNC_RESULT_STORE_COUNT=100000 cargo test -p smsync-hdl --test result_store`.

use rust_hdl::prelude::*;
use smsync_hdl::sync_unit::result_store::ResultStore;
use smsync_sim::config::Config;
use smsync_testkit::hdl_sim::{settle, tick};
use smsync_testkit::{Campaign, Rng};

const LANES: usize = 32;

fn random_value(rng: &mut Rng) -> u128 {
    match rng.below(3) {
        0 => rng.below(1 << 16) as u128,
        _ => (rng.next() as u128) << 64 | rng.next() as u128,
    }
}

/// `count` cycles on a store of `lanes_per_beat` lanes per row; panics at the first row that
/// differs from the model.
fn run(lanes_per_beat: u32, seed: u64, count: usize) {
    let mut config = Config::fpga_small();
    config.lanes_per_beat = lanes_per_beat;
    let l = lanes_per_beat as usize;
    let mut u = ResultStore::<128>::new(&config);
    u.connect_all();
    let mut rng = Rng::new(seed);
    let mut model: [Option<u128>; LANES] = [None; LANES];
    for cycle in 0..count {
        let clear = rng.chance(40);
        // Per bank: a write (half of the time) of a random word of the bank.
        let mut writes = Vec::new();
        for b in 0..l {
            let write = rng.chance(2);
            let word = rng.below((LANES / l) as u64) as usize;
            let value = random_value(&mut rng);
            u.write[b].next = write;
            u.word[b].next = (word as u64).to_bits();
            u.data[b].next = value.to_bits();
            if write {
                writes.push((word * l + b, value));
            }
        }
        let row = rng.below((LANES / l) as u64) as usize;
        u.clear.next = clear;
        u.row.next = (row as u64).to_bits();
        settle(&mut u);
        for i in 0..l {
            let expected = model[row * l + i].unwrap_or(0);
            let got = u.row_values[i].val();
            assert_eq!(
                got,
                expected.to_bits(),
                "L = {l}, seed {seed}, cycle {cycle}: row {row} lane {} reads {got:x}, expected {expected:x}",
                row * l + i
            );
        }
        tick(&mut u, |u| u.clock.next = Clock { clk: true }, |u| u.clock.next = Clock { clk: false }, |_| {});
        for &(lane, value) in &writes {
            model[lane] = Some(value);
        }
        if clear {
            model = [None; LANES];
        }
    }
}

fn campaign() -> (Vec<u64>, usize) {
    Campaign::new("RESULT_STORE", (&[1, 2], 3000), (&[1, 2, 3, 4], 100_000)).split()
}

#[test]
fn rows_read_the_last_value_written_since_the_clear() {
    let (seeds, count) = campaign();
    let mut widths: Vec<u32> = vec![1, 32, Config::fpga_small().lanes_per_beat, Config::default().lanes_per_beat];
    widths.sort_unstable();
    widths.dedup();
    for l in widths {
        for &seed in &seeds {
            run(l, seed, count);
        }
    }
}
