//! The sweep file: a base config, the axes to vary, the workloads, the synthesis targets.
//!
//! ```yaml
//! name: copy-port
//! base: fpga-small                 # a preset name, or a config file (relative to this file)
//! axes:                            # every combination is one point; the first axis varies slowest
//!   copy_port_bytes: [8, 16, 32]   # a list ...
//!   cta_slots: {from: 1, to: 4}    # ... or a range (step 1 by default) ...
//!   atomic_lanes: {from: 1, to: 32, times: 2}   # ... or a geometric range
//!   match_impl: [parallel, iterative]
//!   features.redux_f32: [false, true]
//! workloads:                       # PTX kernels run under cosim for cycle counts
//!   - ../../testbench/ptx/block_reduce.ptx      # its launch file: same stem + .launch.yaml
//!   - {kernel: k.ptx, launch: k.launch.yaml}
//! targets: [ecp5-85k]              # synthesis targets (may be empty: no area figures)
//! synth_modules: [copy_engine]     # optional: synthesise only these modules (the top takes hours)
//! cycles: timed                    # optional: `cosim` (default, the RTL one request at a time),
//!                                  # `timed` (the SM timing model on the golden units,
//!                                  # `smsync run --timing`) or `timed-rtl` (the SM timing model
//!                                  # on the Verilated top, `smsync cosim --timing`)
//! ```
//!
//! [`Sweep::load`] refuses a bad sweep before any work starts: an unknown key or axis, a value of
//! the wrong type or out of its range (the config's own range table says which), an empty axis,
//! a missing or unparsable workload, an unknown target. Every error names the problem.

use serde::Deserialize;
use serde_json::{Map, Value};
use smsync_sim::config::Config;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Synthesis targets `smsync synth` knows (checked against the fpga crate in a test).
pub const KNOWN_TARGETS: &[&str] = &["ecp5-85k", "ice40-up5k", "xilinx-7"];

/// Modules `smsync gen` writes (and `smsync synth --module` takes).
pub const KNOWN_MODULES: &[&str] =
    &["barrier_file", "mbarrier_alu", "atomic_alu", "warp_network", "copy_engine", "sync_unit"];

/// Points in one sweep at most: a guard against a typo such as `to: 100000`.
pub const MAX_POINTS: usize = 4096;

#[derive(Debug)]
pub struct SweepError(pub String);

impl fmt::Display for SweepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, SweepError> {
    Err(SweepError(msg.into()))
}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepFile {
    name: String,
    #[serde(default = "default_base")]
    base: String,
    axes: indexmap_like::OrderedAxes,
    #[serde(default)]
    workloads: Vec<WorkloadSpec>,
    #[serde(default)]
    targets: Vec<String>,
    /// Synthesise only these modules (default: all, the top included).
    #[serde(default)]
    synth_modules: Vec<String>,
    #[serde(default)]
    cycles: CycleSource,
}

/// Where a sweep's cycle counts come from.
#[derive(Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CycleSource {
    /// `smsync cosim`: the golden model against the Verilated top, requests one at a time (the
    /// sync unit's latency along one interleaving); every response is checked.
    #[default]
    Cosim,
    /// `smsync run --timing`: the SM timing model on the golden units' timing back end (warps of
    /// every resident CTA, many requests in flight; docs/TIMING.md). No RTL is simulated.
    Timed,
    /// `smsync cosim --timing`: the SM timing model on the Verilated top (its RTL back end:
    /// requests enter the top's port as they issue; every response is checked).
    TimedRtl,
}

fn default_base() -> String {
    "default".into()
}

#[derive(Deserialize)]
#[serde(untagged)]
enum WorkloadSpec {
    Kernel(String),
    Pair { kernel: String, launch: String },
}

/// An axis's values as written: a list, or a range.
#[derive(Deserialize, Clone, Debug)]
#[serde(untagged)]
enum AxisSpec {
    List(Vec<Value>),
    Range {
        from: i64,
        to: i64,
        #[serde(default)]
        step: Option<i64>,
        #[serde(default)]
        times: Option<i64>,
    },
}

/// serde_json's map keeps keys sorted; the axes' order matters (it is the grid's nesting order),
/// so they are read as a list of (name, spec) pairs in file order.
mod indexmap_like {
    use super::AxisSpec;
    use serde::de::{MapAccess, Visitor};
    use serde::{Deserialize, Deserializer};
    use std::fmt;

    pub struct OrderedAxes(pub Vec<(String, AxisSpec)>);

    impl<'de> Deserialize<'de> for OrderedAxes {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = OrderedAxes;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("a mapping from config field to a list of values or a range {from, to, step | times}")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<OrderedAxes, A::Error> {
                    let mut out = Vec::new();
                    while let Some((k, v)) = m.next_entry::<String, AxisSpec>()? {
                        out.push((k, v));
                    }
                    Ok(OrderedAxes(out))
                }
            }
            d.deserialize_map(V)
        }
    }
}

/// One axis after expansion.
#[derive(Clone, Debug)]
pub struct Axis {
    /// Config field (`features.<flag>` for a feature).
    pub field: String,
    pub values: Vec<Value>,
}

/// A PTX kernel and its launch file.
#[derive(Clone, Debug)]
pub struct Workload {
    /// Short name (the kernel file's stem), used in tables.
    pub name: String,
    pub kernel: PathBuf,
    pub launch: PathBuf,
}

/// One point of the grid: the axis values and the complete config they make.
#[derive(Clone, Debug)]
pub struct Point {
    /// Position in the grid (0-based, first axis slowest).
    pub index: usize,
    /// (field, value) per axis, in axis order.
    pub assignment: Vec<(String, Value)>,
    pub config: Config,
}

impl Point {
    /// `copy_port_bytes=16 match_impl=iterative`
    pub fn label(&self) -> String {
        self.assignment.iter().map(|(f, v)| format!("{f}={}", show(v))).collect::<Vec<_>>().join(" ")
    }
}

/// A value as a table cell (strings without quotes).
pub fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A validated sweep.
#[derive(Debug)]
pub struct Sweep {
    pub name: String,
    pub file: PathBuf,
    pub axes: Vec<Axis>,
    pub workloads: Vec<Workload>,
    pub targets: Vec<String>,
    /// Modules to synthesise; empty = all.
    pub synth_modules: Vec<String>,
    pub cycles: CycleSource,
    pub points: Vec<Point>,
}

impl Sweep {
    /// Read and validate a sweep file; builds and validates every point's config.
    pub fn load(path: &Path) -> Result<Sweep, SweepError> {
        let text = std::fs::read_to_string(path).map_err(|e| SweepError(format!("{}: {e}", path.display())))?;
        Sweep::parse(&text, path)
    }

    /// Like [`Sweep::load`], with the text given (`path` locates relative files and names errors).
    pub fn parse(text: &str, path: &Path) -> Result<Sweep, SweepError> {
        let file = path.display().to_string();
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let raw: SweepFile = serde_saphyr::from_str(text).map_err(|e| SweepError(format!("{file}: {e}")))?;

        let base_map = base_fields(&raw.base, &dir, &file)?;
        let known = known_fields();
        if raw.axes.0.is_empty() {
            return err(format!("{file}: `axes` is empty: a sweep varies at least one config field"));
        }
        let mut axes = Vec::new();
        for (field, spec) in &raw.axes.0 {
            let kind = match known.get(field.as_str()) {
                Some(k) => *k,
                None => {
                    return err(format!(
                        "{file}: unknown axis `{field}`: not a config field (fields: {})",
                        known.keys().cloned().collect::<Vec<_>>().join(", ")
                    ))
                }
            };
            if axes.iter().any(|a: &Axis| &a.field == field) {
                return err(format!("{file}: axis `{field}` is given twice"));
            }
            let values = expand(field, spec, &file)?;
            for v in &values {
                kind.check(field, v, &file)?;
            }
            axes.push(Axis { field: field.clone(), values });
        }
        let count: usize = axes.iter().map(|a| a.values.len()).product();
        if count > MAX_POINTS {
            return err(format!("{file}: the grid has {count} points, more than the limit of {MAX_POINTS}"));
        }

        let mut workloads = Vec::new();
        for spec in &raw.workloads {
            workloads.push(workload(spec, &dir, &file)?);
        }
        for t in &raw.targets {
            if !KNOWN_TARGETS.contains(&t.as_str()) {
                return err(format!("{file}: unknown target `{t}` (known: {})", KNOWN_TARGETS.join(", ")));
            }
        }

        for m in &raw.synth_modules {
            if !KNOWN_MODULES.contains(&m.as_str()) {
                return err(format!(
                    "{file}: unknown module `{m}` in synth_modules (known: {})",
                    KNOWN_MODULES.join(", ")
                ));
            }
        }

        let mut points = Vec::new();
        for (index, combo) in grid(&axes).into_iter().enumerate() {
            let mut map = base_map.clone();
            for (field, value) in &combo {
                set_field(&mut map, field, value.clone());
            }
            let point_text = Value::Object(map).to_string();
            let label = combo.iter().map(|(f, v)| format!("{f}={}", show(v))).collect::<Vec<_>>().join(" ");
            let mut config = Config::from_yaml(&point_text, &format!("{file} point {index} ({label})"))
                .map_err(|e| SweepError(e.to_string()))?;
            config.name = format!("{}-{index}", raw.name);
            points.push(Point { index, assignment: combo, config });
        }
        Ok(Sweep {
            name: raw.name,
            file: path.to_path_buf(),
            axes,
            workloads,
            targets: raw.targets,
            synth_modules: raw.synth_modules,
            cycles: raw.cycles,
            points,
        })
    }

    /// The points of shard `i` of `n` (1-based `i`): every n-th point, so that shards are balanced
    /// across the grid's slow axes.
    pub fn shard(&self, i: usize, n: usize) -> Vec<&Point> {
        self.points.iter().filter(|p| p.index % n == i - 1).collect()
    }
}

/// Parse `--shard i/n`.
pub fn parse_shard(s: &str) -> Result<(usize, usize), SweepError> {
    let bad = || SweepError(format!("--shard `{s}`: expected i/n with 1 <= i <= n, e.g. 2/4"));
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// What kind of value a config field takes.
#[derive(Clone, Copy)]
enum FieldKind {
    Number,
    Bool,
    MatchImpl,
    SchedPolicy,
}

impl FieldKind {
    fn check(self, field: &str, v: &Value, file: &str) -> Result<(), SweepError> {
        let ok = match self {
            FieldKind::Number => v.as_u64().is_some(),
            FieldKind::Bool => v.is_boolean(),
            FieldKind::MatchImpl => matches!(v.as_str(), Some("parallel" | "iterative")),
            FieldKind::SchedPolicy => matches!(v.as_str(), Some("gto" | "lrr")),
        };
        if ok {
            return Ok(());
        }
        let want = match self {
            FieldKind::Number => "a non-negative integer",
            FieldKind::Bool => "true or false",
            FieldKind::MatchImpl => "parallel or iterative",
            FieldKind::SchedPolicy => "gto or lrr",
        };
        err(format!("{file}: axis `{field}`: value {v} is not {want}"))
    }
}

/// The config fields an axis may name, from the config's own serialization (so a new field is
/// sweepable without touching this file): top-level fields and the fields of its sections
/// (`features.<flag>`, `timing.<field>`). `name` is not an axis.
fn known_fields() -> BTreeMap<String, FieldKind> {
    let mut out = BTreeMap::new();
    let v = serde_json::to_value(Config::default()).expect("config serializes");
    for (k, val) in v.as_object().expect("config is a mapping") {
        match val {
            Value::Object(section) => {
                for (f, inner) in section {
                    if let Some(kind) = kind_of(&format!("{k}.{f}"), inner) {
                        out.insert(format!("{k}.{f}"), kind);
                    }
                }
            }
            other => {
                if let Some(kind) = kind_of(k, other) {
                    out.insert(k.clone(), kind);
                }
            }
        }
    }
    out
}

fn kind_of(field: &str, v: &Value) -> Option<FieldKind> {
    match v {
        Value::Number(_) => Some(FieldKind::Number),
        Value::Bool(_) => Some(FieldKind::Bool),
        Value::String(_) if field == "match_impl" => Some(FieldKind::MatchImpl),
        Value::String(_) if field == "timing.policy" => Some(FieldKind::SchedPolicy),
        _ => None,
    }
}

fn expand(field: &str, spec: &AxisSpec, file: &str) -> Result<Vec<Value>, SweepError> {
    let values = match spec {
        AxisSpec::List(v) => v.clone(),
        AxisSpec::Range { from, to, step, times } => {
            if step.is_some() && times.is_some() {
                return err(format!("{file}: axis `{field}`: give `step` or `times`, not both"));
            }
            if from > to {
                return err(format!("{file}: axis `{field}`: range from {from} to {to} is empty"));
            }
            let mut out = Vec::new();
            let mut x = *from;
            match times {
                Some(t) if *t < 2 || x < 1 => {
                    return err(format!(
                        "{file}: axis `{field}`: `times` must be >= 2 and `from` >= 1 (got times {t}, from {x})"
                    ))
                }
                Some(t) => {
                    while x <= *to && out.len() <= MAX_POINTS {
                        out.push(Value::from(x));
                        x *= t;
                    }
                }
                None => {
                    let s = step.unwrap_or(1);
                    if s < 1 {
                        return err(format!("{file}: axis `{field}`: `step` must be >= 1 (got {s})"));
                    }
                    while x <= *to && out.len() <= MAX_POINTS {
                        out.push(Value::from(x));
                        x += s;
                    }
                }
            }
            out
        }
    };
    if values.is_empty() {
        return err(format!("{file}: axis `{field}` has no values"));
    }
    Ok(values)
}

/// Every combination of the axes' values, first axis slowest.
fn grid(axes: &[Axis]) -> Vec<Vec<(String, Value)>> {
    use itertools::Itertools;
    axes.iter()
        .map(|a| a.values.iter().map(|v| (a.field.clone(), v.clone())).collect::<Vec<_>>())
        .multi_cartesian_product()
        .collect()
}

/// The base's fields as a map: a preset (`base: <name>` overlay-ready) or a config file's fields.
fn base_fields(base: &str, dir: &Path, file: &str) -> Result<Map<String, Value>, SweepError> {
    if Config::preset(base).is_some() {
        let mut m = Map::new();
        m.insert("base".into(), Value::String(base.into()));
        return Ok(m);
    }
    let path = dir.join(base);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        SweepError(format!(
            "{file}: `base: {base}` is neither a preset nor a readable config file ({}: {e})",
            path.display()
        ))
    })?;
    // Validate the base on its own first, so that its errors are reported as the base's.
    Config::from_yaml(&text, &path.display().to_string()).map_err(|e| SweepError(e.to_string()))?;
    match serde_saphyr::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(Value::Null) => Ok(Map::new()),
        Ok(other) => err(format!("{}: a config is a mapping of fields, found {other}", path.display())),
        Err(e) => err(format!("{}: {e}", path.display())),
    }
}

fn set_field(map: &mut Map<String, Value>, field: &str, value: Value) {
    match field.split_once('.') {
        Some((outer, inner)) => {
            let entry = map.entry(outer.to_string()).or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = entry {
                m.insert(inner.to_string(), value);
            }
        }
        None => {
            map.insert(field.to_string(), value);
        }
    }
}

fn workload(spec: &WorkloadSpec, dir: &Path, file: &str) -> Result<Workload, SweepError> {
    let (kernel, launch) = match spec {
        WorkloadSpec::Kernel(k) => {
            let kernel = dir.join(k);
            let launch = kernel.with_extension("launch.yaml");
            (kernel, launch)
        }
        WorkloadSpec::Pair { kernel, launch } => (dir.join(kernel), dir.join(launch)),
    };
    for (what, p) in [("kernel", &kernel), ("launch file", &launch)] {
        if !p.is_file() {
            return err(format!("{file}: workload {what} {} does not exist", p.display()));
        }
    }
    // Parse both now: a workload that cannot run is refused before any point is measured.
    let text = std::fs::read_to_string(&kernel).map_err(|e| SweepError(format!("{}: {e}", kernel.display())))?;
    smsync_sim::exec::parse_module(&text, &kernel.display().to_string())
        .map_err(|e| SweepError(format!("{file}: workload: {e}")))?;
    smsync_sim::exec::Launch::from_file(&launch).map_err(|e| SweepError(format!("{file}: workload launch: {e}")))?;
    let name = kernel.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(Workload { name, kernel, launch })
}
