//! Progress of the long runs: `smsync fuzz` campaigns, `smsync explore` sweeps and `smsync synth`.
//!
//! One [`Progress`] counts items (programs, points, modules) towards a known total; [`Task`]s
//! show what runs now and for how long (a tool phase, a sweep point's stage; one task per worker
//! thread). Three [`Mode`]s:
//!
//! * [`Mode::Bar`] (stderr is a terminal): an `indicatif` bar with done / total, rate, elapsed
//!   time and time left, and one spinner line per running task with its own elapsed time.
//! * [`Mode::Lines`] (stderr is a file or pipe, e.g. a CI log): plain lines, each with done /
//!   total, rate and time left: one per tenth of the run (every item on a run of ten or fewer),
//!   one when 10 s have passed since the last line and an item finished, one per task phase
//!   that [`Task::phase`] announces, and a heartbeat naming the running tasks when nothing was
//!   printed for a minute (a yosys run can take half an hour).
//! * [`Mode::Quiet`] (`--quiet`): no progress. [`Progress::println`] (errors, failures, notes
//!   that belong with the result) prints in every mode.
//!
//! Results (stdout, report files) never go through here, so they do not depend on the mode.
//!
//! Why a crate of its own: the three commands live in two places. `smsync synth`'s flow is in
//! `smsync-fpga`, a library the `smsync` binary (`gen/`) depends on, so the module cannot live
//! in `gen/`; the crates below `fpga` (`sim`, `hdl`) are the golden model and the RTL, and a
//! terminal-UI dependency there would rebuild (and burden) everything above them. This crate
//! depends on `indicatif` only, and `fpga` and `gen` depend on it. (`smsync-explore` needs no
//! dependency: its sweep loop reports through a callback that `gen/src/cmd_explore.rs` wires
//! to a [`Progress`].)

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Live bar and spinners on a terminal.
    Bar,
    /// Plain periodic lines (not a terminal).
    Lines,
    /// No progress at all.
    Quiet,
}

impl Mode {
    /// `Quiet` when asked, else `Bar` when stderr is a terminal, else `Lines`.
    pub fn detect(quiet: bool) -> Mode {
        if quiet {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Lines
        }
    }
}

/// A line at least this often once items finish (Lines mode).
const LINE_INTERVAL: Duration = Duration::from_secs(10);
/// A heartbeat line when nothing was printed for this long (Lines mode).
const HEARTBEAT: Duration = Duration::from_secs(60);

/// The progress of one run: `done` of `total` items. Dropping it ends the run as
/// [`Progress::finish`] does (on an early return with an error, too).
pub struct Progress {
    shared: Arc<Shared>,
    ticker: Option<JoinHandle<()>>,
}

/// State the heartbeat thread reads too.
struct Shared {
    mode: Mode,
    /// `smsync fuzz`: starts every plain line.
    label: String,
    /// `programs`
    unit: String,
    total: u64,
    start: Instant,
    bars: Option<(MultiProgress, ProgressBar)>,
    state: Mutex<State>,
    stop: Condvar,
}

#[derive(Default)]
struct State {
    done: u64,
    /// The next `done` that prints a line (Lines mode).
    next_mark: u64,
    last_line: Option<Instant>,
    next_task: usize,
    /// (task id, phase text, phase start) of the running tasks.
    tasks: Vec<(usize, String, Instant)>,
    stopped: bool,
}

impl Progress {
    /// Start counting `total` items (`unit` names them, plural) under `label` (the command).
    pub fn new(mode: Mode, label: &str, unit: &str, total: u64) -> Progress {
        let bars = (mode == Mode::Bar).then(|| {
            let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
            let bar = multi.add(ProgressBar::new(total).with_style(bar_style(unit)).with_prefix(label.to_string()));
            // Redraw while nothing finishes, so elapsed and time left stay live during long phases.
            bar.enable_steady_tick(Duration::from_millis(500));
            (multi, bar)
        });
        let shared = Arc::new(Shared {
            mode,
            label: label.to_string(),
            unit: unit.to_string(),
            total,
            start: Instant::now(),
            bars,
            state: Mutex::new(State { next_mark: step(total), ..Default::default() }),
            stop: Condvar::new(),
        });
        let ticker = (mode == Mode::Lines).then(|| {
            let s = Arc::clone(&shared);
            std::thread::spawn(move || heartbeat(&s))
        });
        Progress { shared, ticker }
    }

    pub fn mode(&self) -> Mode {
        self.shared.mode
    }

    /// `n` more items are done.
    pub fn inc(&self, n: u64) {
        let s = &self.shared;
        if let Some((_, bar)) = &s.bars {
            bar.inc(n);
        }
        let mut st = s.state.lock().unwrap();
        st.done += n;
        if s.mode != Mode::Lines {
            return;
        }
        let now = Instant::now();
        let due = st.done >= st.next_mark || st.last_line.is_none_or(|t| now - t >= LINE_INTERVAL);
        if due {
            let step = step(s.total);
            st.next_mark = (st.done / step + 1) * step;
            st.last_line = Some(now);
            eprintln!("{}", s.status(st.done));
        }
    }

    /// A message that belongs with the result (an error, a failure, a note): above the bar on a
    /// terminal, a line of its own otherwise; printed in every mode, `Quiet` included.
    pub fn println(&self, msg: &str) {
        match &self.shared.bars {
            Some((multi, _)) => multi.suspend(|| eprintln!("{msg}")),
            None => eprintln!("{msg}"),
        }
    }

    /// A line (with its own elapsed time on a terminal) for one thing that runs now; one per
    /// worker thread. It disappears when dropped.
    pub fn task(&self) -> Task<'_> {
        let s = &self.shared;
        let mut st = s.state.lock().unwrap();
        let id = st.next_task;
        st.next_task += 1;
        drop(st);
        let spinner = s.bars.as_ref().map(|(multi, _)| {
            let sp = multi.add(ProgressBar::new_spinner().with_style(spinner_style()));
            sp.enable_steady_tick(Duration::from_millis(200));
            sp
        });
        Task { progress: self, id, spinner }
    }

    /// The end of the run: on a terminal the bar gives way to a plain line with the final figures
    /// (the bar would leave the cursor on its line, under the result); stops the heartbeat.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some((_, bar)) = &self.shared.bars {
            if !bar.is_finished() {
                bar.finish_and_clear();
                eprintln!("{}", self.shared.status(self.shared.state.lock().unwrap().done));
            }
        }
        self.shared.state.lock().unwrap().stopped = true;
        self.shared.stop.notify_all();
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

/// One running thing: a tool phase, a point's stage, the program being run.
pub struct Task<'a> {
    progress: &'a Progress,
    id: usize,
    spinner: Option<ProgressBar>,
}

impl Task<'_> {
    /// A new phase starts (`warp_network: yosys (ecp5-85k)`): shown with its running time on a
    /// terminal, and announced by a plain line. For coarse phases (seconds to hours).
    pub fn phase(&self, what: &str) {
        self.set(what);
        let s = &self.progress.shared;
        if s.mode == Mode::Lines {
            let mut st = s.state.lock().unwrap();
            st.last_line = Some(Instant::now());
            eprintln!("{}: {what}", s.status(st.done));
        }
    }

    /// Like [`Task::phase`] without the plain line: for fine-grained steps (each program of a
    /// campaign), which the heartbeat still names if one hangs.
    pub fn set(&self, what: &str) {
        if let Some(sp) = &self.spinner {
            sp.set_message(what.to_string());
            sp.reset_elapsed();
        }
        let mut st = self.progress.shared.state.lock().unwrap();
        let now = Instant::now();
        match st.tasks.iter_mut().find(|t| t.0 == self.id) {
            Some(t) => *t = (self.id, what.to_string(), now),
            None => st.tasks.push((self.id, what.to_string(), now)),
        }
    }
}

impl Drop for Task<'_> {
    fn drop(&mut self) {
        if let (Some(sp), Some((multi, _))) = (&self.spinner, &self.progress.shared.bars) {
            sp.finish_and_clear();
            multi.remove(sp);
        }
        self.progress.shared.state.lock().unwrap().tasks.retain(|t| t.0 != self.id);
    }
}

impl Shared {
    /// `smsync fuzz: 300/1000 programs (30%), 12s elapsed, 24.6/s, ~28s left`
    fn status(&self, done: u64) -> String {
        let elapsed = self.start.elapsed();
        let pct = (done * 100).checked_div(self.total).unwrap_or(100);
        let mut line =
            format!("{}: {done}/{} {} ({pct}%), {} elapsed", self.label, self.total, self.unit, duration(elapsed));
        if let Some((per_sec, left)) = estimate(done, self.total, elapsed) {
            line += &format!(", {}", rate(per_sec));
            if done < self.total {
                line += &format!(", ~{} left", duration(left));
            }
        }
        line
    }
}

/// Lines mode: when nothing was printed for [`HEARTBEAT`], say what runs and for how long.
fn heartbeat(s: &Shared) {
    let mut st = s.state.lock().unwrap();
    loop {
        if st.stopped {
            return;
        }
        let since = st.last_line.unwrap_or(s.start);
        let wait = HEARTBEAT.saturating_sub(since.elapsed());
        if wait.is_zero() {
            let running: Vec<String> =
                st.tasks.iter().map(|(_, what, t)| format!("{what} ({})", duration(t.elapsed()))).collect();
            let tail = if running.is_empty() { String::new() } else { format!("; running: {}", running.join(", ")) };
            eprintln!("{}{tail}", s.status(st.done));
            st.last_line = Some(Instant::now());
            continue;
        }
        st = s.stop.wait_timeout(st, wait).unwrap().0;
    }
}

/// Items between two plain lines: a tenth of the run, at least one.
fn step(total: u64) -> u64 {
    total.div_ceil(10).max(1)
}

/// `24.6/s` for fast items, `95s each` for slow ones.
fn rate(per_sec: f64) -> String {
    if per_sec >= 1.0 {
        format!("{per_sec:.1}/s")
    } else {
        format!("{} each", duration(Duration::from_secs_f64(1.0 / per_sec.max(1e-9))))
    }
}

/// `45s`, `3m05s`, `1h02m`.
fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

fn bar_style(unit: &str) -> ProgressStyle {
    let template = format!(
        "{{prefix}} [{{wide_bar}}] {{pos}}/{{len}} {unit} ({{percent}}%) {{rate}}, {{took}} elapsed, ~{{left}} left"
    );
    ProgressStyle::with_template(&template)
        .expect("the bar template is valid")
        .progress_chars("#>-")
        .with_key("rate", |st: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&average(st).map_or("-/s".to_string(), |(per_sec, _)| rate(per_sec)));
        })
        .with_key("took", |st: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&duration(st.elapsed()));
        })
        .with_key("left", |st: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&average(st).map_or("?".to_string(), |(_, left)| duration(left)));
        })
}

/// Rate and time left over the whole run so far, as the plain lines have them. (indicatif's own
/// estimate weighs recent ticks, which undercounts items that take minutes each.)
fn average(st: &ProgressState) -> Option<(f64, Duration)> {
    estimate(st.pos(), st.len()?, st.elapsed())
}

/// (items per second, time left) after `done` of `total` items in `elapsed`; None before the first.
fn estimate(done: u64, total: u64, elapsed: Duration) -> Option<(f64, Duration)> {
    let secs = elapsed.as_secs_f64();
    if done == 0 || secs <= 0.0 {
        return None;
    }
    let left = secs / done as f64 * total.saturating_sub(done) as f64;
    Some((done as f64 / secs, Duration::from_secs_f64(left)))
}

fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template("  {spinner} {msg} ({took})").expect("the spinner template is valid").with_key(
        "took",
        |st: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&duration(st.elapsed()));
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_rates_read_as_a_person_writes_them() {
        assert_eq!(duration(Duration::from_secs(45)), "45s");
        assert_eq!(duration(Duration::from_secs(185)), "3m05s");
        assert_eq!(duration(Duration::from_secs(3720)), "1h02m");
        assert_eq!(rate(24.64), "24.6/s");
        assert_eq!(rate(1.0 / 95.0), "1m35s each");
    }

    #[test]
    fn a_line_every_tenth_of_the_run_and_every_item_of_a_short_one() {
        assert_eq!(step(1000), 100);
        assert_eq!(step(3), 1);
        assert_eq!(step(0), 1);
        assert_eq!(step(15), 2);
    }

    #[test]
    fn the_status_line_has_done_total_rate_and_time_left() {
        let p = Progress::new(Mode::Quiet, "smsync fuzz", "programs", 10);
        let line = p.shared.status(0);
        assert_eq!(line, "smsync fuzz: 0/10 programs (0%), 0s elapsed");
        let line = p.shared.status(4);
        assert!(line.starts_with("smsync fuzz: 4/10 programs (40%), 0s elapsed, "), "{line}");
        assert!(line.contains("/s, ~") && line.ends_with(" left"), "{line}");
        assert!(!p.shared.status(10).contains("left"));
    }

    #[test]
    fn tasks_are_tracked_while_they_live() {
        let p = Progress::new(Mode::Quiet, "smsync synth", "modules", 2);
        {
            let t = p.task();
            t.set("barrier_file: yosys");
            t.set("barrier_file: nextpnr");
            let st = p.shared.state.lock().unwrap();
            assert_eq!(st.tasks.len(), 1);
            assert_eq!(st.tasks[0].1, "barrier_file: nextpnr");
        }
        assert!(p.shared.state.lock().unwrap().tasks.is_empty());
        p.finish();
    }
}
