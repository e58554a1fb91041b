//! The architecture configuration: one validated struct, read from YAML, shared by every crate.
//!
//! A config file may name a `base` (one of the built-in presets) and override only the fields it
//! cares about, Chipyard-style: `base: fpga-small` plus `atomic_lanes: 8` is a complete config.
//! Every numeric field has an allowed range; a value outside it is refused with the field name,
//! the value and the range, never clamped.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// Optional instruction families. A family that is not built is rejected by the executor with a
/// "not built in this config" error and its hardware is left out of the generated Verilog.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Features {
    /// cp.async.bulk / cp.reduce.async.bulk (global <-> shared bulk copies).
    pub bulk_copy: bool,
    /// cp.async.bulk.tensor (TMA tile mode, 1d..5d).
    pub tensor_copy: bool,
    /// Floating-point atomics (f32/f64/f16/bf16 add, f16/bf16 min/max).
    pub float_atomics: bool,
    /// 128-bit atom.cas / atom.exch.
    pub atomic_b128: bool,
    /// redux.sync .f32 min/max with .abs/.NaN (sm_100a).
    pub redux_f32: bool,
    /// match.sync .any/.all.
    pub match_sync: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            bulk_copy: true,
            tensor_copy: true,
            float_atomics: true,
            atomic_b128: true,
            redux_f32: true,
            match_sync: true,
        }
    }
}

/// How match.any.sync is computed in hardware: all 32x32 comparators at once, or one lane
/// per cycle (an architecture-exploration axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchImpl {
    Parallel,
    Iterative,
}

/// How a warp scheduler of the timing model picks among its ready warps each cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedPolicy {
    /// Loose round-robin: the ready warp after the one that issued last.
    Lrr,
    /// Greedy-then-oldest: the warp that issued last while it stays ready, else the oldest
    /// (lowest slot, then lowest warp) ready warp.
    Gto,
}

/// Which machine the golden units' timing back end (`smsync run --timing`) models for the sync
/// unit. The SM around it (schedulers, instruction classes, `global_latency`) is the same in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimingModel {
    /// Each unit a server of its own with the H100-calibrated latencies of `timing:`.
    #[default]
    H100,
    /// The generated RTL top as the timed cosim drives it: one request port (a header and
    /// `32 / lanes_per_beat` beats), a queue of `requests_in_flight` entries, one core that works
    /// on one request at a time, with the top's own latencies measured on the RTL back end
    /// (docs/TIMING.md, "The RTL profile"); global memory at `rtl_gm_latency`.
    Rtl,
}

/// The SM around the sync unit, for the timing model (`smsync run --timing`): how warps issue
/// and how long each instruction class and each sync-unit op takes, in core cycles. Neither the
/// golden model's results nor the RTL depend on it. The defaults are calibrated so that the
/// timing microbenchmarks (`testbench/ptx/timing/`) measure the published H100 / H800 figure
/// where one exists; docs/TIMING.md lists each figure, its source and the model's figure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Timing {
    /// Warp schedulers (Hopper: 4 per SM, one per sub-partition); warp `w` of slot `s` belongs
    /// to scheduler `(s * max_warps_per_cta + w) % schedulers`. Each issues at most one
    /// warp-instruction per cycle.
    pub schedulers: u32,
    pub policy: SchedPolicy,
    /// The sync unit's golden timing model: `h100` (the latencies below) or `rtl` (the generated
    /// top's microarchitecture and measured latencies; the `*_latency` fields of the sync units
    /// and `copy_latency` are then not used).
    pub model: TimingModel,
    /// With `model: rtl`: cycles from a global read's grant to its data on the top's global
    /// ports (the timed cosim's `--gm-latency`, 20 by default).
    pub rtl_gm_latency: u32,
    /// Integer, logic, compare, move, conversion and f32 add/mul/fma: cycles until a dependent
    /// instruction may issue.
    pub alu_latency: u32,
    /// f64 arithmetic.
    pub fp64_latency: u32,
    /// div, rem, sqrt, rcp, rsqrt, ex2, lg2, sin, cos (the special-function unit).
    pub sfu_latency: u32,
    /// ld.global, .local, .const (one level of memory: an L2 hit; the model has no caches).
    pub global_latency: u32,
    /// ld/st.shared through the sync unit's LSU, after its last lane.
    pub shared_latency: u32,
    /// Barrier file: a bar/barrier request, and a release after the last arrival.
    pub barrier_latency: u32,
    /// mbarrier ALU: after the last lane's operation.
    pub mbarrier_latency: u32,
    /// Atomic ALU on shared memory: after the last step.
    pub atomic_latency: u32,
    /// Atomic ALU on global memory (an L2 atomic): after the last step.
    pub atomic_global_latency: u32,
    /// Warp network (vote, match, redux, shfl, elect): after the last operand beat.
    pub warp_network_latency: u32,
    /// Copy engine: an async copy's fixed cost besides its bytes streaming through the
    /// `copy_port_bytes`-wide port (the global memory's latency).
    pub copy_latency: u32,
}

impl Default for Timing {
    fn default() -> Self {
        // Sources in docs/TIMING.md ("Calibration"); "assumed" where no Hopper figure is published.
        Timing {
            schedulers: 4,
            policy: SchedPolicy::Gto,
            model: TimingModel::H100,
            rtl_gm_latency: 20,         // the timed cosim's default --gm-latency
            alu_latency: 4,             // H100 PCIe INT32 / FP32 dependent latency 4 (arXiv 2507.10789, Table III)
            fp64_latency: 8,            // H100 PCIe FP64 dependent latency 8.04 (same table)
            sfu_latency: 18,            // assumed: no Hopper figure published
            global_latency: 263,        // H800 L2 hit 263.0 (arXiv 2402.13499, Table IV)
            shared_latency: 28,         // H800 shared load 29.0 (same table) = 1 LSU cycle + 28
            barrier_latency: 22,        // A100 __syncthreads, one warp, 23 (Burtchell & Burtscher, IISWC'24) = 1 + 22
            mbarrier_latency: 20,       // assumed
            atomic_latency: 28,         // assumed: as a shared load
            atomic_global_latency: 263, // "slightly higher than L2" (Chips and Cheese, H100): the L2 hit
            warp_network_latency: 24,   // A100 __shfl_sync 25 (Burtchell & Burtscher) = 1 beat + 24
            // H800 TMA 16-byte cp.async.bulk chase, 365-369 cycles per hop (HPMLL raw data),
            // less the hop's own mbarrier and ld.shared cycles in this model
            copy_latency: 293,
        }
    }
}

/// The timing fields' allowed ranges (checked like [`RANGES`]; named `timing.<field>`).
pub const TIMING_RANGES: &[(&str, u32, u32, &str)] = &[
    ("timing.schedulers", 1, 8, ""),
    ("timing.alu_latency", 1, 10_000, ""),
    ("timing.fp64_latency", 1, 10_000, ""),
    ("timing.sfu_latency", 1, 10_000, ""),
    ("timing.global_latency", 1, 10_000, ""),
    ("timing.shared_latency", 1, 10_000, ""),
    ("timing.barrier_latency", 1, 10_000, ""),
    ("timing.mbarrier_latency", 1, 10_000, ""),
    ("timing.atomic_latency", 1, 10_000, ""),
    ("timing.atomic_global_latency", 1, 10_000, ""),
    ("timing.warp_network_latency", 1, 10_000, ""),
    ("timing.copy_latency", 1, 10_000, ""),
    ("timing.rtl_gm_latency", 1, 10_000, "the timed cosim's --gm-latency (0 there is taken as 1)"),
];

impl Timing {
    fn field(&self, name: &str) -> u32 {
        match name {
            "timing.schedulers" => self.schedulers,
            "timing.alu_latency" => self.alu_latency,
            "timing.fp64_latency" => self.fp64_latency,
            "timing.sfu_latency" => self.sfu_latency,
            "timing.global_latency" => self.global_latency,
            "timing.shared_latency" => self.shared_latency,
            "timing.barrier_latency" => self.barrier_latency,
            "timing.mbarrier_latency" => self.mbarrier_latency,
            "timing.atomic_latency" => self.atomic_latency,
            "timing.atomic_global_latency" => self.atomic_global_latency,
            "timing.warp_network_latency" => self.warp_network_latency,
            "timing.copy_latency" => self.copy_latency,
            "timing.rtl_gm_latency" => self.rtl_gm_latency,
            _ => unreachable!("TIMING_RANGES names only Timing fields"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// A human name, printed in manifests and reports.
    pub name: String,
    /// Threads per warp. PTX membermasks are 32 bits wide, so this is fixed at 32.
    pub warp_size: u32,
    /// Maximum warps per CTA (32 warps = 1024 threads).
    pub max_warps_per_cta: u32,
    /// CTA slots resident at once in the sync unit (each has its own barrier file and shared memory).
    pub cta_slots: u32,
    /// CTAs per cluster (1 = no clusters). Multicast copies and shared::cluster address CTAs of a cluster.
    pub cluster_size: u32,
    /// Named barriers per CTA. PTX defines 16.
    pub named_barriers: u32,
    /// Shared memory per CTA slot in bytes (static plus dynamic).
    pub shared_bytes: u32,
    /// Atomic ALU lanes: how many lanes of a warp's atomic are executed per cycle.
    pub atomic_lanes: u32,
    /// Pipeline stages of the atomic ALU's element datapath after its first (0: the element in
    /// one cycle; 3: the float adders' align/add, normalise and round in stages of their own,
    /// for the clock an FPGA can reach). Each stage adds a cycle to every atom/red request and
    /// to every lane that waits for a same-address lane (docs/units/atomic_alu.md).
    pub atomic_element_stages: u32,
    /// Lanes of a warp request carried per beat (per cycle) on a unit's operand stream, and the
    /// width of the lane datapaths behind it (the warp network's shuffle crossbar and match rows):
    /// 32 = a whole warp per cycle, 4 = eight beats per warp request.
    pub lanes_per_beat: u32,
    /// Requests the `sync_unit` top holds at once in its request queue (header and operands):
    /// the next requests stream in while the core works on one; the core takes them in order,
    /// except that a request its unit refuses for now (a warp-network partial arrival at a new
    /// rendezvous while its warp's `rendezvous_per_warp` records are all pending) is passed by
    /// younger requests of other lanes. 1 = the port waits for each request to finish.
    pub requests_in_flight: u32,
    /// Rendezvous one warp may have pending at once in the warp network (a record each): lane
    /// groups of a diverged warp waiting at different collectives (PTX ISA §9.7.13.9-§9.7.13.12).
    /// A partial arrival at a new rendezvous while all are pending waits for one to complete.
    pub rendezvous_per_warp: u32,
    /// Copy engine global-memory port width in bytes per cycle.
    pub copy_port_bytes: u32,
    /// Copy engine request queue depth.
    pub copy_queue_depth: u32,
    /// Entries of the mbarrier waiter table (suspended try_wait warps).
    pub mbarrier_waiters: u32,
    /// match.any implementation.
    pub match_impl: MatchImpl,
    /// Core clock of a board top (MHz), made by the board's PLL from its oscillator; the PLL's
    /// rules narrow the range per board (fpga/boards/src/pll.rs). The simulator does not use it.
    pub core_clock_mhz: u32,
    /// Optional op families.
    pub features: Features,
    /// The SM timing model's parameters (not used by the RTL or by untimed runs).
    #[serde(default)]
    pub timing: Timing,
}

/// The allowed range of each numeric field, in one table so that validation, error messages,
/// docs and the sweep checker all agree.
pub const RANGES: &[(&str, u32, u32, &str)] = &[
    ("warp_size", 32, 32, "PTX membermasks are 32 bits"),
    ("max_warps_per_cta", 1, 32, "at most 1024 threads per CTA"),
    ("cta_slots", 1, 32, ""),
    ("cluster_size", 1, 16, "ctaMask is 16 bits"),
    ("named_barriers", 1, 16, "PTX names barriers 0..15"),
    ("shared_bytes", 1024, 232448, "228 KiB is the sm_90 limit; must be a multiple of 16"),
    ("atomic_lanes", 1, 32, "a power of two"),
    ("atomic_element_stages", 0, 3, "0 or 3"),
    ("lanes_per_beat", 1, 32, "a power of two"),
    ("requests_in_flight", 1, 8, "entries of the top's request queue"),
    ("rendezvous_per_warp", 1, 4, "warp-network records per warp"),
    ("copy_port_bytes", 4, 128, "a power of two"),
    ("copy_queue_depth", 1, 256, ""),
    ("mbarrier_waiters", 1, 1024, ""),
    ("core_clock_mhz", 1, 1000, "a board's PLL narrows it: ECP5 EHXPLLL 3.125..=400, 7-series PLLE2 6.25..=464"),
];

/// Fields with a fixed set of values, checked by name before the rest: (section, field, values).
const CHOICES: &[(&str, &str, &[&str])] = &[("timing", "model", &["h100", "rtl"])];

#[derive(Debug, Clone, PartialEq)]
pub enum ConfigError {
    /// A field's value is outside its range.
    Range {
        field: String,
        value: i64,
        min: i64,
        max: i64,
        note: String,
    },
    /// The YAML could not be parsed or has unknown fields (the message includes the line).
    Parse {
        file: String,
        message: String,
    },
    /// The `base` preset name is unknown.
    UnknownBase {
        file: String,
        base: String,
    },
    Io {
        file: String,
        message: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Range { field, value, min, max, note } => {
                write!(f, "config field `{field}` = {value} is out of range: allowed {min}..={max}")?;
                if !note.is_empty() {
                    write!(f, " ({note})")?;
                }
                Ok(())
            }
            ConfigError::Parse { file, message } => write!(f, "{file}: {message}"),
            ConfigError::UnknownBase { file, base } => write!(
                f,
                "{file}: field `base` = `{base}` is not a built-in config; allowed: {}",
                PRESETS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            ),
            ConfigError::Io { file, message } => write!(f, "{file}: {message}"),
        }
    }
}

impl std::error::Error for ConfigError {}

/// A preset's constructor.
pub type PresetFn = fn() -> Config;

/// Built-in presets; `configs/*.yaml` are these written out, and `base:` refers to them by name.
pub const PRESETS: &[(&str, PresetFn)] = &[("default", Config::hopper_like), ("fpga-small", Config::fpga_small)];

impl Default for Config {
    fn default() -> Self {
        Config::hopper_like()
    }
}

impl Config {
    /// A Hopper-like SM: 32 warps per CTA, 16 resident CTAs, 228 KiB shared memory per SM
    /// (modelled as per CTA slot up to the per-block maximum), full-width atomic ALU.
    pub fn hopper_like() -> Config {
        Config {
            name: "default".into(),
            warp_size: 32,
            max_warps_per_cta: 32,
            cta_slots: 16,
            cluster_size: 1,
            named_barriers: 16,
            shared_bytes: 232448,
            atomic_lanes: 32,
            atomic_element_stages: 3,
            lanes_per_beat: 32,
            requests_in_flight: 4,
            rendezvous_per_warp: 4,
            copy_port_bytes: 64,
            copy_queue_depth: 32,
            mbarrier_waiters: 64,
            match_impl: MatchImpl::Parallel,
            core_clock_mhz: 25,
            features: Features::default(),
            timing: Timing::default(),
        }
    }

    /// Sized for a mid-range FPGA (ECP5-85F / Artix-7 100T): 2 CTA slots of 8 warps, 16 KiB shared.
    pub fn fpga_small() -> Config {
        Config {
            name: "fpga-small".into(),
            warp_size: 32,
            max_warps_per_cta: 8,
            cta_slots: 2,
            cluster_size: 1,
            named_barriers: 16,
            shared_bytes: 16384,
            atomic_lanes: 4,
            atomic_element_stages: 3,
            lanes_per_beat: 4,
            requests_in_flight: 2,
            rendezvous_per_warp: 3,
            copy_port_bytes: 8,
            copy_queue_depth: 4,
            mbarrier_waiters: 8,
            match_impl: MatchImpl::Iterative,
            // Below the ~40 MHz the placed units reach (docs/FPGA.md); raise it once the board
            // top places and meets more.
            core_clock_mhz: 25,
            // Every op is built: redux.sync.f32 (the redux combiners carry the f32 order and NaN
            // rules whatever the flag) and the 128-bit atomics (the lead element's b128 datapath).
            features: Features::default(),
            // The same SM around the unit: the prototype's timing questions are the unit's.
            timing: Timing::default(),
        }
    }

    pub fn preset(name: &str) -> Option<Config> {
        PRESETS.iter().find(|(n, _)| *n == name).map(|(_, f)| f())
    }

    /// Read a config file. `base:` (optional, default `default`) picks the preset that the file's
    /// fields override.
    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::Io { file: file.clone(), message: e.to_string() })?;
        Config::from_yaml(&text, &file)
    }

    pub fn from_yaml(text: &str, file: &str) -> Result<Config, ConfigError> {
        // Two passes: read `base` (and keep everything else as an untyped map), then overlay the
        // file's fields onto the preset and deserialize the result strictly.
        let doc: serde_json::Value = serde_saphyr::from_str(text)
            .map_err(|e| ConfigError::Parse { file: file.to_string(), message: e.to_string() })?;
        let mut map = match doc {
            serde_json::Value::Object(m) => m,
            serde_json::Value::Null => serde_json::Map::new(),
            other => {
                return Err(ConfigError::Parse {
                    file: file.to_string(),
                    message: format!("a config is a mapping of fields, found {other}"),
                })
            }
        };
        let base_name = match map.remove("base") {
            None => "default".to_string(),
            Some(serde_json::Value::String(s)) => s,
            Some(v) => {
                return Err(ConfigError::Parse {
                    file: file.into(),
                    message: format!("field `base` must be a string, found {v}"),
                })
            }
        };
        let base = Config::preset(&base_name).ok_or(ConfigError::UnknownBase { file: file.into(), base: base_name })?;
        let mut merged = serde_json::to_value(base).expect("config serializes");
        overlay(&mut merged, serde_json::Value::Object(map));
        // Choice fields, checked first so that a bad value names its field (serde's message
        // names only the value and the variants).
        for &(section, key, allowed) in CHOICES {
            if let Some(v) = merged.get(section).and_then(|s| s.get(key)) {
                if !v.as_str().is_some_and(|x| allowed.contains(&x)) {
                    return Err(ConfigError::Parse {
                        file: file.to_string(),
                        message: format!("field `{section}.{key}` = {v}: allowed values are {}", allowed.join(", ")),
                    });
                }
            }
        }
        let cfg: Config = serde_json::from_value(merged).map_err(|e| ConfigError::Parse {
            file: file.to_string(),
            message: format!("{e} (see configs/default.yaml for every field)"),
        })?;
        cfg.validate()?;
        Ok(cfg)
    }

    pub fn to_yaml(&self) -> String {
        serde_saphyr::to_string(self).expect("config serializes to YAML")
    }

    fn field(&self, name: &str) -> u32 {
        match name {
            "warp_size" => self.warp_size,
            "max_warps_per_cta" => self.max_warps_per_cta,
            "cta_slots" => self.cta_slots,
            "cluster_size" => self.cluster_size,
            "named_barriers" => self.named_barriers,
            "shared_bytes" => self.shared_bytes,
            "atomic_lanes" => self.atomic_lanes,
            "atomic_element_stages" => self.atomic_element_stages,
            "lanes_per_beat" => self.lanes_per_beat,
            "requests_in_flight" => self.requests_in_flight,
            "rendezvous_per_warp" => self.rendezvous_per_warp,
            "copy_port_bytes" => self.copy_port_bytes,
            "copy_queue_depth" => self.copy_queue_depth,
            "mbarrier_waiters" => self.mbarrier_waiters,
            "core_clock_mhz" => self.core_clock_mhz,
            _ => unreachable!("RANGES names only Config fields"),
        }
    }

    /// Check every field against its range and the cross-field rules.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for &(name, min, max, note) in RANGES {
            let v = self.field(name);
            if v < min || v > max {
                return Err(range(name, v as i64, min as i64, max as i64, note));
            }
        }
        for name in ["atomic_lanes", "lanes_per_beat", "copy_port_bytes"] {
            let v = self.field(name);
            if !v.is_power_of_two() {
                let (_, min, max, _) = RANGES.iter().find(|r| r.0 == name).unwrap();
                return Err(range(name, v as i64, *min as i64, *max as i64, "must be a power of two"));
            }
        }
        for &(name, min, max, note) in TIMING_RANGES {
            let v = self.timing.field(name);
            if v < min || v > max {
                return Err(range(name, v as i64, min as i64, max as i64, note));
            }
        }
        if ![0, 3].contains(&self.atomic_element_stages) {
            return Err(range(
                "atomic_element_stages",
                self.atomic_element_stages as i64,
                0,
                3,
                "must be 0 (the element in one cycle) or 3 (the float adders' stages)",
            ));
        }
        if !self.shared_bytes.is_multiple_of(16) {
            return Err(range("shared_bytes", self.shared_bytes as i64, 1024, 232448, "must be a multiple of 16"));
        }
        if !self.cta_slots.is_multiple_of(self.cluster_size) {
            return Err(range(
                "cluster_size",
                self.cluster_size as i64,
                1,
                self.cta_slots as i64,
                "must divide cta_slots: a cluster's CTAs are resident together",
            ));
        }
        if self.features.tensor_copy && !self.features.bulk_copy {
            return Err(ConfigError::Range {
                field: "features.tensor_copy".into(),
                value: 1,
                min: 0,
                max: 0,
                note: "tensor copies need features.bulk_copy".into(),
            });
        }
        Ok(())
    }

    pub fn max_threads_per_cta(&self) -> u32 {
        self.max_warps_per_cta * self.warp_size
    }
}

fn range(field: &str, value: i64, min: i64, max: i64, note: &str) -> ConfigError {
    ConfigError::Range { field: field.into(), value, min, max, note: note.into() }
}

fn overlay(base: &mut serde_json::Value, top: serde_json::Value) {
    match (base, top) {
        (serde_json::Value::Object(b), serde_json::Value::Object(t)) => {
            for (k, v) in t {
                match b.get_mut(&k) {
                    Some(slot) if slot.is_object() && v.is_object() => overlay(slot, v),
                    _ => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, t) => *b = t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_validate() {
        for (name, f) in PRESETS {
            f().validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn override_on_base() {
        let c = Config::from_yaml("base: fpga-small\natomic_lanes: 8\nfeatures: { match_sync: false }\n", "t.yaml")
            .unwrap();
        assert_eq!(c.atomic_lanes, 8);
        assert_eq!(c.cta_slots, 2);
        assert!(!c.features.match_sync);
        assert!(c.features.bulk_copy);
    }

    #[test]
    fn out_of_range_names_field_value_and_range() {
        let e = Config::from_yaml("named_barriers: 17\n", "t.yaml").unwrap_err().to_string();
        assert!(e.contains("named_barriers") && e.contains("17") && e.contains("1..=16"), "{e}");
        let e = Config::from_yaml("atomic_lanes: 6\n", "t.yaml").unwrap_err().to_string();
        assert!(e.contains("atomic_lanes") && e.contains("power of two"), "{e}");
    }

    #[test]
    fn unknown_field_and_bad_yaml_are_errors() {
        let e = Config::from_yaml("atomic_lane: 6\n", "t.yaml").unwrap_err().to_string();
        assert!(e.contains("atomic_lane"), "{e}");
        let e = Config::from_yaml("a: [1, 2\n", "t.yaml").unwrap_err().to_string();
        assert!(e.contains("t.yaml"), "{e}");
        let e = Config::from_yaml("base: volta\n", "t.yaml").unwrap_err().to_string();
        assert!(e.contains("volta") && e.contains("fpga-small"), "{e}");
    }

    /// `timing.model` takes `h100` or `rtl`; a bad value names the field, the value and the
    /// allowed values; `timing.rtl_gm_latency` out of range names its range.
    #[test]
    fn timing_model_and_its_bad_values() {
        let c = Config::from_yaml("base: fpga-small\ntiming: { model: rtl, rtl_gm_latency: 7 }\n", "t.yaml").unwrap();
        assert_eq!((c.timing.model, c.timing.rtl_gm_latency), (TimingModel::Rtl, 7));
        assert_eq!(Config::default().timing.model, TimingModel::H100);
        let e = Config::from_yaml("timing: { model: volta }\n", "t.yaml").unwrap_err().to_string();
        assert!(e.contains("model") && e.contains("volta") && e.contains("h100") && e.contains("rtl"), "{e}");
        let e = Config::from_yaml("timing: { model: rtl, rtl_gm_latency: 0 }\n", "t.yaml").unwrap_err().to_string();
        assert!(e.contains("timing.rtl_gm_latency") && e.contains('0') && e.contains("1..=10000"), "{e}");
    }

    #[test]
    fn yaml_round_trip() {
        let c = Config::fpga_small();
        let text = c.to_yaml();
        assert_eq!(Config::from_yaml(&text, "rt").unwrap(), c);
    }
}
