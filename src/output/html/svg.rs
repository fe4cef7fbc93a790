//! The report's charts as SVG, written by hand: stacked bars (one bar per
//! period, one segment per series) and lines of points. Colours are CSS
//! classes (`s0`…`s9`), so the page's light and dark themes colour them;
//! every bar segment and point has a `<title>` with its exact value.

use std::fmt::Write;

use super::esc;

/// The drawing's size in user units (it scales to the page's width).
const W: f64 = 960.0;
const H: f64 = 280.0;
/// Room for the axis labels.
const LEFT: f64 = 64.0;
const BOTTOM: f64 = 36.0;
const TOP: f64 = 12.0;

/// One series of a chart: its name and a value per period.
#[derive(Debug, Clone)]
pub struct Series {
    pub name: String,
    pub values: Vec<f64>,
}

/// A round step for an axis reaching `max` in about four steps.
fn step(max: f64) -> f64 {
    if max <= 0.0 {
        return 1.0;
    }
    let raw = max / 4.0;
    let mag = 10f64.powf(raw.log10().floor());
    let n = raw / mag;
    let nice = if n <= 1.0 {
        1.0
    } else if n <= 2.0 {
        2.0
    } else if n <= 2.5 {
        2.5
    } else if n <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// Horizontal grid lines and their labels, up to `top`.
fn grid(out: &mut String, top: f64, label: &dyn Fn(f64) -> String) {
    let st = step(top);
    let plot_h = H - TOP - BOTTOM;
    out.push_str("<g class=\"grid\">");
    let mut v = 0.0;
    while v <= top + st * 1e-9 {
        let y = H - BOTTOM - v / top * plot_h;
        let _ = write!(
            out,
            "<line x1=\"{LEFT}\" x2=\"{W}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT - 6.0,
            y + 4.0,
            esc(&label(v))
        );
        v += st;
    }
    out.push_str("</g>");
}

/// The axis's top: the largest value rounded up to a step.
fn axis_top(max: f64) -> f64 {
    let st = step(max);
    ((max / st).ceil() * st).max(st)
}

/// Labels under the x axis, every `k`-th period so they do not overlap.
fn x_labels(out: &mut String, periods: &[String], x_of: &dyn Fn(usize) -> f64) {
    let fits = ((W - LEFT) / 80.0).max(1.0) as usize;
    let k = periods.len().div_ceil(fits).max(1);
    out.push_str("<g class=\"x-labels\">");
    for (i, p) in periods.iter().enumerate().step_by(k) {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x_of(i),
            H - BOTTOM + 18.0,
            esc(p)
        );
    }
    out.push_str("</g>");
}

/// Stacked bars: `series[s].values[p]` stacked at period `p`, in series
/// order from the bottom. `label` writes an axis or exact value.
pub fn stacked_bars(
    title: &str,
    periods: &[String],
    series: &[Series],
    label: &dyn Fn(f64) -> String,
) -> String {
    let sums: Vec<f64> = (0..periods.len())
        .map(|p| {
            series
                .iter()
                .map(|s| s.values.get(p).copied().unwrap_or(0.0))
                .sum()
        })
        .collect();
    let top = axis_top(sums.iter().copied().fold(0.0, f64::max));
    let plot_h = H - TOP - BOTTOM;
    let slot = (W - LEFT) / periods.len().max(1) as f64;
    let bar_w = (slot * 0.8).max(1.0);
    let x_of = |i: usize| LEFT + slot * (i as f64 + 0.5);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg class=\"chart\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{}\" preserveAspectRatio=\"none\">",
        esc(title)
    );
    grid(&mut out, top, label);
    out.push_str("<g class=\"bars\">");
    for (p, period) in periods.iter().enumerate() {
        let mut base = 0.0;
        for (s, ser) in series.iter().enumerate() {
            let v = ser.values.get(p).copied().unwrap_or(0.0);
            if v <= 0.0 {
                continue;
            }
            let y0 = H - BOTTOM - (base + v) / top * plot_h;
            let h = v / top * plot_h;
            let _ = write!(
                out,
                "<rect class=\"bar s{}\" x=\"{:.1}\" y=\"{y0:.1}\" width=\"{bar_w:.1}\" height=\"{h:.2}\"><title>{} · {}: {}</title></rect>",
                s % 10,
                x_of(p) - bar_w / 2.0,
                esc(period),
                esc(&ser.name),
                esc(&label(v))
            );
            base += v;
        }
    }
    out.push_str("</g>");
    x_labels(&mut out, periods, &x_of);
    out.push_str("</svg>");
    out
}

/// Lines of points over time (`xs` in any unit, ascending), each series'
/// `None` a gap; the y axis runs 0 to `y_max`.
pub fn lines(
    title: &str,
    xs: &[i64],
    x_label: &dyn Fn(i64) -> String,
    series: &[(String, Vec<Option<f64>>)],
    y_max: f64,
    label: &dyn Fn(f64) -> String,
) -> String {
    let (lo, hi) = match (xs.first(), xs.last()) {
        (Some(a), Some(b)) if b > a => (*a, *b),
        (Some(a), _) => (*a - 1, *a + 1),
        _ => (0, 1),
    };
    let plot_h = H - TOP - BOTTOM;
    let x_of = |x: i64| LEFT + 8.0 + (x - lo) as f64 / (hi - lo) as f64 * (W - LEFT - 16.0);
    let y_of = |v: f64| H - BOTTOM - v.clamp(0.0, y_max) / y_max * plot_h;
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg class=\"chart\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{}\" preserveAspectRatio=\"none\">",
        esc(title)
    );
    grid(&mut out, y_max, label);
    for (s, (name, values)) in series.iter().enumerate() {
        let axes = Axes {
            x: &x_of,
            y: &y_of,
            x_label,
            label,
        };
        line_series(&mut out, s, name, xs, values, &axes);
    }
    let ends = [x_label(lo), x_label(hi)];
    let _ = write!(
        out,
        "<g class=\"x-labels\"><text x=\"{:.1}\" y=\"{:.1}\">{}</text><text x=\"{W}\" y=\"{:.1}\" text-anchor=\"end\">{}</text></g>",
        LEFT,
        H - BOTTOM + 18.0,
        esc(&ends[0]),
        H - BOTTOM + 18.0,
        esc(&ends[1])
    );
    out.push_str("</svg>");
    out
}

/// A line chart's scales and how it writes its values.
struct Axes<'a> {
    x: &'a dyn Fn(i64) -> f64,
    y: &'a dyn Fn(f64) -> f64,
    x_label: &'a dyn Fn(i64) -> String,
    label: &'a dyn Fn(f64) -> String,
}

/// One series of `lines`: its path (lifted at each gap) and its points.
fn line_series(
    out: &mut String,
    s: usize,
    name: &str,
    xs: &[i64],
    values: &[Option<f64>],
    a: &Axes<'_>,
) {
    let (x_of, y_of, x_label, label) = (a.x, a.y, a.x_label, a.label);
    let mut path = String::new();
    let mut pen_up = true;
    for (x, v) in xs.iter().zip(values) {
        match v {
            Some(v) => {
                let _ = write!(
                    path,
                    "{}{:.1},{:.1} ",
                    if pen_up { "M" } else { "L" },
                    x_of(*x),
                    y_of(*v)
                );
                pen_up = false;
            }
            None => pen_up = true,
        }
    }
    let _ = write!(
        out,
        "<g class=\"series s{}\"><path class=\"line\" d=\"{}\"/>",
        s % 10,
        path.trim_end()
    );
    for (x, v) in xs.iter().zip(values) {
        if let Some(v) = v {
            let _ = write!(
                out,
                "<circle class=\"point\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\"><title>{} · {}: {}</title></circle>",
                x_of(*x),
                y_of(*v),
                esc(&x_label(*x)),
                esc(name),
                esc(&label(*v))
            );
        }
    }
    out.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_steps_are_round() {
        assert_eq!(step(100.0), 25.0);
        assert_eq!(step(7.3), 2.0);
        assert_eq!(step(0.0), 1.0);
        assert_eq!(axis_top(93.0), 100.0);
    }

    #[test]
    fn one_segment_per_nonzero_value_each_with_its_exact_value() {
        let svg = stacked_bars(
            "cost",
            &["d1".into(), "d2".into()],
            &[
                Series {
                    name: "a".into(),
                    values: vec![1.0, 0.0],
                },
                Series {
                    name: "b<".into(),
                    values: vec![2.0, 3.0],
                },
            ],
            &|v| format!("${v:.2}"),
        );
        assert_eq!(svg.matches("<rect class=\"bar").count(), 3);
        assert!(svg.contains("<title>d2 · b&lt;: $3.00</title>"), "{svg}");
    }
}
