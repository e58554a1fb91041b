//! Fuzz target: the PTX front end must never panic, and every error must point inside the input.
//! Run: `cd sim/fuzz && cargo fuzz run parse` (needs cargo-fuzz and a nightly toolchain).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = smsync_sim::ptx::parse(&text, "fuzz.ptx") {
        let lines = text.split('\n').count() as u32;
        assert!(e.loc.line >= 1 && e.loc.line <= lines.max(1));
        assert!(e.loc.col >= 1);
        let _ = e.to_string();
    }
});
