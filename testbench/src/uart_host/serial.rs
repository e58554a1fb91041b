//! [`SerialLink`]: a real board on a serial device. The device is set raw at the baud rate with
//! `stty` (8N1, no flow control, reads return after at most 0.1 s), then read and written as a
//! file. The board must run a top generated for the same baud rate
//! (`smsync gen --board ulx3s --baud N`).

use super::BoardLink;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Seconds the host waits for any byte after it last sent something.
pub const SERIAL_PATIENCE: Duration = Duration::from_secs(10);

pub struct SerialLink {
    path: PathBuf,
    baud: u32,
    file: File,
    last_activity: Instant,
}

impl SerialLink {
    pub fn open(path: &Path, baud: u32) -> Result<SerialLink, String> {
        let status = std::process::Command::new("stty")
            .arg("-F")
            .arg(path)
            .args([
                &baud.to_string(),
                "raw",
                "-echo",
                "cs8",
                "-cstopb",
                "-parenb",
                "-crtscts",
                "-ixon",
                "-ixoff",
                "min",
                "0",
                "time",
                "1",
            ])
            .status()
            .map_err(|e| format!("running stty on {}: {e}", path.display()))?;
        if !status.success() {
            return Err(format!("stty could not set {} raw at {baud} baud ({status})", path.display()));
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| format!("opening {}: {e}", path.display()))?;
        Ok(SerialLink { path: path.to_path_buf(), baud, file, last_activity: Instant::now() })
    }
}

impl BoardLink for SerialLink {
    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.file.write_all(bytes).map_err(|e| format!("writing to {}: {e}", self.path.display()))?;
        self.last_activity = Instant::now();
        Ok(())
    }

    fn exchange(&mut self, received: &mut Vec<u8>) -> Result<(), String> {
        let mut buf = [0u8; 4096];
        let n = self.file.read(&mut buf).map_err(|e| format!("reading {}: {e}", self.path.display()))?;
        received.extend_from_slice(&buf[..n]);
        if n > 0 {
            self.last_activity = Instant::now();
        } else if self.last_activity.elapsed() > SERIAL_PATIENCE {
            return Err(format!("the board sent nothing for {} s", SERIAL_PATIENCE.as_secs()));
        }
        Ok(())
    }

    fn cycles(&self) -> Option<u64> {
        None
    }

    fn reset_pin(&mut self) {}

    fn describe(&self) -> String {
        format!("board on {} at {} baud", self.path.display(), self.baud)
    }
}
