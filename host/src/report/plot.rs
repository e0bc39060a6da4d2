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
        Some(Plot::Error(_)) | None => (Vec::new(), None),
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

/// Pixels the legend panel takes at the right of every chart, so that no
/// line runs under it.
const LEGEND_WIDTH: u32 = 320;

/// One chart: log-log axes around `lines`, each a coloured line with points,
/// and `level` drawn in black; the legend in a panel of its own at the right.
fn chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    (x_desc, y_desc): (&str, &str),
    lines: &[Series],
    level: Option<Level>,
) -> Result<(), String> {
    let points = || lines.iter().flat_map(|s| s.points.iter()).filter(|p| p.1.is_finite() && p.1 > 0.0);
    let (x_min, x_max) = points().fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p.0), hi.max(p.0)));
    let (y_min, y_max) = points()
        .map(|p| p.1)
        .chain(level.as_ref().map(|l| l.y))
        .fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
    if x_min > x_max {
        return Err("nothing to plot".to_owned());
    }
    let (plot_area, legend_area) = area.split_horizontally(area.dim_in_pixel().0.saturating_sub(LEGEND_WIDTH));
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
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
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(|e| e.to_string())?;
    let mut legend: Vec<(String, ShapeStyle)> = Vec::new();
    for (i, s) in lines.iter().enumerate() {
        let style = PALETTE[i % PALETTE.len()].stroke_width(2);
        chart.draw_series(LineSeries::new(s.points.clone(), style).point_size(3)).map_err(|e| e.to_string())?;
        legend.push((s.label.clone(), style));
    }
    if let Some(level) = level {
        let line = vec![(x_min / 1.5, level.y), (x_max * 1.5, level.y)];
        chart.draw_series(LineSeries::new(line, BLACK.stroke_width(1))).map_err(|e| e.to_string())?;
        legend.push((level.label, BLACK.stroke_width(1)));
    }
    // The legend: one short line and its label per series, top-aligned with
    // the plotting area.
    let (top, step) = (70, 22);
    for (k, (label, style)) in legend.iter().enumerate() {
        let y = top + step * k as i32;
        legend_area.draw(&PathElement::new(vec![(0, y), (24, y)], *style)).map_err(|e| e.to_string())?;
        legend_area
            .draw(&Text::new(label.clone(), (32, y - 8), ("sans-serif", 14).into_font()))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The plot of `document` as SVG: GB/s against n, or for an accuracy run
/// one panel per array of the worst error against n.
pub fn svg(document: &impl Document) -> Result<String, String> {
    let mut text = String::new();
    let device = document.device();
    match document.report().plot(device) {
        None => return Err("nothing to plot".to_owned()),
        Some(Plot::Error(panels)) => {
            if panels.is_empty() {
                return Err("nothing to plot".to_owned());
            }
            let root = SVGBackend::with_string(&mut text, (1200, 560 * panels.len() as u32)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| e.to_string())?;
            for ((name, lines), area) in panels.iter().zip(root.split_evenly((panels.len(), 1))) {
                let title = format!("{}: worst error against n, {name}", device.name);
                chart(&area, &title, ("n (floats, log scale)", "1 + worst error in ulps (log scale)"), lines, None)?;
            }
            root.present().map_err(|e| e.to_string())?;
        }
        Some(Plot::Bandwidth { lines, copy }) => {
            let root = SVGBackend::with_string(&mut text, (1200, 640)).into_drawing_area();
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

#[cfg(test)]
mod tests {
    use super::short_number;

    /// The accuracy plot draws one line per sum kernel and per CPU sum; past
    /// the palette's length two lines would share a colour. A new kernel that
    /// trips this needs a colour added to `PALETTE`.
    #[test]
    fn every_line_of_the_accuracy_plot_has_a_colour_of_its_own() {
        let lines = layout::sum::KERNELS.len() + crate::strategies::CpuSum::ALL.len();
        assert!(lines <= super::PALETTE.len(), "{lines} lines, {} colours", super::PALETTE.len());
    }

    #[test]
    fn axis_numbers_are_short() {
        assert_eq!(short_number(4096.0), "4.1k");
        assert_eq!(short_number(4_194_304.0), "4.2M");
        assert_eq!(short_number(2.0e9), "2G");
        assert_eq!(short_number(20.0), "20");
    }
}
