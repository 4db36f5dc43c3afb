//! Line charts of a campaign's history, drawn on the server: the geometry is worked out here
//! (axes with round steps, one line per nation in its colour, the last value at the end of
//! each line) and `partials/chart.html` draws it as SVG, so the standings page needs no
//! script and reads the same in every language.

use crate::wire::campaign::{History, NationTurn};
use serde::Serialize;

/// The drawing's own units (its `viewBox`); the page scales it to the width it has.
const WIDTH: f64 = 420.0;
const HEIGHT: f64 = 240.0;
/// Room for the value labels on the left, the turn labels below and the last values on the
/// right.
const LEFT: f64 = 46.0;
const RIGHT: f64 = 48.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 34.0;
/// A line keeps at most this many points; longer campaigns are sampled evenly, their last
/// turn always kept.
const MAX_POINTS: usize = 240;

/// Which figure of the history a chart follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    Points,
    Towns,
    Mines,
}

impl Figure {
    fn of(self, n: &NationTurn) -> i64 {
        match self {
            Figure::Points => n.points,
            Figure::Towns => n.towns,
            Figure::Mines => n.mines,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Tick {
    /// Position along its axis, in the drawing's units.
    pub at: f64,
    pub label: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Line {
    pub nation: String,
    pub color: String,
    /// `x,y x,y …` for a polyline.
    pub points: String,
    pub last: i64,
    /// Where the last value is written.
    pub last_x: f64,
    pub last_y: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Chart {
    pub figure: Figure,
    pub width: f64,
    pub height: f64,
    /// The plot's box: left, top, right, bottom.
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub x_ticks: Vec<Tick>,
    pub y_ticks: Vec<Tick>,
    pub lines: Vec<Line>,
    /// No turn recorded yet: the page says so instead of drawing empty axes.
    pub empty: bool,
}

/// The smallest of 1, 2, 5 × 10ⁿ at least `raw`.
fn round_step(raw: f64) -> i64 {
    let raw = raw.max(1.0);
    let mut unit = 1i64;
    loop {
        for m in [1, 2, 5] {
            if (m * unit) as f64 >= raw {
                return m * unit;
            }
        }
        unit = unit.saturating_mul(10);
    }
}

/// Ticks from `lo` to at least `hi`, about `count` of them, on round steps.
fn ticks(lo: i64, hi: i64, count: i64) -> (i64, i64, Vec<i64>) {
    let step = round_step((hi - lo) as f64 / count as f64);
    let start = lo.div_euclid(step) * step;
    let mut end = start;
    let mut out = vec![start];
    while end < hi {
        end += step;
        out.push(end);
    }
    if out.len() == 1 {
        end = start + step;
        out.push(end);
    }
    (start, end, out)
}

/// The chart of one figure over the turns of `h`; `colors` gives each nation's colour by name.
pub fn chart(h: &History, figure: Figure, colors: &[(String, String)]) -> Chart {
    let (right, bottom) = (WIDTH - RIGHT, HEIGHT - BOTTOM);
    let mut c = Chart {
        figure,
        width: WIDTH,
        height: HEIGHT,
        left: LEFT,
        top: TOP,
        right,
        bottom,
        x_ticks: Vec::new(),
        y_ticks: Vec::new(),
        lines: Vec::new(),
        empty: h.turns.is_empty(),
    };
    let (Some(first), Some(last)) = (h.turns.first(), h.turns.last()) else {
        return c;
    };
    let keep = h.turns.len().div_ceil(MAX_POINTS).max(1);
    let sampled: Vec<_> = h
        .turns
        .iter()
        .enumerate()
        .filter(|(i, _)| i % keep == 0 || *i == h.turns.len() - 1)
        .map(|(_, t)| t)
        .collect();
    let top_value = h
        .turns
        .iter()
        .flat_map(|t| t.nations.iter().map(|n| figure.of(n)))
        .max()
        .unwrap_or(0);
    let (t0, t1, xs) = ticks(
        first.turn as i64,
        (last.turn as i64).max(first.turn as i64 + 1),
        5,
    );
    let (v0, v1, ys) = ticks(0, top_value.max(1), 4);
    let x = |turn: i64| LEFT + (turn - t0) as f64 / (t1 - t0) as f64 * (right - LEFT);
    let y = |v: i64| bottom - (v - v0) as f64 / (v1 - v0) as f64 * (bottom - TOP);
    c.x_ticks = xs
        .into_iter()
        .map(|t| Tick { at: x(t), label: t })
        .collect();
    c.y_ticks = ys
        .into_iter()
        .map(|v| Tick { at: y(v), label: v })
        .collect();
    // Each line a little above or below its place, so that tied nations' lines lie side by
    // side instead of one over the other.
    let spread = |i: usize| (i as f64 - (colors.len() as f64 - 1.0) / 2.0) * 2.5;
    for (i, (name, color)) in colors.iter().enumerate() {
        let mut points = String::new();
        let mut end = None;
        for t in &sampled {
            if let Some(n) = t.nations.iter().find(|n| &n.nation == name) {
                let (px, py) = (
                    x(t.turn as i64),
                    (y(figure.of(n)) + spread(i)).clamp(TOP, bottom),
                );
                if !points.is_empty() {
                    points.push(' ');
                }
                points.push_str(&format!("{px:.1},{py:.1}"));
                end = Some((figure.of(n), px, py));
            }
        }
        if let Some((value, px, py)) = end {
            c.lines.push(Line {
                nation: name.clone(),
                color: color.clone(),
                points,
                last: value,
                last_x: px + 5.0,
                last_y: py + 5.0,
            });
        }
    }
    // The figures at the lines' ends: tied ones one under the other, not on top of each other.
    let mut order: Vec<usize> = (0..c.lines.len()).collect();
    order.sort_by(|a, b| c.lines[*a].last_y.total_cmp(&c.lines[*b].last_y));
    for k in 1..order.len() {
        let above = c.lines[order[k - 1]].last_y;
        let l = &mut c.lines[order[k]];
        l.last_y = l.last_y.max(above + 12.0);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::campaign::HistoryTurn;

    /// The two nations of [`turn`], in their colours.
    fn colors() -> Vec<(String, String)> {
        vec![
            ("France".to_string(), "#2b4c9b".to_string()),
            ("Russia".to_string(), "#2e7d32".to_string()),
        ]
    }

    fn turn(t: i32, a: i64, b: i64) -> HistoryTurn {
        let n = |name: &str, points| NationTurn {
            nation: name.into(),
            points,
            towns: 1,
            mines: 2,
            sections: 0,
            companies: Some(3),
            men: Some(300),
        };
        HistoryTurn {
            turn: t,
            nations: vec![n("France", a), n("Russia", b)],
        }
    }

    #[test]
    fn steps_are_round() {
        assert_eq!(round_step(0.3), 1);
        assert_eq!(round_step(3.0), 5);
        assert_eq!(round_step(120.0), 200);
        assert_eq!(ticks(0, 130, 4).2, vec![0, 50, 100, 150]);
        assert_eq!(ticks(0, 1, 4).2, vec![0, 1]);
    }

    #[test]
    fn lines_run_from_the_first_turn_to_the_last_within_the_plot() {
        let h = History {
            turns: (1..=12)
                .map(|t| turn(t, 4 * t as i64, 3 * t as i64))
                .collect(),
        };
        let colors = colors();
        let c = chart(&h, Figure::Points, &colors);
        assert!(!c.empty);
        assert_eq!(c.lines.len(), 2);
        assert_eq!(c.lines[0].last, 48);
        assert_eq!(c.lines[1].last, 36);
        assert_eq!(c.lines[0].points.split(' ').count(), 12);
        // The highest value sits under the top tick, every point inside the plot.
        assert!(c.y_ticks.last().unwrap().label >= 48);
        for l in &c.lines {
            for p in l.points.split(' ') {
                let (px, py) = p.split_once(',').unwrap();
                let (px, py): (f64, f64) = (px.parse().unwrap(), py.parse().unwrap());
                assert!((c.left..=c.right).contains(&px), "{px}");
                assert!((c.top..=c.bottom).contains(&py), "{py}");
            }
        }
        // More points lead higher: France ends above Russia.
        assert!(c.lines[0].last_y < c.lines[1].last_y);
    }

    #[test]
    fn tied_nations_lines_and_figures_lie_side_by_side() {
        let h = History {
            turns: (1..=5)
                .map(|t| turn(t, 2 * t as i64, 2 * t as i64))
                .collect(),
        };
        let colors = colors();
        let c = chart(&h, Figure::Points, &colors);
        assert_ne!(
            c.lines[0].points, c.lines[1].points,
            "not drawn over each other"
        );
        assert!((c.lines[0].last_y - c.lines[1].last_y).abs() >= 12.0);
    }

    #[test]
    fn a_long_campaign_is_sampled_keeping_its_last_turn() {
        let h = History {
            turns: (1..=1000).map(|t| turn(t, t as i64, 0)).collect(),
        };
        let c = chart(&h, Figure::Points, &[("France".into(), "#000000".into())]);
        let n = c.lines[0].points.split(' ').count();
        assert!(n <= MAX_POINTS + 1, "{n}");
        assert_eq!(c.lines[0].last, 1000);
    }

    #[test]
    fn no_history_is_an_empty_chart() {
        let c = chart(&History { turns: vec![] }, Figure::Towns, &[]);
        assert!(c.empty && c.lines.is_empty());
    }
}
