//! mbarrier unit (STUB: being written).
use super::{Request, Response, TraceEvent};
use crate::config::Config;
use crate::memory::MemorySystem;
pub struct MbarrierUnit;
impl MbarrierUnit {
    pub fn new(_c: &Config) -> Self { MbarrierUnit }
    pub fn launch_cta(&mut self, _slot: u16) {}
    pub fn submit(&mut self, _r: &Request, _m: &mut MemorySystem, _out: &mut Vec<Response>, _ev: &mut Vec<TraceEvent>) { todo!() }
    pub fn wake_waiters(&mut self, _m: &mut MemorySystem, _timeout: bool, _out: &mut Vec<Response>) {}
    pub fn overlaps_live(&self, _cta: u16, _addr: u64, _len: u64) -> bool { false }
    pub fn describe_waits(&self) -> Vec<String> { vec![] }
}
