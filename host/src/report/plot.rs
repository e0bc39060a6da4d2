//! The plot exporter: GB/s against n on log axes, one line per kernel, and
//! the copy bandwidth as a horizontal line where it was measured; or, for
//! `accuracy`, the worst error against n. Returns SVG text; the caller writes
//! it.

use plotters::prelude::*;

use super::{Document, INPUT_BYTES_PER_ELEMENT, Plot};
use crate::stats;

/// One line of the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend text.
    pub label: String,
    /// (n, GB/s) points, in order of n.
    pub points: Vec<(f64, f64)>,
}

/// One row of a [`Plot::Rates`]: `events` in `out_of` trials.
#[derive(Clone, Debug, PartialEq)]
pub struct Rate {
    /// The row's label (a publication variant).
    pub label: String,
    /// What was seen.
    pub events: u64,
    /// In how many trials.
    pub out_of: u64,
}

/// Where a [`Rate`] is drawn, per million.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PerMillion {
    /// The rate, if an event was seen.
    rate: Option<f64>,
    /// The 95% interval's low end (0 for a zero).
    lo: f64,
    /// Its high end, or a zero's bound.
    hi: f64,
}

impl Rate {
    /// Where the row is drawn, per million: the rate and its 95% Wilson
    /// interval, or for no event the rule of three's bound, with nothing
    /// below it; `None` without a trial.
    fn per_million(&self) -> Option<PerMillion> {
        // No trial, or more events than trials (a damaged record): no rate.
        if self.out_of == 0 || self.events > self.out_of {
            return None;
        }
        if self.events == 0 {
            return Some(PerMillion { rate: None, lo: 0.0, hi: stats::rule_of_three(self.out_of) * 1e6 });
        }
        let (lo, hi) = stats::wilson_interval_95(self.events, self.out_of);
        let rate = self.events as f64 / self.out_of as f64 * 1e6;
        Some(PerMillion { rate: Some(rate), lo: lo * 1e6, hi: hi * 1e6 })
    }
}

/// The GB/s of input of a run of `n` elements with these times: the median's.
pub fn input_gb_per_s(n: usize, times: &[f32]) -> f64 {
    stats::gb_per_s(INPUT_BYTES_PER_ELEMENT * n as u64, stats::median(times).unwrap_or(f32::NAN))
}

/// Lines gathered point by point, each point going to the line of its label
/// (a new line, at the end, for a new label).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lines(pub Vec<Series>);

impl Lines {
    /// Adds `point` to the line labelled `label`.
    pub fn add(&mut self, label: &str, point: (f64, f64)) {
        match self.0.iter_mut().find(|s| s.label == label) {
            Some(s) => s.points.push(point),
            None => self.0.push(Series { label: label.to_owned(), points: vec![point] }),
        }
    }

    /// Adds the GB/s of a run of `n` elements with these times to `label`'s line.
    pub fn add_timed(&mut self, label: &str, n: usize, times: &[f32]) {
        self.add(label, (n as f64, input_gb_per_s(n, times)));
    }
}

/// The lines a document plots against bandwidth, and the copy bandwidth if
/// it was measured (the bench's copy at its largest size, bytes read plus
/// written); none for a document that plots something else, or nothing.
pub fn series(document: &impl Document) -> (Vec<Series>, Option<f64>) {
    match document.report().plot(document.device()) {
        Some(Plot::Bandwidth { lines, copy }) => (lines, copy),
        Some(Plot::Error(_) | Plot::Heat(_) | Plot::Rates { .. }) | None => (Vec::new(), None),
    }
}

/// Colours that stay apart on white: Tableau 10, then two darker ones.
const PALETTE: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    // Two more, so every line of the accuracy plot (each sum kernel and each
    // CPU sum) has a colour of its own; a test holds the palette to that.
    RGBColor(0, 0, 128),
    RGBColor(128, 64, 0),
];

/// `1500` as "1.5k", `4194304` as "4.2M": axis labels a reader can scan.
fn short_number(x: f64) -> String {
    let (value, unit) = match x.abs() {
        v if v >= 1e9 => (x / 1e9, "G"),
        v if v >= 1e6 => (x / 1e6, "M"),
        v if v >= 1e3 => (x / 1e3, "k"),
        _ => (x, ""),
    };
    let text = format!("{value:.1}");
    format!("{}{unit}", text.trim_end_matches(".0"))
}

/// A horizontal reference line and its legend text.
struct Level {
    y: f64,
    label: String,
}

/// Pixels wide: the column of a book page at 1280 pixels with its sidebar
/// open, so that a plot is shown at the size it is drawn and its text is read
/// at the sizes below.
pub const WIDTH: u32 = 880;

/// Text sizes as plotters takes them: its SVG writes a size of `s` as
/// `s / 1.24` pixels, so these are 12.1, 12.9 and 16.1 pixels as drawn and,
/// at [`WIDTH`], as read (at least 11 for a legend).
const TEXT: u32 = 15;
const AXIS: u32 = 16;
const TITLE: u32 = 20;

/// The height of a chart's plotting area, above its legend.
const CHART_HEIGHT: u32 = 420;

/// Legend rows, and columns of them, under the plotting area.
const LEGEND_ROW: i32 = 20;
const LEGEND_COLUMNS: usize = 2;

/// How a line is drawn: solid, dashed or dotted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dash {
    Solid,
    Dashed,
    Dotted,
}

/// One line's look.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Look {
    colour: RGBColor,
    dash: Dash,
    width: u32,
    /// Whether its points are measurements, drawn with markers; a bound
    /// (the limit) or a level (the copy) is a line only.
    measured: bool,
}

/// The looks of `lines`: a label `KERNEL, VARIANT` (the exercise's
/// `tree + atomic, block 256`) takes KERNEL's colour and VARIANT's dash, so
/// that the kernel is the colour and the block size the line style; any
/// other label a colour of its own. A line labelled `limit…` (a bound, not
/// a kernel) is black and dashed.
fn looks(lines: &[Series]) -> Vec<Look> {
    let mut kernels: Vec<&str> = Vec::new();
    let mut variants: Vec<&str> = Vec::new();
    lines
        .iter()
        .map(|s| {
            if s.label.starts_with("limit") {
                return Look { colour: BLACK, dash: Dash::Dashed, width: 2, measured: false };
            }
            let (kernel, variant) = s.label.split_once(", ").unwrap_or((&s.label, ""));
            let k = kernels.iter().position(|x| *x == kernel).unwrap_or_else(|| {
                kernels.push(kernel);
                kernels.len() - 1
            });
            let v = variants.iter().position(|x| *x == variant).unwrap_or_else(|| {
                variants.push(variant);
                variants.len() - 1
            });
            let dash = [Dash::Solid, Dash::Dashed, Dash::Dotted][v % 3];
            Look { colour: PALETTE[k % PALETTE.len()], dash, width: 2, measured: true }
        })
        .collect()
}

/// Draws `points` on `chart` in `look`.
fn draw_line<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: Vec<(f64, f64)>,
    look: Look,
) -> Result<(), String>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let style = look.colour.stroke_width(look.width);
    let drawn = match look.dash {
        Dash::Solid => chart.draw_series(LineSeries::new(points.clone(), style)).map(|_| ()),
        Dash::Dashed => chart.draw_series(DashedLineSeries::new(points.clone(), 9, 5, style)).map(|_| ()),
        Dash::Dotted => chart.draw_series(DashedLineSeries::new(points.clone(), 2, 4, style)).map(|_| ()),
    };
    drawn.map_err(|e| e.to_string())?;
    // The points, on every line, each dash with a marker of its own size and
    // shape, so that lines that coincide (the exercise's global atomic at
    // three block sizes) still show as a dot in a ring in a square.
    if look.measured {
        for p in points {
            marker(chart.plotting_area(), p, look)?;
        }
    }
    Ok(())
}

/// The marker of a point of a line in `look`, centred on `at` in `area`'s
/// coordinates: a dot for a solid line, a ring for a dashed one, a square
/// for a dotted one.
fn marker<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    look: Look,
) -> Result<(), String> {
    let around = EmptyElement::at(at);
    let drawn = match look.dash {
        Dash::Solid => area.draw(&(around + Circle::new((0, 0), 3, look.colour.filled()))),
        Dash::Dashed => area.draw(&(around + Circle::new((0, 0), 5, look.colour.stroke_width(2)))),
        Dash::Dotted => area.draw(&(around + Rectangle::new([(-7, -7), (7, 7)], look.colour.stroke_width(2)))),
    };
    drawn.map_err(|e| e.to_string())
}

/// The legend's sample of `look`: a short line in its colour and dash, with
/// its marker.
fn sample<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    (x, y): (i32, i32),
    look: Look,
) -> Result<(), String> {
    let style = look.colour.stroke_width(look.width);
    let (on, off) = match look.dash {
        Dash::Solid => (30, 0),
        Dash::Dashed => (8, 4),
        Dash::Dotted => (2, 4),
    };
    let mut at = x;
    while at < x + 30 {
        let end = (at + on).min(x + 30);
        area.draw(&PathElement::new(vec![(at, y), (end, y)], style)).map_err(|e| e.to_string())?;
        at = end + off.max(1);
    }
    if look.measured { marker(area, (x + 15, y), look) } else { Ok(()) }
}

/// The pixels a chart of `entries` legend entries takes under its plot.
fn legend_height(entries: usize) -> u32 {
    (entries.div_ceil(LEGEND_COLUMNS) as i32 * LEGEND_ROW + 12) as u32
}

/// The most decades a log axis spans: wider, and the values are not
/// measurements of one thing (a plotting library may spin on its ticks).
const MAX_DECADES: f64 = 30.0;

/// Whether a point can sit on log-log axes: both coordinates finite and
/// above zero.
fn drawable((x, y): (f64, f64)) -> bool {
    x.is_finite() && x > 0.0 && y.is_finite() && y > 0.0
}

/// The smallest and largest of `values` (each finite and above zero), or
/// why a log axis cannot be drawn around them: none at all, or a span of
/// more than [`MAX_DECADES`].
fn log_range(what: &str, values: impl Iterator<Item = f64>) -> Result<(f64, f64), String> {
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return Err("nothing to plot: no point has a positive, finite n and value".to_owned());
    }
    if (hi / lo).log10() > MAX_DECADES {
        return Err(format!("{what} run from {lo:e} to {hi:e}, more than {MAX_DECADES} decades for one log axis"));
    }
    Ok((lo, hi))
}

/// One chart: log-log axes around `lines`, each in its look ([`looks`]), and
/// `level` drawn in grey; the legend in columns under the plotting area.
fn chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    (x_desc, y_desc): (&str, &str),
    lines: &[Series],
    level: Option<Level>,
) -> Result<(), String> {
    // Only what a log axis can show is drawn: a point whose n or value is
    // zero, negative or not finite has no place on it.
    let lines: Vec<Series> = lines
        .iter()
        .map(|s| Series { label: s.label.clone(), points: s.points.iter().copied().filter(|&p| drawable(p)).collect() })
        .collect();
    let points = || lines.iter().flat_map(|s| s.points.iter());
    if let Some(level) = &level
        && !(level.y.is_finite() && level.y > 0.0)
    {
        return Err(format!("{} is {}, which a log axis cannot show", level.label, level.y));
    }
    let (x_min, x_max) = log_range("n", points().map(|p| p.0))?;
    let (y_min, y_max) = log_range("the values", points().map(|p| p.1).chain(level.as_ref().map(|l| l.y)))?;
    let lines = &lines[..];
    let (plot_area, legend_area) = area.split_vertically(CHART_HEIGHT);
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, ("sans-serif", TITLE))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d((x_min / 1.5..x_max * 1.5).log_scale(), (y_min / 1.5..y_max * 1.5).log_scale())
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(6)
        .y_labels(8)
        .x_label_formatter(&|x| short_number(*x))
        .y_label_formatter(&|y| short_number(*y))
        .light_line_style(RGBColor(238, 238, 238))
        .label_style(("sans-serif", AXIS))
        .axis_desc_style(("sans-serif", AXIS))
        .draw()
        .map_err(|e| e.to_string())?;
    let mut legend: Vec<(String, Look)> = Vec::new();
    for (s, look) in lines.iter().zip(looks(lines)) {
        draw_line(&mut chart, s.points.clone(), look)?;
        legend.push((s.label.clone(), look));
    }
    if let Some(level) = level {
        // The copy is a measurement of another kind than the limit: grey and
        // solid where the limit is black and dashed.
        let look = Look { colour: RGBColor(120, 120, 120), dash: Dash::Solid, width: 3, measured: false };
        let line = vec![(x_min / 1.5, level.y), (x_max * 1.5, level.y)];
        chart.draw_series(LineSeries::new(line, look.colour.stroke_width(look.width))).map_err(|e| e.to_string())?;
        legend.push((level.label, look));
    }
    // The legend: a sample of each line and its label, in columns.
    let column = WIDTH as i32 / LEGEND_COLUMNS as i32;
    let rows = legend.len().div_ceil(LEGEND_COLUMNS);
    for (k, (label, look)) in legend.iter().enumerate() {
        let (x, y) = (12 + column * (k / rows.max(1)) as i32, 10 + LEGEND_ROW * (k % rows.max(1)) as i32);
        sample(&legend_area, (x, y), *look)?;
        legend_area
            .draw(&Text::new(label.clone(), (x + 38, y - 8), ("sans-serif", TEXT).into_font()))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The plot of `document` as SVG: GB/s against n, or for an accuracy run
/// one panel per array of the worst error against n, or for a litmus run its
/// heat map ([`super::heatmap`]).
pub fn svg(document: &impl Document) -> Result<String, String> {
    let mut text = String::new();
    let device = document.device();
    match document.report().plot(device) {
        None => return Err("nothing to plot".to_owned()),
        Some(Plot::Heat(panels)) => {
            return super::heatmap::svg(&format!("{}: litmus weak outcomes", device.name), &panels);
        }
        Some(Plot::Error(panels)) => {
            if panels.is_empty() {
                return Err("nothing to plot".to_owned());
            }
            let entries = panels.iter().map(|(_, lines)| lines.len()).max().unwrap_or(0);
            let each = CHART_HEIGHT + legend_height(entries);
            let root = SVGBackend::with_string(&mut text, (WIDTH, each * panels.len() as u32)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| e.to_string())?;
            for ((name, lines), area) in panels.iter().zip(root.split_evenly((panels.len(), 1))) {
                let title = format!("{}: worst error against n, {name}", device.name);
                chart(&area, &title, ("n (floats, log scale)", "1 + worst error in ulps (log scale)"), lines, None)?;
            }
            root.present().map_err(|e| e.to_string())?;
        }
        Some(Plot::Rates { what, rows }) => return rates(&format!("{}: {what}", device.name), &what, &rows),
        Some(Plot::Bandwidth { lines, copy }) => {
            let height = CHART_HEIGHT + legend_height(lines.len() + usize::from(copy.is_some()));
            let root = SVGBackend::with_string(&mut text, (WIDTH, height)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| e.to_string())?;
            let title = format!("{}: GB/s of input against n", device.name);
            let level =
                copy.map(|c| Level { y: c, label: format!("device copy at the largest n: {c:.0} GB/s (read+write)") });
            chart(&root, &title, ("n (floats, log scale)", "GB/s of input (log scale)"), &lines, level)?;
            root.present().map_err(|e| e.to_string())?;
        }
    }
    Ok(text)
}

/// The pixels of one row of a rates plot.
const RATE_ROW: u32 = 30;

/// A rates plot ([`Plot::Rates`]): one row per label, on a log axis of
/// events per million. A rate is a filled dot on its 95% interval; a zero
/// is an open circle at its bound, with a line down to the axis's start:
/// what a run that saw nothing can rule out, never a point at zero, which
/// no log axis has. A row without a trial is left out.
fn rates(title: &str, what: &str, rows: &[Rate]) -> Result<String, String> {
    let drawn: Vec<(&Rate, PerMillion)> = rows.iter().filter_map(|r| r.per_million().map(|m| (r, m))).collect();
    let (lo, hi) = log_range(
        "the rates",
        drawn.iter().flat_map(|(_, m)| [m.rate, (m.lo > 0.0).then_some(m.lo), Some(m.hi)]).flatten(),
    )?;
    let (x_min, x_max) = (lo / 3.0, hi * 3.0);
    let n = drawn.len() as i32;
    let mut text = String::new();
    {
        let height = RATE_ROW * drawn.len() as u32 + 120;
        let root = SVGBackend::with_string(&mut text, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let label_width = drawn.iter().map(|(r, _)| r.label.chars().count()).max().unwrap_or(0) as u32 * 8 + 16;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", TITLE))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(label_width.min(WIDTH / 2))
            .build_cartesian_2d((x_min..x_max).log_scale(), (0..n).into_segmented())
            .map_err(|e| e.to_string())?;
        let label = |y: &SegmentValue<i32>| match y {
            SegmentValue::CenterOf(k) | SegmentValue::Exact(k) => usize::try_from(n - 1 - k)
                .ok()
                .and_then(|i| drawn.get(i))
                .map_or(String::new(), |(r, _)| r.label.clone()),
            SegmentValue::Last => String::new(),
        };
        chart
            .configure_mesh()
            .x_desc(format!("{what} (log scale): a dot is a rate on its 95% interval, a ring the bound of a zero"))
            .x_labels(8)
            .y_labels(drawn.len())
            .x_label_formatter(&|x| short_number(*x))
            .y_label_formatter(&label)
            .disable_y_mesh()
            .light_line_style(RGBColor(238, 238, 238))
            .label_style(("sans-serif", AXIS))
            .axis_desc_style(("sans-serif", AXIS))
            .draw()
            .map_err(|e| e.to_string())?;
        let (seen, bound) = (PALETTE[3], RGBColor(120, 120, 120));
        for (k, (_, m)) in drawn.iter().enumerate() {
            // The first row at the top.
            let y = SegmentValue::CenterOf(n - 1 - k as i32);
            let hi = m.hi;
            match m.rate {
                Some(rate) => {
                    let span = vec![(m.lo.max(x_min), y.clone()), (hi, y.clone())];
                    chart.draw_series(LineSeries::new(span, seen.stroke_width(2))).map_err(|e| e.to_string())?;
                    chart.draw_series([Circle::new((rate, y), 5, seen.filled())]).map_err(|e| e.to_string())?;
                }
                None => {
                    let below = vec![(x_min, y.clone()), (hi, y.clone())];
                    chart
                        .draw_series(DashedLineSeries::new(below, 2, 4, bound.stroke_width(2)))
                        .map_err(|e| e.to_string())?;
                    chart.draw_series([Circle::new((hi, y), 5, bound.stroke_width(2))]).map_err(|e| e.to_string())?;
                }
            }
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::{Dash, Rate, Series, drawable, log_range, looks, short_number};

    #[test]
    fn a_rates_plot_draws_a_zero_at_its_bound() {
        let row = |label: &str, events, out_of| Rate { label: label.to_owned(), events, out_of };
        let rows = [row("relaxed", 12, 1_000_000), row("release-acquire", 0, 1_000_000), row("never ran", 0, 0)];
        assert_eq!(rows[1].per_million(), Some(super::PerMillion { rate: None, lo: 0.0, hi: 3.0 }));
        assert_eq!(rows[2].per_million(), None);
        assert_eq!(row("damaged", 3, 2).per_million(), None);
        let svg = super::rates("GPU: stale", "stale per million pairs", &rows).unwrap();
        assert!(svg.contains("relaxed") && svg.contains("release-acquire") && !svg.contains("never ran"), "{svg}");
        assert!(super::rates("x", "y", &[row("nothing", 0, 0)]).unwrap_err().starts_with("nothing to plot"));
    }

    /// The accuracy plot draws one line per sum kernel and per CPU sum; past
    /// the palette's length two lines would share a colour. A new kernel that
    /// trips this needs a colour added to `PALETTE`.
    #[test]
    fn every_line_of_the_accuracy_plot_has_a_colour_of_its_own() {
        let lines = layout::sum::KERNELS.len() + crate::strategies::CpuSum::ALL.len();
        assert!(lines <= super::PALETTE.len(), "{lines} lines, {} colours", super::PALETTE.len());
    }

    /// The exercise's lines: the kernel is the colour, the block the dash;
    /// the limit is black and dashed whatever its place.
    #[test]
    fn a_kernel_keeps_its_colour_across_blocks() {
        let line = |label: &str| Series { label: label.to_owned(), points: vec![(1.0, 1.0)] };
        let lines =
            ["global atomic, block 64", "tree + atomic, block 64", "global atomic, block 256", "limit: empty launch"]
                .map(line);
        let l = looks(&lines);
        assert_eq!(l[0].colour, l[2].colour);
        assert_ne!(l[0].colour, l[1].colour);
        assert_eq!((l[0].dash, l[2].dash), (Dash::Solid, Dash::Dashed));
        assert_eq!((l[3].colour, l[3].dash), (plotters::style::BLACK, Dash::Dashed));
    }

    #[test]
    fn a_log_axis_is_drawn_only_around_positive_finite_values() {
        assert_eq!(log_range("n", [4.0, 1.0, 16.0].into_iter()), Ok((1.0, 16.0)));
        assert!(log_range("n", std::iter::empty()).unwrap_err().starts_with("nothing to plot"));
        assert!(log_range("n", [1e-20, 1e20].into_iter()).unwrap_err().contains("decades"));
        assert!(drawable((1.0, 2.0)));
        for p in [(0.0, 1.0), (1.0, 0.0), (1.0, f64::INFINITY), (f64::NAN, 1.0), (-1.0, 1.0)] {
            assert!(!drawable(p), "{p:?}");
        }
    }

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(short_number(4096.0), "4.1k");
        assert_eq!(short_number(4_194_304.0), "4.2M");
        assert_eq!(short_number(2.0e9), "2G");
        assert_eq!(short_number(20.0), "20");
    }
}
