//! `litmus`'s report: one row per (test, variant, placement) with the
//! model's verdict and the weak outcomes counted; for `--tune`, the best
//! environments per test; one CSV row per (test, variant, placement) and
//! configuration; the heat map of a run's weak outcomes; and the lines for a
//! forbidden outcome.

use tabled::builder::Builder;

use super::failures::litmus_failures;
use super::{LitmusResults, MutantResults, TuneResults};
use crate::device::DeviceInfo;
use crate::litmus::mutants::MutantRow;
use crate::litmus::tune::{self, Trial};
use crate::litmus::{Environment, LitmusOptions, LitmusRow};
use crate::report::heatmap::{Cell, Panel};
use crate::report::table::{Look, device_header, rate_per_million, render_some, significant};
use crate::report::{Checks, Csv, Plot, Report};

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
    fn validate(&self) -> Result<(), String> {
        self.rows.iter().try_for_each(LitmusRow::validate)
    }

    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, None) + "\n" + &litmus(&self.options, &self.rows, look)
    }

    fn csv(&self) -> Csv {
        Csv { header: &HEADER, rows: self.rows.iter().map(|r| csv_row(0, r)).collect() }
    }

    /// The heat map: one panel per placement, the sequential control left out
    /// (its weak outcome is not what it counts).
    fn plot(&self, _device: &DeviceInfo) -> Option<Plot> {
        let mut panels: Vec<Panel> = Vec::new();
        for row in self.rows.iter().filter(|r| !r.sequential) {
            let cell = Cell {
                test: row.test().name().to_owned(),
                variant: row.kernel.variant.key().to_owned(),
                instances: row.counts.instances,
                weak: row.weak(),
                allowed: row.allowed,
            };
            let placement = row.placement.key();
            match panels.iter_mut().find(|p| p.placement == placement) {
                Some(panel) => panel.cells.push(cell),
                None => panels.push(Panel { placement: placement.to_owned(), cells: vec![cell] }),
            }
        }
        (!panels.is_empty()).then_some(Plot::Heat(panels))
    }

    fn checks(&self) -> Checks {
        let bad: Vec<(&LitmusRow, &Environment)> =
            self.rows.iter().filter(|r| r.forbidden() > 0).map(|r| (r, r.environment_in(&self.options))).collect();
        Checks::from_lines(litmus_failures(&bad))
    }
}

impl Report for TuneResults {
    fn validate(&self) -> Result<(), String> {
        self.trials.iter().flat_map(|t| &t.rows).try_for_each(LitmusRow::validate)
    }

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
    let tuned = options.tuned.as_ref().map_or(String::new(), |t| {
        let mut tests: Vec<&str> = t.winners.iter().map(|w| w.test.name()).collect();
        tests.dedup();
        format!(
            "Tuned: {} ran in the environments `host tune` found on {} (driver {}), each variant in its own winner or \
             else its test's; the other tests in the one above.\n",
            tests.join(", "),
            t.gpu,
            t.driver.as_deref().unwrap_or("unknown")
        )
    });
    format!(
        "Litmus: each instance's outcome counted on the GPU, and every outcome judged by the PTX memory model.{sequential}\n\
         Environment ({preset}): {}\n{tuned}",
        options.environment.summary()
    )
}

/// The suite's table; in Markdown, a sequential control that passed is one
/// line instead.
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
        "forbidden seen",
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
            forbidden_seen(row),
            format!("{:.0}", row.instances_per_second() / 1e6),
            row.reason.clone(),
        ]);
    }
    let table = render_some(builder, look, 4..9);
    let broken: u64 = rows.iter().map(LitmusRow::forbidden).sum();
    let total: u64 = rows.iter().map(|r| r.counts.instances).sum();
    // The sequential control passed: in Markdown (the book) one line says so,
    // where hundreds of rows would each say zero.
    if look == Look::Markdown && options.sequential && broken == 0 {
        let fewest = rows.iter().map(|r| r.counts.instances).min().unwrap_or(0);
        return format!(
            "{}\nEvery instance of all {} rows (test, variant, placement) ended in the outcome program order \
             predicts: {total} instances, each row at least {fewest}, so any other outcome's rate in a row is \
             {} in this run. Every row is in the run's CSV (`--format csv`).\n",
            heading(options),
            rows.len(),
            rate_per_million(0, fewest),
        );
    }
    let verdict = if broken == 0 {
        format!(
            "No outcome the model forbids, in any bin of any row, in {total} instances. A zero is not a proof: its \
             bound is in the rate column.\n"
        )
    } else {
        format!("{broken} instances ended in an outcome the model forbids; they are listed on stderr.\n")
    };
    format!("{}{table}\n{verdict}{}", heading(options), coverage(rows))
}

/// The "forbidden seen" cell: `0`, or each bin that breaks a rule as
/// `count: outcome`, `;`-separated.
fn forbidden_seen(row: &LitmusRow) -> String {
    let bins: Vec<String> = row
        .forbidden_bins()
        .map(|(bin, count)| format!("{count}: {}", crate::litmus::outcome_text(bin, row.test())))
        .collect();
    if bins.is_empty() { "0".to_owned() } else { bins.join("; ") }
}

/// How many of the rows whose weak outcome the model allows showed it in
/// this run, as one line (empty for the sequential control, whose rows the
/// model does not judge).
fn coverage(rows: &[LitmusRow]) -> String {
    let allowed: Vec<&LitmusRow> = rows.iter().filter(|r| r.allowed && !r.sequential).collect();
    if allowed.is_empty() {
        return String::new();
    }
    let seen = allowed.iter().filter(|r| r.weak() > 0).count();
    format!(
        "Allowed rows that showed their weak outcome: {seen} of {} (a zero on the others is a bound, not a verdict).\n",
        allowed.len()
    )
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
    // Per row as well: a test's total is dominated by its most frequent
    // variant, and the environment best for one row is often not the best
    // for another.
    let mut per_row = Builder::default();
    per_row.push_record(["test", "variant", "placement", "best configuration", "weak per second", "weak per million"]);
    if let Some(first) = trials.first() {
        for (k, row) in first.rows.iter().enumerate().filter(|(_, r)| r.allowed) {
            let best = trials
                .iter()
                .filter_map(|t| t.rows.get(k).map(|r| (t, r)))
                .max_by(|a, b| per_second(a.1).total_cmp(&per_second(b.1)));
            if let Some((trial, best)) = best.filter(|(_, r)| r.weak() > 0) {
                per_row.push_record([
                    row.test().name().to_owned(),
                    row.kernel.variant.key().to_owned(),
                    row.placement.key().to_owned(),
                    format!("#{}", trial.index + 1),
                    significant(per_second(best)),
                    significant(best.rate_per_million().0),
                ]);
            }
        }
    }
    let per_row = render_some(per_row, look, 4..6);
    let mut list = Builder::default();
    list.push_record(["configuration", "environment"]);
    for trial in trials {
        list.push_record([format!("#{}", trial.index + 1), trial.environment.summary()]);
    }
    let list = render_some(list, look, 0..0);
    format!(
        "Litmus tuning: {} random environments, each running every chosen kernel; weak outcomes per second over the \
         rows the model allows.\n{table}\nThe best configuration for each allowed row that showed its weak outcome:\n{per_row}\n{list}\n",
        trials.len()
    )
}

/// A row's weak outcomes per second.
fn per_second(row: &LitmusRow) -> f64 {
    if row.counts.seconds > 0.0 { row.weak() as f64 / row.counts.seconds } else { 0.0 }
}

/// The columns of `litmus --mutants`' CSV.
const MUTANT_HEADER: [&str; 11] = [
    "test",
    "variant",
    "placement",
    "mutation",
    "model",
    "skipped",
    "instances",
    "weak",
    "killed",
    "instances_to_kill",
    "seconds_to_kill",
];

impl Report for MutantResults {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, None) + "\n" + &litmus_mutants(&self.options, &self.rows, look)
    }

    fn csv(&self) -> Csv {
        let rows = self
            .rows
            .iter()
            .map(|r| {
                let m = &r.mutant;
                let (instances, weak) =
                    r.counts.as_ref().map_or((0, 0), |c| (c.instances, c.histogram[m.kernel.test.weak() as usize]));
                vec![
                    m.kernel.test.name().to_owned(),
                    m.kernel.variant.key().to_owned(),
                    m.placement.key().to_owned(),
                    m.mutation.clone(),
                    if m.allowed { "allowed" } else { "forbidden" }.to_owned(),
                    r.skipped.clone().unwrap_or_default(),
                    instances.to_string(),
                    weak.to_string(),
                    r.killed().to_string(),
                    r.killed_after.map_or(String::new(), |(n, _)| n.to_string()),
                    r.killed_after.map_or(String::new(), |(_, s)| s.to_string()),
                ]
            })
            .collect();
        Csv { header: &MUTANT_HEADER, rows }
    }

    /// A mutant that survives is a finding about the environment, not a
    /// failed check: nothing here is judged against the model.
    fn checks(&self) -> Checks {
        Checks::none()
    }
}

/// `--mutants`' tables: the mutation score per test and placement, with the
/// loosest bound a survivor's zero leaves; then, for a terminal, every mutant
/// with what killed it, why it was not run or its bound, and in Markdown the
/// killed mutants alone, one line each (the CSV holds every row).
pub fn litmus_mutants(options: &LitmusOptions, rows: &[MutantRow], look: Look) -> String {
    let mut score = Builder::default();
    score.push_record([
        "test",
        "placement",
        "mutants",
        "equivalent",
        "not made",
        "run",
        "killed",
        "score",
        "survivors",
    ]);
    // Per test and placement: within one block the hardware may be far
    // stronger than the model, and a score over both would hide that.
    let mut groups: Vec<_> = rows.iter().map(|r| (r.mutant.kernel.test, r.mutant.placement)).collect();
    groups.sort();
    groups.dedup();
    let (mut all_run, mut all_killed) = (0, 0);
    for (test, placement) in groups {
        let of: Vec<&MutantRow> =
            rows.iter().filter(|r| r.mutant.kernel.test == test && r.mutant.placement == placement).collect();
        let equivalent = of.iter().filter(|r| !r.mutant.allowed).count();
        let not_made = of.iter().filter(|r| r.mutant.allowed && r.skipped.is_some()).count();
        let run = of.iter().filter(|r| r.counts.is_some()).count();
        let killed = of.iter().filter(|r| r.killed()).count();
        // Every survivor's zero with the loosest bound among them: the one
        // that ran the fewest instances.
        let fewest = of.iter().filter(|r| !r.killed()).filter_map(|r| r.counts.as_ref()).map(|c| c.instances).min();
        (all_run, all_killed) = (all_run + run, all_killed + killed);
        score.push_record([
            test.name().to_owned(),
            placement.key().to_owned(),
            of.len().to_string(),
            equivalent.to_string(),
            not_made.to_string(),
            run.to_string(),
            killed.to_string(),
            percent(killed, run),
            // The bound alone (every survivor's count is zero): the table
            // must fit the book's column.
            fewest
                .map_or_else(|| "-".to_owned(), |n| format!("< {} /M", significant(lab_stats::rule_of_three(n) * 1e6))),
        ]);
    }
    let score = render_some(score, look, 2..8);
    let each = match look {
        Look::Plain => every_mutant(rows),
        // In Markdown (the book) the killed mutants only, one line each: every
        // mutant's row is in the run's CSV, and hundreds of survivors and
        // skipped rows would bury the few that the environment exposed.
        Look::Markdown => {
            let killed: Vec<String> = rows
                .iter()
                .filter_map(|r| {
                    let (n, seconds) = r.killed_after?;
                    let m = &r.mutant;
                    Some(format!(
                        "- {} `{}` {}: {}; killed after {n} instances, {} s\n",
                        m.kernel.test.name(),
                        m.kernel.variant.key(),
                        m.placement.key(),
                        m.mutation,
                        significant(seconds)
                    ))
                })
                .collect();
            let killed = if killed.is_empty() {
                "No mutant was killed.\n".to_owned()
            } else {
                format!("The killed mutants:\n\n{}", killed.concat())
            };
            format!(
                "{killed}\nEvery mutant, killed or not, with its instances, weak count and skip reason, is a row of the \
                 run's CSV (`--format csv`); the `survivors` column above is the loosest bound that a survivor's zero \
                 leaves.\n"
            )
        }
    };
    format!(
        "{}Mutation testing: every mutant of each forbidden row (one synchronizing element weakened) whose weak \
         outcome the model then allows, run until its first weak outcome or the row budget.\n\
         Mutation score in this environment: {all_killed} of {all_run} mutants killed ({}).\n{score}\n{each}\n",
        heading(options),
        percent(all_killed, all_run),
    )
}

/// Every mutant with what killed it, why it was not run, or the bound its
/// survival leaves: the terminal's table.
fn every_mutant(rows: &[MutantRow]) -> String {
    let mut each = Builder::default();
    each.push_record(["test", "variant", "placement", "mutation", "instances", "killed after", "or not seen"]);
    for r in rows {
        let m = &r.mutant;
        let (instances, killed, bound) = match (&r.skipped, &r.counts) {
            (Some(why), _) => ("-".to_owned(), "not run".to_owned(), why.clone()),
            (None, Some(c)) => match r.killed_after {
                Some((n, s)) => {
                    (c.instances.to_string(), format!("{n} instances, {} s", significant(s)), String::new())
                }
                None => (c.instances.to_string(), "survived".to_owned(), rate_per_million(0, c.instances)),
            },
            (None, None) => ("-".to_owned(), "not run".to_owned(), String::new()),
        };
        each.push_record([
            m.kernel.test.name().to_owned(),
            m.kernel.variant.key().to_owned(),
            m.placement.key().to_owned(),
            m.mutation.clone(),
            instances,
            killed,
            bound,
        ]);
    }
    render_some(each, Look::Plain, 4..5)
}

/// `part` of `whole` as a whole percentage, or `-` of nothing.
fn percent(part: usize, whole: usize) -> String {
    if whole == 0 { "-".to_owned() } else { format!("{:.0}%", 100.0 * part as f64 / whole as f64) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::litmus::{LitmusCounts, LitmusKernel};
    use crate::litmus::Preset;
    use layout::Placement;
    use layout::litmus::{BINS, KERNELS, OTHER_BIN};

    fn row(symbol: &str, sequential: bool, bins: &[(usize, u64)]) -> LitmusRow {
        let kernel = LitmusKernel::of(KERNELS.iter().find(|k| k.entry.symbol == symbol).unwrap());
        let mut histogram = vec![0; BINS];
        for &(bin, n) in bins {
            histogram[bin] = n;
        }
        let counts = LitmusCounts { launches: 1, instances: histogram.iter().sum(), histogram, seconds: 1.0 };
        LitmusRow::new(kernel, Placement::InterBlock.into(), sequential, 1056, counts)
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

    /// Issue 36's case: a CoWR row whose load missed its own thread's
    /// earlier store. The row's weak outcome is not involved (none was
    /// counted, and with weak accesses the model allows it), and the run
    /// fails all the same, naming the outcome's registers.
    #[test]
    fn a_forbidden_bin_that_is_not_the_weak_one_fails_the_run() {
        let environment = Preset::Parallel.environment();
        let sequential = layout::litmus::Test::Cowr.sequential() as usize;
        let missed = layout::litmus::final_bin(&[0, 2]) as usize;
        let r = row("litmus_cowr_weak", false, &[(sequential, 1_000), (missed, 3)]);
        assert!(r.allowed && r.weak() == 0);
        let results = LitmusResults {
            options: crate::litmus::LitmusOptions {
                kernels: vec![r.kernel],
                placements: vec![r.placement],
                budget: crate::gpu::litmus::Budget::Instances(1),
                batch: 1,
                preset: Some(Preset::Parallel),
                environment: environment.clone(),
                tuned: None,
                sequential: false,
                seed: 1,
            },
            rows: vec![r],
        };
        let checks = results.checks();
        assert!(!checks.passed);
        let failures = checks.lines;
        println!("{failures}");
        assert_eq!(failures.lines().count(), 1, "{failures}");
        assert!(
            failures.starts_with(
                "FORBIDDEN: CoWR weak inter-block: 3 of 1003 instances ended r0=0 x=2 (the PTX memory \
                 model allows no execution that ends so"
            ),
            "{failures}"
        );
        let table = litmus(&results.options, &results.rows, Look::Plain);
        assert!(table.contains("3 instances ended in an outcome the model forbids"), "{table}");
        assert!(table.contains("3: r0=0 x=2"), "{table}");
    }

    #[test]
    fn the_sequential_control_names_every_other_outcome() {
        let environment = Preset::Quiet.environment();
        let r = row("litmus_sb_weak", true, &[(0b10, 100), (0b00, 1)]);
        let text = litmus_failures(&[(&r, &environment)]);
        assert!(text.contains("1 of 101 instances ended r0=0 r1=0 (the sequential control predicts one outcome only)"));
    }
}
