//! Warp vote/match/redux network (STUB: being written).
use super::{Request, Response};
use crate::config::Config;
pub struct WarpNetwork;
impl WarpNetwork {
    pub fn new(_c: &Config) -> Self { WarpNetwork }
    pub fn launch_cta(&mut self, _slot: u16) {}
    pub fn submit(&mut self, _r: &Request, _out: &mut Vec<Response>) { todo!() }
    pub fn describe_waits(&self) -> Vec<String> { vec![] }
}
