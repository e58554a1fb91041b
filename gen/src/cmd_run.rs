//! `smsync run` (being written: see issue 2).
#[derive(clap::Args)]
pub struct Args {
    /// The PTX module.
    pub kernel: std::path::PathBuf,
    /// The launch file (YAML).
    #[arg(long)]
    pub launch: std::path::PathBuf,
}
pub fn main(_a: Args) -> Result<(), String> {
    Err("smsync run is not built yet".into())
}
