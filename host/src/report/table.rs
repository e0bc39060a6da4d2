//! The human-readable tables, drawn with `tabled` in the page's layout.

use tabled::builder::Builder;
use tabled::settings::object::{Columns, Rows};
use tabled::settings::{Alignment, Style};

use crate::bench::BenchReport;
use crate::determinism::DeterminismReport;
use crate::exercise::ExerciseReport;
use crate::gpu::DeviceInfo;
use crate::gpu::launch::Block;
use crate::gpu::sum::SumKernel;
use crate::histogram::{HistogramMismatch, HistogramReport};
use crate::publish::{PublishRow, Verdict};
use crate::record::{Record, Results};
use crate::stats;
use crate::sweep::{Mismatch, SweepReport};

/// Bytes each kernel reads per element. The GB/s columns count the input
/// stream only: the atomic traffic is what the kernels differ in, so putting
/// it in the denominator would hide the comparison (the page's note).
pub const INPUT_BYTES_PER_ELEMENT: u64 = 4;

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

/// How a table is drawn: plain text for a terminal, or Markdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// `psql`-style text, numbers right-aligned.
    Plain,
    /// A GitHub-flavoured Markdown table.
    Markdown,
}

/// Renders with every column right-aligned.
fn render(builder: Builder, look: Look) -> String {
    let columns = builder.count_columns();
    render_some(builder, look, 0..columns)
}

/// Renders with only the columns in `numbers` right-aligned.
fn render_some(builder: Builder, look: Look, numbers: std::ops::Range<usize>) -> String {
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

/// The whole record as text: the device header, then each table.
pub fn record(record: &Record, look: Look) -> String {
    let mut out = String::new();
    match &record.results {
        Results::Sweep { sweep: report, determinism: det } => {
            out += &device_header(&record.device, Some(report.options.block));
            out += "\n";
            out += &sweep(report, look);
            if let Some(det) = det {
                out += "\n";
                out += &determinism(det, look);
            }
        }
        Results::Exercise(report) => {
            out += &device_header(&record.device, None);
            out += &exercise(report, look);
        }
        Results::Bench(report) => {
            out += &device_header(&record.device, Some(report.options.block));
            out += "\n";
            out += &bench(report, look);
        }
        Results::Histogram(report) => {
            out += &device_header(&record.device, Some(report.options.block));
            out += "\n";
            out += &histogram(report, look);
        }
        Results::Publish { rows, .. } => {
            out += &device_header(&record.device, None);
            out += "\n";
            out += &publish(rows, look);
        }
    }
    out
}

/// The exercise: each run's sweep, then the nine ratios with the counting
/// argument beside them, then each run's fastest column. No verdict.
pub fn exercise(report: &ExerciseReport, look: Look) -> String {
    let mut out = String::new();
    for run in &report.runs {
        out += &format!("\nBlock {}:\n", run.options.block);
        out += &sweep(run, look);
    }
    let n = report.runs.first().and_then(|r| r.rows.last()).map_or(0, |row| row.n);
    let mut builder = Builder::default();
    builder.push_record(["kernel", "block", "time / time at 256", "global atomics per launch", "barriers per block"]);
    for r in report.ratios() {
        builder.push_record([
            r.kernel.label().to_owned(),
            r.block.to_string(),
            format!("{:.2}", r.ratio),
            r.global_atomics.to_string(),
            r.barriers.to_string(),
        ]);
    }
    out += &format!(
        "\nThe nine ratios at n = {n}: each column's median time over the same column in the block-256 run.\n\
         The counts beside them are the page's counting argument: n for the naive kernel, one per block\n\
         for the other two. Which column barely moves, and why, is the exercise's question.\n{}\n",
        render(builder, look)
    );
    out += "\nThe fastest column of each run, smallest size first:\n";
    for (block, column) in report.fastest() {
        let names: Vec<&str> = column.iter().map(|k| k.short()).collect();
        out += &format!("  block {block}: {}\n", names.join(", "));
    }
    let wrong: usize = report.runs.iter().map(|r| r.mismatches().len()).sum();
    let checked: usize =
        report.runs.iter().flat_map(|r| &r.rows).flat_map(|r| &r.measurements).map(|m| m.sums.len()).sum();
    out += &if wrong == 0 {
        format!("\nCheck: all {checked} sums at every size and block size are bit-exact.\n")
    } else {
        format!("\nCheck: {wrong} of {checked} sums are not bit-exact; they are listed on stderr.\n")
    };
    out
}

/// The cells every timing table shares, for one row of `n` elements and the
/// kernels' `(name, times)`: each median in ms, each input GB/s, and the name
/// of the fastest.
fn timing_cells<'a>(n: usize, kernels: impl Iterator<Item = (&'a str, &'a [f32])>) -> Vec<String> {
    let medians: Vec<(&str, f32)> =
        kernels.map(|(name, times)| (name, stats::median(times).unwrap_or(f32::NAN))).collect();
    let bytes = n as u64 * INPUT_BYTES_PER_ELEMENT;
    let fastest = medians.iter().min_by(|a, b| a.1.total_cmp(&b.1)).map_or("-", |(name, _)| name);
    let mut cells: Vec<String> = medians.iter().map(|(_, ms)| format!("{ms:.4}")).collect();
    cells.extend(medians.iter().map(|&(_, ms)| format!("{:.1}", stats::gb_per_s(bytes, ms))));
    cells.push(fastest.to_owned());
    cells
}

/// The sweep table: median milliseconds and input GB/s per kernel and size,
/// and the fastest kernel of each row; then one line on the exactness check.
pub fn sweep(report: &SweepReport, look: Look) -> String {
    let o = &report.options;
    let mut builder = Builder::default();
    let mut header = vec!["n".to_owned()];
    header.extend(SumKernel::PAGE.iter().map(|k| format!("{} ms", k.short())));
    header.extend(SumKernel::PAGE.iter().map(|k| format!("{} GB/s", &k.short()[..2])));
    header.push("fastest".to_owned());
    builder.push_record(header);

    for row in &report.rows {
        let mut record = vec![row.n.to_string()];
        record.extend(timing_cells(row.n, row.measurements.iter().map(|m| (m.kernel.short(), m.times_ms.as_slice()))));
        builder.push_record(record);
    }

    let checked: usize = report.rows.iter().flat_map(|r| &r.measurements).map(|m| m.sums.len()).sum();
    let wrong = report.mismatches().len();
    let verdict = if wrong == 0 {
        format!(
            "All {checked} sums (every launch, warm-ups included) equal the Kahan double reference\n\
             bit for bit, compared with == and not a tolerance."
        )
    } else {
        format!("{wrong} of {checked} sums differ from the Kahan double reference; they are listed below.")
    };
    format!(
        "Sweep: one sum three ways, {} timed runs after {} warm-ups, median of the runs\n{}\n{verdict}\n",
        o.runs,
        o.warmup,
        render(builder, look)
    )
}

/// The bench table: per size, the copy and the empty launch, then every
/// kernel with its median, spread, input bandwidth, share of the copy's
/// bandwidth and multiple of an empty launch.
pub fn bench(report: &BenchReport, look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record(["n", "kernel", "median ms", "min ms", "max ms", "GB/s", "% of copy", "x empty", "sums"]);
    let ms = |t: &[f32]| stats::median(t).unwrap_or(f32::NAN);
    let spread = |t: &[f32]| stats::min_max(t).unwrap_or((f32::NAN, f32::NAN));
    for row in &report.rows {
        let n = row.sums.n;
        let copy = ms(&row.copy_ms);
        let copy_gbs = stats::gb_per_s(2 * n as u64 * INPUT_BYTES_PER_ELEMENT, copy);
        let empty = ms(&row.empty_ms);
        let (lo, hi) = spread(&row.copy_ms);
        builder.push_record([
            n.to_string(),
            "copy (read+write)".to_owned(),
            format!("{copy:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            format!("{copy_gbs:.1}"),
            "100.0".to_owned(),
            format!("{:.2}", copy / empty),
            "-".to_owned(),
        ]);
        let (lo, hi) = spread(&row.empty_ms);
        builder.push_record([
            n.to_string(),
            "empty launch".to_owned(),
            format!("{empty:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            "-".to_owned(),
            "-".to_owned(),
            "1.00".to_owned(),
            "-".to_owned(),
        ]);
        for m in &row.sums.measurements {
            let t = ms(&m.times_ms);
            let (lo, hi) = spread(&m.times_ms);
            let gbs = stats::gb_per_s(n as u64 * INPUT_BYTES_PER_ELEMENT, t);
            let wrong = m.sums.iter().filter(|&&s| !crate::reference::bit_exact(s, row.sums.reference)).count();
            builder.push_record([
                n.to_string(),
                m.kernel.label().to_owned(),
                format!("{t:.4}"),
                format!("{lo:.4}"),
                format!("{hi:.4}"),
                format!("{gbs:.1}"),
                format!("{:.1}", 100.0 * gbs / copy_gbs),
                format!("{:.2}", t / empty),
                if wrong == 0 { "exact".to_owned() } else { format!("{wrong} wrong") },
            ]);
        }
    }
    let o = &report.options;
    let cache = if o.plan.cold {
        "cold: L2 flushed before every timed launch (and copy)"
    } else {
        "warm: inputs that fit in L2 may be read from cache; use --cold to flush it"
    };
    let table = render_some(builder, look, 2..8);
    format!(
        "Bench: block {}, {} timed runs after {} warm-ups; L2 {cache}.\n\
         Input: every 64th element is 0, 1, 2, 3 in turn, the rest 0, so every partial sum is an integer\n\
         below 2^24 and every sum is compared with == to the Kahan reference. GB/s counts input bytes;\n\
         the copy counts bytes read plus written. The page's global-atomic kernel is left out above 2^24.\n{table}\n",
        o.block, o.plan.runs, o.plan.warmup
    )
}

/// One line per mismatching sum: kernel, n, block, expected and found.
pub fn mismatches(list: &[Mismatch]) -> String {
    list.iter()
        .map(|m| {
            format!(
                "mismatch: {} at n = {}, block {}, launch {}: expected {} (f32 bits {:#010x}), found {} (bits {:#010x})\n",
                m.kernel.label(),
                m.n,
                m.block,
                m.launch,
                m.expected,
                (m.expected as f32).to_bits(),
                m.found,
                m.found.to_bits()
            )
        })
        .collect()
}

/// The determinism table: distinct results and their range per kernel.
pub fn determinism(report: &DeterminismReport, look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record(["kernel", "distinct", "min", "max", "max - min"]);
    for (kernel, sums) in &report.sums {
        let (min, max) = stats::min_max(sums).unwrap_or((f32::NAN, f32::NAN));
        builder.push_record([
            kernel.label().to_owned(),
            stats::distinct_bits(sums).to_string(),
            min.to_string(),
            max.to_string(),
            (f64::from(max) - f64::from(min)).to_string(),
        ]);
    }
    let runs = report.sums.first().map_or(0, |(_, s)| s.len());
    format!(
        "Determinism at n = {}, block {}, {runs} runs each, input that is not exactly representable.\n\
         Kahan double reference: {:.2}\n{}\n",
        report.n,
        report.block,
        report.reference,
        render(builder, look)
    )
}

/// The publication table: one row per variant, with the verdict in the
/// page's words.
pub fn publish(rows: &[PublishRow], look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record([
        "variant",
        "participants",
        "scope",
        "ordering",
        "pairs observed",
        "stale",
        "timeouts",
        "last record",
        "verdict",
    ]);
    for row in rows {
        let c = &row.counts;
        builder.push_record([
            row.variant.symbol().trim_start_matches("publish_").to_owned(),
            row.variant.participants().to_owned(),
            row.variant.scope().to_owned(),
            row.variant.ordering().to_owned(),
            c.pairs.to_string(),
            c.stale.to_string(),
            c.timeouts.to_string(),
            format!("{{{}, {}}}", c.observed.0, c.observed.1),
            Verdict::of(row).text().to_owned(),
        ]);
    }
    let launches = rows.first().map_or(0, |r| r.counts.launches);
    let table = render_some(builder, look, 4..7);
    format!(
        "Publication: producer writes {{42, 3.5}} then sets a flag; consumer waits for the flag, reads the record.\n\
         {launches} launches per variant; a stale record is one read as {{0, 0}} after the flag was seen.\n{table}\n"
    )
}

/// The histogram table: median milliseconds and input GB/s per kernel, and a
/// line on the exact check.
pub fn histogram(report: &HistogramReport, look: Look) -> String {
    let o = &report.options;
    let mut builder = Builder::default();
    builder.push_record(["n", "distribution", "global ms", "privatized ms", "gl GB/s", "pr GB/s", "fastest"]);
    for row in &report.rows {
        let mut record = vec![row.n.to_string(), row.distribution.name().to_owned()];
        record.extend(timing_cells(row.n, row.measurements.iter().map(|m| (m.kernel.short(), m.times_ms.as_slice()))));
        builder.push_record(record);
    }
    let checked: usize = report.rows.iter().flat_map(|r| &r.measurements).map(|m| m.counts.len()).sum();
    let wrong = report.mismatches().len();
    let verdict = if wrong == 0 {
        format!("All {checked} histograms (every launch) equal the CPU counts exactly, bin for bin.")
    } else {
        format!("{wrong} of {checked} histograms differ from the CPU counts; they are listed below.")
    };
    format!(
        "Histogram: {} bins, block {}, {} timed runs after {} warm-ups, median of the runs\n{}\n{verdict}\n",
        o.bins,
        o.block,
        o.runs,
        o.warmup,
        render(builder, look)
    )
}

/// One line per histogram launch that differs from the CPU counts.
pub fn histogram_mismatches(list: &[HistogramMismatch]) -> String {
    list.iter()
        .map(|m| {
            format!(
                "mismatch: histogram {} at n = {}, {}, launch {}: bin {} expected {}, found {}\n",
                m.kernel.short(),
                m.n,
                m.distribution.name(),
                m.launch,
                m.bin,
                m.expected,
                m.found
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::sum::SumMeasurement;
    use crate::sweep::{SweepOptions, SweepRow};

    fn block(threads: u32) -> Block {
        Block::new(threads).unwrap()
    }

    fn measurement(kernel: SumKernel, ms: f32, sum: f32) -> SumMeasurement {
        SumMeasurement { kernel, times_ms: vec![ms, ms * 2.0, ms / 2.0], sums: vec![sum; 4] }
    }

    fn report(tree_sum: f32) -> SweepReport {
        SweepReport {
            options: SweepOptions { block: block(256), runs: 3, warmup: 1, sizes: vec![4096] },
            rows: vec![SweepRow {
                n: 4096,
                reference: 6144.0,
                measurements: vec![
                    measurement(SumKernel::GlobalAtomic, 0.0175, 6144.0),
                    measurement(SumKernel::SharedAtomic, 0.03, 6144.0),
                    measurement(SumKernel::TreeAtomic, 0.004, tree_sum),
                ],
            }],
        }
    }

    #[test]
    fn sweep_table_has_the_page_columns_and_values() {
        let text = sweep(&report(6144.0), Look::Plain);
        let expected = "\
Sweep: one sum three ways, 3 timed runs after 1 warm-ups, median of the runs
  n   | global ms | shared ms | tree ms | gl GB/s | sh GB/s | tr GB/s | fastest 
------+-----------+-----------+---------+---------+---------+---------+---------
 4096 |    0.0175 |    0.0300 |  0.0040 |     0.9 |     0.5 |     4.1 |    tree 
All 12 sums (every launch, warm-ups included) equal the Kahan double reference
bit for bit, compared with == and not a tolerance.
";
        assert_eq!(text, expected);
    }

    #[test]
    fn a_wrong_sum_is_counted_and_listed_with_kernel_size_and_values() {
        let r = report(6143.0);
        let text = sweep(&r, Look::Plain);
        assert!(text.contains("4 of 12 sums differ"), "{text}");
        let lines = mismatches(&r.mismatches());
        assert_eq!(lines.lines().count(), 4);
        assert!(lines.starts_with(
            "mismatch: tree + atomic at n = 4096, block 256, launch 0: expected 6144 (f32 bits 0x45c00000), found 6143 (bits 0x45bff800)"
        ));
    }

    #[test]
    fn determinism_table_counts_distinct_sums() {
        let r = DeterminismReport {
            n: 8,
            block: block(32),
            reference: 10.25,
            sums: vec![(SumKernel::GlobalAtomic, vec![10.0, 10.5, 10.0]), (SumKernel::TreeAtomic, vec![10.25; 3])],
        };
        let text = determinism(&r, Look::Plain);
        assert!(text.contains("Kahan double reference: 10.25"));
        let global = text.lines().find(|l| l.contains("global atomic")).unwrap();
        let cells: Vec<&str> = global.split('|').map(str::trim).collect();
        assert_eq!(cells, ["global atomic", "2", "10", "10.5", "0.5"]);
        let tree = text.lines().find(|l| l.contains("tree + atomic")).unwrap();
        assert!(tree.split('|').map(str::trim).eq(["tree + atomic", "1", "10.25", "10.25", "0"]));
    }

    #[test]
    fn header_names_the_device_and_block() {
        let info = DeviceInfo {
            name: "NVIDIA H200".to_owned(),
            compute_capability: (9, 0),
            sm_count: 132,
            driver_cuda_version: (13, 0),
            l2_bytes: 60 << 20,
        };
        assert_eq!(
            device_header(&info, Some(block(64))),
            "GPU: NVIDIA H200 (compute capability 9.0), driver supports CUDA 13.0\nSMs: 132, threads per block: 64\n"
        );
    }
}
