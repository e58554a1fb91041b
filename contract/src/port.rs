//! The ports of the `sync_unit` top, defined once: name, direction, width (which may depend on
//! the config), how many copies (one, one per lane of a beat, one per lane of a warp) and the
//! channel each belongs to. The RTL top (`smsync_hdl::sync_unit::top`) declares exactly these
//! (its generator checks the Verilog against [`sync_unit_ports`]), `smsync gen` writes them into
//! the manifest with their channel, `--rtl DIR` checks a directory's manifest against them, and
//! the Verilator cosim driver resolves its port indices from them.
//!
//! Naming: a port with copies is named `{name}${i}` (rust-hdl's name for element `i` of a
//! `Vec` of signals), element 0 first.

use crate::config::Config;
use crate::encoding::{ErrorCode, Op};

/// Lanes of a warp.
pub const WARP: usize = 32;
/// Width of `req_op` (the op code of the encoding table).
pub const OP_BITS: usize = Op::BITS as usize;
/// Width of `req_flags` (`encoding::flags`).
pub const FLAG_BITS: usize = 8;
/// Width of `resp_error` (an `ErrorCode`).
pub const ERROR_BITS: usize = ErrorCode::BITS as usize;
/// Width of `req_sub` (the largest user is `AtomOp`, 4 bits).
pub const SUB_BITS: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

impl Dir {
    /// `input` / `output`, as in Verilog and the manifest.
    pub fn as_str(self) -> &'static str {
        match self {
            Dir::In => "input",
            Dir::Out => "output",
        }
    }
}

/// What a port belongs to. The request is two channels: the header (`req_valid`/`req_ready`)
/// and the lane operands that follow it in beats (`beat_valid`/`beat_ready`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Clock, reset, CTA launch, timeout, `global_end`, `busy`.
    Control,
    /// The request header.
    Header,
    /// The request's lane operands, `lanes_per_beat` lanes per beat.
    Beat,
    /// The response header (`resp_valid`/`resp_ready`).
    Response,
    /// The response's lane values, `lanes_per_beat` lanes per beat, when the header says so.
    ResponseBeat,
    /// The copy engine's global-memory port (`gm_*`).
    CopyMemory,
    /// The atomic ALU's global-memory port (`ag_*`).
    AtomicMemory,
    /// Raw event outputs (`wake_*`, `phase_*`, `release_*`).
    Event,
    /// Test only (`fault_inject`).
    Test,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Control => "control",
            Channel::Header => "header",
            Channel::Beat => "beat",
            Channel::Response => "response",
            Channel::ResponseBeat => "response_beat",
            Channel::CopyMemory => "copy_memory",
            Channel::AtomicMemory => "atomic_memory",
            Channel::Event => "event",
            Channel::Test => "test",
        }
    }
}

/// A port's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    Bits(usize),
    /// `8 * copy_port_bytes` (the copy engine's data).
    CopyPortBits,
    /// `copy_port_bytes` (the copy engine's byte enables).
    CopyPortBytes,
}

/// How many copies of a port there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    One,
    /// One per lane of a beat (`lanes_per_beat`).
    BeatLanes,
}

/// One row of the port table.
#[derive(Clone, Copy, Debug)]
pub struct PortSpec {
    pub name: &'static str,
    pub dir: Dir,
    pub width: Width,
    pub count: Count,
    pub channel: Channel,
}

const fn p(name: &'static str, dir: Dir, bits: usize, channel: Channel) -> PortSpec {
    PortSpec { name, dir, width: Width::Bits(bits), count: Count::One, channel }
}

const fn lanes(name: &'static str, dir: Dir, bits: usize, count: Count, channel: Channel) -> PortSpec {
    PortSpec { name, dir, width: Width::Bits(bits), count, channel }
}

const fn w(name: &'static str, dir: Dir, width: Width, channel: Channel) -> PortSpec {
    PortSpec { name, dir, width, count: Count::One, channel }
}

use Channel::*;
use Dir::{In, Out};

/// The `sync_unit` top's ports, in the order the top declares them. Protocols: the top's module
/// doc and docs/units/sync_unit.md.
pub const SYNC_UNIT_PORTS: &[PortSpec] = &[
    p("clock", In, 1, Control),
    p("reset", In, 1, Control),
    p("launch", In, 1, Control),
    p("launch_slot", In, 5, Control),
    p("launch_warps", In, 32, Control),
    p("timeout", In, 1, Control),
    p("fault_inject", In, 1, Test),
    p("global_end", In, 64, Control),
    p("busy", Out, 1, Control),
    // Request header: taken when req_valid and req_ready are both high.
    p("req_valid", In, 1, Header),
    p("req_ready", Out, 1, Header),
    p("req_tag", In, 64, Header),
    p("req_cta", In, 5, Header),
    p("req_warp", In, 5, Header),
    p("req_op", In, OP_BITS, Header),
    p("req_sub", In, SUB_BITS, Header),
    p("req_dtype", In, 4, Header),
    p("req_space", In, 2, Header),
    p("req_flags", In, FLAG_BITS, Header),
    p("req_vec", In, 4, Header),
    p("req_imm", In, 32, Header),
    p("req_imm2", In, 32, Header),
    p("req_member", In, 32, Header),
    p("req_active", In, 32, Header),
    p("req_live", In, 32, Header),
    // Lane operands: 32 / lanes_per_beat beats in lane order after the header.
    p("beat_valid", In, 1, Beat),
    p("beat_ready", Out, 1, Beat),
    lanes("beat_addr", In, 64, Count::BeatLanes, Beat),
    lanes("beat_src", In, 64, Count::BeatLanes, Beat),
    lanes("beat_mbar", In, 64, Count::BeatLanes, Beat),
    lanes("beat_a", In, 128, Count::BeatLanes, Beat),
    lanes("beat_b", In, 128, Count::BeatLanes, Beat),
    lanes("beat_c", In, 128, Count::BeatLanes, Beat),
    // Response header: taken when resp_valid and resp_ready are both high.
    p("resp_valid", Out, 1, Response),
    p("resp_ready", In, 1, Response),
    p("resp_tag", Out, 64, Response),
    p("resp_cta", Out, 5, Response),
    p("resp_warp", Out, 5, Response),
    p("resp_lanes", Out, 32, Response),
    p("resp_preds", Out, 32, Response),
    p("resp_error", Out, ERROR_BITS, Response),
    p("resp_error_lane", Out, 5, Response),
    p("resp_has_values", Out, 1, Response),
    // Response values: when resp_has_values, 32 / lanes_per_beat beats in lane order (beat 0
    // may be taken with the header); otherwise every lane's value is 0 and no beat follows.
    p("resp_beat_valid", Out, 1, ResponseBeat),
    p("resp_beat_ready", In, 1, ResponseBeat),
    lanes("resp_beat_values", Out, 128, Count::BeatLanes, ResponseBeat),
    p("gm_req", Out, 1, CopyMemory),
    p("gm_grant", In, 1, CopyMemory),
    p("gm_we", Out, 1, CopyMemory),
    p("gm_addr", Out, 64, CopyMemory),
    w("gm_wdata", Out, Width::CopyPortBits, CopyMemory),
    w("gm_be", Out, Width::CopyPortBytes, CopyMemory),
    p("gm_rvalid", In, 1, CopyMemory),
    p("gm_rready", Out, 1, CopyMemory),
    w("gm_rdata", In, Width::CopyPortBits, CopyMemory),
    p("ag_req", Out, 1, AtomicMemory),
    p("ag_grant", In, 1, AtomicMemory),
    p("ag_we", Out, 1, AtomicMemory),
    p("ag_addr", Out, 64, AtomicMemory),
    p("ag_wdata", Out, 128, AtomicMemory),
    p("ag_be", Out, 16, AtomicMemory),
    p("ag_rvalid", In, 1, AtomicMemory),
    p("ag_rdata", In, 128, AtomicMemory),
    p("wake_valid", Out, 1, Event),
    p("wake_cta", Out, 5, Event),
    p("wake_warp", Out, 5, Event),
    p("wake_lane", Out, 5, Event),
    p("wake_pred", Out, 1, Event),
    p("phase_valid", Out, 1, Event),
    p("phase_slot", Out, 5, Event),
    p("phase_word", Out, 15, Event),
    p("phase_parity", Out, 1, Event),
    p("release_valid", Out, 1, Event),
    p("release_cta", Out, 5, Event),
    p("release_id", Out, 4, Event),
    p("release_warps", Out, 32, Event),
];

/// The header fields of the request, in the order [`crate::request::Request`]'s packing uses
/// (the cosim driver and the board bridge put them on the port in this order).
pub const HEADER_FIELDS: [&str; 14] = [
    "req_tag",
    "req_cta",
    "req_warp",
    "req_op",
    "req_sub",
    "req_dtype",
    "req_space",
    "req_flags",
    "req_vec",
    "req_imm",
    "req_imm2",
    "req_member",
    "req_active",
    "req_live",
];

/// The per-lane operand ports of a beat, in the order addr, src, mbar, a, b, c.
pub const BEAT_FIELDS: [&str; 6] = ["beat_addr", "beat_src", "beat_mbar", "beat_a", "beat_b", "beat_c"];

/// One port of the top for a config: the table row expanded (a lane copy has its own name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopPort {
    pub name: String,
    pub dir: Dir,
    pub width: usize,
    pub channel: Channel,
}

impl PortSpec {
    /// The width of this port for `config`.
    pub fn width_for(&self, config: &Config) -> usize {
        match self.width {
            Width::Bits(b) => b,
            Width::CopyPortBits => 8 * config.copy_port_bytes as usize,
            Width::CopyPortBytes => config.copy_port_bytes as usize,
        }
    }

    /// How many copies of this port there are for `config`.
    pub fn copies(&self, config: &Config) -> usize {
        match self.count {
            Count::One => 1,
            Count::BeatLanes => config.lanes_per_beat as usize,
        }
    }
}

/// Beats per request for `config`: `32 / lanes_per_beat`.
pub fn beats_per_request(config: &Config) -> usize {
    WARP / config.lanes_per_beat.max(1) as usize
}

/// Every port of the `sync_unit` top for `config`, in the table's order, lane copies expanded.
pub fn sync_unit_ports(config: &Config) -> Vec<TopPort> {
    let mut out = Vec::new();
    for s in SYNC_UNIT_PORTS {
        let width = s.width_for(config);
        if s.count == Count::One {
            out.push(TopPort { name: s.name.into(), dir: s.dir, width, channel: s.channel });
        } else {
            for i in 0..s.copies(config) {
                out.push(TopPort { name: lane_port(s.name, i), dir: s.dir, width, channel: s.channel });
            }
        }
    }
    out
}

/// The name of copy `i` of a per-lane port: `beat_a$3`.
pub fn lane_port(name: &str, i: usize) -> String {
    format!("{name}${i}")
}

/// The channel of port `name` (a lane copy's is its row's), if the table has it.
pub fn channel_of(name: &str) -> Option<Channel> {
    let base = name.split('$').next().unwrap_or(name);
    SYNC_UNIT_PORTS.iter().find(|s| s.name == base).map(|s| s.channel)
}

/// `Err` with one line per difference between `actual` (name, dir, width) and the table for
/// `config`: ports missing, extra, or with another width or direction.
pub fn check_ports<'a>(
    config: &Config,
    actual: impl IntoIterator<Item = (&'a str, Dir, usize)>,
) -> Result<(), Vec<String>> {
    let expected: Vec<(String, &str, usize)> =
        sync_unit_ports(config).into_iter().map(|e| (e.name, e.dir.as_str(), e.width)).collect();
    let actual: Vec<(&str, &str, usize)> = actual.into_iter().map(|(n, d, w)| (n, d.as_str(), w)).collect();
    compare_port_lists(&expected, &actual, "the port table")
}

/// Expected against actual ports, each `(name, "input" | "output", width)`: one line per
/// problem, expected order first, then the actual ports that `expected_source` (e.g. "the
/// manifest") lacks. The one comparison behind every port check (the port table here, a
/// `--rtl` directory's manifest in smsync-testbench).
pub fn compare_port_lists<E: AsRef<str>, A: AsRef<str>>(
    expected: &[(E, &str, usize)],
    actual: &[(A, &str, usize)],
    expected_source: &str,
) -> Result<(), Vec<String>> {
    let describe = |dir: &str, width: usize| format!("{dir}, {width} bit{}", if width == 1 { "" } else { "s" });
    let mut problems = Vec::new();
    for (name, dir, width) in expected {
        let name = name.as_ref();
        match actual.iter().find(|a| a.0.as_ref() == name) {
            None => problems.push(format!("port `{name}` ({}) is missing", describe(dir, *width))),
            Some(a) if a.2 != *width => {
                problems.push(format!("port `{name}`: expected width {width}, actual width {}", a.2))
            }
            Some(a) if a.1 != *dir => problems.push(format!("port `{name}`: expected direction {dir}, actual {}", a.1)),
            Some(_) => {}
        }
    }
    for (name, dir, width) in actual.iter().filter(|a| !expected.iter().any(|e| e.0.as_ref() == a.0.as_ref())) {
        problems.push(format!("port `{}` ({}) is not in {expected_source}", name.as_ref(), describe(dir, *width)));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beat_ports_follow_lanes_per_beat() {
        let small = sync_unit_ports(&Config::fpga_small());
        assert!(small.iter().any(|p| p.name == "beat_a$3" && p.width == 128 && p.channel == Channel::Beat));
        assert!(!small.iter().any(|p| p.name == "beat_a$4"));
        assert!(!small.iter().any(|p| p.name.starts_with("lane_")));
        let default = sync_unit_ports(&Config::default());
        assert!(default.iter().any(|p| p.name == "beat_c$31"));
        assert!(default.iter().any(|p| p.name == "resp_beat_values$31"));
        assert!(small.iter().any(|p| p.name == "resp_beat_values$3" && p.channel == Channel::ResponseBeat));
        assert!(!small.iter().any(|p| p.name == "resp_beat_values$4"));
        assert_eq!(beats_per_request(&Config::fpga_small()), 8);
    }

    #[test]
    fn every_header_and_beat_field_is_in_the_table() {
        for n in HEADER_FIELDS {
            assert_eq!(channel_of(n), Some(Channel::Header), "{n}");
        }
        for n in BEAT_FIELDS {
            assert_eq!(channel_of(&lane_port(n, 0)), Some(Channel::Beat), "{n}");
        }
    }

    #[test]
    fn check_names_each_problem() {
        let cfg = Config::fpga_small();
        let mut ports: Vec<(String, Dir, usize)> =
            sync_unit_ports(&cfg).into_iter().map(|p| (p.name, p.dir, p.width)).collect();
        assert!(check_ports(&cfg, ports.iter().map(|p| (p.0.as_str(), p.1, p.2))).is_ok());
        ports.retain(|p| p.0 != "beat_valid");
        ports.push(("lane_a$0".into(), Dir::In, 128));
        let e = check_ports(&cfg, ports.iter().map(|p| (p.0.as_str(), p.1, p.2))).unwrap_err();
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[0].contains("`beat_valid`") && e[1].contains("`lane_a$0`"), "{e:?}");
    }
}
