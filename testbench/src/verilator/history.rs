//! [`PortHistory`]: a ring buffer of every port's value, sampled after each clock, written out as
//! a VCD on demand (the cosim's "last N cycles before the divergence").
//!
//! Why not Verilator's own `--trace`: that needs a second build of the model (minutes for the
//! `sync_unit` top), dumps every internal signal (slow, huge files), and cannot keep only the
//! last N cycles. Sampling the top's ports is enough to see what the unit was asked and what it
//! answered, costs one `get` per port per cycle (so it is opt-in), and works on any build.

use super::{Port, PortDir};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::path::Path;

/// The last `capacity` samples of all ports of a model.
#[derive(Clone, Debug)]
pub struct PortHistory {
    capacity: usize,
    /// (cycle, one word vector per port, in port order)
    samples: VecDeque<(u64, Vec<Vec<u32>>)>,
}

impl PortHistory {
    pub fn new(capacity: usize) -> PortHistory {
        PortHistory { capacity: capacity.max(1), samples: VecDeque::with_capacity(capacity.min(1 << 16)) }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Record the port values of `cycle`, dropping the oldest sample when full.
    pub fn push(&mut self, cycle: u64, values: Vec<Vec<u32>>) {
        if self.samples.len() == self.capacity {
            self.samples.pop_front();
        }
        self.samples.push_back((cycle, values));
    }

    /// The recorded samples as VCD text: one time step per cycle (time = cycle number), a value
    /// change only where a port changed. `$` in port names (rust-hdl's vector ports) becomes `_`.
    pub fn to_vcd(&self, top: &str, ports: &[Port]) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "$comment smsync: the ports of `{top}` sampled after each clock edge (last {} cycles) $end",
            self.samples.len()
        );
        s.push_str("$timescale 1ns $end\n");
        let _ = writeln!(s, "$scope module {top} $end");
        for (i, p) in ports.iter().enumerate() {
            let dir = if p.dir == PortDir::Input { "input" } else { "output" };
            let _ = writeln!(
                s,
                "$var wire {} {} {} $end $comment {dir} $end",
                p.width,
                vcd_id(i),
                p.name.replace('$', "_")
            );
        }
        s.push_str("$upscope $end\n$enddefinitions $end\n");
        let mut prev: Option<&Vec<Vec<u32>>> = None;
        for (cycle, values) in &self.samples {
            let _ = writeln!(s, "#{cycle}");
            for (i, (p, v)) in ports.iter().zip(values).enumerate() {
                if prev.is_some_and(|pv| pv.get(i) == Some(v)) {
                    continue;
                }
                if p.width == 1 {
                    let _ = writeln!(s, "{}{}", v.first().copied().unwrap_or(0) & 1, vcd_id(i));
                } else {
                    let _ = writeln!(s, "b{} {}", binary(v, p.width), vcd_id(i));
                }
            }
            prev = Some(values);
        }
        s
    }

    pub fn write_vcd(&self, path: &Path, top: &str, ports: &[Port]) -> Result<(), String> {
        std::fs::write(path, self.to_vcd(top, ports)).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// VCD identifier for port `i`: printable ASCII 33..126 in base 94.
fn vcd_id(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((33 + (i % 94) as u8) as char);
        i /= 94;
        if i == 0 {
            return s;
        }
    }
}

/// `width` bits of `words` (least significant word first), most significant bit first.
fn binary(words: &[u32], width: usize) -> String {
    (0..width)
        .rev()
        .map(|b| if words.get(b / 32).is_some_and(|w| w >> (b % 32) & 1 == 1) { '1' } else { '0' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_keeps_the_last_samples_and_vcd_lists_changes_only() {
        let ports = vec![
            Port { name: "clock".into(), width: 1, dir: PortDir::Input },
            Port { name: "lane_a$3".into(), width: 40, dir: PortDir::Output },
        ];
        let mut h = PortHistory::new(2);
        h.push(1, vec![vec![0], vec![1, 0]]);
        h.push(2, vec![vec![0], vec![2, 0]]);
        h.push(3, vec![vec![0], vec![2, 1]]);
        assert_eq!(h.len(), 2);
        let vcd = h.to_vcd("top", &ports);
        assert!(!vcd.contains("#1\n"), "cycle 1 was dropped: {vcd}");
        assert!(vcd.contains("lane_a_3"));
        // cycle 3 changes only the wide port, with bit 32 set and bit 1 set
        let tail = vcd.split("#3\n").nth(1).unwrap();
        assert_eq!(tail.lines().count(), 1, "{tail}");
        assert!(tail.starts_with("b00000001") && tail.contains("10 \""), "{tail}");
    }
}
