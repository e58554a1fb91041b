//! One warp's state: 32 lanes with their own program counters (sm_70+ independent thread
//! scheduling), lane masks for the scheduler, and a structure-of-arrays register file so that a
//! converged warp executes an instruction in one pass over its lanes.

use super::rng::Rng;

pub const LANES: usize = 32;

/// A call frame of one lane: where to return, and where its parameter frame lives.
#[derive(Clone, Copy, Debug, Default)]
pub struct Frame {
    pub ret_func: u32,
    pub ret_pc: u32,
    /// Thread-local offset of the callee's parameter frame.
    pub base: u32,
    /// The caller's local stack pointer before the call.
    pub saved_sp: u32,
}

/// A group of lanes that execute together: same function, same PC, same call depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub mask: u32,
    pub func: u32,
    pub pc: u32,
    pub depth: u8,
}

#[derive(Clone, Debug, Default)]
pub struct Warp {
    /// Warp index within its CTA.
    pub index: u32,
    /// Lanes that exist and have not exited.
    pub live: u32,
    /// Lanes waiting for a response from the sync unit (tag in `wait_tag`).
    pub waiting: u32,
    /// Lanes parked at a barrier, waiting for the rest of the warp to arrive (sm_70+ rule).
    pub parked: u32,
    /// Each lane's CC.CF flag of the carry instructions (PTX ISA §9.7.2), one bit per lane.
    pub carry: u32,
    pub pc: [u32; LANES],
    pub func: [u32; LANES],
    pub depth: [u8; LANES],
    pub wait_tag: [u64; LANES],
    /// Local stack pointer per lane (thread-local offset of the next free byte).
    pub sp: [u32; LANES],
    /// regs[depth][reg][lane]
    pub regs: Vec<Vec<[u64; LANES]>>,
    pub frames: Vec<Vec<Frame>>,
    /// WarpExit has been sent for this warp.
    pub exit_sent: bool,
    /// Consecutive diverged steps that picked the lowest-PC group (starvation guard).
    pub streak: u32,
    /// Lanes favoured for `favor_left` more steps after a starvation was detected.
    pub favor_mask: u32,
    pub favor_left: u32,
}

/// After this many consecutive diverged steps on the lowest-PC group, the other lanes of the warp
/// get a turn: sm_70+ independent thread scheduling guarantees forward progress to every lane
/// (a lane spinning on a flag that another lane of its warp sets must not hang).
pub const STARVATION_LIMIT: u32 = 1024;
/// How many steps the starved lanes are favoured for.
pub const FAVOR_STEPS: u32 = 256;

impl Warp {
    pub fn new(index: u32, lanes: u32, entry: u32, nregs: usize, sp: u32) -> Warp {
        let live = if lanes >= 32 { u32::MAX } else { (1u32 << lanes) - 1 };
        Warp {
            index,
            live,
            waiting: 0,
            parked: 0,
            carry: 0,
            pc: [0; LANES],
            func: [entry; LANES],
            depth: [0; LANES],
            wait_tag: [0; LANES],
            sp: [sp; LANES],
            regs: vec![vec![[0u64; LANES]; nregs]],
            frames: vec![Vec::new(); LANES],
            exit_sent: false,
            streak: 0,
            favor_mask: 0,
            favor_left: 0,
        }
    }

    #[inline]
    pub fn runnable(&self) -> u32 {
        self.live & !self.waiting & !self.parked
    }

    pub fn done(&self) -> bool {
        self.live == 0
    }

    /// The group to run next among `runnable` lanes: by default the lowest PC (global
    /// instruction index `base[func] + pc`, then the deepest call); with `rng`, a random group.
    pub fn pick_group(&mut self, runnable: u32, func_base: &[u32], rng: Option<&mut Rng>) -> Group {
        let first = runnable.trailing_zeros() as usize;
        // Fastest path: a fully converged warp (every lane runnable at one place).
        if runnable == u32::MAX {
            let (p0, f0, d0) = (self.pc[0], self.func[0], self.depth[0]);
            if self.pc.iter().all(|&p| p == p0)
                && self.func.iter().all(|&f| f == f0)
                && self.depth.iter().all(|&d| d == d0)
            {
                self.streak = 0;
                return Group { mask: u32::MAX, func: f0, pc: p0, depth: d0 };
            }
        }
        let key =
            |l: usize| ((func_base[self.func[l] as usize] + self.pc[l]) as u64) << 8 | (255 - self.depth[l] as u64);
        // Fast path: every runnable lane at the first lane's place (a converged warp).
        let k0 = key(first);
        let mut same = 0u32;
        let mut best = k0;
        let mut m = runnable;
        let mut distinct = false;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let k = key(l);
            if k == k0 {
                same |= 1 << l;
            } else {
                distinct = true;
                if k < best {
                    best = k;
                }
            }
        }
        let chosen_key = if !distinct {
            self.streak = 0;
            return Group { mask: same, func: self.func[first], pc: self.pc[first], depth: self.depth[first] };
        } else if let Some(rng) = rng {
            // a seeded choice among the distinct groups: pick a random runnable lane's group
            let n = runnable.count_ones();
            let pick = rng.below(n as u64) as u32;
            let mut m = runnable;
            for _ in 0..pick {
                m &= m - 1;
            }
            key(m.trailing_zeros() as usize)
        } else if self.favor_left > 0 && self.favor_mask & runnable != 0 {
            self.favor_left -= 1;
            key((self.favor_mask & runnable).trailing_zeros() as usize)
        } else {
            self.streak += 1;
            if self.streak >= STARVATION_LIMIT {
                // favour every lane outside the lowest-PC group for a while
                self.streak = 0;
                let mut starved = 0u32;
                let mut m = runnable;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if key(l) != best {
                        starved |= 1 << l;
                    }
                }
                self.favor_mask = starved;
                self.favor_left = FAVOR_STEPS;
            }
            best
        };
        let mut mask = 0u32;
        let mut lane0 = 0usize;
        let mut m = runnable;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if key(l) == chosen_key {
                if mask == 0 {
                    lane0 = l;
                }
                mask |= 1 << l;
            }
        }
        Group { mask, func: self.func[lane0], pc: self.pc[lane0], depth: self.depth[lane0] }
    }

    /// Advance the lanes of `mask` to the next instruction.
    #[inline]
    pub fn advance(&mut self, mask: u32) {
        if mask == u32::MAX {
            for pc in self.pc.iter_mut() {
                *pc += 1;
            }
        } else {
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                self.pc[l] += 1;
            }
        }
    }

    pub fn set_pc(&mut self, mask: u32, pc: u32) {
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            self.pc[l] = pc;
        }
    }
}

/// Iterate the set bits of a lane mask.
#[inline]
pub fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}
