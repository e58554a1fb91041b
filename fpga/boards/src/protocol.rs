//! The UART host-bridge protocol: the byte frames between a host and a board top-level, the
//! host half of their encoding and decoding, and a cycle-level 8N1 line model.
//!
//! The board half is [`crate::bridge::HostBridge`] (rust-hdl); the codes below are the single
//! definition both halves use. The frame layout table is in docs/FPGA.md ("UART bridge
//! protocol"); in short:
//!
//! * Every frame starts with a type byte; its length follows from the type (and, for the two
//!   variable frames, from masks and continuation bits), so there is no length byte.
//! * **Host -> board integers are big-endian**, and lane operands are *VLQ* (7-bit groups, most
//!   significant first, bit 7 set on every group but the last): the board shifts each byte in
//!   from the bottom (`acc = acc << 7 | low7`) and needs no byte-position decoder.
//! * **Board -> host integers are little-endian**, and lane values are *LEB128* (7-bit groups,
//!   least significant first): the board shifts its value register right and needs no
//!   length computation.
//! * A request carries only the lanes that have a non-zero operand in a field the request uses,
//!   and only those fields; the board zeroes the rest (so the top sees exactly the request).
//!   A response carries the value of an answered lane only if it is non-zero.
//! * The host sends one command frame (RESET, LAUNCH, GLOBAL_END, RUN, REQUEST) at a time and
//!   waits for the board's STATUS frame that ends it; in between the board sends responses, wakes
//!   and global-memory requests, and the host answers memory reads with GM_DATA / AG_DATA.

use smsync_contract::encoding::ErrorCode;
use smsync_contract::request::{Request, Response};

// ---- host -> board command bytes ----
/// Pulse the sync unit's reset (16 cycles), clear the bridge's sticky flags. No payload.
pub const CMD_RESET: u8 = 0x01;
/// Launch a CTA: `slot u8, warps u8`.
pub const CMD_LAUNCH: u8 = 0x02;
/// Set the top's `global_end`: `u64`.
pub const CMD_GLOBAL_END: u8 = 0x03;
/// Let time pass: `cycles u32, timeout u8` (the top's `timeout` input is held at `timeout` for
/// `cycles` board cycles, not counting cycles in which a global-memory access waits for the host).
pub const CMD_RUN: u8 = 0x04;
/// A sync request: [`REQUEST_HEADER_BYTES`] header bytes, then the lane operands.
pub const CMD_REQUEST: u8 = 0x05;
/// Read data for the copy engine's port (`gm_*`): `copy_port_bytes` bytes, big-endian.
pub const CMD_GM_DATA: u8 = 0x06;
/// Read data for the atomic ALU's port (`ag_*`): 16 bytes, big-endian.
pub const CMD_AG_DATA: u8 = 0x07;

// ---- board -> host frame types ----
/// End of a command: `flags u8, cycle u32` (flags: [`STATUS_BUSY`] ...).
pub const FRAME_STATUS: u8 = 0x80;
/// A response of the top: `tag u64, cta u8, warp u8, lanes u32, preds u32, error u8,
/// error_lane u8, vmask u32`, then a LEB128 value per lane in `vmask`, ascending.
pub const FRAME_RESPONSE: u8 = 0x81;
/// A response whose answered lanes all have the same non-zero value: the RESPONSE fixed part
/// (`vmask` = the answered lanes), then that value once, LEB128.
pub const FRAME_RESPONSE_UNIFORM: u8 = 0x87;
/// A suspended try_wait lane woke: `cta u8, warp u8, lane u8, pred u8`.
pub const FRAME_WAKE: u8 = 0x82;
/// The copy engine reads: `addr u64`. The host answers with [`CMD_GM_DATA`].
pub const FRAME_GM_READ: u8 = 0x83;
/// The copy engine writes: `addr u64, data (copy_port_bytes), byte enables (copy_port_bytes bits)`.
pub const FRAME_GM_WRITE: u8 = 0x84;
/// The atomic ALU reads a 16-byte line: `addr u64`. The host answers with [`CMD_AG_DATA`].
pub const FRAME_AG_READ: u8 = 0x85;
/// The atomic ALU writes: `addr u64, data 16 bytes, byte enables u16`.
pub const FRAME_AG_WRITE: u8 = 0x86;

/// STATUS flag bits.
pub const STATUS_BUSY: u8 = 1 << 0;
/// A character with a missing stop bit was received since the last RESET.
pub const STATUS_FRAMING: u8 = 1 << 1;
/// The bridge dropped something since the last RESET: a response or wake arrived with its queue
/// full, or a second response carrying values arrived before the first one's values were sent.
pub const STATUS_OVERFLOW: u8 = 1 << 2;
/// An unknown command byte was received since the last RESET.
pub const STATUS_BAD_COMMAND: u8 = 1 << 3;

/// Bytes after [`CMD_REQUEST`] before the lane operands: tag u64, cta, warp, op, sub, dtype,
/// space, flags, vec (u8 each), imm, imm2, member, active, live (u32 each), field mask u8 (bit
/// f: field f is sent; fields addr, src, mbar, a, b, c), lane mask u32 (lanes that are sent).
pub const REQUEST_HEADER_BYTES: usize = 41;
/// Bytes of a RESPONSE frame before its values (type byte included).
pub const RESPONSE_FIXED_BYTES: usize = 25;
/// Depth of the bridge's response and wake queues.
pub const QUEUE_DEPTH: usize = 16;

/// The six per-lane operand fields, in frame order.
pub const LANE_FIELDS: [&str; 6] = ["addr", "src", "mbar", "a", "b", "c"];

fn lane_field(req: &Request, lane: usize, field: usize) -> u128 {
    let l = &req.lanes[lane];
    match field {
        0 => l.addr as u128,
        1 => l.src as u128,
        2 => l.mbar as u128,
        3 => l.a,
        4 => l.b,
        _ => l.c,
    }
}

/// `v` as VLQ: 7-bit groups, most significant first, bit 7 set on all but the last.
pub fn vlq(v: u128, out: &mut Vec<u8>) {
    let groups = (128 - v.leading_zeros() as usize).div_ceil(7);
    for g in (0..groups.max(1)).rev() {
        let low7 = ((v >> (7 * g)) & 0x7f) as u8;
        out.push(if g > 0 { low7 | 0x80 } else { low7 });
    }
}

/// The REQUEST frame for `req`. Refuses fields wider than the top's ports (the board would
/// drop their high bits silently).
pub fn encode_request(req: &Request) -> Result<Vec<u8>, String> {
    if req.cta >= 32 || req.warp >= 32 {
        return Err(format!("cta {} / warp {} do not fit the 5-bit fields", req.cta, req.warp));
    }
    if req.sub >= 16 || req.vec >= 16 {
        return Err(format!("sub {} / vec {} do not fit (4 / 4 bits)", req.sub, req.vec));
    }
    let mut fields = 0u8;
    let mut lanes = 0u32;
    for lane in 0..32 {
        for f in 0..6 {
            if lane_field(req, lane, f) != 0 {
                fields |= 1 << f;
                lanes |= 1 << lane;
            }
        }
    }
    let mut p = vec![CMD_REQUEST];
    p.extend_from_slice(&req.tag.to_be_bytes());
    p.extend_from_slice(&[
        req.cta as u8,
        req.warp as u8,
        req.op.code(),
        req.sub,
        req.dtype.code(),
        req.space.code(),
        req.flags,
        req.vec,
    ]);
    for v in [req.imm, req.imm2, req.member_mask, req.active_mask, req.live_mask] {
        p.extend_from_slice(&v.to_be_bytes());
    }
    p.push(fields);
    p.extend_from_slice(&lanes.to_be_bytes());
    debug_assert_eq!(p.len(), 1 + REQUEST_HEADER_BYTES);
    for lane in (0..32).filter(|l| lanes >> l & 1 == 1) {
        for f in (0..6).filter(|f| fields >> f & 1 == 1) {
            vlq(lane_field(req, lane, f), &mut p);
        }
    }
    Ok(p)
}

pub fn encode_launch(slot: u16, warps: u16) -> Result<Vec<u8>, String> {
    if slot >= 32 || warps > 32 {
        return Err(format!(
            "launch of slot {slot} with {warps} warps does not fit the bridge (slot < 32, warps <= 32)"
        ));
    }
    Ok(vec![CMD_LAUNCH, slot as u8, warps as u8])
}

pub fn encode_global_end(end: u64) -> Vec<u8> {
    let mut f = vec![CMD_GLOBAL_END];
    f.extend_from_slice(&end.to_be_bytes());
    f
}

pub fn encode_run(cycles: u32, timeout: bool) -> Vec<u8> {
    let mut f = vec![CMD_RUN];
    f.extend_from_slice(&cycles.to_be_bytes());
    f.push(timeout as u8);
    f
}

/// GM_DATA / AG_DATA: `bytes` are memory bytes in address order (byte 0 = lowest address, the
/// port's least significant byte); the frame carries them big-endian (last byte first).
pub fn encode_read_data(cmd: u8, bytes: &[u8]) -> Vec<u8> {
    let mut f = vec![cmd];
    f.extend(bytes.iter().rev());
    f
}

/// A frame from the board.
// A response frame carries a whole warp's values; frames are decoded one at a time and consumed
// at once, so boxing the large variant would only add an allocation per frame.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum BoardFrame {
    Status {
        flags: u8,
        cycle: u32,
    },
    Response(Response),
    Wake {
        cta: u8,
        warp: u8,
        lane: u8,
        pred: bool,
    },
    /// A global read (`atomic` = the atomic ALU's 16-byte port, else the copy engine's).
    Read {
        atomic: bool,
        addr: u64,
    },
    /// A global write: `data` in address order, `enables` one flag per byte.
    Write {
        atomic: bool,
        addr: u64,
        data: Vec<u8>,
        enables: Vec<bool>,
    },
}

/// Splits the board's byte stream into frames; keeps partial frames between calls.
pub struct FrameDecoder {
    port_bytes: usize,
    buf: Vec<u8>,
}

fn le(bytes: &[u8]) -> u128 {
    bytes.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128)
}

impl FrameDecoder {
    /// `port_bytes`: the copy engine's global port width (`copy_port_bytes`).
    pub fn new(port_bytes: usize) -> FrameDecoder {
        FrameDecoder { port_bytes, buf: Vec::new() }
    }

    /// Feed received bytes; returns the complete frames. An unknown frame type or an unknown
    /// error code is an error (the stream cannot be resynchronised without a RESET).
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<BoardFrame>, String> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some((frame, used)) = self.parse()? {
            self.buf.drain(..used);
            out.push(frame);
        }
        Ok(out)
    }

    /// One frame at the start of the buffer and its length, or None if incomplete.
    fn parse(&self) -> Result<Option<(BoardFrame, usize)>, String> {
        let b = &self.buf;
        let Some(&kind) = b.first() else { return Ok(None) };
        let be_bytes = self.port_bytes.div_ceil(8);
        let fixed = match kind {
            FRAME_STATUS => 6,
            FRAME_RESPONSE | FRAME_RESPONSE_UNIFORM => RESPONSE_FIXED_BYTES,
            FRAME_WAKE => 5,
            FRAME_GM_READ | FRAME_AG_READ => 9,
            FRAME_GM_WRITE => 9 + self.port_bytes + be_bytes,
            FRAME_AG_WRITE => 9 + 16 + 2,
            other => {
                return Err(format!("UART bridge: unknown frame type {other:#04x} from the board (stream out of sync)"))
            }
        };
        if b.len() < fixed {
            return Ok(None);
        }
        let addr = || le(&b[1..9]) as u64;
        let frame = match kind {
            FRAME_STATUS => BoardFrame::Status { flags: b[1], cycle: le(&b[2..6]) as u32 },
            FRAME_WAKE => BoardFrame::Wake { cta: b[1], warp: b[2], lane: b[3], pred: b[4] & 1 == 1 },
            FRAME_GM_READ => BoardFrame::Read { atomic: false, addr: addr() },
            FRAME_AG_READ => BoardFrame::Read { atomic: true, addr: addr() },
            FRAME_GM_WRITE | FRAME_AG_WRITE => {
                let n = if kind == FRAME_GM_WRITE { self.port_bytes } else { 16 };
                let en = le(&b[9 + n..fixed]);
                BoardFrame::Write {
                    atomic: kind == FRAME_AG_WRITE,
                    addr: addr(),
                    data: b[9..9 + n].to_vec(),
                    enables: (0..n).map(|i| en >> i & 1 == 1).collect(),
                }
            }
            _ => {
                // RESPONSE: the fixed part, then LEB128 values of the lanes in vmask (one value
                // for all of them in RESPONSE_UNIFORM).
                let vmask = le(&b[21..25]) as u32;
                let mut values = [0u128; 32];
                let mut at = fixed;
                let mut uniform = None;
                for (lane, v) in values.iter_mut().enumerate() {
                    if vmask >> lane & 1 == 0 {
                        continue;
                    }
                    if let Some(u) = uniform {
                        *v = u;
                        continue;
                    }
                    let mut shift = 0;
                    loop {
                        let Some(&byte) = b.get(at) else { return Ok(None) };
                        at += 1;
                        if shift < 128 {
                            *v |= ((byte & 0x7f) as u128) << shift;
                        }
                        shift += 7;
                        if byte & 0x80 == 0 {
                            break;
                        }
                    }
                    if kind == FRAME_RESPONSE_UNIFORM {
                        uniform = Some(*v);
                    }
                }
                let tag = le(&b[1..9]) as u64;
                let error = ErrorCode::from_code(b[19]).ok_or_else(|| {
                    format!("UART bridge: response for tag {tag} has an unknown error code {}", b[19])
                })?;
                let r = Response {
                    tag,
                    cta: b[9] as u16,
                    warp: b[10] as u16,
                    lanes: le(&b[11..15]) as u32,
                    values,
                    preds: le(&b[15..19]) as u32,
                    error,
                    error_lane: b[20],
                };
                return Ok(Some((BoardFrame::Response(r), at)));
            }
        };
        Ok(Some((frame, fixed)))
    }
}

/// The host's transmitter on the line into the board: 8N1, `cpb` clock cycles per bit, one
/// [`LineDriver::level`] call per board clock cycle.
pub struct LineDriver {
    cpb: u32,
    queue: std::collections::VecDeque<u8>,
    /// The character being sent: 10 line bits (start, 8 data LSB first, stop), bit index, cycle in the bit.
    current: Option<(u16, u32, u32)>,
}

impl LineDriver {
    pub fn new(cpb: u32) -> LineDriver {
        LineDriver { cpb: cpb.max(1), queue: Default::default(), current: None }
    }

    pub fn send(&mut self, bytes: &[u8]) {
        self.queue.extend(bytes);
    }

    /// Nothing left to send.
    pub fn idle(&self) -> bool {
        self.current.is_none() && self.queue.is_empty()
    }

    /// The line level for the next cycle (idle high).
    pub fn level(&mut self) -> bool {
        if self.current.is_none() {
            let byte = self.queue.pop_front();
            self.current = byte.map(|b| ((1 << 9) | ((b as u16) << 1), 0, 0));
        }
        let Some((bits, index, cycle)) = self.current.as_mut() else { return true };
        let level = *bits >> *index & 1 == 1;
        *cycle += 1;
        if *cycle == self.cpb {
            *cycle = 0;
            *index += 1;
            if *index == 10 {
                self.current = None;
            }
        }
        level
    }
}

/// The host's receiver on the board's TX line: samples each bit in its middle, one
/// [`LineSampler::sample`] call per board clock cycle.
pub struct LineSampler {
    cpb: u32,
    /// Cycles since the start bit's falling edge, while a character is being received.
    since_start: Option<u32>,
    byte: u8,
}

impl LineSampler {
    pub fn new(cpb: u32) -> LineSampler {
        LineSampler { cpb: cpb.max(1), since_start: None, byte: 0 }
    }

    /// Feed the line level of one cycle; returns a completed character, or a framing error.
    pub fn sample(&mut self, level: bool) -> Option<Result<u8, String>> {
        let Some(t) = self.since_start.as_mut() else {
            if !level {
                self.since_start = Some(0);
                self.byte = 0;
            }
            return None;
        };
        *t += 1;
        let t = *t;
        let mid = self.cpb / 2;
        if t % self.cpb != mid {
            return None;
        }
        match t / self.cpb {
            0 if level => {
                self.since_start = None; // a glitch, not a start bit
                None
            }
            k @ 1..=8 => {
                self.byte |= (level as u8) << (k - 1);
                None
            }
            9 => {
                self.since_start = None;
                Some(if level {
                    Ok(self.byte)
                } else {
                    Err(format!("framing error: stop bit of {:#04x} is 0", self.byte))
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smsync_contract::encoding::Op;

    #[test]
    fn vlq_groups_most_significant_first() {
        let mut v = Vec::new();
        vlq(0, &mut v);
        vlq(0x7f, &mut v);
        vlq(0x80, &mut v);
        assert_eq!(v, vec![0x00, 0x7f, 0x81, 0x00]);
        let mut w = Vec::new();
        vlq(u128::MAX, &mut w);
        assert_eq!(w.len(), 19);
        assert_eq!(w[0], 0x80 | 0x03);
    }

    #[test]
    fn request_sends_only_nonzero_lanes_and_used_fields() {
        let mut req = Request::new(7, 1, 2, Op::ALL[0]);
        req.active_mask = 0xffff_ffff;
        req.lanes[3].addr = 0x100;
        req.lanes[9].b = 5;
        let f = encode_request(&req).unwrap();
        assert_eq!(f[0], CMD_REQUEST);
        assert_eq!(&f[1..9], &7u64.to_be_bytes());
        assert_eq!(f[37], 0b01_0001, "fields addr and b");
        assert_eq!(&f[38..42], &((1u32 << 3) | (1 << 9)).to_be_bytes());
        // lane 3: addr 0x100 (2 groups), b 0; lane 9: addr 0, b 5.
        assert_eq!(&f[42..], &[0x82, 0x00, 0x00, 0x00, 0x05]);
    }

    #[test]
    fn response_frames_decode_across_split_reads() {
        let mut f = vec![FRAME_RESPONSE];
        f.extend_from_slice(&42u64.to_le_bytes());
        f.extend_from_slice(&[3, 4]);
        f.extend_from_slice(&0b110u32.to_le_bytes());
        f.extend_from_slice(&0b100u32.to_le_bytes());
        f.extend_from_slice(&[0, 0]);
        f.extend_from_slice(&0b100u32.to_le_bytes());
        f.extend_from_slice(&[0x81, 0x01]); // lane 2 = 0x81 in LEB128
        f.extend_from_slice(&[FRAME_STATUS, STATUS_BUSY, 9, 0, 0, 0]);
        let mut d = FrameDecoder::new(8);
        assert!(d.push(&f[..26]).unwrap().is_empty());
        let got = d.push(&f[26..]).unwrap();
        let BoardFrame::Response(r) = &got[0] else { panic!("{got:?}") };
        assert_eq!((r.tag, r.cta, r.warp, r.lanes, r.preds), (42, 3, 4, 0b110, 0b100));
        assert_eq!(r.values[2], 0x81);
        assert_eq!(got[1], BoardFrame::Status { flags: STATUS_BUSY, cycle: 9 });
        assert!(FrameDecoder::new(8).push(&[0x7e]).unwrap_err().contains("unknown frame type"));
        // The uniform form: one value for every lane in vmask.
        let mut u = f[..RESPONSE_FIXED_BYTES].to_vec();
        u[0] = FRAME_RESPONSE_UNIFORM;
        u[21..25].copy_from_slice(&0b1010u32.to_le_bytes());
        u.push(0x05);
        let got = FrameDecoder::new(8).push(&u).unwrap();
        let BoardFrame::Response(r) = &got[0] else { panic!("{got:?}") };
        assert_eq!((r.values[1], r.values[3], r.values[2]), (5, 5, 0));
    }

    #[test]
    fn line_driver_and_sampler_agree_at_small_divisors() {
        for cpb in [2, 3, 4, 17] {
            let mut tx = LineDriver::new(cpb);
            tx.send(&[0x00, 0xa5, 0xff, 0x5a]);
            let mut rx = LineSampler::new(cpb);
            let mut got = Vec::new();
            for _ in 0..60 * cpb {
                if let Some(b) = rx.sample(tx.level()) {
                    got.push(b.unwrap());
                }
            }
            assert_eq!(got, vec![0x00, 0xa5, 0xff, 0x5a], "cpb {cpb}");
        }
    }

    #[test]
    fn missing_stop_bit_is_a_framing_error() {
        let mut rx = LineSampler::new(4);
        let mut line = vec![true; 4];
        line.extend([false; 4]); // start
        line.extend([true; 32]); // 0xff
        line.extend([false; 8]); // stop bit low
        let errors: Vec<_> = line.into_iter().filter_map(|l| rx.sample(l)).collect();
        assert!(errors[0].as_ref().unwrap_err().contains("framing"));
    }
}
