//! `bench`'s report: every sum kernel beside the device's copy and an empty
//! launch; every launch in CSV; GB/s against n in the plot, with the limit
//! and the copy; a line per wrong sum.

use tabled::builder::Builder;

use super::BenchReport;
use crate::device::DeviceInfo;
use crate::gpu::sum::SumKernel;
use crate::report::INPUT_BYTES_PER_ELEMENT;
use crate::report::csv::{HEADER, Row};
use crate::report::plot::{Lines, Series, input_gb_per_s};
use crate::report::table::{Check, Look, check_sentence, device_header, render_some};
use crate::report::{Checks, Csv, Plot, Report};
use crate::sums::PER_ELEMENT_ATOMICS_MAX_N;
use crate::sums::tables::launches;
use crate::sums::tables::mismatches;
use crate::{reference, stats};

impl Report for BenchReport {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        let peak = device.peak_dram_gb_per_s();
        device_header(device, Some(self.options.block)) + "\n" + &bench(self, peak, look)
    }

    fn csv(&self) -> Csv {
        let block = self.options.block.threads();
        let mut rows = Vec::new();
        for row in &self.rows {
            let n = row.sums.n;
            for (kernel, times) in [("copy (read+write)", &row.copy_ms), ("empty launch", &row.empty_ms)] {
                for (k, &t) in times.iter().enumerate() {
                    let (value, expected, exact) = (String::new(), String::new(), String::new());
                    let launch = (k, Some(t));
                    rows.push(
                        Row { command: "bench", block, n, case: "baseline", kernel, launch, value, expected, exact }
                            .cells(),
                    );
                }
            }
            for m in &row.sums.measurements {
                // The block each launch had: the small route's where it took it.
                let block = small_route_at(self, m.kernel, n).unwrap_or(block);
                rows.extend(launches("bench", block, n, "sparse exact input", m, Some(row.sums.reference)));
            }
        }
        Csv { header: &HEADER, rows }
    }

    fn plot(&self, device: &DeviceInfo) -> Option<Plot> {
        let mut lines = Lines::default();
        for row in &self.rows {
            for m in &row.sums.measurements {
                lines.add_timed(m.kernel.label, row.sums.n, &m.times_ms);
            }
        }
        let mut lines = lines.0;
        // The limit as a line of its own: what a sum would reach if it cost
        // one empty launch plus its bytes at the DRAM's peak.
        if let Some(peak) = device.peak_dram_gb_per_s() {
            let points = self.rows.iter().map(|row| {
                let n = row.sums.n;
                let empty_ms = f64::from(stats::median(&row.empty_ms).unwrap_or(f32::NAN));
                let bytes = (INPUT_BYTES_PER_ELEMENT * n as u64) as f64;
                (n as f64, bytes / (empty_ms * 1e-3 + bytes / (peak * 1e9)) / 1e9)
            });
            lines.push(Series {
                label: format!("limit: empty launch + bytes at {peak:.0} GB/s"),
                points: points.collect(),
            });
        }
        let copy = self.rows.last().map(|row| 2.0 * input_gb_per_s(row.sums.n, &row.copy_ms));
        Some(Plot::Bandwidth { lines, copy })
    }

    fn checks(&self) -> Checks {
        Checks::from_lines(mismatches(&self.mismatches()))
    }
}

/// The bench table: per size, the copy and the empty launch, then every
/// kernel with its median, spread, input bandwidth, share of the copy's
/// bandwidth, multiple of an empty launch and, where the driver reports the
/// memory's clock and width, share of the limit: the empty launch of the same
/// run plus the bytes at the DRAM's peak bandwidth (`peak_gb_per_s`).
pub fn bench(report: &BenchReport, peak_gb_per_s: Option<f64>, look: Look) -> String {
    let mut builder = Builder::default();
    let mut header = vec!["n", "kernel", "median ms", "min ms", "max ms", "GB/s", "% of copy", "x empty"];
    if peak_gb_per_s.is_some() {
        header.extend(["limit ms", "% of limit"]);
    }
    header.push("sums");
    builder.push_record(header);
    let ms = |t: &[f32]| stats::median(t).unwrap_or(f32::NAN);
    for row in &report.rows {
        let n = row.sums.n;
        let copy = ms(&row.copy_ms);
        let copy_gbs = stats::gb_per_s(2 * n as u64 * INPUT_BYTES_PER_ELEMENT, copy);
        let empty = ms(&row.empty_ms);
        // One table row: the timings' cells, then the given bandwidth, share
        // of the copy, multiple of the empty launch, limit for `bytes`, and
        // the check.
        let mut push = |name: &str, times: &[f32], gbs: String, of_copy: String, bytes: Option<u64>, sums: String| {
            let t = ms(times);
            let (lo, hi) = stats::min_max(times).unwrap_or((f32::NAN, f32::NAN));
            let mut cells = vec![
                n.to_string(),
                name.to_owned(),
                format!("{t:.4}"),
                format!("{lo:.4}"),
                format!("{hi:.4}"),
                gbs,
                of_copy,
                format!("{:.2}", t / empty),
            ];
            if let Some(peak) = peak_gb_per_s {
                match bytes {
                    Some(bytes) => {
                        let limit = f64::from(empty) + bytes as f64 / (peak * 1e9) * 1e3;
                        cells.push(format!("{limit:.4}"));
                        cells.push(format!("{:.1}", 100.0 * limit / f64::from(t)));
                    }
                    None => cells.extend(["-".to_owned(), "-".to_owned()]),
                }
            }
            cells.push(sums);
            builder.push_record(cells);
        };
        let input_bytes = n as u64 * INPUT_BYTES_PER_ELEMENT;
        push(
            "copy (read+write)",
            &row.copy_ms,
            format!("{copy_gbs:.1}"),
            "100.0".into(),
            Some(2 * input_bytes),
            "-".into(),
        );
        push("empty launch", &row.empty_ms, "-".into(), "-".into(), None, "-".into());
        for m in &row.sums.measurements {
            let gbs = stats::gb_per_s(input_bytes, ms(&m.times_ms));
            let wrong = m.sums.iter().filter(|&&s| !reference::bit_exact(s, row.sums.reference)).count();
            let sums = if wrong == 0 { "exact".to_owned() } else { format!("{wrong} wrong") };
            // A mark, not the block or the entry: a longer label would widen
            // the kernel column past what the book keeps beside `n` when it
            // splits the table; the lines above the table say both.
            let label = if small_route_at(report, m.kernel, n).is_some() || m.entry.is_some() {
                format!("{}{SMALL_ROUTE_MARK}", m.kernel.label)
            } else {
                m.kernel.label.to_owned()
            };
            push(
                &label,
                &m.times_ms,
                format!("{gbs:.1}"),
                format!("{:.1}", 100.0 * gbs / copy_gbs),
                Some(input_bytes),
                sums,
            );
        }
    }
    let o = &report.options;
    let cache = if o.plan.cold {
        "cold: L2 flushed before every timed launch (and copy) by a read of twice its size"
    } else {
        "warm: inputs that fit in L2 may be read from cache; use --cold to flush it"
    };
    let numbers = if peak_gb_per_s.is_some() { 2..10 } else { 2..8 };
    let table = render_some(builder, look, numbers);
    let check = Check {
        checked: report.rows.iter().flat_map(|r| &r.sums.measurements).map(|m| m.sums.len()).sum(),
        wrong: report.mismatches().len(),
        things: "sums (every launch, warm-ups included)",
        reference: "the Kahan double reference",
        how: "bit for bit, compared with == and not a tolerance",
    };
    format!(
        "Bench: block {}, {} timed runs after {} warm-ups; L2 {cache}.\n\
         Each timed launch waits on the GPU behind a {} us hold, so the host's time to queue it is not timed.\n\
         Input: every 64th element is 0, 1, 2, 3 in turn (every 256th at 2^30, 512th at 2^31), the rest 0,\n\
         so every partial sum is an integer below 2^24 and every sum is compared with == to the Kahan\n\
         reference. GB/s counts input bytes; the copy counts bytes read plus written. Kernels with one\n\
         global atomic per element (the page's naive kernel) are left out above 2^{}.\n{}{}{table}\n{}",
        o.block,
        o.plan.runs,
        o.plan.warmup,
        layout::baseline::HOLD_NS / 1000,
        PER_ELEMENT_ATOMICS_MAX_N.trailing_zeros(),
        limit_line(peak_gb_per_s),
        small_route_line(report) + &small_entry_line(report),
        check_sentence(&check)
    )
}

/// The threads of the one block `kernel` launched at `n` in `report`, if it
/// took its small route there: `n` within the route's reach where the asked
/// block would have needed more than one block, and no cluster route took
/// `n` instead.
fn small_route_at(report: &BenchReport, kernel: SumKernel, n: usize) -> Option<u32> {
    let route = report.small_routes.as_ref()?.iter().find(|r| r.kernel == kernel)?;
    if took_cluster_route(report, kernel, n) {
        return None;
    }
    let threads = report.options.block.threads();
    // `u32::MAX` resident blocks: only whether the asked grid is one block
    // matters here, and a cap at the resident blocks never makes it one.
    let (blocks, small) = kernel.grid.shape(n, threads, u32::MAX, Some(route.threads));
    (blocks == 1 && kernel.grid.blocks(n, threads, u32::MAX) > 1).then_some(small)
}

/// Whether `kernel`'s measurement at `n` in `report` launched its cluster
/// route, which takes some `n` the one-block route reaches too.
fn took_cluster_route(report: &BenchReport, kernel: SumKernel, n: usize) -> bool {
    let Some(route) = kernel.cluster_route else { return false };
    let row = report.rows.iter().find(|row| row.sums.n == n);
    row.into_iter()
        .flat_map(|row| &row.sums.measurements)
        .any(|m| m.kernel == kernel && m.entry.as_deref() == Some(route.entry.symbol))
}

/// The mark after a kernel's name in a row that took its small route.
const SMALL_ROUTE_MARK: &str = "*";

/// The sentence that says which sizes took the small route and on what
/// block, or that it was off; nothing for a record from before the route.
fn small_route_line(report: &BenchReport) -> String {
    let env = crate::gpu::sum::SMALL_ROUTE_ENV;
    match report.small_routes.as_deref() {
        None => String::new(),
        Some([]) => format!("Small route off ({env}=off, or no function launches a block of its size here).\n"),
        Some(routes) => {
            let each: Vec<String> = routes
                .iter()
                .map(|r| {
                    let taken: Vec<String> = report
                        .rows
                        .iter()
                        .filter_map(|row| {
                            let n = row.sums.n;
                            small_route_at(report, r.kernel, n).map(|threads| format!("n = {n} on {threads}"))
                        })
                        .collect();
                    let here = if taken.is_empty() { "no size here".to_owned() } else { taken.join(", ") };
                    format!(
                        "{} up to n = {} on at most {} threads, {} floats a thread ({here})",
                        r.kernel.label, r.max_n, r.threads, r.kernel.grid.small_per_thread
                    )
                })
                .collect();
            format!(
                "Small route (rows marked {SMALL_ROUTE_MARK}): where the asked block would need more than one, one block:\n\
                 {}.\n\
                 The block is the fewest {}-thread granules that give each thread at most that many floats, up to\n\
                 {} threads or the most the driver's build of the kernel launches with; {env}=off gives\n\
                 the grids before it.\n",
                each.join("; "),
                layout::Grid::SMALL_GRANULE,
                layout::Grid::SMALL_THREADS
            )
        }
    }
}

/// The sentence that says which sizes launched another entry of a kernel
/// (its small entry or its cluster route), for each entry that some size
/// launched; nothing where none did.
fn small_entry_line(report: &BenchReport) -> String {
    let mut each: Vec<(SumKernel, &str, Vec<String>)> = Vec::new();
    for row in &report.rows {
        for m in &row.sums.measurements {
            let Some(symbol) = &m.entry else { continue };
            match each.iter_mut().find(|(kernel, s, _)| *kernel == m.kernel && s == symbol) {
                Some((_, _, sizes)) => sizes.push(row.sums.n.to_string()),
                None => each.push((m.kernel, symbol, vec![row.sums.n.to_string()])),
            }
        }
    }
    if each.is_empty() {
        return String::new();
    }
    let each: Vec<String> = each
        .iter()
        .map(|(kernel, symbol, sizes)| {
            // A cluster route says its shape: its blocks are not the asked
            // block's.
            let shape = match kernel.cluster_route.filter(|r| r.entry.symbol == *symbol) {
                Some(route) => format!(
                    " (one cluster of {} blocks of at most {} threads, {} floats a thread)",
                    route.blocks,
                    route.max_threads(),
                    route.per_thread
                ),
                None => String::new(),
            };
            format!("{} as {symbol}{shape} at n = {}", kernel.label, sizes.join(", "))
        })
        .collect();
    format!(
        "Small entries (rows marked {SMALL_ROUTE_MARK}): another entry of the kernel, a straight path for those\n\
         launches with the same result:\n{}.\n",
        each.join(";\n")
    )
}

/// The sentence that says where the limit column comes from, if it is there.
fn limit_line(peak_gb_per_s: Option<f64>) -> String {
    match peak_gb_per_s {
        Some(peak) => format!(
            "Limit: the same run's empty launch plus the bytes at {peak:.0} GB/s, the DRAM peak from the driver's\n\
             memory clock and bus width (two transfers a clock); % of limit is limit / median.\n"
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::bench::{BenchOptions, BenchRow};
    use crate::gpu::sum::{SmallRoute, SumMeasurement};
    use crate::gpu::timing::Plan;
    use crate::launch::Block;
    use crate::sums::SweepRow;

    /// A bench at block 256 of the correctly rounded sum at 8,192 (four
    /// blocks of 256 on its grid) and 65,536 (past any small route), with
    /// `routes`.
    fn report(routes: Option<Vec<SmallRoute>>) -> BenchReport {
        let kernel = SumKernel::of(&layout::sum::CORRECTLY_ROUNDED);
        let row = |n: usize| BenchRow {
            sums: SweepRow {
                n,
                reference: 0.0,
                measurements: vec![SumMeasurement { kernel, times_ms: vec![0.01], sums: vec![0.0], entry: None }],
            },
            copy_ms: vec![0.01],
            empty_ms: vec![0.005],
        };
        BenchReport {
            options: BenchOptions {
                sizes: vec![8_192, 65_536],
                block: Block::new(256).unwrap(),
                plan: Plan { warmup: 0, runs: 1, cold: false },
                small_route: routes.as_ref().is_some_and(|r| !r.is_empty()),
            },
            rows: vec![row(8_192), row(65_536)],
            small_routes: routes,
        }
    }

    /// The block column of each correctly rounded launch in the CSV, by size.
    fn csv_blocks(report: &BenchReport) -> Vec<(String, String)> {
        let csv = report.csv();
        let col = |name: &str| csv.header.iter().position(|&h| h == name).unwrap();
        let (n, block, kernel) = (col("n"), col("block"), col("kernel"));
        csv.rows.iter().filter(|r| r[kernel] == "correctly rounded").map(|r| (r[n].clone(), r[block].clone())).collect()
    }

    #[test]
    fn the_rows_and_csv_say_the_block_the_small_route_launched() {
        let kernel = SumKernel::of(&layout::sum::CORRECTLY_ROUNDED);
        // As if the driver's build launched at most 896 threads: one block
        // of 768, 16 floats a thread.
        let route = SmallRoute { kernel, threads: 768, max_n: 12_288 };
        let on = report(Some(vec![route]));
        assert_eq!(small_route_at(&on, kernel, 8_192), Some(512), "the fewest granules: 16 floats a thread");
        assert_eq!(small_route_at(&on, kernel, 65_536), None, "past the route's reach");
        assert_eq!(small_route_at(&on, SumKernel::of(&layout::sum::BANDWIDTH), 8_192), None);
        let text = bench(&on, None, Look::Plain);
        assert!(text.contains("correctly rounded*"), "{text}");
        assert!(
            text.contains(
                "correctly rounded up to n = 12288 on at most 768 threads, 16 floats a thread (n = 8192 on 512)"
            ),
            "{text}"
        );
        assert_eq!(csv_blocks(&on), [("8192".into(), "512".into()), ("65536".into(), "256".into())]);

        let off = report(Some(Vec::new()));
        assert!(bench(&off, None, Look::Plain).contains("Small route off"));
        assert_eq!(csv_blocks(&off), [("8192".into(), "256".into()), ("65536".into(), "256".into())]);

        // A record from before the route says nothing about it.
        let before = bench(&report(None), None, Look::Plain);
        assert!(!before.contains("Small route") && !before.contains("rounded*"), "{before}");
    }

    #[test]
    fn the_rows_that_launched_a_small_entry_are_marked_and_named() {
        let mut on = report(Some(Vec::new()));
        let symbol = layout::sum::CORRECTLY_ROUNDED_SMALL.entry.symbol;
        on.rows[0].sums.measurements[0].entry = Some(symbol.to_owned());
        let text = bench(&on, None, Look::Plain);
        assert!(text.contains(&format!("correctly rounded as {symbol} at n = 8192.")), "{text}");
        let marked: Vec<&str> = text.lines().filter(|l| l.contains("correctly rounded*")).collect();
        assert!(marked.len() == 1 && marked[0].contains("8192"), "{text}");
        // No entry launched, no sentence.
        assert!(!bench(&report(Some(Vec::new())), None, Look::Plain).contains("Small entries"));
    }
}
