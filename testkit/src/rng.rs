//! The seeded stimulus generator of every test: xorshift64* (Vigna, "An experimental exploration
//! of Marsaglia's xorshift generators, scrambled", 2016). Small, deterministic and good enough
//! for stimulus; no random-number crate, so a seed means the same stream on every machine.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose stream depends only on `seed` (the multiplier spreads small seeds; the
    /// `| 1` keeps the state nonzero, which xorshift requires).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    // An RNG is not an iterator (it never ends); `next` is the name every test already reads.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    /// Uniform-ish in `0..n` (the high bits, which are the better ones of xorshift64*).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        (self.next() >> 11) % n
    }

    /// True once in `one_in` draws on average.
    pub fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }

    /// One of `items` (not empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn same_seed_same_stream_other_seed_other_stream() {
        let a: Vec<u64> = (0..8).scan(Rng::new(7), |r, _| Some(r.next())).collect();
        let b: Vec<u64> = (0..8).scan(Rng::new(7), |r, _| Some(r.next())).collect();
        let c: Vec<u64> = (0..8).scan(Rng::new(8), |r, _| Some(r.next())).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::new(1);
        let mut seen = [false; 10];
        for _ in 0..1000 {
            let x = r.below(10);
            assert!(x < 10);
            seen[x as usize] = true;
        }
        assert!(seen.iter().all(|&s| s), "{seen:?}");
    }

    /// The first outputs of xorshift64* from state 1 (computed by hand from the recurrence:
    /// x ^= x>>12; x ^= x<<25; x ^= x>>27; out = x * 0x2545F4914F6CDD1D).
    #[test]
    fn matches_the_reference_recurrence() {
        let mut r = Rng(1);
        let mut x: u64 = 1;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        assert_eq!(x, 0x2000001);
        assert_eq!(r.next(), 0x2000001u64.wrapping_mul(0x2545_F491_4F6C_DD1D));
    }
}
