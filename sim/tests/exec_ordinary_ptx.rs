//! Ordinary PTX that real kernels and open PTX test suites use: packed and fp8 `cvt`, `copysign`,
//! `bmsk`, `sad`, carry chains, `WARP_SZ`, vector registers, `.reg` parameters of `.func`s,
//! register-plus-offset addresses and full-width `.b128` registers. Each kernel runs on the golden
//! model from PTX text; every expected value is computed here on the host from the PTX ISA's
//! definition of the instruction (or with the `half` crate), never by the model.

mod exec_support;
use exec_support::*;
use smsync_sim::exec::Launch;
use smsync_sim::ptx;

const HEAD: &str = ".version 8.3\n.target sm_90\n.address_size 64\n";

/// Runs `body` as the kernel `k(.param .u64 out)` with `threads` threads; `out` is a u64 buffer
/// of `n` elements; returns it.
fn run_kernel(body: &str, threads: u32, n: usize) -> Vec<u64> {
    let text = format!("{HEAD}.visible .entry k(.param .u64 out)\n{{\n{body}\n}}\n");
    let m = ptx::parse(&text, "k.ptx").unwrap_or_else(|e| panic!("{e}"));
    let l =
        Launch::from_yaml(&format!("block: [{threads}]\nbuffers:\n  out: {{type: u64, len: {n}}}\nparams: [out]\n"))
            .unwrap();
    run(&m, &l).unwrap_or_else(|e| panic!("{e}")).bits("out").unwrap()
}

/// Parses a kernel body and returns the front end's error text.
fn parse_err(body: &str) -> String {
    let text = format!("{HEAD}.visible .entry k(.param .u64 out)\n{{\n{body}\n}}\n");
    ptx::parse(&text, "k.ptx").unwrap_err().to_string()
}

// ---- cvt to packed formats ------------------------------------------------------------------

#[test]
fn cvt_rn_f16x2_and_bf16x2_from_two_f32_put_a_in_the_upper_half() {
    // PTX ISA §9.7.9 (cvt): "the value converted from input a is stored in the upper half of d
    // and the value converted from input b in the lower half"
    let pairs: [(f32, f32); 4] = [(1.0, -2.5), (0.1, 65504.0), (3.0e-6, -1.0e5), (1.0 / 3.0, 7.0e4)];
    for (a, b) in pairs {
        let body = format!(
            ".reg .f32 %f<3>; .reg .b32 %r<3>; .reg .b64 %rd<3>;\n\
             mov.f32 %f1, 0f{:08X}; mov.f32 %f2, 0f{:08X};\n\
             cvt.rn.f16x2.f32 %r1, %f1, %f2; cvt.rn.bf16x2.f32 %r2, %f1, %f2;\n\
             ld.param.u64 %rd1, [out];\n\
             cvt.u64.u32 %rd2, %r1; st.global.u64 [%rd1], %rd2;\n\
             cvt.u64.u32 %rd2, %r2; st.global.u64 [%rd1+8], %rd2;",
            a.to_bits(),
            b.to_bits()
        );
        let out = run_kernel(&body, 1, 2);
        let f16 = (half::f16::from_f32(a).to_bits() as u64) << 16 | half::f16::from_f32(b).to_bits() as u64;
        let bf16 = (half::bf16::from_f32(a).to_bits() as u64) << 16 | half::bf16::from_f32(b).to_bits() as u64;
        assert_eq!(out[0], f16, "f16x2 of ({a}, {b})");
        assert_eq!(out[1], bf16, "bf16x2 of ({a}, {b})");
    }
}

#[test]
fn cvt_rz_bf16x2_truncates() {
    // round toward zero to bf16 keeps the upper 16 bits of a finite f32
    let (a, b) = (1.0f32 + 255.0 / 256.0, -3.999_999_8f32);
    let body = format!(
        ".reg .f32 %f<3>; .reg .b32 %r<3>; .reg .b64 %rd<3>;\n\
         mov.f32 %f1, 0f{:08X}; mov.f32 %f2, 0f{:08X};\n\
         cvt.rz.bf16x2.f32 %r1, %f1, %f2; cvt.rn.bf16x2.f32 %r2, %f1, %f2;\n\
         ld.param.u64 %rd1, [out];\n\
         cvt.u64.u32 %rd2, %r1; st.global.u64 [%rd1], %rd2;\n\
         cvt.u64.u32 %rd2, %r2; st.global.u64 [%rd1+8], %rd2;",
        a.to_bits(),
        b.to_bits()
    );
    let out = run_kernel(&body, 1, 2);
    assert_eq!(out[0], ((a.to_bits() >> 16) as u64) << 16 | (b.to_bits() >> 16) as u64);
    let rn = (half::bf16::from_f32(a).to_bits() as u64) << 16 | half::bf16::from_f32(b).to_bits() as u64;
    assert_eq!(out[1], rn);
    assert_ne!(out[0], out[1], "the inputs round differently");
}

#[test]
fn cvt_f16x2_relu_and_satfinite() {
    // .relu: negative results become +0; .satfinite: values beyond the format's range become its
    // largest finite value (f16: 65504 = 0x7bff) with their sign
    let body = ".reg .f32 %f<3>; .reg .b32 %r<3>; .reg .b64 %rd<3>;\n\
        mov.f32 %f1, 0f47FFF000; mov.f32 %f2, 0fC0000000;\n\
        cvt.rn.relu.f16x2.f32 %r1, %f1, %f2; cvt.rn.satfinite.f16x2.f32 %r2, %f2, %f1;\n\
        ld.param.u64 %rd1, [out];\n\
        cvt.u64.u32 %rd2, %r1; st.global.u64 [%rd1], %rd2;\n\
        cvt.u64.u32 %rd2, %r2; st.global.u64 [%rd1+8], %rd2;";
    let out = run_kernel(body, 1, 2);
    // 0f47FFF000 = 131056: rounds to infinity in f16 without .satfinite
    assert_eq!(half::f16::from_f32(131056.0), half::f16::INFINITY);
    let two_neg = half::f16::from_f32(-2.0).to_bits() as u64;
    assert_eq!(out[0], (0x7c00 << 16), "relu: upper = inf (a), lower = +0 (b = -2)");
    assert_eq!(out[1], two_neg << 16 | 0x7bff, "satfinite: upper = -2 (a), lower = 65504 (b)");
}

/// The value of an fp8 code per the OCP FP8 definition PTX ISA §5.2.5 uses: `exp` exponent bits,
/// `man` mantissa bits, bias 2^(exp-1)-1; e4m3 has no infinities and NaN = S.1111.111.
fn fp8_value(code: u8, exp: u32, man: u32) -> Option<f64> {
    let sign = if code & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = ((code as u32) >> man) & ((1 << exp) - 1);
    let f = (code as u32) & ((1 << man) - 1);
    let bias = (1i32 << (exp - 1)) - 1;
    let all_ones = (1 << exp) - 1;
    if exp == 5 && e == all_ones {
        return None; // e5m2 infinities and NaNs
    }
    if exp == 4 && e == all_ones && f == (1 << man) - 1 {
        return None; // e4m3 NaN
    }
    let m = if e == 0 { f as f64 / (1 << man) as f64 } else { 1.0 + f as f64 / (1 << man) as f64 };
    let p = if e == 0 { 1 - bias } else { e as i32 - bias };
    Some(sign * m * 2f64.powi(p))
}

/// Host reference of cvt.rn.satfinite to fp8: the nearest finite code by exhaustive search over
/// all 256 codes (ties to the even code), saturating beyond the largest finite value.
fn to_fp8_reference(x: f64, exp: u32, man: u32) -> u8 {
    if x.is_nan() {
        return 0x7f;
    }
    let mut best: Option<(f64, u8)> = None;
    for code in 0..=255u8 {
        let Some(v) = fp8_value(code, exp, man) else { continue };
        if v == 0.0 && (code & 0x80 != 0) != x.is_sign_negative() {
            continue; // keep the sign of zero
        }
        let d = (v - x).abs();
        let better = match best {
            None => true,
            Some((bd, bc)) => d < bd || (d == bd && code & 1 == 0 && bc & 1 == 1),
        };
        if better {
            best = Some((d, code));
        }
    }
    best.unwrap().1
}

#[test]
fn cvt_fp8_from_f32_and_back_to_f16x2() {
    let inputs: [f32; 12] = [1.0, -0.3, 448.0, 500.0, -1.0e9, 0.0017, 1.0e-3, 240.5, 57344.0, 6.0e4, -0.0, 2.71875];
    for (i, pair) in inputs.chunks(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let body = format!(
            ".reg .f32 %f<3>; .reg .b16 %h<3>; .reg .b32 %r<3>; .reg .b64 %rd<3>;\n\
             mov.f32 %f1, 0f{:08X}; mov.f32 %f2, 0f{:08X};\n\
             cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2; cvt.rn.satfinite.e5m2x2.f32 %h2, %f1, %f2;\n\
             cvt.rn.f16x2.e4m3x2 %r1, %h1; cvt.rn.f16x2.e5m2x2 %r2, %h2;\n\
             ld.param.u64 %rd1, [out];\n\
             cvt.u64.u16 %rd2, %h1; st.global.u64 [%rd1], %rd2;\n\
             cvt.u64.u16 %rd2, %h2; st.global.u64 [%rd1+8], %rd2;\n\
             cvt.u64.u32 %rd2, %r1; st.global.u64 [%rd1+16], %rd2;\n\
             cvt.u64.u32 %rd2, %r2; st.global.u64 [%rd1+24], %rd2;",
            a.to_bits(),
            b.to_bits()
        );
        let out = run_kernel(&body, 1, 4);
        let (a, b) = (a as f64, b as f64);
        let e4 = (to_fp8_reference(a, 4, 3) as u64) << 8 | to_fp8_reference(b, 4, 3) as u64;
        let e5 = (to_fp8_reference(a, 5, 2) as u64) << 8 | to_fp8_reference(b, 5, 2) as u64;
        assert_eq!(out[0], e4, "pair {i}: e4m3x2 of ({a}, {b})");
        assert_eq!(out[1], e5, "pair {i}: e5m2x2 of ({a}, {b})");
        // back to f16x2: every fp8 value is exact in f16
        let back = |code: u64, exp, man| -> u64 {
            let hi = fp8_value((code >> 8) as u8, exp, man).unwrap();
            let lo = fp8_value(code as u8, exp, man).unwrap();
            (half::f16::from_f64(hi).to_bits() as u64) << 16 | half::f16::from_f64(lo).to_bits() as u64
        };
        assert_eq!(out[2], back(e4, 4, 3), "pair {i}: f16x2 of e4m3x2");
        assert_eq!(out[3], back(e5, 5, 2), "pair {i}: f16x2 of e5m2x2");
    }
}

#[test]
fn cvt_fp8_from_f16x2_and_bad_forms() {
    let body = ".reg .b32 %r<3>; .reg .b16 %h<3>; .reg .b64 %rd<3>;\n\
        mov.b32 %r1, 0x3C00C4D0;\n\
        cvt.rn.satfinite.relu.e4m3x2.f16x2 %h1, %r1;\n\
        ld.param.u64 %rd1, [out]; cvt.u64.u16 %rd2, %h1; st.global.u64 [%rd1], %rd2;";
    let out = run_kernel(body, 1, 1);
    // upper f16 0x3C00 = 1.0 -> e4m3 0x38; lower 0xC4D0 = -4.8125 -> .relu -> +0
    let one = to_fp8_reference(half::f16::from_bits(0x3c00).to_f64(), 4, 3);
    assert_eq!(out[0], (one as u64) << 8);
    let e = parse_err(".reg .b16 %h; .reg .f32 %f;\ncvt.rn.e4m3x2.f32 %h, %f, %f;");
    assert!(e.contains("k.ptx:7:1") && e.contains("`.satfinite` is required") && e.contains('^'), "{e}");
    let e = parse_err(".reg .b32 %r; .reg .f32 %f;\ncvt.rn.f16x2.f32 %r, %f;");
    assert!(e.contains("takes 3 operands, found 2"), "{e}");
    let e = parse_err(".reg .b32 %r; .reg .f32 %f;\ncvt.rm.f16x2.f32 %r, %f, %f;");
    assert!(e.contains("rounding `.rm` is not valid"), "{e}");
    let e = parse_err(".reg .b32 %r; .reg .b16 %h;\ncvt.rn.bf16x2.e4m3x2 %r, %h;");
    assert!(e.contains("`cvt.bf16x2.e4m3x2` is not a PTX conversion"), "{e}");
}

// ---- copysign, bmsk, sad --------------------------------------------------------------------

#[test]
fn copysign_takes_the_sign_of_a_and_the_magnitude_of_b() {
    // PTX ISA §9.7.3 (copysign): "Copy sign of a into value of b"
    let body = ".reg .f32 %f<4>; .reg .f64 %fd<4>; .reg .b64 %rd<3>; .reg .b32 %r;\n\
        mov.f32 %f1, 0fBF800000; mov.f32 %f2, 0f40490FDB; copysign.f32 %f3, %f1, %f2;\n\
        mov.f64 %fd1, 0d0000000000000000; mov.f64 %fd2, 0dC000000000000000; copysign.f64 %fd3, %fd1, %fd2;\n\
        ld.param.u64 %rd1, [out];\n\
        mov.b32 %r, %f3; cvt.u64.u32 %rd2, %r; st.global.u64 [%rd1], %rd2;\n\
        mov.b64 %rd2, %fd3; st.global.u64 [%rd1+8], %rd2;";
    let out = run_kernel(body, 1, 2);
    assert_eq!(out[0], (-std::f32::consts::PI).to_bits() as u64);
    assert_eq!(out[1], 2.0f64.to_bits());
    let e = parse_err(".reg .b32 %r;\ncopysign.u32 %r, %r, %r;");
    assert!(e.contains("`copysign` takes the type `.f32` or `.f64`"), "{e}");
}

/// The bmsk mask as the set of bit positions [a', a' + b') below 32, where .clamp takes
/// min(x, 32) and .wrap takes x mod 32 of a and b (PTX ISA §9.7.1, bmsk).
fn bmsk_reference(a: u32, b: u32, clamp: bool) -> u64 {
    let f = |x: u32| if clamp { x.min(32) } else { x % 32 };
    let (a, b) = (f(a), f(b));
    (0..32u32).filter(|i| *i >= a && *i < a + b).map(|i| 1u64 << i).sum()
}

#[test]
fn bmsk_clamp_and_wrap() {
    let cases: [(u32, u32); 8] = [(0, 0), (4, 8), (28, 8), (0, 32), (31, 1), (33, 3), (5, 40), (36, 36)];
    let mut body = String::from(".reg .b32 %r<4>; .reg .b64 %rd<3>;\nld.param.u64 %rd1, [out];\n");
    for (i, (a, b)) in cases.iter().enumerate() {
        body.push_str(&format!(
            "mov.b32 %r1, {a}; mov.b32 %r2, {b};\n\
             bmsk.clamp.b32 %r3, %r1, %r2; cvt.u64.u32 %rd2, %r3; st.global.u64 [%rd1+{}], %rd2;\n\
             bmsk.wrap.b32 %r3, %r1, %r2; cvt.u64.u32 %rd2, %r3; st.global.u64 [%rd1+{}], %rd2;\n",
            16 * i,
            16 * i + 8
        ));
    }
    let out = run_kernel(&body, 1, 2 * cases.len());
    for (i, (a, b)) in cases.iter().enumerate() {
        assert_eq!(out[2 * i], bmsk_reference(*a, *b, true), "bmsk.clamp {a}, {b}");
        assert_eq!(out[2 * i + 1], bmsk_reference(*a, *b, false), "bmsk.wrap {a}, {b}");
    }
    let e = parse_err(".reg .b32 %r;\nbmsk.b32 %r, %r, %r;");
    assert!(e.contains("needs a mode `.clamp` or `.wrap`"), "{e}");
}

#[test]
fn sad_adds_the_absolute_difference() {
    // PTX ISA §9.7.1 (sad): d = c + |a - b|
    let body = ".reg .s32 %s<4>; .reg .u32 %u<4>; .reg .u64 %d<4>; .reg .b64 %rd<3>;\n\
        mov.s32 %s1, -7; mov.s32 %s2, 12; mov.s32 %s3, 100; sad.s32 %s3, %s1, %s2, %s3;\n\
        mov.u32 %u1, 5; mov.u32 %u2, 0xfffffff0; mov.u32 %u3, 1; sad.u32 %u3, %u1, %u2, %u3;\n\
        mov.u64 %d1, 0x8000000000000000; mov.u64 %d2, 3; mov.u64 %d3, 0; sad.u64 %d3, %d2, %d1, %d3;\n\
        ld.param.u64 %rd1, [out];\n\
        cvt.s64.s32 %rd2, %s3; st.global.u64 [%rd1], %rd2;\n\
        cvt.u64.u32 %rd2, %u3; st.global.u64 [%rd1+8], %rd2;\n\
        st.global.u64 [%rd1+16], %d3;";
    let out = run_kernel(body, 1, 3);
    let e = parse_err(".reg .f32 %f;\nsad.f32 %f, %f, %f, %f;");
    assert!(e.contains("k.ptx:7:1") && e.contains("`sad` takes an integer type"), "{e}");
    assert_eq!(out[0] as i64, 100 + (-7i64 - 12).abs());
    assert_eq!(out[1], (1 + (0xffff_fff0u32 - 5)) as u64);
    assert_eq!(out[2], 0x8000_0000_0000_0000u64 - 3);
}

// ---- carry chains -----------------------------------------------------------------------------

#[test]
fn carry_chains_do_128_bit_add_sub_and_multiply_per_thread() {
    // 128-bit x = (x1:x0) and y = (y1:y0) per thread: add.cc/addc, sub.cc/subc, and the 64x64->128
    // product of x0*y0 through mad.lo.cc/madc.hi (PTX ISA §9.7.2); thread t uses different words
    // so that the CC.CF flag is per thread.
    let body = ".reg .u64 %x<2>; .reg .u64 %y<2>; .reg .u64 %s<2>; .reg .u64 %t<2>; .reg .u64 %p<2>;\n\
        .reg .u64 %rd<4>; .reg .u32 %tid;\n\
        mov.u32 %tid, %tid.x; cvt.u64.u32 %rd3, %tid;\n\
        mul.lo.u64 %x0, %rd3, 0x7777777777777777; add.u64 %x0, %x0, 0xfffffffffffffff0; mov.u64 %x1, %rd3;\n\
        mul.lo.u64 %y0, %rd3, 0x1234567890abcdef; add.u64 %y0, %y0, 0x20; mov.u64 %y1, 5;\n\
        add.cc.u64 %s0, %x0, %y0; addc.u64 %s1, %x1, %y1;\n\
        sub.cc.u64 %t0, %x0, %y0; subc.u64 %t1, %x1, %y1;\n\
        mov.u64 %rd2, 0; mad.lo.cc.u64 %p0, %x0, %y0, %rd2; madc.hi.u64 %p1, %x0, %y0, %rd2;\n\
        ld.param.u64 %rd1, [out]; mul.lo.u64 %rd2, %rd3, 48; add.u64 %rd1, %rd1, %rd2;\n\
        st.global.v2.u64 [%rd1], {%s0, %s1}; st.global.v2.u64 [%rd1+16], {%t0, %t1};\n\
        st.global.v2.u64 [%rd1+32], {%p0, %p1};";
    let threads = 4u64;
    let out = run_kernel(body, threads as u32, 6 * threads as usize);
    for t in 0..threads {
        let x0 = t.wrapping_mul(0x7777_7777_7777_7777).wrapping_add(0xffff_ffff_ffff_fff0);
        let y0 = t.wrapping_mul(0x1234_5678_90ab_cdef).wrapping_add(0x20);
        let x = (t as u128) << 64 | x0 as u128;
        let y = 5u128 << 64 | y0 as u128;
        let (s, d, p) = (x.wrapping_add(y), x.wrapping_sub(y), x0 as u128 * y0 as u128);
        let o = &out[6 * t as usize..6 * t as usize + 6];
        assert_eq!((o[1] as u128) << 64 | o[0] as u128, s, "thread {t}: x + y");
        assert_eq!((o[3] as u128) << 64 | o[2] as u128, d, "thread {t}: x - y");
        assert_eq!((o[5] as u128) << 64 | o[4] as u128, p, "thread {t}: x0 * y0");
    }
}

#[test]
fn carry_chain_32_bit_with_carry_out_of_addc() {
    // a 96-bit add of 32-bit words: addc.cc propagates the carry twice
    let body = ".reg .u32 %a<3>; .reg .u32 %b<3>; .reg .u32 %c<3>; .reg .b64 %rd<3>;\n\
        mov.u32 %a0, 0xffffffff; mov.u32 %a1, 0xffffffff; mov.u32 %a2, 7;\n\
        mov.u32 %b0, 1; mov.u32 %b1, 0; mov.u32 %b2, 0x80000000;\n\
        add.cc.u32 %c0, %a0, %b0; addc.cc.u32 %c1, %a1, %b1; addc.u32 %c2, %a2, %b2;\n\
        ld.param.u64 %rd1, [out];\n\
        cvt.u64.u32 %rd2, %c0; st.global.u64 [%rd1], %rd2; cvt.u64.u32 %rd2, %c1; st.global.u64 [%rd1+8], %rd2;\n\
        cvt.u64.u32 %rd2, %c2; st.global.u64 [%rd1+16], %rd2;";
    let out = run_kernel(body, 1, 3);
    let a: u128 = 7 << 64 | 0xffff_ffff << 32 | 0xffff_ffff;
    let b: u128 = 0x8000_0000 << 64 | 1;
    let s = a + b;
    assert_eq!(out, vec![s as u32 as u64, (s >> 32) as u32 as u64, (s >> 64) as u32 as u64]);
    let e = parse_err(".reg .u32 %r;\nmadc.u32 %r, %r, %r, %r;");
    assert!(e.contains("`madc` needs `.lo` or `.hi`"), "{e}");
    let e = parse_err(".reg .f32 %f;\nadd.cc.f32 %f, %f, %f;");
    assert!(e.contains("a type `.u32`, `.s32`, `.u64` or `.s64`"), "{e}");
}

// ---- WARP_SZ, vector registers, .reg parameters ------------------------------------------------

#[test]
fn warp_sz_and_vector_registers() {
    // WARP_SZ is the predefined constant 32; `.reg .v4 .u32 v` has components v.x..v.w (also
    // v.r..v.a) and stands for the whole vector in ld/st .v4
    let body = ".reg .v4 .u32 %v; .reg .v2 .u64 w; .reg .u32 %r; .reg .b64 %rd<3>;\n\
        ld.param.u64 %rd1, [out];\n\
        mov.u32 %v.x, WARP_SZ; add.u32 %v.y, %v.x, 1; mov.u32 %v.b, 3; mul.lo.u32 %v.w, %v.g, WARP_SZ;\n\
        st.global.v4.u32 [%rd1], %v;\n\
        ld.global.v2.u64 w, [%rd1]; add.u64 w.x, w.x, w.y; st.global.u64 [%rd1+16], w.x;";
    let out = run_kernel(body, 1, 3);
    let v = [32u64, 33, 3, 33 * 32];
    assert_eq!(out[0], v[0] | v[1] << 32);
    assert_eq!(out[1], v[2] | v[3] << 32);
    assert_eq!(out[2], out[0].wrapping_add(out[1]));
    let e = parse_err(".reg .v8 .u32 v;");
    assert!(e.contains("vector registers are `.v2` or `.v4`, not `.v8`"), "{e}");
    let e = parse_err(".reg .v4 .pred v;");
    assert!(e.contains("a vector register of `.pred` is not valid PTX"), "{e}");
}

#[test]
fn reg_parameters_and_return_values_of_a_func() {
    let text = format!(
        "{HEAD}.func (.reg .u32 r) addmul(.reg .u32 a, .reg .u32 b)\n{{\n\
         .reg .u32 t;\nmul.lo.u32 t, a, b; add.u32 r, t, a; ret;\n}}\n\
         .visible .entry k(.param .u64 out)\n{{\n.reg .u32 %r<4>; .reg .b64 %rd<3>;\n\
         mov.u32 %r1, %tid.x; add.u32 %r2, %r1, 3;\n\
         call.uni (%r3), addmul, (%r1, %r2);\n\
         ld.param.u64 %rd1, [out]; mul.wide.u32 %rd2, %r1, 8; add.u64 %rd1, %rd1, %rd2;\n\
         cvt.u64.u32 %rd2, %r3; st.global.u64 [%rd1], %rd2; ret;\n}}\n"
    );
    let m = ptx::parse(&text, "k.ptx").unwrap_or_else(|e| panic!("{e}"));
    let l = Launch::from_yaml("block: [8]\nbuffers:\n  out: {type: u64, len: 8}\nparams: [out]\n").unwrap();
    let out = run(&m, &l).unwrap_or_else(|e| panic!("{e}")).bits("out").unwrap();
    let want: Vec<u64> = (0..8u64).map(|t| t * (t + 3) + t).collect();
    assert_eq!(out, want);
    let e =
        ptx::parse(&format!("{HEAD}.visible .entry k(.reg .u32 a)\n{{\nret;\n}}\n"), "e.ptx").unwrap_err().to_string();
    assert!(e.contains("e.ptx:4:") && e.contains("kernel parameters are `.param`"), "{e}");
}

// ---- addresses, .b128 ---------------------------------------------------------------------------

#[test]
fn register_plus_offset_addresses() {
    // [reg+imm], [reg-imm], [reg+-imm], hex offsets and a variable plus an offset
    let text = format!(
        "{HEAD}.global .align 8 .u64 g[4] = {{10, 20, 30, 40}};\n\
         .visible .entry k(.param .u64 out)\n{{\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [out+0]; mov.u64 %rd2, g+16;\n\
         ld.global.u64 %rd3, [%rd2-8]; ld.global.u64 %rd4, [%rd2+-16]; ld.global.u64 %rd5, [%rd2+0x8];\n\
         ld.global.u64 %rd6, [g+24];\n\
         st.global.u64 [%rd1], %rd3; st.global.u64 [%rd1+0x8], %rd4; st.global.u64 [%rd1+16], %rd5;\n\
         st.global.u64 [%rd1+24], %rd6; ret;\n}}\n"
    );
    let m = ptx::parse(&text, "k.ptx").unwrap_or_else(|e| panic!("{e}"));
    let l = Launch::from_yaml("block: [1]\nbuffers:\n  out: {type: u64, len: 4}\nparams: [out]\n").unwrap();
    let out = run(&m, &l).unwrap_or_else(|e| panic!("{e}")).bits("out").unwrap();
    assert_eq!(out, vec![20, 10, 40, 40]);
}

#[test]
fn b128_registers_keep_all_128_bits() {
    // mov.b128 packs {lo, hi}; ld/st.b128 and mov between .b128 registers move 128 bits
    let body = ".reg .b128 %q<3>; .reg .b64 %rd<5>;\n\
        ld.param.u64 %rd1, [out];\n\
        mov.u64 %rd2, 0x0123456789abcdef; mov.u64 %rd3, 0xfedcba9876543210;\n\
        mov.b128 %q1, {%rd2, %rd3}; st.global.b128 [%rd1], %q1;\n\
        ld.global.b128 %q2, [%rd1]; mov.b128 %q0, %q2; mov.b128 {%rd3, %rd4}, %q0;\n\
        st.global.u64 [%rd1+16], %rd4; st.global.u64 [%rd1+24], %rd3;";
    let out = run_kernel(body, 1, 4);
    assert_eq!(out, vec![0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 0xfedc_ba98_7654_3210, 0x0123_4567_89ab_cdef]);
}
