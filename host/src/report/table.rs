//! The human-readable tables, drawn with `tabled` in the page's layout. Each
//! command draws its own in its folder's `report.rs`; here is what they
//! share (the device header, the drawing, the timing cells and the sentence
//! on a check).

use tabled::builder::Builder;
use tabled::settings::object::{Columns, Rows};
use tabled::settings::{Alignment, Style};

use super::{Document, INPUT_BYTES_PER_ELEMENT};
use crate::device::DeviceInfo;
use crate::launch::Block;
use crate::stats;

/// How a table is drawn: plain text for a terminal, or Markdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// `psql`-style text, numbers right-aligned.
    Plain,
    /// A GitHub-flavoured Markdown table.
    Markdown,
}

/// The whole document as text: the device header, then the command's
/// tables, then, for an interrupted run, a line saying it is partial.
pub fn document(document: &impl Document, look: Look) -> String {
    let mut text = document.report().tables(document.device(), look);
    if document.partial() {
        text += "\nPartial: the run was interrupted (Ctrl-C), and the tables hold only the rows measured before it.\n";
    }
    text
}

/// The device header printed above every table.
pub fn device_header(info: &DeviceInfo, block: Option<Block>) -> String {
    let (major, minor) = info.compute_capability;
    let (cuda_major, cuda_minor) = info.driver_cuda_version;
    let block = block.map_or(String::new(), |b| format!(", threads per block: {b}"));
    format!(
        "GPU: {} (compute capability {major}.{minor}), driver supports CUDA {cuda_major}.{cuda_minor}\n\
         SMs: {}{block}\n",
        info.name, info.sm_count
    )
}

/// Renders with every column right-aligned.
pub(crate) fn render(builder: Builder, look: Look) -> String {
    let columns = builder.count_columns();
    render_some(builder, look, 0..columns)
}

/// Renders with only the columns in `numbers` right-aligned.
pub(crate) fn render_some(builder: Builder, look: Look, numbers: std::ops::Range<usize>) -> String {
    let mut table = builder.build();
    match look {
        Look::Plain => {
            table
                .with(Style::psql())
                .modify(Columns::new(numbers), Alignment::right())
                .modify(Rows::first(), Alignment::center());
            table.to_string()
        }
        // Markdown needs a blank line between a table and the text around
        // it, or the next line is read as another row.
        Look::Markdown => format!("\n{}\n", table.with(Style::markdown())),
    }
}

/// The cells every timing table shares, for one row of `n` elements and the
/// kernels' `(name, times)`: each median in ms, each input GB/s, and the name
/// of the fastest.
pub(crate) fn timing_cells<'a>(n: usize, kernels: impl Iterator<Item = (&'a str, &'a [f32])>) -> Vec<String> {
    let medians: Vec<(&str, f32)> =
        kernels.map(|(name, times)| (name, stats::median(times).unwrap_or(f32::NAN))).collect();
    let bytes = n as u64 * INPUT_BYTES_PER_ELEMENT;
    let fastest = medians.iter().min_by(|a, b| a.1.total_cmp(&b.1)).map_or("-", |(name, _)| name);
    let mut cells: Vec<String> = medians.iter().map(|(_, ms)| format!("{ms:.4}")).collect();
    cells.extend(medians.iter().map(|&(_, ms)| format!("{:.1}", stats::gb_per_s(bytes, ms))));
    cells.push(fastest.to_owned());
    cells
}

/// Three significant digits, plain notation for the usual range.
pub(crate) fn significant(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    if !(1e-3..1e6).contains(&x.abs()) {
        return format!("{x:.2e}");
    }
    let decimals = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// A count of events in `n` trials as a rate per million: the rate with its
/// 95% Wilson interval, or with none seen, the rule of three's bound.
pub(crate) fn rate_per_million(events: u64, n: u64) -> String {
    if events == 0 {
        format!("0 (< {} /M)", significant(stats::rule_of_three(n) * 1e6))
    } else {
        let (lo, hi) = stats::wilson_interval_95(events, n);
        format!(
            "{} [{}, {}]",
            significant(events as f64 / n as f64 * 1e6),
            significant(lo * 1e6),
            significant(hi * 1e6)
        )
    }
}

/// What a check compared, for [`check_sentence`].
pub(crate) struct Check<'a> {
    /// How many results were compared.
    pub(crate) checked: usize,
    /// How many differed.
    pub(crate) wrong: usize,
    /// What they are: "sums (every launch, warm-ups included)".
    pub(crate) things: &'a str,
    /// What they were compared with: "the Kahan double reference".
    pub(crate) reference: &'a str,
    /// How: "bit for bit, compared with == and not a tolerance".
    pub(crate) how: &'a str,
}

/// The one sentence under every checked table: all equal, or how many did
/// not (those are listed on stderr by the generic runner, `app::execute`).
pub(crate) fn check_sentence(c: &Check<'_>) -> String {
    if c.wrong == 0 {
        format!("All {} {} equal {}\n{}.\n", c.checked, c.things, c.reference, c.how)
    } else {
        format!("{} of {} {} differ from {}; they are listed on stderr.\n", c.wrong, c.checked, c.things, c.reference)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_significant_digits() {
        assert_eq!(significant(12.345), "12.3");
        assert_eq!(significant(0.012345), "0.0123");
        assert_eq!(significant(123.45), "123");
        assert_eq!(significant(0.0), "0");
        assert_eq!(significant(3e-5), "3.00e-5");
    }

    #[test]
    fn rates_give_an_interval_or_a_bound() {
        assert_eq!(rate_per_million(0, 3_000_000), "0 (< 1.00 /M)");
        assert!(rate_per_million(10, 1_000_000).starts_with("10.0 ["));
    }

    #[test]
    fn header_names_the_device_and_block() {
        let info = DeviceInfo {
            name: "NVIDIA H200".to_owned(),
            compute_capability: (9, 0),
            sm_count: 132,
            driver_cuda_version: (13, 0),
            l2_bytes: 60 << 20,
            memory_clock_khz: Some(3_201_000),
            memory_bus_bits: Some(6144),
        };
        assert_eq!(
            device_header(&info, Some(Block::new(64).unwrap())),
            "GPU: NVIDIA H200 (compute capability 9.0), driver supports CUDA 13.0\nSMs: 132, threads per block: 64\n"
        );
    }

    #[test]
    fn a_check_says_all_or_how_many() {
        let mut c = Check { checked: 12, wrong: 0, things: "sums", reference: "the reference", how: "bit for bit" };
        assert_eq!(check_sentence(&c), "All 12 sums equal the reference\nbit for bit.\n");
        c.wrong = 4;
        assert_eq!(check_sentence(&c), "4 of 12 sums differ from the reference; they are listed on stderr.\n");
    }
}
