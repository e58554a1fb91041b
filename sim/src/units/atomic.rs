//! Atomic ALU (STUB: being written).
use super::{mbarrier::MbarrierUnit, Request, Response};
use crate::config::Config;
use crate::memory::MemorySystem;
pub struct AtomicAlu;
impl AtomicAlu {
    pub fn new(_c: &Config) -> Self { AtomicAlu }
    pub fn submit(&mut self, _r: &Request, _m: &mut MemorySystem, _mb: &MbarrierUnit, _out: &mut Vec<Response>) { todo!() }
}
