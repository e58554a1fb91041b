//! Outcomes of a campaign and its report (`report.json`, `report.md`).

use super::checks::CheckResult;
use super::equiv::Equivalence;
use super::netlist::Mutation;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// How a mutant ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A check failed on it (`killed_by` says which and how).
    Killed,
    /// Every check passed and yosys proved it equivalent to the original unit.
    Equivalent,
    /// Every check passed; not proven equivalent (see its `equivalence`).
    Survived,
}

/// One mutant's result.
#[derive(Clone, Debug)]
pub struct MutantResult {
    /// Its number in the netlist (`mutsel`), from 1.
    pub index: u32,
    pub mutation: Mutation,
    pub status: Status,
    /// The check that killed it and how: `divergence`, `program` (the run failed on the mutant
    /// only: the RTL's answers drive the executor), `crash` (the simulator process died) or
    /// `timeout` (wall clock).
    pub killed_by: Option<(String, String)>,
    /// The first lines of the failure report.
    pub message: String,
    /// The checks that ran on it, in order (all of them for a survivor).
    pub checks_run: Vec<String>,
    pub seconds: f64,
    /// yosys's verdict on a survivor (none when `--no-equiv` or killed).
    pub equivalence: Option<Equivalence>,
    /// The unit's formal properties on it, when they ran: the verdicts, or what failed.
    pub formal: Option<String>,
}

/// A whole campaign.
#[derive(Clone, Debug)]
pub struct Report {
    pub unit: String,
    /// The netlist level mutated (`gates` or `rtl`, `netlist::Level`).
    pub netlist: String,
    pub config: String,
    /// The command line, for the docs.
    pub command: String,
    /// UTC, `YYYY-MM-DD HH:MM`.
    pub date: String,
    pub commit: String,
    pub seed: u64,
    /// The unmutated netlist (mutant 0) on every check: all must pass.
    pub baseline: Vec<CheckResult>,
    pub mutants: Vec<MutantResult>,
    pub seconds: f64,
    /// Checks dropped because they fail on the unmutated design the same way as on the golden
    /// model (a program error), with the reason.
    pub dropped: Vec<(String, String)>,
    /// What else ran or did not (the formal properties), one line each.
    pub notes: Vec<String>,
}

/// The counts of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    pub total: usize,
    pub killed: usize,
    pub equivalent: usize,
    pub survived: usize,
    /// Survivors yosys found observable at the unit's outputs.
    pub survived_differs: usize,
}

impl Counts {
    /// Killed over the mutants not proven equivalent (1.0 when there are none).
    pub fn kill_rate(&self) -> f64 {
        let n = self.total - self.equivalent;
        if n == 0 {
            1.0
        } else {
            self.killed as f64 / n as f64
        }
    }
}

impl Report {
    pub fn counts(&self) -> Counts {
        let of = |s: Status| self.mutants.iter().filter(|m| m.status == s).count();
        Counts {
            total: self.mutants.len(),
            killed: of(Status::Killed),
            equivalent: of(Status::Equivalent),
            survived: of(Status::Survived),
            survived_differs: self
                .mutants
                .iter()
                .filter(|m| matches!(m.equivalence, Some(Equivalence::Differs { .. })) && m.status == Status::Survived)
                .count(),
        }
    }

    pub fn to_json(&self) -> Value {
        let c = self.counts();
        json!({
            "unit": self.unit,
            "netlist": self.netlist,
            "config": self.config,
            "command": self.command,
            "date": self.date,
            "commit": self.commit,
            "seed": self.seed,
            "seconds": self.seconds,
            "counts": {
                "total": c.total, "killed": c.killed, "equivalent": c.equivalent, "survived": c.survived,
                "survived_differs_at_unit_outputs": c.survived_differs, "kill_rate": c.kill_rate(),
            },
            "checks": self.baseline.iter().map(CheckResult::to_json).collect::<Vec<_>>(),
            "notes": self.notes,
            "dropped_checks": self.dropped.iter().map(|(c, why)| json!({"check": c, "why": why})).collect::<Vec<_>>(),
            "mutants": self.mutants.iter().map(mutant_json).collect::<Vec<_>>(),
        })
    }

    pub fn to_markdown(&self) -> String {
        let c = self.counts();
        let mut s = String::new();
        let _ =
            writeln!(s, "# Mutation report: `{}` (config `{}`, {} netlist)\n", self.unit, self.config, self.netlist);
        let _ = writeln!(s, "`{}`\n", self.command);
        let _ = writeln!(s, "{} UTC, commit {}, seed {}, {:.0} s.\n", self.date, self.commit, self.seed, self.seconds);
        let _ = writeln!(
            s,
            "| mutants | killed | survived | equivalent (proven) | kill rate (of non-equivalent) |\n|---|---|---|---|---|\n| {} | {} | {} | {} | {:.1} % |\n",
            c.total,
            c.killed,
            c.survived,
            c.equivalent,
            100.0 * c.kill_rate()
        );
        let _ = writeln!(
            s,
            "Checks (each passed on the unmutated netlist, mutant 0, in this order; a mutant stops at its first failure): {}.\n",
            self.baseline.iter().map(|b| format!("{} ({:.1} s)", b.check, b.seconds)).collect::<Vec<_>>().join(", ")
        );
        for note in &self.notes {
            let _ = writeln!(s, "{note}\n");
        }
        for (check, why) in &self.dropped {
            let _ = writeln!(s, "Dropped check {check}: {why}\n");
        }
        let section = |s: &mut String, title: &str, status: Status| {
            let list: Vec<&MutantResult> = self.mutants.iter().filter(|m| m.status == status).collect();
            if list.is_empty() {
                return;
            }
            let _ = writeln!(s, "## {title} ({})\n", list.len());
            for m in list {
                let _ = writeln!(s, "- **{}**: {}", m.index, m.mutation.describe());
                let _ = writeln!(s, "  - source: {}", source_of(&m.mutation));
                if let Some((check, how)) = &m.killed_by {
                    let _ = writeln!(
                        s,
                        "  - killed by {check} ({how}) after {} check(s), {:.1} s",
                        m.checks_run.len(),
                        m.seconds
                    );
                } else {
                    let _ = writeln!(s, "  - all {} checks passed ({:.1} s)", m.checks_run.len(), m.seconds);
                }
                if let Some(f) = &m.formal {
                    let _ = writeln!(s, "  - formal properties: {f}");
                }
                if let Some(e) = &m.equivalence {
                    let _ = writeln!(s, "  - {}", e.label());
                }
            }
            s.push('\n');
        };
        section(&mut s, "Survived", Status::Survived);
        section(&mut s, "Equivalent", Status::Equivalent);
        section(&mut s, "Killed", Status::Killed);
        s
    }
}

/// The mutation's source locations in `sync_unit.v`, or a note that yosys gave none.
fn source_of(m: &Mutation) -> String {
    if m.src.is_empty() {
        "(none recorded by yosys)".into()
    } else {
        m.src.iter().map(|s| s.replace("orig/", "")).collect::<Vec<_>>().join(", ")
    }
}

fn mutant_json(m: &MutantResult) -> Value {
    json!({
        "index": m.index,
        "status": match m.status { Status::Killed => "killed", Status::Equivalent => "equivalent", Status::Survived => "survived" },
        "mode": m.mutation.mode,
        "module": m.mutation.module,
        "cell": m.mutation.cell,
        "port": m.mutation.port,
        "portbit": m.mutation.portbit,
        "ctrlbit": m.mutation.ctrlbit,
        "wire": m.mutation.wire,
        "wirebit": m.mutation.wirebit,
        "src": m.mutation.src.iter().map(|s| s.replace("orig/", "")).collect::<Vec<_>>(),
        "yosys_command": m.mutation.command,
        "killed_by": m.killed_by.as_ref().map(|(c, how)| json!({"check": c, "how": how})),
        "message": m.message,
        "checks_run": m.checks_run,
        "seconds": m.seconds,
        "equivalence": m.equivalence.as_ref().map(Equivalence::label),
        "formal": m.formal,
    })
}

/// Now in UTC as `YYYY-MM-DD HH:MM` (no date crate for one line of a report).
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}", rest / 3600, rest % 3600 / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutant(index: u32, status: Status, equivalence: Option<Equivalence>) -> MutantResult {
        MutantResult {
            index,
            mutation: Mutation::parse("-mode inv -module m -cell c -port A -portbit 0").unwrap(),
            status,
            killed_by: None,
            message: String::new(),
            checks_run: Vec::new(),
            seconds: 0.0,
            equivalence,
            formal: None,
        }
    }

    #[test]
    fn the_kill_rate_leaves_out_proven_equivalent_mutants() {
        let report = Report {
            unit: "u".into(),
            netlist: "gates".into(),
            config: "c".into(),
            command: "smsync mutate".into(),
            date: utc_now(),
            commit: "x".into(),
            seed: 1,
            baseline: Vec::new(),
            mutants: vec![
                mutant(1, Status::Killed, None),
                mutant(2, Status::Killed, None),
                mutant(3, Status::Killed, None),
                mutant(4, Status::Equivalent, Some(Equivalence::Proven)),
                mutant(5, Status::Survived, Some(Equivalence::Differs { cycles: 2 })),
            ],
            seconds: 0.0,
            dropped: Vec::new(),
            notes: Vec::new(),
        };
        let c = report.counts();
        assert_eq!((c.total, c.killed, c.equivalent, c.survived, c.survived_differs), (5, 3, 1, 1, 1));
        assert!((c.kill_rate() - 0.75).abs() < 1e-9);
        let md = report.to_markdown();
        assert!(md.contains("| 5 | 3 | 1 | 1 | 75.0 % |"), "{md}");
        assert!(md.contains("## Survived (1)"), "{md}");
        assert_eq!(report.to_json()["counts"]["killed"], 3);
        assert_eq!(utc_now().len(), 16);
    }
}
