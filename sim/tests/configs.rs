//! Every file in configs/ is a valid config, and the two preset files say exactly what the
//! built-in presets say, so `smsync gen` with and without `--config` agree.

use smsync_sim::config::Config;
use std::path::Path;

fn configs_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs")
}

#[test]
fn every_config_file_validates() {
    let mut n = 0;
    for entry in std::fs::read_dir(configs_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            Config::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 2, "expected at least configs/default.yaml and configs/fpga-small.yaml");
}

#[test]
fn preset_files_match_builtins() {
    for (file, preset) in [("default.yaml", Config::hopper_like()), ("fpga-small.yaml", Config::fpga_small())] {
        let from_file = Config::from_file(&configs_dir().join(file)).unwrap();
        assert_eq!(from_file, preset, "configs/{file} differs from the built-in preset");
    }
}

#[test]
fn error_points_at_the_file() {
    let dir = std::env::temp_dir().join("smsync-config-test");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "base: fpga-small\ncta_slots: 0\n").unwrap();
    let e = Config::from_file(&bad).unwrap_err().to_string();
    assert!(e.contains("cta_slots") && e.contains('0') && e.contains("1..=32"), "{e}");
    let e = Config::from_file(&dir.join("missing.yaml")).unwrap_err().to_string();
    assert!(e.contains("missing.yaml"), "{e}");
}
