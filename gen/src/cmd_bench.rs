//! `smsync bench` (being written: see issue 2).
#[derive(clap::Args)]
pub struct Args {}
pub fn main(_a: Args) -> Result<(), String> {
    Err("smsync bench is not built yet".into())
}
