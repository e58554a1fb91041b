//! Async copy / TMA engine (STUB: being written).
use super::{mbarrier::MbarrierUnit, Request, Response, TraceEvent};
use crate::config::Config;
use crate::memory::MemorySystem;
pub struct CopyEngine;
impl CopyEngine {
    pub fn new(_c: &Config) -> Self { CopyEngine }
    pub fn launch_cta(&mut self, _slot: u16) {}
    pub fn submit(&mut self, _r: &Request, _m: &mut MemorySystem, _mb: &mut MbarrierUnit, _out: &mut Vec<Response>, _ev: &mut Vec<TraceEvent>) { todo!() }
    pub fn tick(&mut self, _m: &mut MemorySystem, _mb: &mut MbarrierUnit, _idle: bool, _out: &mut Vec<Response>, _ev: &mut Vec<TraceEvent>) -> bool { false }
    pub fn describe_waits(&self) -> Vec<String> { vec![] }
}
