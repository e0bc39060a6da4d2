//! The litmus heat map: weak outcomes per million instances, one cell per
//! (test, variant), one panel per placement. A cell's colour is its rate on a
//! log scale and its text the rate itself; a cell with no weak outcome is
//! grey and prints its rule-of-three bound, so that a zero is never shown
//! without what it is out of; a cell whose weak outcome the model forbids has
//! a heavy frame. The SVG is drawn at the width a book page shows it (see
//! [`WIDTH`]), so its text is read at the size it is drawn.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::stats;

/// One (test, variant) of one placement.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The test's name (`MP`): the cell's row.
    pub test: String,
    /// The variant's key (`relaxed-gpu`): the cell's column.
    pub variant: String,
    /// Instances run.
    pub instances: u64,
    /// Instances that ended in the weak outcome.
    pub weak: u64,
    /// Whether the model allows the weak outcome.
    pub allowed: bool,
}

impl Cell {
    /// Weak outcomes per million instances.
    fn per_million(&self) -> f64 {
        if self.instances == 0 { 0.0 } else { self.weak as f64 / self.instances as f64 * 1e6 }
    }
}

/// One placement's cells; rows and columns in the order their first cell
/// names them.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// The placement's key (`inter-block`).
    pub placement: String,
    /// Its cells.
    pub cells: Vec<Cell>,
}

/// Pixels wide: the column of a book page at 1280 pixels with its sidebar
/// open, so the SVG is shown at the size it is drawn.
pub const WIDTH: u32 = 880;

/// Text sizes as plotters takes them: its SVG writes a size of `s` as
/// `s / 1.24` pixels, so these are 12.1, 12.9 and 16.1 pixels as drawn and,
/// at [`WIDTH`], as read.
const TEXT: u32 = 15;
const LABEL: u32 = 16;
const TITLE: u32 = 20;

/// The colour scale's ends, weak outcomes per million: below the first a
/// rate takes its colour, above the second the second's.
const SCALE: (f64, f64) = (1e-3, 1e5);

/// The colour of `per_million` (above zero): light yellow through orange to
/// dark red, by its logarithm's place on [`SCALE`].
fn colour(per_million: f64) -> RGBColor {
    let (lo, hi) = (SCALE.0.log10(), SCALE.1.log10());
    let t = ((per_million.log10() - lo) / (hi - lo)).clamp(0.0, 1.0);
    // Three stops of a sequential ramp that stays apart from the grey of a zero.
    let stops = [(255.0, 237.0, 160.0), (240.0, 120.0, 40.0), (120.0, 0.0, 30.0)];
    let (a, b, u) = if t < 0.5 { (stops[0], stops[1], t * 2.0) } else { (stops[1], stops[2], t * 2.0 - 1.0) };
    let mix = |x: f64, y: f64| (x + (y - x) * u).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// `x` with three significant digits, or as a whole number from 1,000 up.
fn short(x: f64) -> String {
    if x >= 1000.0 {
        format!("{x:.0}")
    } else {
        let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
        format!("{x:.decimals$}")
    }
}

/// The order in which `keys` first appear, each once.
fn first_seen<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for key in keys {
        if !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

/// A variant's key in up to three lines, each at most [`HEADER_CHARS`]
/// characters where it can be (`fence`, `acq-rel`, `gpu`): its scope on the
/// last line, the rest split at its first `-` when too long, so that a column
/// is as narrow as its numbers.
fn header_lines(variant: &str) -> Vec<&str> {
    let (head, scope) = match variant.rsplit_once('-') {
        Some((head, scope)) if ["gpu", "cta", "cluster", "sys"].contains(&scope) => (head, Some(scope)),
        _ => (variant, None),
    };
    let mut lines = match head.split_once('-') {
        Some((first, rest)) if head.len() > HEADER_CHARS => vec![first, rest],
        _ => vec![head],
    };
    lines.extend(scope);
    lines
}

/// The characters a column's header line takes before it is split.
const HEADER_CHARS: usize = 9;

const ROW_HEIGHT: i32 = 34;
const HEADER_HEIGHT: i32 = 58;
const LABEL_WIDTH: i32 = 64;
const TITLE_HEIGHT: i32 = 30;
const KEY_HEIGHT: i32 = 70;

/// The heat map of `panels` as SVG text, titled `title`.
pub fn svg(title: &str, panels: &[Panel]) -> Result<String, String> {
    if panels.iter().all(|p| p.cells.is_empty()) {
        return Err("nothing to plot".to_owned());
    }
    let height = |p: &Panel| {
        TITLE_HEIGHT + HEADER_HEIGHT + ROW_HEIGHT * first_seen(p.cells.iter().map(|c| c.test.as_str())).len() as i32
    };
    let total = TITLE_HEIGHT + panels.iter().map(|p| height(p) + 12).sum::<i32>() + KEY_HEIGHT;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, total as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        let left = Pos::new(HPos::Left, VPos::Center);
        let centre = Pos::new(HPos::Center, VPos::Center);
        root.draw(&Text::new(
            title.to_owned(),
            (0, TITLE_HEIGHT / 2),
            ("sans-serif", TITLE).into_font().color(&BLACK).pos(left),
        ))
        .map_err(e)?;
        // The key first, where the eye starts: a heat map of several panels
        // is taller than a screen.
        key(&root, TITLE_HEIGHT)?;
        let mut top = TITLE_HEIGHT + KEY_HEIGHT;
        for panel in panels {
            let tests = first_seen(panel.cells.iter().map(|c| c.test.as_str()));
            let variants = first_seen(panel.cells.iter().map(|c| c.variant.as_str()));
            let width = (WIDTH as i32 - LABEL_WIDTH) / variants.len().max(1) as i32;
            let label = ("sans-serif", LABEL).into_font();
            root.draw(&Text::new(
                format!("{}: weak outcomes per million instances", panel.placement),
                (0, top + TITLE_HEIGHT / 2),
                label.clone().style(FontStyle::Bold).color(&BLACK).pos(left),
            ))
            .map_err(e)?;
            let grid_top = top + TITLE_HEIGHT + HEADER_HEIGHT;
            for (c, variant) in variants.iter().enumerate() {
                let x = LABEL_WIDTH + width * c as i32 + width / 2;
                let y = top + TITLE_HEIGHT;
                for (k, line) in header_lines(variant).into_iter().enumerate() {
                    let at = (x, y + 10 + 17 * k as i32);
                    root.draw(&Text::new(line.to_owned(), at, label.clone().color(&BLACK).pos(centre))).map_err(e)?;
                }
            }
            for (r, test) in tests.iter().enumerate() {
                let y = grid_top + ROW_HEIGHT * r as i32;
                root.draw(&Text::new(
                    (*test).to_owned(),
                    (4, y + ROW_HEIGHT / 2),
                    label.clone().color(&BLACK).pos(left),
                ))
                .map_err(e)?;
                for (c, variant) in variants.iter().enumerate() {
                    let x = LABEL_WIDTH + width * c as i32;
                    let cell = panel.cells.iter().find(|k| k.test == *test && k.variant == *variant);
                    let corners = [(x + 1, y + 1), (x + width - 1, y + ROW_HEIGHT - 1)];
                    let Some(cell) = cell else {
                        root.draw(&Rectangle::new(corners, RGBColor(250, 250, 250).filled())).map_err(e)?;
                        continue;
                    };
                    let rate = cell.per_million();
                    let (fill, ink) = if cell.weak == 0 {
                        (RGBColor(228, 228, 228), BLACK)
                    } else {
                        let fill = colour(rate);
                        let dark =
                            (f64::from(fill.0) * 0.3 + f64::from(fill.1) * 0.59 + f64::from(fill.2) * 0.11) < 130.0;
                        (fill, if dark { WHITE } else { BLACK })
                    };
                    root.draw(&Rectangle::new(corners, fill.filled())).map_err(e)?;
                    if !cell.allowed {
                        root.draw(&frame(x, y, width, ROW_HEIGHT)).map_err(e)?;
                    }
                    let font = ("sans-serif", TEXT).into_font().color(&ink).pos(centre);
                    let middle = x + width / 2;
                    if cell.weak == 0 {
                        let bound = stats::rule_of_three(cell.instances) * 1e6;
                        root.draw(&Text::new("0".to_owned(), (middle, y + 10), font.clone())).map_err(e)?;
                        root.draw(&Text::new(format!("< {}", short(bound)), (middle, y + 24), font)).map_err(e)?;
                    } else {
                        root.draw(&Text::new(short(rate), (middle, y + ROW_HEIGHT / 2), font)).map_err(e)?;
                    }
                }
            }
            top += height(panel) + 12;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// The heavy frame of a forbidden cell at `(x, y)`, `width` by `height`: a
/// closed path, since plotters' SVG draws a rectangle's outline one pixel
/// wide whatever its style says.
fn frame(x: i32, y: i32, width: i32, height: i32) -> PathElement<(i32, i32)> {
    let (l, t, r, b) = (x + 2, y + 2, x + width - 2, y + height - 2);
    PathElement::new(vec![(l, t), (r, t), (r, b), (l, b), (l, t)], BLACK.stroke_width(3))
}

/// The key above the panels: the colour scale by decade, the grey of a zero
/// and the frame of a forbidden cell.
fn key<DB: DrawingBackend>(root: &DrawingArea<DB, plotters::coord::Shift>, top: i32) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<_>| e.to_string();
    let font = ("sans-serif", TEXT).into_font();
    let left = Pos::new(HPos::Left, VPos::Center);
    let centre = Pos::new(HPos::Center, VPos::Center);
    let (lo, hi) = (SCALE.0.log10() as i32, SCALE.1.log10() as i32);
    let swatch = 52;
    for (k, decade) in (lo..=hi).enumerate() {
        let x = k as i32 * swatch;
        let rate = 10f64.powi(decade);
        root.draw(&Rectangle::new([(x, top + 4), (x + swatch - 2, top + 26)], colour(rate).filled())).map_err(e)?;
        let label = if rate >= 1.0 { format!("{rate:.0}") } else { format!("{rate}") };
        root.draw(&Text::new(label, (x + swatch / 2, top + 38), font.clone().color(&BLACK).pos(centre))).map_err(e)?;
    }
    let x = (hi - lo + 1) * swatch + 16;
    root.draw(&Rectangle::new([(x, top + 4), (x + 40, top + 26)], RGBColor(228, 228, 228).filled())).map_err(e)?;
    root.draw(&Text::new(
        "0 < bound: none seen (rule of three, 95%)".to_owned(),
        (x + 48, top + 15),
        font.clone().color(&BLACK).pos(left),
    ))
    .map_err(e)?;
    root.draw(&frame(x, top + 34, 40, 22)).map_err(e)?;
    root.draw(&Text::new("framed: the model forbids it".to_owned(), (x + 48, top + 45), font.color(&BLACK).pos(left)))
        .map_err(e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(test: &str, variant: &str, weak: u64, allowed: bool) -> Cell {
        Cell { test: test.to_owned(), variant: variant.to_owned(), instances: 1_000_000, weak, allowed }
    }

    #[test]
    fn a_zero_shows_its_bound_and_a_forbidden_cell_its_frame() {
        let panel = Panel {
            placement: "inter-block".to_owned(),
            cells: vec![cell("MP", "relaxed-gpu", 1412, true), cell("MP", "rel-acq-gpu", 0, false)],
        };
        let text = svg("H200", &[panel]).unwrap();
        // 1412 in a million; no weak outcome in a million is below 3 per million.
        assert!(text.contains(">\n1412\n<") && text.contains(">\n&lt; 3.00\n<"), "{text}");
        // No text smaller than 11 pixels as drawn.
        let sizes = text.split("font-size=\"").skip(1).map(|s| s.split('"').next().unwrap().parse::<f64>().unwrap());
        assert!(sizes.into_iter().all(|px| px >= 11.0), "a font under 11 px");
        assert!(text.contains("stroke-width=\"3\""), "the forbidden cell's frame");
        assert_eq!(svg("H200", &[]).unwrap_err(), "nothing to plot");
    }

    #[test]
    fn colours_rise_with_the_rate_and_columns_split_at_the_scope() {
        assert!(colour(1e4).1 < colour(1.0).1 && colour(1.0).1 < colour(1e-3).1);
        assert_eq!(header_lines("fence-acq-rel-cta"), ["fence", "acq-rel", "cta"]);
        assert_eq!(header_lines("fence-sc-gpu"), ["fence-sc", "gpu"]);
        assert_eq!(header_lines("weak"), ["weak"]);
        assert_eq!([short(0.00271), short(14510.2), short(1.5)], ["0.00271", "14510", "1.50"]);
    }
}
