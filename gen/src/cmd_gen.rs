//! `smsync gen` (being written: see issue 3).
#[derive(clap::Args)]
pub struct Args {
    /// Architecture config (YAML); the built-in default when omitted.
    #[arg(long)]
    pub config: Option<std::path::PathBuf>,
    /// Output directory.
    #[arg(long, default_value = "build/rtl")]
    pub out: std::path::PathBuf,
}
pub fn main(_a: Args) -> Result<(), String> {
    Err("smsync gen is not built yet".into())
}
