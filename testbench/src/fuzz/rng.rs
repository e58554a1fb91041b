//! The fuzzer's seeded choices: reproducible from a seed, no random-number crate.

/// The golden model's SplitMix64 (`smsync_sim::exec::rng`), seeded apart from the executor's
/// `--seed` streams, with the choices a generator needs on top.
#[derive(Clone, Debug)]
pub struct Rng(smsync_sim::exec::rng::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // sim's `Rng::new` xors its own constant in; undo it so the state is `seed ^ FUZZ_SALT`.
        const FUZZ_SALT: u64 = 0x5EED_F022_0000_0001;
        const SIM_SALT: u64 = 0x9E37_79B9_7F4A_7C15;
        Rng(smsync_sim::exec::rng::Rng::new(seed ^ FUZZ_SALT ^ SIM_SALT))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    pub fn u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in `lo..=hi` (requires lo <= hi).
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % (hi as u64 - lo as u64 + 1)) as u32
    }

    pub fn chance(&mut self, percent: u32) -> bool {
        self.range(0, 99) < percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.range(0, items.len() as u32 - 1) as usize]
    }

    /// Index chosen with the given weights (all zero weights: index 0).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        if total == 0 {
            return 0;
        }
        let mut x = self.range(0, total - 1);
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }
}
