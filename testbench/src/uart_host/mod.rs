//! The host half of the UART bridge as an RTL backend for the cosim: [`UartHost`] drives a
//! board top-level through bytes only (`smsync_boards::protocol`), over a [`BoardLink`]:
//!
//! * [`sim::SimBoard`] — the ULX3S top-level Verilated, its UART pins driven and sampled by the
//!   cycle-level 8N1 line model (`--backend uart-sim`);
//! * [`serial::SerialLink`] — a real board on a serial device, set raw with `stty`
//!   (`--backend uart:/dev/ttyUSB0`).
//!
//! It offers the same calls as `RtlSyncUnit` (launch, submit, run with `timeout`, busy) so the
//! cosim's `RtlBackend` can hold either. Every host command is answered by one STATUS frame;
//! while waiting for it the host serves the board's global-memory reads and writes from the
//! cosim's mirror and collects responses and wakes (wakes become one-lane answers with the
//! suspended try_wait's tag, as in `RtlSyncUnit`).

pub mod serial;
pub mod sim;

use crate::refused::RefusedRequests;
use crate::waiting_lanes::WaitingLanes;
use smsync_boards::protocol::{self as p, BoardFrame, FrameDecoder};
use smsync_sim::encoding::ErrorCode;
use smsync_sim::memory::MemorySystem;
use smsync_sim::units::{Request, Response};
use std::collections::VecDeque;

/// A byte pipe to a board (simulated or real).
pub trait BoardLink: Send {
    /// Queue `bytes` to the board.
    fn send(&mut self, bytes: &[u8]) -> Result<(), String>;
    /// Let some time pass; append what the board sent meanwhile to `received`. Errors when
    /// the board has been silent for the link's patience since the host last sent something.
    fn exchange(&mut self, received: &mut Vec<u8>) -> Result<(), String>;
    /// Board cycles since the link was opened, if the link counts them (the simulation does).
    fn cycles(&self) -> Option<u64>;
    /// Pulse the board's reset pin, if the link has one (the simulation does).
    fn reset_pin(&mut self);
    /// For messages: "simulated ULX3S top" / "/dev/ttyUSB0 at 115200 baud".
    fn describe(&self) -> String;
}

/// The host half of the bridge.
pub struct UartHost {
    link: Box<dyn BoardLink>,
    decoder: FrameDecoder,
    /// Decoded frames not yet handled (frames that followed a STATUS in the same read).
    frames: VecDeque<BoardFrame>,
    port_bytes: usize,
    /// The `global_end` last sent (sent again only when it changes).
    global_end: Option<u64>,
    busy: bool,
    /// Board cycles from the STATUS frames (32-bit counter, extended here).
    board_cycles: u64,
    last_status_cycle: u32,
    /// Suspended try_wait lanes and lanes waiting at a rendezvous (as in `RtlSyncUnit`).
    pub waiting: WaitingLanes,
    /// Requests the board answered `Retry` (as in `RtlSyncUnit`), and those an answer to their
    /// warp released, sent again after the command in progress.
    pub refused: RefusedRequests,
    again: VecDeque<Request>,
    /// Bytes sent / received (for the summary).
    pub bytes_out: u64,
    pub bytes_in: u64,
}

impl UartHost {
    /// `port_bytes`: the config's `copy_port_bytes` (width of the copy engine's memory frames).
    pub fn new(link: Box<dyn BoardLink>, port_bytes: usize) -> Result<UartHost, String> {
        let mut host = UartHost {
            link,
            decoder: FrameDecoder::new(port_bytes),
            frames: VecDeque::new(),
            port_bytes,
            global_end: None,
            busy: false,
            board_cycles: 0,
            last_status_cycle: 0,
            waiting: WaitingLanes::default(),
            refused: RefusedRequests::default(),
            again: VecDeque::new(),
            bytes_out: 0,
            bytes_in: 0,
        };
        host.reset()?;
        Ok(host)
    }

    /// Reset pin (if any), then the RESET command: the board's sync unit and bridge start clean.
    pub fn reset(&mut self) -> Result<(), String> {
        self.link.reset_pin();
        self.decoder = FrameDecoder::new(self.port_bytes);
        self.frames.clear();
        self.global_end = None;
        self.waiting.clear();
        self.refused.clear();
        self.again.clear();
        let mut scratch = MemorySystem::new(0, 1, 0);
        let mut out = Vec::new();
        self.command(&[p::CMD_RESET], &mut scratch, &mut out)?;
        if let Some(r) = out.first() {
            return Err(format!("the board answered during its reset: tag {}", r.tag));
        }
        Ok(())
    }

    pub fn describe(&self) -> String {
        self.link.describe()
    }

    /// Board cycles: counted by the simulation, else from the board's STATUS frames.
    pub fn cycle(&self) -> u64 {
        self.link.cycles().unwrap_or(self.board_cycles)
    }

    /// The `busy` flag of the last STATUS.
    pub fn busy(&self) -> bool {
        self.busy
    }

    pub fn launch_cta(
        &mut self,
        slot: u16,
        warps: u16,
        mem: &mut MemorySystem,
        out: &mut Vec<Response>,
    ) -> Result<(), String> {
        self.waiting.clear_slot(slot);
        self.command(&p::encode_launch(slot, warps)?, mem, out)
    }

    /// The request, then everything until the board reports it consumed and the top idle.
    pub fn submit(&mut self, req: &Request, mem: &mut MemorySystem, out: &mut Vec<Response>) -> Result<(), String> {
        let frame =
            p::encode_request(req).map_err(|why| format!("request {} ({}) cannot be sent: {why}", req.tag, req.op))?;
        self.sync_global_end(mem, out)?;
        self.waiting.expect(req);
        self.refused.sent(req);
        self.command(&frame, mem, out)?;
        self.send_again(mem, out)
    }

    /// Send the requests answered `Retry` that an answer to their warp released (each may be
    /// answered `Retry` again).
    fn send_again(&mut self, mem: &mut MemorySystem, out: &mut Vec<Response>) -> Result<(), String> {
        while let Some(req) = self.again.pop_front() {
            let frame = p::encode_request(&req)
                .map_err(|why| format!("request {} ({}) cannot be sent again: {why}", req.tag, req.op))?;
            self.refused.sent(&req);
            self.command(&frame, mem, out)?;
        }
        Ok(())
    }

    /// `cycles` board cycles with the top's `timeout` input at `timeout`.
    pub fn run(
        &mut self,
        cycles: u32,
        timeout: bool,
        mem: &mut MemorySystem,
        out: &mut Vec<Response>,
    ) -> Result<(), String> {
        self.sync_global_end(mem, out)?;
        self.command(&p::encode_run(cycles, timeout), mem, out)?;
        self.send_again(mem, out)
    }

    fn sync_global_end(&mut self, mem: &mut MemorySystem, out: &mut Vec<Response>) -> Result<(), String> {
        let end = mem.global.base + mem.global.bytes.len() as u64;
        if self.global_end != Some(end) {
            self.command(&p::encode_global_end(end), mem, out)?;
            self.global_end = Some(end);
        }
        Ok(())
    }

    /// Send one command frame and handle board frames until its STATUS.
    fn command(&mut self, frame: &[u8], mem: &mut MemorySystem, out: &mut Vec<Response>) -> Result<(), String> {
        self.link.send(frame)?;
        self.bytes_out += frame.len() as u64;
        let mut buf = Vec::new();
        loop {
            while let Some(f) = self.frames.pop_front() {
                if let BoardFrame::Status { flags, cycle } = f {
                    return self.on_status(flags, cycle);
                }
                self.handle(f, mem, out)?;
            }
            buf.clear();
            self.link
                .exchange(&mut buf)
                .map_err(|e| format!("{} (command {:#04x}): {e}", self.link.describe(), frame[0]))?;
            self.bytes_in += buf.len() as u64;
            self.frames.extend(self.decoder.push(&buf)?);
        }
    }

    fn on_status(&mut self, flags: u8, cycle: u32) -> Result<(), String> {
        self.busy = flags & p::STATUS_BUSY != 0;
        self.board_cycles += cycle.wrapping_sub(self.last_status_cycle) as u64;
        self.last_status_cycle = cycle;
        let mut problems = Vec::new();
        if flags & p::STATUS_FRAMING != 0 {
            problems.push("the board saw a UART framing error (wrong baud rate or a noisy line)");
        }
        if flags & p::STATUS_OVERFLOW != 0 {
            problems
                .push("the bridge dropped a response or wake (queue overflow, or two responses with values in flight)");
        }
        if flags & p::STATUS_BAD_COMMAND != 0 {
            problems.push("the board received an unknown command byte (stream out of sync)");
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!("{}: {}", self.link.describe(), problems.join("; ")))
        }
    }

    fn handle(&mut self, f: BoardFrame, mem: &mut MemorySystem, out: &mut Vec<Response>) -> Result<(), String> {
        match f {
            BoardFrame::Status { .. } => unreachable!("handled by command"),
            BoardFrame::Response(r) if r.error == ErrorCode::Retry => self.refused.refused(r.tag)?,
            BoardFrame::Response(r) => {
                let (cta, warp) = (r.cta, r.warp);
                self.waiting.route(r, out);
                self.again.extend(self.refused.answered(cta, warp));
            }
            BoardFrame::Wake { cta, warp, lane, pred } => {
                if let Some(r) = self.waiting.wake(cta as u16, warp as u16, lane, pred) {
                    out.push(r);
                }
            }
            BoardFrame::Read { atomic, addr } => {
                let n = if atomic { 16 } else { self.port_bytes };
                // Outside global memory reads as 0 (as RtlSyncUnit serves it); the golden
                // model reports such an access, so the cosim sees the difference.
                let bytes: Vec<u8> = (0..n as u64).map(|i| mem.global.slice(addr + i, 1).map_or(0, |s| s[0])).collect();
                let frame = p::encode_read_data(if atomic { p::CMD_AG_DATA } else { p::CMD_GM_DATA }, &bytes);
                self.link.send(&frame)?;
                self.bytes_out += frame.len() as u64;
            }
            BoardFrame::Write { addr, data, enables, .. } => {
                for (i, (b, en)) in data.iter().zip(&enables).enumerate() {
                    if *en {
                        if let Some(s) = mem.global.slice_mut(addr + i as u64, 1) {
                            s[0] = *b;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
