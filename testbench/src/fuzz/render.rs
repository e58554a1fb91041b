//! Turning a [`Program`] into PTX text and its launch YAML.
//!
//! The kernel frame is fixed: it loads the buffer addresses, computes the thread's identity into
//! frame registers, then runs the blocks one after another, each followed by `bar.sync 0` so that
//! no block's traffic overlaps the next one's. Blocks use scratch registers above the frame's and
//! write what they observe to an output slot: `out[slot][cta][tid]` (u32), so that two backends'
//! results can be compared buffer against buffer at the end.
//!
//! Frame registers (blocks may read them, never write them):
//!   %r1 tid.x, %r2 ctaid.x, %r3 lane, %r4 warp, %r5 ntid.x, %r6 global thread id
//!   %rd1 out, %rd2 input, %rd3 gatom (global atomics area), %rd5 = &out[0][cta][tid]
//! Scratch: %r10.., %rd10.., %p1.., %f1.. — free within a block.

use super::Program;

/// Words of the read-only `input` buffer (random data: copy sources, vector loads).
pub const INPUT_WORDS: u32 = 2048;
pub const INPUT_BYTES: u32 = INPUT_WORDS * 4;
/// Words of the `gatom` buffer: [0,16) 32-bit integer words, [16,24) f32 words, [24,26) f16x2 and
/// [28,30) bf16x2 words, [32,64) 8 u64 words.
pub const GATOM_WORDS: u32 = 64;
/// Where the launch places buffers (memory::GLOBAL_BASE, each buffer 256-byte aligned).
const GLOBAL_BASE: u64 = smsync_sim::memory::GLOBAL_BASE;

pub const REG_R: u32 = 160;
pub const REG_RD: u32 = 48;
pub const REG_P: u32 = 40;
pub const REG_F: u32 = 16;

/// The PTX and launch of one program.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// Module-level declarations of this program (its shared variables).
    pub decls: String,
    /// The `.entry` function.
    pub entry: String,
    pub launch_yaml: String,
}

pub const HEADER: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n\n";

impl Rendered {
    /// A complete PTX module holding this program alone.
    pub fn module(&self, comment: &str) -> String {
        format!("// {comment}\n{HEADER}{}\n{}", self.decls, self.entry)
    }
}

/// What a block emits into: the body text plus resources it claims (labels, output slots,
/// shared variables, extra buffers and params).
pub struct Emit {
    pub ctas: u32,
    pub threads: u32,
    pub named_barriers: u32,
    name: String,
    block: usize,
    pub body: String,
    decls: String,
    slots: u32,
    next_r: u32,
    next_rd: u32,
    next_p: u32,
    next_f: u32,
    /// Extra buffers: (name, yaml spec), in launch order after input and gatom.
    buffers: Vec<(String, String)>,
    buffer_end: u64,
    /// Kernel parameters after input and gatom: (PTX declaration, launch-file value).
    params: Vec<(String, String)>,
}

impl Emit {
    fn new(name: &str, ctas: u32, threads: u32, named_barriers: u32) -> Emit {
        // input then gatom are the first two buffers
        let input_end = GLOBAL_BASE + INPUT_BYTES as u64;
        let gatom_end = align256(input_end) + GATOM_WORDS as u64 * 4;
        Emit {
            ctas,
            threads,
            named_barriers,
            name: name.to_string(),
            block: 0,
            body: String::new(),
            decls: String::new(),
            slots: 0,
            next_r: 10,
            next_rd: 10,
            next_p: 1,
            next_f: 1,
            buffers: vec![],
            buffer_end: gatom_end,
            params: vec![],
        }
    }

    fn start_block(&mut self, k: usize) {
        self.block = k;
        self.reset_regs();
    }

    /// Scratch registers are per block; a block may also reset them between independent steps.
    pub fn reset_regs(&mut self) {
        self.next_r = 10;
        self.next_rd = 10;
        self.next_p = 1;
        self.next_f = 1;
    }

    pub fn r(&mut self) -> String {
        let n = self.next_r;
        self.next_r = (self.next_r + 1).min(REG_R - 1);
        format!("%r{n}")
    }
    pub fn rd(&mut self) -> String {
        let n = self.next_rd;
        self.next_rd = (self.next_rd + 1).min(REG_RD - 1);
        format!("%rd{n}")
    }
    pub fn p(&mut self) -> String {
        let n = self.next_p;
        self.next_p = (self.next_p + 1).min(REG_P - 1);
        format!("%p{n}")
    }
    pub fn f(&mut self) -> String {
        let n = self.next_f;
        self.next_f = (self.next_f + 1).min(REG_F - 1);
        format!("%f{n}")
    }

    /// A label unique in the kernel.
    pub fn label(&self, what: &str) -> String {
        format!("B{}_{what}", self.block)
    }

    pub fn line(&mut self, text: impl AsRef<str>) {
        self.body.push('\t');
        self.body.push_str(text.as_ref());
        self.body.push('\n');
    }

    pub fn place(&mut self, label: &str) {
        self.body.push_str(label);
        self.body.push_str(":\n");
    }

    /// Declare a shared byte array for this block; returns its name.
    pub fn shared(&mut self, what: &str, bytes: u32, align: u32) -> String {
        let name = format!("{}_b{}_{what}", self.name, self.block);
        self.decls.push_str(&format!(".shared .align {align} .b8 {name}[{}];\n", bytes.max(1)));
        name
    }

    /// Store u32 register `reg` to a fresh output slot of this thread.
    pub fn observe(&mut self, reg: &str) {
        let off = self.slots as u64 * self.ctas as u64 * self.threads as u64 * 4;
        self.slots += 1;
        self.line(format!("st.global.u32 [%rd5+{off}], {reg};"));
    }

    /// Add a global buffer (after input and gatom) and a `.u64` param holding its address;
    /// returns (param name, buffer address).
    pub fn buffer(&mut self, what: &str, yaml_spec: String, bytes: u64) -> (String, u64) {
        let name = format!("b{}_{what}", self.block);
        let addr = align256(self.buffer_end);
        self.buffer_end = addr + bytes.max(1);
        self.buffers.push((name.clone(), yaml_spec));
        let param = format!("p_{name}");
        self.params.push((format!(".param .u64 {param}"), name));
        (param, addr)
    }

    /// Add a kernel parameter holding a tensor map by value (`.param .align 64 .b8 NAME[128]`, a
    /// `const __grid_constant__ CUtensorMap`), built by the launch file from `fields`
    /// (cuTensorMapEncodeTiled's, see sim::exec::tmap); returns the parameter's name.
    pub fn tensor_map_param(&mut self, what: &str, fields: String) -> String {
        self.by_value_param(what, 64, 128, format!("{{tensor_map: {fields}}}"))
    }

    /// Add a by-value aggregate kernel parameter (`.param .align ALIGN .b8 NAME[BYTES]`, a C
    /// struct passed by value) whose launch-file value is `value` (`{fields: [..]}`,
    /// `{bytes: [..]}` or `{tensor_map: {..}}`); returns the parameter's name.
    pub fn by_value_param(&mut self, what: &str, align: u32, bytes: u32, value: String) -> String {
        let param = format!("p_b{}_{what}", self.block);
        self.params.push((format!(".param .align {align} .b8 {param}[{bytes}]"), value));
        param
    }
}

fn align256(x: u64) -> u64 {
    (x + 255) & !255
}

/// Render `program` as kernel `name`.
pub fn render(program: &Program, name: &str) -> Rendered {
    let threads = program.shape.warps * 32;
    let ctas = program.shape.ctas;
    let mut e = Emit::new(name, ctas, threads, program.named_barriers);
    for (k, b) in program.blocks.iter().enumerate() {
        e.start_block(k);
        e.body.push_str(&format!("\t// block {k}: {}\n", b.describe()));
        b.emit(&mut e);
        e.line("bar.sync 0;");
    }

    let mut entry = String::new();
    entry.push_str(&format!(".visible .entry {name}(\n\t.param .u64 p_input,\n\t.param .u64 p_gatom"));
    for (decl, _) in &e.params {
        entry.push_str(&format!(",\n\t{decl}"));
    }
    entry.push_str(",\n\t.param .u64 p_out\n)\n{\n");
    entry.push_str(&format!(
        "\t.reg .pred %p<{REG_P}>;\n\t.reg .b32 %r<{REG_R}>;\n\t.reg .b64 %rd<{REG_RD}>;\n\t.reg .f32 %f<{REG_F}>;\n\n"
    ));
    entry.push_str("\tld.param.u64 %rd2, [p_input];\n\tld.param.u64 %rd3, [p_gatom];\n\tld.param.u64 %rd1, [p_out];\n");
    entry.push_str(
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tand.b32 %r3, %r1, 31;\n\tshr.u32 %r4, %r1, 5;\n",
    );
    entry.push_str("\tmov.u32 %r5, %ntid.x;\n\tmad.lo.u32 %r6, %r2, %r5, %r1;\n\tmul.wide.u32 %rd4, %r6, 4;\n\tadd.s64 %rd5, %rd1, %rd4;\n\n");
    entry.push_str(&e.body);
    entry.push_str("\tret;\n}\n");

    let mut y = String::new();
    y.push_str(&format!("# smsync fuzz: seed {}, {} block(s)\n", program.seed, program.blocks.len()));
    y.push_str(&format!("entry: {name}\ngrid: [{ctas}, 1, 1]\nblock: [{threads}, 1, 1]\nbuffers:\n"));
    let input = input_data(program.seed);
    y.push_str(&format!("  input: {{ type: u32, data: [{}] }}\n", join(&input)));
    y.push_str(&format!("  gatom: {{ type: u32, len: {GATOM_WORDS} }}\n"));
    for (n, spec) in &e.buffers {
        y.push_str(&format!("  {n}: {spec}\n"));
    }
    let out_len = (e.slots.max(1) as u64) * ctas as u64 * threads as u64;
    y.push_str(&format!("  out: {{ type: u32, len: {out_len} }}\n"));
    y.push_str("params: [input, gatom");
    for (_, value) in &e.params {
        y.push_str(&format!(", {value}"));
    }
    y.push_str(", out]\n");
    Rendered { decls: e.decls, entry, launch_yaml: y }
}

/// The input buffer's contents (a function of the seed only, so blocks can be shrunk away
/// without changing what the others read).
pub fn input_data(seed: u64) -> Vec<u32> {
    let mut rng = super::rng::Rng::new(seed ^ 0x1_4B07);
    (0..INPUT_WORDS).map(|_| rng.u32()).collect()
}

pub fn join<T: ToString>(v: &[T]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}
