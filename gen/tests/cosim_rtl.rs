//! `smsync cosim --rtl DIR` and `smsync fuzz --backend cosim --rtl DIR` (issue 20, acceptance 1):
//! the golden model against a directory of Verilog that implements the `sync_unit` ports of its
//! manifest, here directories written by `smsync gen --config configs/fpga-small.yaml`.
//!
//! * `unmodified_gen_output_passes_and_reuses_the_cosims_model`: two corpus kernels and two
//!   generated programs pass on an unedited directory, whose Verilator model is the one the cosim
//!   builds for the config (the same cache entry: no build of its own).
//! * `one_changed_operator_stops_at_the_first_divergence_with_a_vcd`: the barrier file's popc
//!   accumulator in `sync_unit.v` turned from `+` into `-`; `bar_red` must stop at its
//!   `bar.red.popc` with the report and a VCD. This is the one Verilator build the file adds.
//! * `port_and_config_mismatches_are_named_before_any_build`: a narrowed port, a renamed port, a
//!   config that disagrees with the manifest, a directory without a manifest.
//! * `whole_corpus_on_an_unmodified_gen_directory` (full tier, `#[ignore]`d): every corpus kernel.
//!
//! `cargo test -p smsync --test cosim_rtl -- --nocapture`

use smsync_sim::config::Config;
use smsync_sim::exec::{self, Launch};
use smsync_testbench::cosim::{run_cosim, CosimOptions};
use smsync_testbench::rtl_dir::RtlDir;
use smsync_testbench::rtl_unit::{RtlOptions, RtlSyncUnit};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::time::Instant;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn smsync(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smsync")).args(args).current_dir(cwd).output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A fresh `smsync gen` output directory for fpga-small under the temp directory.
fn gen_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("smsync-cosim-rtl-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = root().join("configs/fpga-small.yaml");
    let o = smsync(&["gen", "--config", config.to_str().unwrap(), "--out", dir.to_str().unwrap()], &root());
    assert!(o.status.success(), "smsync gen: {}", text(&o));
    dir
}

fn kernel_args(name: &str) -> (String, String) {
    let ptx = root().join(format!("testbench/ptx/{name}.ptx"));
    let launch = root().join(format!("testbench/ptx/{name}.launch.yaml"));
    (ptx.display().to_string(), launch.display().to_string())
}

/// `smsync cosim KERNEL --rtl DIR` (plus `extra`), run in `cwd`.
fn cosim_rtl(name: &str, dir: &Path, extra: &[&str], cwd: &Path) -> Output {
    let (ptx, launch) = kernel_args(name);
    let mut args = vec!["cosim", &ptx, "--launch", &launch, "--rtl", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    smsync(&args, cwd)
}

/// A fresh `smsync gen` directory for `tag`, its `sync_unit.v` path and text to edit; `None`
/// when the RTL tools are skipped.
fn gen_top(tag: &str) -> Option<(PathBuf, PathBuf, String)> {
    if skipped() {
        return None;
    }
    let dir = gen_dir(tag);
    let top = dir.join("sync_unit.v");
    let verilog = std::fs::read_to_string(&top).unwrap_or_else(|e| panic!("{}: {e}", top.display()));
    Some((dir, top, verilog))
}

fn skipped() -> bool {
    let skip = smsync_testbench::verilator::rtl_tools_skipped();
    if skip {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: cosim --rtl not run");
    }
    skip
}

#[test]
fn unmodified_gen_output_passes_and_reuses_the_cosims_model() {
    if skipped() {
        return;
    }
    let dir = gen_dir("plain");
    let config = Config::from_file(&root().join("configs/fpga-small.yaml")).unwrap();
    // Same model as the cosim's own: the directory's files are the ones it builds from.
    let t = Instant::now();
    let rtl = Arc::new(RtlDir::open_checked(&dir, None).unwrap_or_else(|e| panic!("{e}")));
    let from_dir = RtlSyncUnit::new(&config, &RtlOptions { rtl_dir: Some(rtl), ..RtlOptions::default() })
        .unwrap_or_else(|e| panic!("{e}"));
    let own = RtlSyncUnit::new(&config, &RtlOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        from_dir.harness.built().library,
        own.harness.built().library,
        "an unedited gen directory must hash like the cosim's own model"
    );
    eprintln!("models: {:.1} s (dir cached: {})", t.elapsed().as_secs_f64(), from_dir.harness.built().cached);
    for name in ["vote_ballot", "bar_red"] {
        let t = Instant::now();
        let o = cosim_rtl(name, &dir, &[], &dir);
        assert!(o.status.success(), "{name}: {}", text(&o));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains("ports of `sync_unit` match"), "{name}: no port check reported: {}", text(&o));
        assert!(String::from_utf8_lossy(&o.stdout).contains("RTL cycles"), "{name}: no summary: {}", text(&o));
        eprintln!("{name}: passed under --rtl in {:.1} s", t.elapsed().as_secs_f64());
    }
    let t = Instant::now();
    let out = dir.join("fuzz-failures");
    let o = smsync(
        &[
            "fuzz",
            "--backend",
            "cosim",
            "--rtl",
            dir.to_str().unwrap(),
            "--seed",
            "1",
            "--count",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
        &root(),
    );
    assert!(o.status.success(), "fuzz --rtl: {}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("2 passed, 0 failed"), "{}", text(&o));
    eprintln!("fuzz --rtl, 2 programs: {:.1} s", t.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(dir);
}

/// The first line of `text` that contains every one of `needles`, and its index.
fn find_line(text: &str, needles: &[&str]) -> Option<(usize, String)> {
    text.lines().enumerate().find(|(_, l)| needles.iter().all(|n| l.contains(n))).map(|(i, l)| (i, l.to_string()))
}

/// `text` with line `index` replaced by `line`.
fn with_line(text: &str, index: usize, line: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[index] = line;
    lines.join("\n") + "\n"
}

#[test]
fn one_changed_operator_stops_at_the_first_divergence_with_a_vcd() {
    let Some((dir, top, verilog)) = gen_top("mutant") else {
        return;
    };
    // The barrier file's bar.red.popc accumulator (hdl/src/barrier_file.rs: n_popc = popc + req_popc).
    // rust-hdl writes one module per barrier instance, so the one operator of the Rust source
    // is on one line of each copy: all of them change, as an edit of the unit would change them.
    let (_, line) = find_line(&verilog, &["n_popc = ", " + "]).expect(
        "no `n_popc = ... + ...` line in sync_unit.v: the barrier file's popc adder moved; pick another operator",
    );
    let mutated = line.replacen(" + ", " - ", 1);
    let copies = verilog.lines().filter(|l| *l == line).count();
    eprintln!("sync_unit.v: `{}` -> `{}` ({copies} copies)", line.trim(), mutated.trim());
    std::fs::write(&top, verilog.replace(&line, &mutated)).unwrap();

    let t = Instant::now();
    // --fast-build: the mutant's own Verilator build is this test's cost, most of it C++ compile.
    let o = cosim_rtl("bar_red", &dir, &["--fast-build"], &dir);
    eprintln!("{}\n(cosim of the mutant, with its Verilator build: {:.1} s)", text(&o), t.elapsed().as_secs_f64());
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "a changed operator passed the cosim: {}", text(&o));
    assert!(stderr.contains("golden and RTL diverge"), "not a divergence: {stderr}");
    let at = "bar_red.ptx:"; // after the kernel's path as given on the command line
    let after = stderr.find(at).map(|i| &stderr[i + at.len()..]).unwrap_or_else(|| panic!("no `{at}`: {stderr}"));
    assert!(after.starts_with(|c: char| c.is_ascii_digit()), "no line number after `{at}`: {stderr}");
    assert!(stderr.contains("bar.red.popc"), "the divergence is not at the bar.red.popc: {stderr}");
    assert!(stderr.contains("expected (golden)") && stderr.contains("actual (RTL)"), "{stderr}");
    // --rtl writes the VCD without --vcd, and says where.
    let vcd = dir.join("cosim-bar_red.vcd");
    assert!(
        stderr.contains(&format!("VCD of the top's ports over the last cycles: {}", "cosim-bar_red.vcd")),
        "{stderr}"
    );
    let vcd_text = std::fs::read_to_string(&vcd).unwrap_or_else(|e| panic!("{}: {e}", vcd.display()));
    assert!(vcd_text.contains("$var wire 1") && vcd_text.contains("resp_valid"), "VCD lacks the top's ports");
    let _ = std::fs::remove_dir_all(dir);
}

/// An error that only the RTL gives (the golden model lets the request wait) is a divergence,
/// not "the program failed on both backends", even though the executor stops on it as undefined
/// behaviour. The warp network's take decision is edited so that every partial arrival fails
/// with MemberMaskMismatch (as the one-record network failed a lane group reaching a second
/// collective); vote_match_partial's diverged lane groups then get an error the golden model
/// never gives.
#[test]
fn an_error_only_the_rtl_gives_is_a_divergence() {
    let Some((dir, top, verilog)) = gen_top("rtl-error") else {
        return;
    };
    let (_, line) = find_line(&verilog, &["take_fail = ", "records$cycle"])
        .expect("no `take_fail = ... records$cycle` line in sync_unit.v: the warp network's take decision moved");
    let mutated = line.replace("records$cycle", "1'b1");
    std::fs::write(&top, verilog.replace(&line, &mutated)).unwrap();
    let o = cosim_rtl("vote_match_partial", &dir, &["--fast-build"], &dir);
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "every partial arrival failing passed the cosim: {}", text(&o));
    assert!(stderr.contains("golden and RTL diverge"), "not a divergence: {stderr}");
    assert!(stderr.contains("with an error the golden model has not given"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `text` with every whole-word `from` between `module NAME` and its `endmodule` renamed `to`.
fn rename_in_module(text: &str, module: &str, from: &str, to: &str) -> String {
    let start = text.find(&format!("module {module}(")).or_else(|| text.find(&format!("module {module} ")));
    let start = start.unwrap_or_else(|| panic!("no module {module}"));
    let end = start + text[start..].find("endmodule").expect("endmodule");
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let body = &text[start..end];
    let mut out = String::new();
    let mut rest = body;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + from.len()..].chars().next();
        out.push_str(&rest[..i]);
        out.push_str(if before.is_some_and(word) || after.is_some_and(word) { from } else { to });
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    format!("{}{out}{}", &text[..start], &text[end..])
}

#[test]
fn port_and_config_mismatches_are_named_before_any_build() {
    let Some((dir, top, verilog)) = gen_top("ports") else {
        return;
    };
    // Narrow `req_member` (32 bits in the manifest) to 16 in its declaration.
    let (index, line) =
        find_line(&verilog, &["input", "[31:0]", " req_member;"]).expect("the top declares `req_member`");
    let narrowed = with_line(&verilog, index, &line.replace("[31:0]", "[15:0]"));
    // Rename `timeout` (a 1-bit input): the manifest's port is missing, the new name is extra.
    std::fs::write(&top, rename_in_module(&narrowed, "sync_unit", "timeout", "timeout_renamed")).unwrap();
    let t = Instant::now();
    let o = cosim_rtl("vote_ballot", &dir, &[], &dir);
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "{}", text(&o));
    for expected in [
        "the ports of module `sync_unit` in",
        "port `req_member`: expected width 32, actual width 16",
        "port `timeout` (input, 1 bit) is missing",
        "port `timeout_renamed` (input, 1 bit) is not in the manifest",
    ] {
        assert!(stderr.contains(expected), "no `{expected}` in:\n{stderr}");
    }
    assert!(t.elapsed().as_secs() < 60, "the port check must come before any Verilator build");

    // A config that is not the manifest's is named field by field.
    let default = root().join("configs/default.yaml");
    let o = cosim_rtl("vote_ballot", &dir, &["--config", default.to_str().unwrap()], &dir);
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "{}", text(&o));
    let disagree = format!("--config {} and {} disagree", default.display(), dir.join("manifest.yaml").display());
    assert!(stderr.contains(&disagree), "{stderr}");
    let slots = format!("`cta_slots` = {} in --config", Config::hopper_like().cta_slots);
    assert!(
        stderr.contains(&slots) && stderr.contains(&format!("{} in the manifest", Config::fpga_small().cta_slots)),
        "{stderr}"
    );

    // No manifest: said so, with what to do.
    std::fs::remove_file(dir.join("manifest.yaml")).unwrap();
    let o = cosim_rtl("vote_ballot", &dir, &[], &dir);
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success() && stderr.contains("manifest.yaml") && stderr.contains("smsync gen"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Full tier: every corpus kernel on an unedited `smsync gen` directory (the quick tier runs two,
/// above). `SMSYNC_TIER=full cargo test -p smsync --test cosim_rtl -- --include-ignored`
#[test]
#[ignore = "full tier: the whole corpus under --rtl (minutes)"]
fn whole_corpus_on_an_unmodified_gen_directory() {
    if skipped() {
        return;
    }
    let dir = gen_dir("corpus");
    let rtl = Arc::new(RtlDir::open_checked(&dir, None).unwrap_or_else(|e| panic!("{e}")));
    let opts = CosimOptions { max_steps: 200_000, rtl_dir: Some(rtl.clone()), ..CosimOptions::default() };
    let ptx = root().join("testbench/ptx");
    let mut names: Vec<String> = std::fs::read_dir(&ptx)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".launch.yaml").map(String::from))
        .collect();
    names.sort();
    let mut failed = Vec::new();
    for name in &names {
        let file = format!("{name}.ptx");
        let module = exec::parse_module(&std::fs::read_to_string(ptx.join(&file)).unwrap(), &file).unwrap();
        let launch = Launch::from_file(&ptx.join(format!("{name}.launch.yaml"))).unwrap();
        match run_cosim(&module, &launch, &rtl.config, &opts) {
            Ok(r) => eprintln!("{name}: ok, {} cycles", r.cycles),
            Err(f) => failed.push(format!("{name}: {f}")),
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} kernels failed under --rtl:\n{}",
        failed.len(),
        names.len(),
        failed.join("\n")
    );
    assert!(names.len() >= 27, "the corpus shrank to {} kernels", names.len());
    let _ = std::fs::remove_dir_all(dir);
}
