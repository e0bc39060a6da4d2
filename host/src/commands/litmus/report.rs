//! `litmus`'s report: one row per (test, variant, placement) with the
//! model's verdict and the weak outcomes counted; for `--tune`, the best
//! environments per test; one CSV row per (test, variant, placement) and
//! configuration; and the lines for a forbidden outcome. No plot.

use tabled::builder::Builder;

use super::{LitmusResults, TuneResults};
use crate::commands::{Checks, Csv, Report};
use crate::gpu::DeviceInfo;
use crate::litmus::tune::{self, Trial};
use crate::litmus::{Environment, LitmusOptions, LitmusRow};
use crate::report::table::{Look, device_header, rate_per_million, render_some, significant};

/// The columns of `litmus`'s CSV, for a run and for a search alike.
const HEADER: [&str; 16] = [
    "configuration",
    "test",
    "variant",
    "placement",
    "sequential",
    "model",
    "instances",
    "weak",
    "forbidden",
    "weak_per_million",
    "low_95",
    "high_95",
    "instances_per_second",
    "launches",
    "grid",
    "outcomes",
];

impl Report for LitmusResults {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, None) + "\n" + &litmus(&self.options, &self.rows, look)
    }

    fn csv(&self) -> Csv {
        Csv { header: &HEADER, rows: self.rows.iter().map(|r| csv_row(0, r)).collect() }
    }

    fn checks(&self) -> Checks {
        let bad: Vec<(&LitmusRow, &Environment)> =
            self.rows.iter().filter(|r| r.forbidden() > 0).map(|r| (r, &self.options.environment)).collect();
        Checks::from_lines(litmus_failures(&bad))
    }
}

impl Report for TuneResults {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, None) + "\n" + &litmus_tune(&self.options, &self.trials, look)
    }

    fn csv(&self) -> Csv {
        let rows = self.trials.iter().flat_map(|t| t.rows.iter().map(move |r| csv_row(t.index + 1, r))).collect();
        Csv { header: &HEADER, rows }
    }

    fn checks(&self) -> Checks {
        let bad: Vec<(&LitmusRow, &Environment)> = self
            .trials
            .iter()
            .flat_map(|t| t.rows.iter().map(move |r| (r, &t.environment)))
            .filter(|(r, _)| r.forbidden() > 0)
            .collect();
        Checks::from_lines(litmus_failures(&bad))
    }
}

/// One litmus row; `configuration` is the tuning trial's number, 0 outside
/// a search. `outcomes` lists `registers:count` pairs, `;`-separated.
fn csv_row(configuration: usize, row: &LitmusRow) -> Vec<String> {
    let (rate, (low, high)) = row.rate_per_million();
    let outcomes: Vec<String> = row.outcomes().iter().map(|(registers, n)| format!("{registers}:{n}")).collect();
    vec![
        configuration.to_string(),
        row.test().key().to_owned(),
        row.kernel.variant.key().to_owned(),
        row.placement.key().to_owned(),
        row.sequential.to_string(),
        row.model().to_owned(),
        row.counts.instances.to_string(),
        row.weak().to_string(),
        row.forbidden().to_string(),
        format!("{rate}"),
        format!("{low}"),
        format!("{high}"),
        format!("{:.0}", row.instances_per_second()),
        row.counts.launches.to_string(),
        row.grid.to_string(),
        outcomes.join(";"),
    ]
}

/// The rate cell: weak outcomes per million instances with the 95% Wilson
/// interval, or, with none seen, the rule-of-three bound.
fn rate(row: &LitmusRow) -> String {
    rate_per_million(row.weak(), row.counts.instances)
}

/// The heading over a run's table: the environment and budget.
fn heading(options: &LitmusOptions) -> String {
    let preset = options.preset.map_or("custom".to_owned(), |p| format!("{p:?}"));
    let sequential = if options.sequential { " SEQUENTIAL CONTROL: roles separated by barriers." } else { "" };
    format!(
        "Litmus: each instance's outcome counted on the GPU; the weak outcome judged by the PTX memory model.{sequential}\n\
         Environment ({preset}): {}\n",
        options.environment.summary()
    )
}

/// The suite's table.
pub fn litmus(options: &LitmusOptions, rows: &[LitmusRow], look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record([
        "test",
        "variant",
        "placement",
        "model",
        "instances",
        "weak",
        "weak per million [95%]",
        "M inst/s",
        "why",
    ]);
    for row in rows {
        builder.push_record([
            row.test().name().to_owned(),
            row.kernel.variant.key().to_owned(),
            row.placement.key().to_owned(),
            row.model().to_owned(),
            row.counts.instances.to_string(),
            row.weak().to_string(),
            rate(row),
            format!("{:.0}", row.instances_per_second() / 1e6),
            row.reason.clone(),
        ]);
    }
    let table = render_some(builder, look, 4..8);
    let broken: u64 = rows.iter().map(LitmusRow::forbidden).sum();
    let total: u64 = rows.iter().map(|r| r.counts.instances).sum();
    let verdict = if broken == 0 {
        format!(
            "No outcome the model forbids in {total} instances. A zero is not a proof: its bound is in the rate column.\n"
        )
    } else {
        format!("{broken} instances ended in an outcome the model forbids; they are listed on stderr.\n")
    };
    format!("{}{table}\n{verdict}", heading(options))
}

/// `--tune`'s table: per test, the five environments that showed its weak
/// outcome most often per second, then every environment drawn.
pub fn litmus_tune(options: &LitmusOptions, trials: &[Trial], look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record(["test", "rank", "configuration", "weak per second", "weak", "instances"]);
    let mut tests: Vec<_> = options.kernels.iter().map(|k| k.test).collect();
    tests.dedup();
    for test in tests {
        let ranked = tune::ranking(trials, test);
        if ranked.is_empty() {
            let instances: u64 =
                trials.iter().flat_map(|t| &t.rows).filter(|r| r.test() == test).map(|r| r.counts.instances).sum();
            builder.push_record([test.name(), "-", "none showed it", "0", "0", &instances.to_string()]);
        }
        for (rank, (trial, per_second)) in ranked.iter().take(5).enumerate() {
            let rows = trial.rows.iter().filter(|r| r.test() == test && r.allowed);
            let (weak, instances) = rows.fold((0, 0), |(w, n), r| (w + r.weak(), n + r.counts.instances));
            builder.push_record([
                test.name().to_owned(),
                (rank + 1).to_string(),
                format!("#{}", trial.index + 1),
                significant(*per_second),
                weak.to_string(),
                instances.to_string(),
            ]);
        }
    }
    let table = render_some(builder, look, 3..6);
    let mut list = Builder::default();
    list.push_record(["configuration", "environment"]);
    for trial in trials {
        list.push_record([format!("#{}", trial.index + 1), trial.environment.summary()]);
    }
    let list = render_some(list, look, 0..0);
    format!(
        "Litmus tuning: {} random environments, each running every chosen kernel; weak outcomes per second over the \
         rows the model allows.\n{table}\n{list}\n",
        trials.len()
    )
}

/// One line per row with an outcome the model (or the sequential order)
/// forbids: what, where, in which environment, and the registers.
pub fn litmus_failures(rows: &[(&LitmusRow, &Environment)]) -> String {
    let mut out = String::new();
    for (row, environment) in rows {
        let registers = row.test().registers() as usize;
        for (bin, count) in row.forbidden_bins() {
            out += &format!(
                "FORBIDDEN: {} {} {}: {count} of {} instances ended {} ({}). This is a bug in the GPU, the \
                     compiler or the lab. Environment: {}\n",
                row.test().name(),
                row.kernel.variant.key(),
                row.placement.key(),
                row.counts.instances,
                crate::litmus::outcome_text(bin, registers),
                if row.sequential { "the sequential control predicts one outcome only" } else { &row.reason },
                environment.summary(),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::litmus::{LitmusCounts, LitmusKernel};
    use crate::litmus::{Preset, verdict};
    use layout::Placement;
    use layout::litmus::{BINS, KERNELS, OTHER_BIN};

    fn row(symbol: &str, sequential: bool, bins: &[(usize, u64)]) -> LitmusRow {
        let kernel = LitmusKernel::of(KERNELS.iter().find(|k| k.entry.symbol == symbol).unwrap());
        let mut histogram = vec![0; BINS];
        for &(bin, n) in bins {
            histogram[bin] = n;
        }
        let v = verdict(kernel.test, kernel.variant, Placement::InterBlock);
        LitmusRow {
            kernel,
            placement: Placement::InterBlock.into(),
            sequential,
            grid: 1056,
            allowed: v.allowed,
            reason: v.reason.to_owned(),
            counts: LitmusCounts { launches: 1, instances: histogram.iter().sum(), histogram, seconds: 1.0 },
        }
    }

    #[test]
    fn a_forbidden_outcome_is_named_with_its_registers_environment_and_culprits() {
        let environment = Preset::Parallel.environment();
        let bad = row("litmus_mp_rel_acq_gpu", false, &[(0b11, 100), (0b01, 2), (OTHER_BIN, 1)]);
        let fine = row("litmus_mp_relaxed_gpu", false, &[(0b11, 100), (0b01, 2)]);
        let text = litmus_failures(&[(&bad, &environment), (&fine, &environment)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].starts_with("FORBIDDEN: MP rel-acq-gpu inter-block: 2 of 103 instances ended r0=1 r1=0"));
        assert!(lines[1].contains("1 of 103 instances ended other"));
        assert!(
            lines.iter().all(|l| l.contains("a bug in the GPU, the compiler or the lab") && l.contains("lane x13"))
        );
    }

    #[test]
    fn the_sequential_control_names_every_other_outcome() {
        let environment = Preset::Quiet.environment();
        let r = row("litmus_sb_weak", true, &[(0b10, 100), (0b00, 1)]);
        let text = litmus_failures(&[(&r, &environment)]);
        assert!(text.contains("1 of 101 instances ended r0=0 r1=0 (the sequential control predicts one outcome only)"));
    }
}
