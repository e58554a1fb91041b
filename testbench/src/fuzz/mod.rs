//! Random PTX programs for differential testing (`smsync fuzz`, issue 4 item 4).
//!
//! A program is a seed, a shape (CTAs x warps) and a list of [`blocks::Block`]s, each legal by
//! construction for the config it was generated for: named barriers (bar.sync/arrive/red with
//! partial counts, producer/consumer pairs), mbarrier phases and bulk-copy pipelines,
//! cp.async groups, atomics on conflicting shared and global words, warp collectives under
//! partial and divergent masks, tensor tile loads and plain ld/st. [`render`] turns it into PTX
//! and a launch file; every block writes what it observes to the `out` buffer.
//!
//! Walk-through:
//! * [`rng`]    — the seeded generator;
//! * [`blocks`] — the building blocks: generation, PTX emission, smaller variants;
//! * [`render`] — the kernel frame and the launch YAML;
//! * [`ptxas`]  — NVIDIA's assembler as the judge of PTX legality, many programs per call;
//! * [`shrink`] — reduce a failing program while it keeps failing;
//! * [`run`]    — run a program on the golden model (and, later, under cosim).

pub mod blocks;
pub mod ptxas;
pub mod render;
pub mod rng;
pub mod run;
pub mod shrink;

use blocks::{Block, Limits, KINDS};
use rng::Rng;
use smsync_sim::config::Config;

/// Grid and CTA size of a program (1-D; threads per CTA = 32 * warps).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    pub ctas: u32,
    pub warps: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub seed: u64,
    pub shape: Shape,
    pub named_barriers: u32,
    pub blocks: Vec<Block>,
}

/// At most this many blocks per program, and this much shared memory per CTA (keeps one
/// program in the milliseconds on the golden model).
pub const MAX_BLOCKS: u32 = 6;
pub const MAX_SHARED: u32 = 32 * 1024;

impl Program {
    /// The program of `seed` for `config`.
    pub fn generate(seed: u64, config: &Config) -> Program {
        let mut rng = Rng::new(seed);
        let max_warps = config.max_warps_per_cta.clamp(1, 8);
        // mostly small CTAs, sometimes the largest this config allows (up to 8 warps)
        let warps = if rng.chance(15) { max_warps } else { rng.range(1, max_warps.min(4)) };
        // sometimes more CTAs than slots, so that CTAs run in waves
        let ctas = rng.range(1, (config.cta_slots + 1).min(4));
        let shared_total = config.shared_bytes.min(MAX_SHARED).saturating_sub(256);
        let mut blocks = vec![];
        let mut shared_used = 0;
        let weights: Vec<u32> = KINDS.iter().map(|(_, w)| *w).collect();
        let want = rng.range(1, MAX_BLOCKS);
        let mut attempts = 0;
        while (blocks.len() as u32) < want && attempts < 4 * MAX_BLOCKS {
            attempts += 1;
            let lim = Limits { config, warps, shared_free: shared_total.saturating_sub(shared_used) };
            let kind = rng.weighted(&weights);
            if let Some(b) = Block::generate(kind, &mut rng, &lim) {
                shared_used += b.shared_bytes(warps * 32) + 16;
                blocks.push(b);
            }
        }
        Program { seed, shape: Shape { ctas, warps }, named_barriers: config.named_barriers, blocks }
    }

    /// Kernel name used when the program stands alone.
    pub fn kernel_name(&self) -> String {
        format!("fuzz_{}", self.seed)
    }

    pub fn render(&self) -> render::Rendered {
        render::render(self, &self.kernel_name())
    }

    pub fn ptx(&self) -> String {
        self.render().module(&format!("smsync fuzz program, seed {}: {}", self.seed, self.summary()))
    }

    pub fn summary(&self) -> String {
        let blocks: Vec<String> = self.blocks.iter().map(|b| b.describe()).collect();
        format!("{} CTA(s) x {} warp(s); {}", self.shape.ctas, self.shape.warps, blocks.join("; "))
    }
}
