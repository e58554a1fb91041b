//! Every PTX example statement of the seed texts (extracted into data/seed_examples.ptx by
//! data/extract_seed_examples.py) must parse, except the ones listed in [`REJECTED`] with the
//! reason. Each statement is wrapped into a minimal sm_100a module; every name it uses is declared
//! (`.pred` when used as a guard, `!p`, the `p` of `d|p` or a setp destination; `.b64`
//! otherwise), and branch targets become labels.

use smsync_sim::ptx::{self, parser::*};
use std::collections::BTreeSet;

/// Examples rejected on purpose: (record id, reason, expected message fragment).
const REJECTED: &[(&str, &str, &str)] = &[
    // seed examples that omit the operand type (`st.shared [r0],r1`)
    ("000:176", "example omits the type of st", "needs a type"),
    ("000:180", "example omits the type of ld", "needs a type"),
    ("000:192", "example omits the type of st", "needs a type"),
    ("000:196", "example omits the type of ld", "needs a type"),
    ("000:220", "example omits the type of st", "needs a type"),
    ("000:224", "example omits the type of ld", "needs a type"),
    ("000:248", "example omits the type of st", "needs a type"),
    ("000:252", "example omits the type of ld", "needs a type"),
    ("000:264", "example omits the type of ld", "needs a type"),
    ("000:672", "example `mbarrier.init [bar]` omits type and count", "needs type `.b64`"),
    (
        "000:694",
        "checklist 32 / PTX ISA §9.7.13.15.13: a .shared::cluster arrive must write `_`, the example writes `state`",
        "destination must be `_`",
    ),
    ("000:992", "`atom ... d, a, b, c` writes the address without [ ]", "expected an address"),
    ("000:994", "`atom ... d, a, b` writes the address without [ ]", "expected an address"),
    ("000:1281", "PTX ISA §9.7.13.6: red takes no .acquire", "does not take `.acquire`"),
    ("000:1020", "PTX ISA §9.7.13.5: .b16x2 is not a type", "unknown modifier `.b16x2`"),
    ("000:1313", "PTX ISA §9.7.13.6: red vector example with a destination", "expected an address"),
    ("000:1315", "PTX ISA §9.7.13.6: red vector example with a destination", "expected an address"),
    ("000:1317", "PTX ISA §9.7.13.6: red vector example with a destination", "expected an address"),
    ("000:1517", "red.async .release form is sm_100 and not modelled", "not supported by smsync"),
    ("000:1599", "legacy vote is removed for sm_70+ at PTX >= 6.4 (checklist 68)", "was removed in PTX 6.4"),
    ("000:1601", "legacy vote is removed for sm_70+ at PTX >= 6.4 (checklist 68)", "was removed in PTX 6.4"),
    ("000:1603", "legacy vote is removed for sm_70+ at PTX >= 6.4 (checklist 68)", "was removed in PTX 6.4"),
    ("000:650", "tensormap.replace is not modelled", "not supported by smsync"),
    ("000:1002", "createpolicy is not modelled", "not supported by smsync"),
    ("000:1295", "createpolicy is not modelled", "not supported by smsync"),
    ("002:228", "createpolicy is not modelled", "not supported by smsync"),
    ("000:2323", "placeholder `...` as an operand", "unexpected character"),
    ("000:3389", "PTX ISA §9.7.13.16 example: `bra try_wait loop` typo", "expected `,` or `;`"),
    ("000:3393", "tensormap.replace is not modelled", "not supported by smsync"),
    ("000:3674", "PTX ISA §9.7.13.18 example: `is_canceled pred.b128` typo", "expected `,` or `;`"),
    ("000:3678", "clusterlaunchcontrol example missing a comma", "expected `,` or `;`"),
    ("002:615", "PTX ISA §9.7.9.25.4.1 example: `.L2::cache_hint}` typo", "expected"),
    ("002:802", "`.xor.s32` is not in the §16.5 type table (b32, b64)", "does not support `.xor.s32`"),
    ("002:1248", "tile::gather4 is not modelled", "not supported by smsync"),
    ("002:1254", "im2col::w is not modelled", "not supported by smsync"),
    ("002:1260", "cta_group::2 is not modelled", "not supported by smsync"),
    ("002:1381", "PTX ISA §9.7.9.25.5.3 example: .im2col (store) without `;`", "expected"),
    ("002:1530", "tile::gather4 is not modelled", "not supported by smsync"),
    ("002:1534", "im2col::w::128 is not modelled", "not supported by smsync"),
];

const HEADER: &str = ".version 8.8\n.target sm_100a\n.address_size 64\n";

fn records() -> Vec<(String, String)> {
    let path = format!("{}/tests/data/seed_examples.ptx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("seed_examples.ptx present");
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if let Some(id) = l.strip_prefix("//@ ") {
            out.push((id.to_string(), lines.next().unwrap_or("").to_string()));
        }
    }
    out
}

#[derive(Default)]
struct Names {
    preds: BTreeSet<String>,
    others: BTreeSet<String>,
    labels: BTreeSet<String>,
}

impl Names {
    fn operand(&mut self, o: &OperandAst, pred: bool) {
        let mut add = |n: &str, p: bool| {
            if !n.contains('.') && n != "_" {
                if p {
                    self.preds.insert(n.to_string());
                } else {
                    self.others.insert(n.to_string());
                }
            }
        };
        match o {
            OperandAst::Name { name, .. } => add(name, pred),
            OperandAst::Not { name, .. } => add(name, true),
            OperandAst::Addr { base, rest, .. } => {
                if let Some((b, _)) = base {
                    add(b, false);
                }
                rest.iter().for_each(|r| self.operand(r, false));
            }
            OperandAst::Vector { items, .. } | OperandAst::Paren { items, .. } => {
                items.iter().for_each(|i| self.operand(i, false))
            }
            OperandAst::Pair { first, second, .. } => {
                self.operand(first, pred);
                self.operand(second, true);
            }
            _ => {}
        }
    }
}

/// Parses one example statement in a minimal module with every name declared.
fn parse_example(stmt: &str) -> Result<(), ptx::PtxError> {
    let probe = format!("{HEADER}.entry t() {{\n{stmt}\n}}\n");
    let tree = ptx::parse_tree(&probe, "probe.ptx")?;
    let mut names = Names::default();
    for item in &tree {
        let TopItem::Func(f) = item else { continue };
        for s in f.body.iter().flatten() {
            let Statement::Instr(ins) = s else { continue };
            if let Some(g) = &ins.guard {
                names.preds.insert(g.name.clone());
            }
            for (i, o) in ins.operands.iter().enumerate() {
                if ins.opcode == "bra" {
                    if let OperandAst::Name { name, .. } = o {
                        names.labels.insert(name.clone());
                    }
                } else {
                    names.operand(o, i == 0 && ins.opcode == "setp");
                }
            }
        }
    }
    let mut text = format!("{HEADER}.entry t() {{\n");
    for p in &names.preds {
        text += &format!(".reg .pred {p};\n");
    }
    for o in names.others.difference(&names.preds) {
        text += &format!(".reg .b64 {o};\n");
    }
    text += stmt;
    text += "\n";
    for l in &names.labels {
        text += &format!("{l}: ret;\n");
    }
    text += "}\n";
    ptx::parse(&text, "example.ptx").map(|_| ())
}

#[test]
fn every_seed_example_parses_or_is_listed_with_a_reason() {
    let recs = records();
    assert!(recs.len() > 300, "extraction found {} statements", recs.len());
    let mut problems = Vec::new();
    for (id, stmt) in &recs {
        let expected = REJECTED.iter().find(|r| r.0 == id);
        match (parse_example(stmt), expected) {
            (Ok(()), None) => {}
            (Ok(()), Some((_, why, _))) => {
                problems.push(format!("{id}: listed as rejected ({why}) but parses: {stmt}"))
            }
            (Err(e), None) => problems.push(format!("{id}: {stmt}\n{e}")),
            (Err(e), Some((_, _, frag))) => {
                if !e.message.contains(frag) {
                    problems.push(format!("{id}: rejected for another reason than `{frag}`:\n{e}"));
                }
            }
        }
    }
    for (id, ..) in REJECTED {
        if !recs.iter().any(|r| &r.0 == id) {
            problems.push(format!("{id}: listed in REJECTED but not in the data file"));
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
