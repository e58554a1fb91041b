//! SVG plots of a sweep, written by hand (a few primitives; no plotting dependency):
//!
//! * `pareto-<target>.svg`: area (LUTs) against total cycles of the workloads, one dot per point,
//!   the Pareto front (no other point is both smaller and faster) joined and labelled;
//! * `axis-<field>.svg`: each axis's effect: for every value of the axis, the mean of each
//!   figure over the other axes' values, one small panel per figure.

use crate::results::{PointResult, SweepResults};
use crate::sweep::show;
use std::fmt::Write;

const W: f64 = 640.0;
const PANEL_H: f64 = 260.0;
const M_LEFT: f64 = 80.0;
const M_RIGHT: f64 = 20.0;
const M_TOP: f64 = 40.0;
const M_BOTTOM: f64 = 50.0;

/// (file name, SVG text) of every plot the results allow.
pub fn plots(r: &SweepResults) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for t in &r.targets {
        let pts: Vec<(f64, f64, String)> = r
            .points
            .iter()
            .filter_map(|p| {
                let luts = p.synth.get(t)?.luts? as f64;
                Some((luts, p.total_cycles()? as f64, format!("#{}", p.index)))
            })
            .collect();
        if pts.len() >= 2 {
            out.push((
                format!("pareto-{t}.svg"),
                pareto_svg(&pts, &format!("{}: area against cycles ({t})", r.sweep), "LUTs", "total cycles"),
            ));
        }
    }
    for axis in &r.axes {
        let mut panels = Vec::new();
        for (name, metric) in metrics(r) {
            let series = axis_effect(&r.points, axis, &metric);
            if series.iter().filter(|(_, y)| y.is_some()).count() >= 2 {
                panels.push((name, series));
            }
        }
        if !panels.is_empty() {
            out.push((
                format!("axis-{axis}.svg"),
                effect_svg(&format!("{}: effect of {axis}", r.sweep), axis, &panels),
            ));
        }
    }
    out
}

type Metric = Box<dyn Fn(&PointResult) -> Option<f64>>;

fn metrics(r: &SweepResults) -> Vec<(String, Metric)> {
    let mut m: Vec<(String, Metric)> =
        vec![("total cycles".into(), Box::new(|p: &PointResult| p.total_cycles().map(|c| c as f64)))];
    for t in &r.targets {
        let (t1, t2, t3) = (t.clone(), t.clone(), t.clone());
        m.push((format!("{t} LUTs"), Box::new(move |p: &PointResult| p.synth.get(&t1)?.luts.map(|v| v as f64))));
        m.push((format!("{t} FFs"), Box::new(move |p: &PointResult| p.synth.get(&t2)?.ffs.map(|v| v as f64))));
        m.push((format!("{t} Fmax (MHz)"), Box::new(move |p: &PointResult| p.synth.get(&t3)?.fmax_mhz)));
    }
    m
}

/// Per value of `axis` (in first-seen order): the mean of `metric` over the points with that value.
fn axis_effect(points: &[PointResult], axis: &str, metric: &Metric) -> Vec<(String, Option<f64>)> {
    let mut order: Vec<String> = Vec::new();
    let mut sums: Vec<(f64, usize)> = Vec::new();
    for p in points {
        let Some((_, v)) = p.assignment.iter().find(|(f, _)| f == axis) else { continue };
        let key = show(v);
        let i = order.iter().position(|k| *k == key).unwrap_or_else(|| {
            order.push(key.clone());
            sums.push((0.0, 0));
            order.len() - 1
        });
        if let Some(y) = metric(p) {
            sums[i].0 += y;
            sums[i].1 += 1;
        }
    }
    order.into_iter().zip(sums).map(|(k, (s, n))| (k, if n > 0 { Some(s / n as f64) } else { None })).collect()
}

/// Indices of the points on the Pareto front (minimise x and y).
pub fn pareto_front(pts: &[(f64, f64)]) -> Vec<usize> {
    (0..pts.len())
        .filter(|&i| {
            let (x, y) = pts[i];
            !pts.iter().enumerate().any(|(j, &(a, b))| j != i && a <= x && b <= y && (a < x || b < y))
        })
        .collect()
}

/// Round tick positions covering [lo, hi].
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(f64::EPSILON);
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| span / s <= 6.0).unwrap_or(10.0 * mag);
    let mut t = (lo / step).floor() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 {
        if t >= lo - step * 1e-9 {
            out.push(t);
        }
        t += step;
    }
    out
}

fn fmt_num(v: f64) -> String {
    if v.abs() >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if v.abs() >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A linear map from data to pixels, with padding so dots do not sit on the frame.
struct Scale {
    lo: f64,
    hi: f64,
    p0: f64,
    p1: f64,
}

impl Scale {
    fn new(values: impl Iterator<Item = f64>, p0: f64, p1: f64) -> Scale {
        let (mut lo, mut hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        if !lo.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        let pad = ((hi - lo) * 0.08).max(hi.abs() * 0.02).max(1e-9);
        Scale { lo: lo - pad, hi: hi + pad, p0, p1 }
    }
    fn px(&self, v: f64) -> f64 {
        self.p0 + (v - self.lo) / (self.hi - self.lo) * (self.p1 - self.p0)
    }
}

fn frame(svg: &mut String, x0: f64, y0: f64, x1: f64, y1: f64, ys: &Scale, y_label: &str) {
    let _ = write!(
        svg,
        r##"<rect x="{x0}" y="{y1}" width="{}" height="{}" fill="none" stroke="#444"/>"##,
        x1 - x0,
        y0 - y1
    );
    for t in ticks(ys.lo, ys.hi) {
        let y = ys.px(t);
        let _ = write!(
            svg,
            r##"<line x1="{x0}" y1="{y:.1}" x2="{x1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end" font-size="11">{}</text>"##,
            x0 - 6.0,
            y + 4.0,
            fmt_num(t)
        );
    }
    let cy = (y0 + y1) / 2.0;
    let _ = write!(
        svg,
        r##"<text x="16" y="{cy:.1}" font-size="12" text-anchor="middle" transform="rotate(-90 16 {cy:.1})">{}</text>"##,
        esc(y_label)
    );
}

fn pareto_svg(pts: &[(f64, f64, String)], title: &str, x_label: &str, y_label: &str) -> String {
    let h = PANEL_H + M_TOP + M_BOTTOM;
    let (x0, x1, y0, y1) = (M_LEFT, W - M_RIGHT, h - M_BOTTOM, M_TOP);
    let xs = Scale::new(pts.iter().map(|p| p.0), x0, x1);
    let ys = Scale::new(pts.iter().map(|p| p.1), y0, y1);
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>"##
    );
    let _ = write!(svg, r##"<text x="{}" y="22" font-size="14" text-anchor="middle">{}</text>"##, W / 2.0, esc(title));
    frame(&mut svg, x0, y0, x1, y1, &ys, y_label);
    for t in ticks(xs.lo, xs.hi) {
        let x = xs.px(t);
        let _ = write!(
            svg,
            r##"<text x="{x:.1}" y="{}" font-size="11" text-anchor="middle">{}</text>"##,
            y0 + 16.0,
            fmt_num(t)
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"##,
        (x0 + x1) / 2.0,
        h - 10.0,
        esc(x_label)
    );
    let xy: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
    let mut front = pareto_front(&xy);
    front.sort_by(|&a, &b| xy[a].0.total_cmp(&xy[b].0));
    let path: Vec<String> = front.iter().map(|&i| format!("{:.1},{:.1}", xs.px(xy[i].0), ys.px(xy[i].1))).collect();
    let _ = write!(svg, r##"<polyline points="{}" fill="none" stroke="#d62728" stroke-width="2"/>"##, path.join(" "));
    for (i, (x, y, label)) in pts.iter().enumerate() {
        let on = front.contains(&i);
        let (px, py) = (xs.px(*x), ys.px(*y));
        let _ = write!(
            svg,
            r##"<circle cx="{px:.1}" cy="{py:.1}" r="{}" fill="{}"/><text x="{:.1}" y="{:.1}" font-size="10">{}</text>"##,
            if on { 5 } else { 3 },
            if on { "#d62728" } else { "#1f77b4" },
            px + 6.0,
            py - 4.0,
            esc(label)
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{}" y="{}" font-size="11" fill="#d62728" text-anchor="end">red: Pareto front</text>"##,
        x1 - 4.0,
        y1 + 14.0
    );
    svg + "</svg>\n"
}

/// One panel of an effect plot: its title and (label, value) bars; `None` is a missing value.
type Panel = (String, Vec<(String, Option<f64>)>);

fn effect_svg(title: &str, axis: &str, panels: &[Panel]) -> String {
    let h = M_TOP + panels.len() as f64 * (PANEL_H * 0.7 + M_BOTTOM);
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>"##
    );
    let _ = write!(svg, r##"<text x="{}" y="22" font-size="14" text-anchor="middle">{}</text>"##, W / 2.0, esc(title));
    for (k, (name, series)) in panels.iter().enumerate() {
        let top = M_TOP + k as f64 * (PANEL_H * 0.7 + M_BOTTOM);
        let (x0, x1, y1, y0) = (M_LEFT, W - M_RIGHT, top + 10.0, top + PANEL_H * 0.7);
        let ys = Scale::new(series.iter().filter_map(|s| s.1), y0, y1);
        frame(&mut svg, x0, y0, x1, y1, &ys, name);
        let n = series.len().max(1) as f64;
        let xpx = |i: usize| x0 + (i as f64 + 0.5) / n * (x1 - x0);
        let mut pts = Vec::new();
        for (i, (label, y)) in series.iter().enumerate() {
            let _ = write!(
                svg,
                r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"##,
                xpx(i),
                y0 + 15.0,
                esc(label)
            );
            if let Some(y) = y {
                let (px, py) = (xpx(i), ys.px(*y));
                pts.push(format!("{px:.1},{py:.1}"));
                let _ = write!(
                    svg,
                    r##"<circle cx="{px:.1}" cy="{py:.1}" r="4" fill="#1f77b4"/><text x="{:.1}" y="{:.1}" font-size="10">{}</text>"##,
                    px + 6.0,
                    py - 5.0,
                    fmt_num(*y)
                );
            }
        }
        let _ = write!(svg, r##"<polyline points="{}" fill="none" stroke="#1f77b4"/>"##, pts.join(" "));
        let _ = write!(
            svg,
            r##"<text x="{}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"##,
            (x0 + x1) / 2.0,
            y0 + 30.0,
            esc(axis)
        );
    }
    svg + "</svg>\n"
}
