//! Shrinking a failing program: drop whole blocks, then make blocks smaller (fewer atomic or
//! warp operations, copies, rounds, chunks, stages, tile loads), then fewer CTAs — keeping each
//! step only if the program still fails. `still_fails` is the caller's whole judgement (for
//! `smsync fuzz`: accepted by ptxas AND failing the same way), so the result stays legal PTX.

use super::Program;

/// The smallest program reachable from `program` by greedy steps that keep `still_fails` true.
/// `program` itself is assumed to fail. Returns the program and the number of accepted steps.
pub fn shrink(program: &Program, still_fails: &mut dyn FnMut(&Program) -> bool) -> (Program, usize) {
    let mut best = program.clone();
    let mut steps = 0;
    loop {
        match candidates(&best).into_iter().find(|c| still_fails(c)) {
            Some(smaller) => {
                best = smaller;
                steps += 1;
            }
            None => return (best, steps),
        }
    }
}

/// Every one-step reduction of `p`, largest cuts first.
fn candidates(p: &Program) -> Vec<Program> {
    let mut out = vec![];
    // drop one block
    if p.blocks.len() > 1 {
        for i in 0..p.blocks.len() {
            let mut c = p.clone();
            c.blocks.remove(i);
            out.push(c);
        }
    }
    // one smaller block
    for (i, b) in p.blocks.iter().enumerate() {
        for s in b.smaller() {
            let mut c = p.clone();
            c.blocks[i] = s;
            out.push(c);
        }
    }
    // fewer CTAs
    if p.shape.ctas > 1 {
        let mut c = p.clone();
        c.shape.ctas = 1;
        out.push(c);
        let mut c = p.clone();
        c.shape.ctas -= 1;
        out.push(c);
    }
    out
}

/// Size of a program for reports: blocks and the PTX lines of its body.
pub fn size(p: &Program) -> (usize, usize) {
    let r = p.render();
    (p.blocks.len(), r.entry.lines().filter(|l| l.starts_with('\t') && !l.trim_start().starts_with("//")).count())
}
