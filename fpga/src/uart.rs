//! Host side of the UART host bridge: the byte protocol that carries sync requests to a board
//! and responses back, and a bit-level 8N1 UART line model.
//!
//! **Status**: this is the host half only. The board half (the rust-hdl UART bridge in the
//! ULX3S / Arty top-levels) is NOT built yet, so nothing here has been checked against hardware
//! or RTL; the frame layout mirrors the `sync_unit` top's ports (hdl/src/sync_unit/top.rs) so
//! that the bridge can shift a frame straight into the request port.
//!
//! # Byte protocol (all multi-byte fields little-endian)
//!
//! Host -> board, request frame (739 bytes + 1):
//! `0xA5, 0x01, tag u64, cta u8, warp u8, op u8, sub u8, dtype u8, flags u8, vec u8, imm u32,
//! imm2 u32, member u32, active u32, live u32`, then per lane 0..31:
//! `addr u32, a u64, b u64, c u16` (the top reads `c` bits 4:0 and 12:8 only), then a checksum
//! byte that makes the bytes after the two header bytes sum to 0 mod 256.
//!
//! Board -> host, response frame: `0x5A, 0x81, tag u64, cta u8, warp u8, lanes u32,
//! values 32 x u64, preds u32, error u8, error_lane u8, checksum` (same checksum rule).
//!
//! Reserved for the global-memory port (not built: the copy engine is not wired into the top
//! yet): `0xA5, 0x10` read request / `0xA5, 0x11` write request from the board, `0x5A, 0x90`
//! read data from the host.

use smsync_sim::encoding::ErrorCode;
use smsync_sim::units::request::{Request, Response};

pub const REQ_SYNC: u8 = 0xA5;
pub const RESP_SYNC: u8 = 0x5A;
pub const TYPE_REQUEST: u8 = 0x01;
pub const TYPE_RESPONSE: u8 = 0x81;
const LANES: usize = 32;
/// Payload bytes of a request frame (between the header and the checksum).
pub const REQUEST_PAYLOAD: usize = 8 + 7 + 4 * 5 + LANES * (4 + 8 + 8 + 2);
/// Payload bytes of a response frame.
pub const RESPONSE_PAYLOAD: usize = 8 + 2 + 4 + LANES * 8 + 4 + 2;

/// Turns requests into frames and frames into responses; holds partial input between calls.
#[derive(Default)]
pub struct UartLink {
    rx: Vec<u8>,
}

fn checksum(payload: &[u8]) -> u8 {
    0u8.wrapping_sub(payload.iter().fold(0u8, |s, b| s.wrapping_add(*b)))
}

impl UartLink {
    pub fn new() -> UartLink {
        UartLink::default()
    }

    /// The request frame. Fields wider than the top's ports (lane `a`/`b` above 64 bits, `addr`
    /// above 32 bits) are refused: the RTL would silently drop them.
    pub fn encode_request(req: &Request) -> Result<Vec<u8>, String> {
        let mut p = Vec::with_capacity(REQUEST_PAYLOAD + 3);
        p.extend_from_slice(&req.tag.to_le_bytes());
        for (name, v) in [("cta", req.cta), ("warp", req.warp)] {
            p.push(u8::try_from(v).map_err(|_| format!("request {name} {v} does not fit the 5-bit port"))?);
        }
        p.extend_from_slice(&[req.op.code(), req.sub, req.dtype.code(), req.flags, req.vec]);
        for v in [req.imm, req.imm2, req.member_mask, req.active_mask, req.live_mask] {
            p.extend_from_slice(&v.to_le_bytes());
        }
        for (i, l) in req.lanes.iter().enumerate() {
            let addr = u32::try_from(l.addr).map_err(|_| format!("lane {i}: addr {:#x} wider than the 32-bit port", l.addr))?;
            let a = u64::try_from(l.a).map_err(|_| format!("lane {i}: a wider than the 64-bit port"))?;
            let b = u64::try_from(l.b).map_err(|_| format!("lane {i}: b wider than the 64-bit port"))?;
            p.extend_from_slice(&addr.to_le_bytes());
            p.extend_from_slice(&a.to_le_bytes());
            p.extend_from_slice(&b.to_le_bytes());
            p.extend_from_slice(&((l.c & 0xffff) as u16).to_le_bytes());
        }
        let mut frame = vec![REQ_SYNC, TYPE_REQUEST];
        let sum = checksum(&p);
        frame.extend(p);
        frame.push(sum);
        Ok(frame)
    }

    /// The response frame the board sends for `resp` (what the bridge does; used by tests and
    /// by a host-side loopback).
    pub fn encode_response(resp: &Response) -> Vec<u8> {
        let mut p = Vec::with_capacity(RESPONSE_PAYLOAD);
        p.extend_from_slice(&resp.tag.to_le_bytes());
        p.push(resp.cta as u8);
        p.push(resp.warp as u8);
        p.extend_from_slice(&resp.lanes.to_le_bytes());
        for v in &resp.values {
            p.extend_from_slice(&(*v as u64).to_le_bytes());
        }
        p.extend_from_slice(&resp.preds.to_le_bytes());
        p.push(resp.error.code());
        p.push(resp.error_lane);
        let mut frame = vec![RESP_SYNC, TYPE_RESPONSE];
        let sum = checksum(&p);
        frame.extend(p);
        frame.push(sum);
        frame
    }

    /// Feed received bytes; returns the complete responses. Bytes before a frame header are
    /// skipped (line noise, a board reset); a bad checksum or an unknown error code is an error
    /// naming the frame's tag.
    pub fn receive(&mut self, bytes: &[u8]) -> Result<Vec<Response>, String> {
        self.rx.extend_from_slice(bytes);
        let mut out = Vec::new();
        loop {
            let Some(start) = self.rx.windows(2).position(|w| w == [RESP_SYNC, TYPE_RESPONSE]) else {
                let keep = usize::from(self.rx.last() == Some(&RESP_SYNC));
                self.rx.drain(..self.rx.len() - keep);
                return Ok(out);
            };
            self.rx.drain(..start);
            if self.rx.len() < 2 + RESPONSE_PAYLOAD + 1 {
                return Ok(out);
            }
            let frame: Vec<u8> = self.rx.drain(..2 + RESPONSE_PAYLOAD + 1).collect();
            out.push(decode_response(&frame[2..])?);
        }
    }
}

fn decode_response(p: &[u8]) -> Result<Response, String> {
    let u32_at = |o: usize| u32::from_le_bytes(p[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(p[o..o + 8].try_into().unwrap());
    let tag = u64_at(0);
    if p.iter().fold(0u8, |s, b| s.wrapping_add(*b)) != 0 {
        return Err(format!("response frame for tag {tag}: bad checksum"));
    }
    let mut values = [0u128; LANES];
    for (i, v) in values.iter_mut().enumerate() {
        *v = u64_at(14 + 8 * i) as u128;
    }
    let o = 14 + 8 * LANES;
    let error = ErrorCode::from_code(p[o + 4]).ok_or_else(|| format!("response frame for tag {tag}: unknown error code {}", p[o + 4]))?;
    Ok(Response {
        tag,
        cta: p[8] as u16,
        warp: p[9] as u16,
        lanes: u32_at(10),
        values,
        preds: u32_at(o),
        error,
        error_lane: p[o + 5],
    })
}

/// 8N1 line model: the line levels of `bytes`, one entry per bit time (start 0, 8 data bits
/// LSB first, stop 1). A Verilator test drives the board's RX pin from this.
pub fn uart_bits(bytes: &[u8]) -> Vec<bool> {
    let mut bits = Vec::with_capacity(bytes.len() * 10);
    for b in bytes {
        bits.push(false);
        bits.extend((0..8).map(|i| (b >> i) & 1 == 1));
        bits.push(true);
    }
    bits
}

/// Inverse of [`uart_bits`] on a line sampled once per bit time (idle high). A missing stop bit
/// is a framing error at that bit index.
pub fn uart_bytes(bits: &[bool]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bits.len() {
        if bits[i] {
            i += 1; // idle
            continue;
        }
        if i + 10 > bits.len() {
            return Err(format!("truncated character at bit {i}"));
        }
        let byte = (0..8).fold(0u8, |b, k| b | (u8::from(bits[i + 1 + k]) << k));
        if !bits[i + 9] {
            return Err(format!("framing error at bit {}: stop bit is 0", i + 9));
        }
        out.push(byte);
        i += 10;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use smsync_sim::encoding::Op;

    #[test]
    fn request_frame_has_the_documented_size_and_checksum() {
        let mut req = Request::new(0x1122334455667788, 1, 3, Op::ALL[0]);
        req.lanes[5].a = 0xdead_beef;
        let f = UartLink::encode_request(&req).unwrap();
        assert_eq!(f.len(), 2 + REQUEST_PAYLOAD + 1);
        assert_eq!(&f[..2], &[REQ_SYNC, TYPE_REQUEST]);
        assert_eq!(&f[2..10], &0x1122334455667788u64.to_le_bytes());
        assert_eq!(f[2..].iter().fold(0u8, |s, b| s.wrapping_add(*b)), 0);
        req.lanes[0].a = 1u128 << 64;
        assert!(UartLink::encode_request(&req).unwrap_err().contains("lane 0"));
    }

    #[test]
    fn responses_survive_the_bit_level_line_and_split_reads() {
        let mut r = Response { tag: 42, cta: 1, warp: 7, lanes: 0xffff, values: [0; 32], preds: 5, error: ErrorCode::None, error_lane: 0 };
        r.values[3] = 0x0123_4567_89ab_cdef;
        let mut r2 = r.clone();
        r2.tag = 43;
        r2.error = ErrorCode::ALL[1];
        let mut bytes = vec![0x00, 0x5A]; // noise before the first frame
        bytes.extend(UartLink::encode_response(&r));
        bytes.extend(UartLink::encode_response(&r2));
        let line = uart_bytes(&uart_bits(&bytes)).unwrap();
        assert_eq!(line, bytes);
        let mut link = UartLink::new();
        let (a, b) = line.split_at(100);
        assert!(link.receive(a).unwrap().is_empty());
        let got = link.receive(b).unwrap();
        assert_eq!(got, vec![r, r2]);
        let mut bad = UartLink::encode_response(&Response { tag: 9, ..got[0].clone() });
        bad[20] ^= 1;
        assert!(UartLink::new().receive(&bad).unwrap_err().contains("tag 9"));
    }

    #[test]
    fn framing_error_is_reported_at_its_bit() {
        let mut bits = uart_bits(&[0x55]);
        bits[9] = false;
        assert!(uart_bytes(&bits).unwrap_err().contains("bit 9"));
    }
}
