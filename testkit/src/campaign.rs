//! Test tiers and campaign sizes.
//!
//! `./scripts/test.sh` (CI) runs the **quick** tier: every area is covered, random campaigns are
//! short. `./scripts/test.sh --full` sets `SMSYNC_TIER=full`: the campaigns the issues' acceptance
//! lists name (200 generated programs per config under cosim, 10,000 requests per unit stream,
//! the whole corpus through the UART bridge, ...), plus the `#[ignore]`d long tests.
//!
//! Any campaign can be sized by hand: `SMSYNC_<NAME>_SEEDS=1,2,3` and `SMSYNC_<NAME>_COUNT=N`
//! (e.g. `SMSYNC_UNIT_COUNT=100000`) override both tiers.

/// Which tier this test process runs (`SMSYNC_TIER`: `quick`, the default, or `full`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Quick,
    Full,
}

/// The tier from `SMSYNC_TIER`. An unknown value is refused loudly rather than silently running
/// the quick tier when the full one was asked for.
pub fn tier() -> Tier {
    match std::env::var("SMSYNC_TIER").as_deref() {
        Err(_) | Ok("") | Ok("quick") => Tier::Quick,
        Ok("full") => Tier::Full,
        Ok(other) => panic!("SMSYNC_TIER={other:?}: allowed values are `quick` (default) and `full`"),
    }
}

/// `quick` or `full` by the tier, unless `var` (e.g. `SMSYNC_FUZZ_COSIM_COUNT`) is set.
pub fn count(var: &str, quick: usize, full: usize) -> usize {
    match std::env::var(var) {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("{var}={v:?}: expected a whole number")),
        Err(_) => match tier() {
            Tier::Quick => quick,
            Tier::Full => full,
        },
    }
}

/// The seeds and per-seed count of one random campaign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Campaign {
    pub seeds: Vec<u64>,
    pub count: usize,
}

impl Campaign {
    /// Campaign `name` (`UNIT`, `TOP`, ...): `quick` or `full` (seeds, count) by the tier, each
    /// overridden by `SMSYNC_<name>_SEEDS` (comma-separated) / `SMSYNC_<name>_COUNT`.
    pub fn new(name: &str, quick: (&[u64], usize), full: (&[u64], usize)) -> Campaign {
        let (seeds, n) = match tier() {
            Tier::Quick => quick,
            Tier::Full => full,
        };
        let seeds_var = format!("SMSYNC_{name}_SEEDS");
        let seeds = match std::env::var(&seeds_var) {
            Ok(v) => {
                let parsed: Result<Vec<u64>, _> = v.split(',').map(|x| x.trim().parse::<u64>()).collect();
                match parsed {
                    Ok(s) if !s.is_empty() => s,
                    _ => panic!("{seeds_var}={v:?}: expected comma-separated whole numbers, e.g. 1,2,3"),
                }
            }
            Err(_) => seeds.to_vec(),
        };
        Campaign { seeds, count: count(&format!("SMSYNC_{name}_COUNT"), n, n) }
    }

    /// `(seeds, count)`, for destructuring at the call site.
    pub fn split(self) -> (Vec<u64>, usize) {
        (self.seeds, self.count)
    }
}
