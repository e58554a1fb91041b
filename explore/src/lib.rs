//! Architecture exploration (`smsync explore`): a sweep file names a base config, the axes to vary,
//! the workloads and the synthesis targets; every point of the grid is generated, linted,
//! synthesised and run under cosim, and the results become tables and plots.
//!
//! | file | concern |
//! |---|---|
//! | `sweep.rs` | the sweep file, its validation (before any work), the grid of points, shards |
//! | `measure.rs` | one point's stages, each run through the `smsync` executable, each cached |
//! | `results.rs` | the per-point record, CSV / JSON / Markdown, merging shards |
//! | `plot.rs` | SVG plots: area against cycles with the Pareto front, each axis's effect |
//! | `hash.rs` | the stable content hash behind the cache keys |
//!
//! Stages run as subprocesses of `smsync` (`gen`, `lint`, `synth`, `cosim --json`), so `-j N`
//! points run in parallel without sharing a Verilator model, and a point's failure (a tool
//! timing out, a cosim divergence) is recorded in its row instead of stopping the sweep.

pub mod hash;
pub mod measure;
pub mod plot;
pub mod results;
pub mod sweep;
