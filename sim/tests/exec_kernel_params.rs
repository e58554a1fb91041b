//! Kernel parameters as memory (PTX ISA §5.1.6.1): the address of a parameter (`mov` of its
//! symbol), `ld.param` through that address, `cvta.param` to a generic address read with a plain
//! `ld`, by-value aggregates of any size and alignment, and their launch-file forms
//! (`{bytes: [..]}`, `{fields: [..]}`). Expected values are computed here on the host.

mod exec_support;
use exec_support::*;
use smsync_sim::exec::{ExecError, Launch};
use smsync_sim::ptx;

const HEAD: &str = ".version 8.3\n.target sm_90\n.address_size 64\n";

fn launch_field(y: &str) -> (String, String) {
    match Launch::from_yaml(y).unwrap_err() {
        ExecError::Launch { field, message } => (field, message),
        other => panic!("expected a launch error, got {other}"),
    }
}

#[test]
fn nvrtc_floats2half2_and_grid_constant_struct() {
    // sim/tests/data/ptx/grid_constant.cu: __floats2half2_rn / __floats2bfloat162_rn (three-operand
    // cvt) and a __grid_constant__ struct read through ld.param, a parameter's address and, in a
    // non-inlined callee, a generic pointer from cvta.param.
    let path = format!("{}/tests/data/ptx/grid_constant.ptx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test input present");
    let m = ptx::parse(&text, &path).unwrap_or_else(|e| panic!("{e}"));
    let (scale, shift, bias, offset) = (0.75f32, 1i32, [1.5f32, -2.25, 3.0, 0.125], 0.5f64);
    let l = Launch::from_yaml(&format!(
        "block: [32]\nbuffers:\n  h: {{type: u32, len: 32}}\n  b: {{type: u32, len: 32}}\n  f: {{type: f32, len: 32}}\n\
         params:\n  - fields: [{{f32: {scale}}}, {{s32: {shift}}}, {{f32: {}}}, {{f32: {}}}, {{f32: {}}}, {{f32: {}}}, {{f64: {offset}}}]\n\
         \x20 - h\n  - b\n  - f\n",
        bias[0], bias[1], bias[2], bias[3]
    ))
    .unwrap();
    let r = run(&m, &l).unwrap_or_else(|e| panic!("{e}"));
    let (h, b, f) = (r.bits("h").unwrap(), r.bits("b").unwrap(), r.bits("f").unwrap());
    for i in 0..32usize {
        // x = scale * i + bias[i & 3] (NVRTC contracts it to fma.rn.f32: one rounding)
        let x = scale.mul_add(i as f32, bias[i & 3]);
        let y = -0.5f32 * x;
        // half2 {x, y}: .x is the low half
        let want_h = (half::f16::from_f32(y).to_bits() as u64) << 16 | half::f16::from_f32(x).to_bits() as u64;
        let want_b = (half::bf16::from_f32(y).to_bits() as u64) << 16 | half::bf16::from_f32(x).to_bits() as u64;
        assert_eq!(h[i], want_h, "h[{i}]");
        assert_eq!(b[i], want_b, "b[{i}]");
        let want_f = bias[(i + shift as usize) & 3] + offset as f32;
        assert_eq!(f[i], want_f.to_bits() as u64, "f[{i}]");
    }
}

/// `.param .align 64 .b8 agg[128]` read four ways; `out` gets (per thread t, word index t):
/// [ld.param [agg+4t], ld.param via mov'd address, ld generic via cvta.param, cvta.to.param
/// round trip == mov'd address].
const AGG_KERNEL: &str = ".visible .entry k(.param .align 64 .b8 agg[128], .param .u64 out)\n{\n\
    .reg .b32 %r<6>; .reg .b64 %rd<10>; .reg .pred %p;\n\
    mov.u32 %r1, %tid.x; mul.wide.u32 %rd1, %r1, 4;\n\
    ld.param.u64 %rd2, [out]; mul.wide.u32 %rd3, %r1, 16; add.u64 %rd2, %rd2, %rd3;\n\
    mov.b64 %rd4, agg; add.u64 %rd5, %rd4, %rd1; ld.param.u32 %r2, [%rd5];\n\
    cvta.param.u64 %rd6, %rd4; add.u64 %rd7, %rd6, %rd1; ld.u32 %r3, [%rd7];\n\
    mov.b64 %rd8, agg+8; ld.param.u32 %r4, [%rd8+-8];\n\
    cvta.to.param.u64 %rd9, %rd6; setp.eq.u64 %p, %rd9, %rd4; selp.u32 %r5, 1, 0, %p;\n\
    st.global.v4.u32 [%rd2], {%r2, %r3, %r4, %r5}; ret;\n}\n";

#[test]
fn aggregate_parameter_is_addressable_in_param_and_generic_space() {
    let m = ptx::parse(&format!("{HEAD}{AGG_KERNEL}"), "agg.ptx").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((m.funcs[0].params[0].size, m.funcs[0].params[0].align), (128, 64));
    let bytes: Vec<u8> = (0..128u32).map(|i| (i * 7 + 3) as u8).collect();
    let list = bytes.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
    let l = Launch::from_yaml(&format!(
        "block: [32]\nbuffers:\n  out: {{type: u32, len: 128}}\nparams: [{{bytes: [{list}]}}, out]\n"
    ))
    .unwrap();
    let out = run(&m, &l).unwrap_or_else(|e| panic!("{e}")).bits("out").unwrap();
    let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()) as u64;
    for t in 0..32 {
        assert_eq!(&out[4 * t..4 * t + 4], &[word(t), word(t), word(0), 1], "thread {t}");
    }
}

#[test]
fn kernel_parameters_are_read_only_and_cvta_checks_the_block() {
    let body = ".visible .entry k(.param .align 8 .b8 s[16])\n{\n.reg .b64 %rd<3>;\n\
        mov.b64 %rd1, s; cvta.param.u64 %rd2, %rd1; st.u32 [%rd2+4], 1; ret;\n}\n";
    let m = ptx::parse(&format!("{HEAD}{body}"), "ro.ptx").unwrap();
    let l = Launch::from_yaml("block: [1]\nparams: [{bytes: [0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0]}]\n").unwrap();
    let e = run(&m, &l).unwrap_err().to_string();
    assert!(e.contains("kernel parameters are read-only") && e.contains("ro.ptx:7:45"), "{e}");
    let body = ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\nmov.u64 %rd1, 4096; cvta.param.u64 %rd2, %rd1; ret;\n}\n";
    let m = ptx::parse(&format!("{HEAD}{body}"), "cv.ptx").unwrap();
    let e = run(&m, &Launch::from_yaml("block: [1]\nparams: [{u64: 5}]\n").unwrap()).unwrap_err().to_string();
    assert!(e.contains("cvta.param: address 0x1000 is not in the kernel's parameter block (16 bytes)"), "{e}");
}

#[test]
fn by_value_launch_forms_and_their_errors() {
    // {fields: [..]} lays a C struct out at natural alignment and zero-fills the tail padding:
    // struct { char c; double d; int *p; short s; } is 32 bytes (c@0, d@8, p@16, s@24)
    let body = ".visible .entry k(.param .align 8 .b8 s[32], .param .u64 out)\n{\n\
        .reg .b64 %rd<4>; .reg .b16 %h; .reg .u32 %r;\n\
        ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [s+8]; st.global.u64 [%rd1], %rd2;\n\
        ld.param.u64 %rd2, [s+16]; st.global.u64 [%rd1+8], %rd2;\n\
        ld.param.u16 %h, [s+24]; cvt.u64.u16 %rd2, %h; st.global.u64 [%rd1+16], %rd2;\n\
        ld.param.u8 %h, [s]; cvt.u64.u16 %rd2, %h; st.global.u64 [%rd1+24], %rd2; ret;\n}\n";
    let m = ptx::parse(&format!("{HEAD}{body}"), "fields.ptx").unwrap_or_else(|e| panic!("{e}"));
    let l = Launch::from_yaml(
        "block: [1]\nbuffers:\n  out: {type: u64, len: 4}\nparams: [{fields: [{u8: 9}, {f64: -1.5}, out, {s16: -3}]}, out]\n",
    )
    .unwrap();
    let r = run(&m, &l).unwrap_or_else(|e| panic!("{e}"));
    let out = r.bits("out").unwrap();
    assert_eq!(out[0], (-1.5f64).to_bits());
    assert_eq!(out[1], smsync_sim::memory::GLOBAL_BASE, "the first buffer's address");
    assert_eq!((out[2], out[3]), ((-3i16) as u16 as u64, 9));

    // errors name the field
    let (f, msg) = launch_field("block: [1]\nparams: [{bytes: [1, 2, 300]}]\n");
    assert_eq!(f, "params[0].bytes[2]");
    assert!(msg.contains("300") && msg.contains("0..=255"), "{msg}");
    let (f, _) = launch_field("block: [1]\nparams: [{fields: [{u8: 1}, {u33: 2}]}]\n");
    assert_eq!(f, "params[0].fields[1].u33");
    let (f, msg) = launch_field("block: [1]\nparams: [{fields: [nothere]}]\n");
    assert_eq!(f, "params[0].fields[0]");
    assert!(msg.contains("`nothere` is not a buffer"), "{msg}");
    let (f, _) = launch_field("block: [1]\nparams: [{fields: [{pad: -1}]}]\n");
    assert_eq!(f, "params[0].fields[0].pad");
    // a size mismatch is reported at load, naming the parameter
    let l = Launch::from_yaml("block: [1]\nbuffers:\n  out: {type: u64, len: 4}\nparams: [{bytes: [1, 2, 3]}, out]\n")
        .unwrap();
    let e = run(&m, &l).unwrap_err().to_string();
    assert!(e.contains("params[0]") && e.contains("32 bytes") && e.contains("the value is 3 bytes"), "{e}");
    let l = Launch::from_yaml(
        "block: [1]\nbuffers:\n  out: {type: u64, len: 4}\nparams: [{fields: [{f64: 1}, {f64: 2}, {f64: 3}, {f64: 4}, {u8: 5}]}, out]\n",
    )
    .unwrap();
    let e = run(&m, &l).unwrap_err().to_string();
    assert!(e.contains("params[0]") && e.contains("the value is 33 bytes"), "{e}");
}

#[test]
fn func_parameter_address_is_refused_clearly() {
    let text = format!(
        "{HEAD}.func f(.param .u32 a)\n{{\n.reg .b64 %rd;\nmov.b64 %rd, a;\nret;\n}}\n\
         .visible .entry k()\n{{\nret;\n}}\n"
    );
    let e = ptx::parse(&text, "f.ptx").unwrap_err().to_string();
    assert!(e.contains("f.ptx:7:") && e.contains("`.func` parameter `a`") && e.contains('^'), "{e}");
}

#[test]
fn by_value_structs_larger_than_16_bytes_pass_to_and_return_from_a_func() {
    // a 32-byte struct argument and a 24-byte struct return value travel whole through the
    // call's `.param` variables
    let text = format!(
        "{HEAD}.func (.param .align 8 .b8 r[24]) mix(.param .align 8 .b8 s[32])\n{{\n.reg .b64 %rd<6>;\n\
         ld.param.u64 %rd1, [s]; ld.param.u64 %rd2, [s+8]; ld.param.u64 %rd3, [s+16]; ld.param.u64 %rd4, [s+24];\n\
         add.u64 %rd5, %rd1, %rd4; st.param.u64 [r], %rd5; st.param.u64 [r+8], %rd3; st.param.u64 [r+16], %rd2;\n\
         ret;\n}}\n\
         .visible .entry k(.param .align 8 .b8 a[32], .param .u64 out)\n{{\n.reg .b64 %rd<9>;\n\
         ld.param.v2.u64 {{%rd1, %rd2}}, [a]; ld.param.v2.u64 {{%rd3, %rd4}}, [a+16];\n\
         {{\n.param .align 8 .b8 param0[32];\n.param .align 8 .b8 retval0[24];\n\
         st.param.v2.u64 [param0], {{%rd1, %rd2}}; st.param.v2.u64 [param0+16], {{%rd3, %rd4}};\n\
         call.uni (retval0), mix, (param0);\n\
         ld.param.u64 %rd5, [retval0]; ld.param.u64 %rd6, [retval0+8]; ld.param.u64 %rd7, [retval0+16];\n}}\n\
         ld.param.u64 %rd8, [out]; st.global.u64 [%rd8], %rd5; st.global.u64 [%rd8+8], %rd6; st.global.u64 [%rd8+16], %rd7;\n\
         ret;\n}}\n"
    );
    let m = ptx::parse(&text, "big.ptx").unwrap_or_else(|e| panic!("{e}"));
    let a = [0x1111_0000_0000_0001u64, 0x2222_0000_0000_0002, 0x3333_0000_0000_0003, 0x4444_0000_0000_0004];
    let l = Launch::from_yaml(&format!(
        "block: [2]\nbuffers:\n  out: {{type: u64, len: 3}}\nparams: [{{fields: [{{u64: {}}}, {{u64: {}}}, {{u64: {}}}, {{u64: {}}}]}}, out]\n",
        a[0], a[1], a[2], a[3]
    ))
    .unwrap();
    let out = run(&m, &l).unwrap_or_else(|e| panic!("{e}")).bits("out").unwrap();
    assert_eq!(out, vec![a[0].wrapping_add(a[3]), a[2], a[1]]);
}
