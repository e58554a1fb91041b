//! The RTL side of the cosim: [`RtlBackend`] wraps the Verilated `sync_unit` top
//! ([`crate::rtl_unit::RtlSyncUnit`]) or a board top-level behind the UART bridge
//! ([`crate::uart_host::UartHost`], simulated or real), and is the ONLY place the cosim calls
//! their APIs, so a change of those APIs is a change here. It also keeps one built model per
//! config and backend alive between runs ([`checkout`] / [`checkin`]): generating the default
//! config's Verilog costs seconds and a first Verilator build minutes, a reset costs
//! microseconds.

use crate::rtl_unit::{RtlOptions, RtlSyncUnit};
use crate::uart_host::{serial::SerialLink, sim::SimBoard, UartHost};
use crate::verilator::Harness;
use smsync_sim::config::Config;
use smsync_sim::memory::MemorySystem;
use smsync_sim::units::{Request, Response};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

/// Which RTL the cosim drives.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// The `sync_unit` top Verilated, its ports driven directly (`--backend verilator`).
    #[default]
    Verilator,
    /// The ULX3S board top-level Verilated, driven through its UART pins by the host half of
    /// the bridge over a bit-level line model (`--backend uart-sim`).
    UartSim { cycles_per_bit: u32 },
    /// A real board on a serial device (`--backend uart:/dev/ttyUSB0`).
    Uart { device: PathBuf, baud: u32 },
}

impl BackendKind {
    /// `verilator`, `uart-sim` or `uart:DEVICE` (`baud` applies to the last).
    pub fn parse(text: &str, baud: u32) -> Result<BackendKind, String> {
        match text {
            "verilator" => Ok(BackendKind::Verilator),
            "uart-sim" => Ok(BackendKind::UartSim { cycles_per_bit: crate::uart_host::sim::SIM_CYCLES_PER_BIT }),
            _ => match text.strip_prefix("uart:") {
                Some(dev) if !dev.is_empty() => Ok(BackendKind::Uart { device: dev.into(), baud }),
                _ => Err(format!("unknown backend `{text}` (verilator, uart-sim, or uart:/dev/ttyUSB0)")),
            },
        }
    }
}

/// How the RTL is built and driven (everything that needs a different model or different
/// pins; the pool keys on it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RtlSetup {
    /// Cycles the harness takes to answer a global-memory read of the top (Verilator backend).
    pub gm_latency: u32,
    /// TEST ONLY: drive the top's `fault_inject` pin (corrupts warp-network results).
    pub fault_inject: bool,
    pub backend: BackendKind,
    /// Build the Verilated top with the C++ at -O0 (`rtl_unit::fast_build_options`).
    pub fast_build: bool,
    /// The RTL directory of `--rtl DIR` (Verilator backend only); `None` = generated from the config.
    pub rtl_dir: Option<std::sync::Arc<crate::rtl_dir::RtlDir>>,
}

// One value per cosim run, never moved in a hot loop: boxing the larger backend buys nothing.
#[allow(clippy::large_enum_variant)]
enum Rtl {
    Direct(RtlSyncUnit),
    Uart(UartHost),
}

/// The RTL plus cycle accounting.
pub struct RtlBackend {
    rtl: Rtl,
    pub setup: RtlSetup,
    key: String,
    /// A UART link failure in a call that cannot return it (`run`), for [`RtlBackend::take_error`].
    error: Option<String>,
}

fn pool() -> &'static Mutex<HashMap<String, Vec<Rtl>>> {
    static POOL: OnceLock<Mutex<HashMap<String, Vec<Rtl>>>> = OnceLock::new();
    POOL.get_or_init(|| Mutex::new(HashMap::new()))
}

/// An RTL model for `config` as at power-on, reset: from the pool if one was checked in, else built (or loaded
/// from the Verilator cache on disk) or opened.
pub fn checkout(config: &Config, setup: &RtlSetup) -> Result<RtlBackend, String> {
    if setup.fault_inject && setup.backend != BackendKind::Verilator {
        return Err(
            "fault_inject is a pin of the sync_unit top; the board tops tie it to 0 (use --backend verilator)".into()
        );
    }
    if setup.rtl_dir.is_some() && setup.backend != BackendKind::Verilator {
        return Err("--rtl DIR runs the `sync_unit` top of DIR under Verilator; the UART backends run a board top (use --backend verilator)".into());
    }
    if let Some(dir) = &setup.rtl_dir {
        let renamed = Config { name: dir.config.name.clone(), ..config.clone() };
        if renamed != dir.config {
            return Err(format!(
                "the cosim's config `{}` is not the config of {}'s manifest",
                config.name,
                dir.dir.display()
            ));
        }
    }
    let key = format!("{}\n{setup:?}", config.to_yaml());
    let pooled = pool().lock().map_err(|_| "RTL model pool poisoned".to_string())?.get_mut(&key).and_then(Vec::pop);
    let rtl = match pooled {
        Some(Rtl::Direct(mut u)) => {
            // A power cycle, not only a reset: the run's cycles must not depend on the runs
            // before it (see `RtlSyncUnit::power_on`).
            u.power_on();
            Rtl::Direct(u)
        }
        Some(Rtl::Uart(mut h)) => {
            h.reset()?;
            Rtl::Uart(h)
        }
        None => match &setup.backend {
            BackendKind::Verilator => {
                let options = RtlOptions {
                    gm_latency: setup.gm_latency,
                    fault_inject: setup.fault_inject,
                    build: setup.fast_build.then(crate::rtl_unit::fast_build_options),
                    rtl_dir: setup.rtl_dir.clone(),
                };
                Rtl::Direct(RtlSyncUnit::new(config, &options)?)
            }
            BackendKind::UartSim { cycles_per_bit } => {
                let board = SimBoard::new(config, *cycles_per_bit)?;
                Rtl::Uart(UartHost::new(Box::new(board), config.copy_port_bytes as usize)?)
            }
            BackendKind::Uart { device, baud } => {
                let link = SerialLink::open(device, *baud)?;
                Rtl::Uart(UartHost::new(Box::new(link), config.copy_port_bytes as usize)?)
            }
        },
    };
    Ok(RtlBackend { rtl, setup: setup.clone(), key, error: None })
}

/// Return a model to the pool for the next run with the same config.
pub fn checkin(mut backend: RtlBackend) {
    if let Some(h) = backend.harness() {
        h.record_history(0);
    }
    if let Ok(mut p) = pool().lock() {
        p.entry(backend.key.clone()).or_default().push(backend.rtl);
    }
}

impl RtlBackend {
    /// The Verilated top's harness (port history, VCD); `None` on the UART backends, whose
    /// board top is clocked by the line model.
    pub fn harness(&mut self) -> Option<&mut Harness> {
        match &mut self.rtl {
            Rtl::Direct(u) => Some(&mut u.harness),
            Rtl::Uart(_) => None,
        }
    }

    /// Clock cycles since the model was loaded (not reset by a pool reuse; take differences).
    pub fn cycle(&self) -> u64 {
        match &self.rtl {
            Rtl::Direct(u) => u.harness.cycle(),
            Rtl::Uart(h) => h.cycle(),
        }
    }

    pub fn launch_cta(&mut self, slot: u16, warps: u16, mirror: &mut MemorySystem, out: &mut Vec<Response>) {
        match &mut self.rtl {
            Rtl::Direct(u) => {
                u.launch_cta(slot, warps, mirror, out);
                if let Some(e) = u.take_protocol_error() {
                    self.error.get_or_insert(e);
                }
            }
            Rtl::Uart(h) => {
                if let Err(e) = h.launch_cta(slot, warps, mirror, out) {
                    self.error.get_or_insert(e);
                }
            }
        }
    }

    /// Hand `req` to the top (the header, then the beats, each held until taken; then clocked
    /// until the top is idle) and collect the responses of those cycles. `mirror` serves the top's global-memory port.
    pub fn submit(&mut self, req: &Request, mirror: &mut MemorySystem, out: &mut Vec<Response>) -> Result<(), String> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        match &mut self.rtl {
            Rtl::Direct(u) => u.submit(req, mirror, out),
            Rtl::Uart(h) => h.submit(req, mirror, out),
        }
    }

    /// Queue `req` for the top's request port without clocking (the timed cosim: the request
    /// enters when the port is free, during later [`RtlBackend::run`] cycles). The Verilated
    /// top only: the UART bridge takes one request at a time.
    pub fn enqueue(&mut self, req: &Request) -> Result<(), String> {
        match &mut self.rtl {
            Rtl::Direct(u) => u.enqueue(req),
            Rtl::Uart(_) => Err("the timed cosim drives the Verilated top's ports (--backend verilator); the UART bridge takes one request at a time".into()),
        }
    }

    /// The request on the top's port and the cycles it has waited there (timed cosim).
    pub fn on_port(&self) -> Option<(Request, u64)> {
        match &self.rtl {
            Rtl::Direct(u) => u.on_port().map(|(r, c)| (r.clone(), c)),
            Rtl::Uart(_) => None,
        }
    }

    /// Whether a request of CTA slot `slot` is still queued for, on, or held by the top's port.
    pub fn holds_slot(&self, slot: u16) -> bool {
        match &self.rtl {
            Rtl::Direct(u) => u.holds_slot(slot),
            Rtl::Uart(_) => false,
        }
    }

    /// Tags of the requests the top answered `Retry` that wait for the next answer to their
    /// warp to be offered again (a hang report names them).
    pub fn parked(&self) -> Vec<u64> {
        let parked = match &self.rtl {
            Rtl::Direct(u) => u.refused.parked(),
            Rtl::Uart(h) => h.refused.parked(),
        };
        parked.iter().map(|r| r.tag).collect()
    }

    /// The last requests the top took, oldest first, with the cycles since it took each header
    /// (timed cosim).
    pub fn recent_taken(&self) -> Vec<(u64, u64)> {
        match &self.rtl {
            Rtl::Direct(u) => u.recent_taken(),
            Rtl::Uart(_) => Vec::new(),
        }
    }

    /// What the top did with each request taken since the last call (empty on the UART
    /// backends).
    pub fn take_taken(&mut self) -> Vec<crate::rtl_unit::TakenRequest> {
        match &mut self.rtl {
            Rtl::Direct(u) => u.taken.drain(..).collect(),
            Rtl::Uart(_) => Vec::new(),
        }
    }

    /// Clock `cycles` times with the top's `timeout` input at `timeout`.
    pub fn run(&mut self, cycles: u32, timeout: bool, mirror: &mut MemorySystem, out: &mut Vec<Response>) {
        match &mut self.rtl {
            Rtl::Direct(u) => {
                u.set_timeout(timeout);
                u.run(cycles, mirror, out);
                u.set_timeout(false);
                if let Some(e) = u.take_protocol_error() {
                    self.error.get_or_insert(e);
                }
            }
            Rtl::Uart(h) => {
                if self.error.is_none() {
                    if let Err(e) = h.run(cycles, timeout, mirror, out) {
                        self.error = Some(e);
                    }
                }
            }
        }
    }

    /// Something in flight in the top (its `busy` output, or a request queued for its port; on
    /// the UART backends, as of the last STATUS frame).
    pub fn busy(&mut self) -> bool {
        match &mut self.rtl {
            Rtl::Direct(u) => u.sending() || !u.idle(),
            Rtl::Uart(h) => self.error.is_none() && h.busy(),
        }
    }

    /// A link failure of a call that could not report it (launch, run); taken once.
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }
}
