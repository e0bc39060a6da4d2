//! `litmus-headline.md`: the few litmus rows that carry the chapter's
//! argument, each with its count in the default environment and its best
//! rate over the presets' runs. Which rows is the chapter's choice
//! ([`HEADLINE`]); every number is the run's. The rest of the counts are in
//! the appendix's full tables and in CSV.

use std::fs;
use std::path::Path;

use lab_records::host::{LitmusRow, Record, Results};

use crate::Error;

/// One row the chapter argues from: test, variant, placement, and what the
/// row shows (the table's last column).
pub type Pick = (&'static str, &'static str, &'static str, &'static str);

/// The rows, in the chapter's order: an allowed weak outcome, the
/// synchronization that forbids it, scope deciding by placement, fences that
/// are not enough, and the compiler's share. The last column says what the
/// model says of the row, never what the GPU did: the counts say that.
pub const HEADLINE: [Pick; 14] = [
    ("mp", "relaxed-gpu", "inter-block", "nothing orders data before flag"),
    ("mp", "rel-acq-gpu", "inter-block", "release/acquire forbids it"),
    ("mp", "fence-acq-rel-gpu", "inter-block", "so do fences"),
    ("mp", "rel-acq-cta", "intra-block", ".cta covers one block"),
    ("mp", "rel-acq-cta", "inter-block", "…not two"),
    ("mp", "fence-sc-cta", "inter-block", "nor does a .cta fence"),
    ("sb", "fence-acq-rel-gpu", "inter-block", "acq_rel does not forbid SB"),
    ("sb", "fence-sc-gpu", "inter-block", "fence.sc does"),
    ("lb", "relaxed-gpu", "inter-block", "relaxed loads may see later stores"),
    ("corr", "relaxed-gpu", "inter-block", "coherence forbids it"),
    ("iriw", "relaxed-gpu", "inter-block", "readers may disagree on order"),
    ("iriw", "fence-sc-gpu", "inter-block", "fence.sc forbids it"),
    ("wrc", "rel-acq-cta", "inter-block", "a .cta chain across blocks"),
    ("mp", "weak", "intra-block", "ptxas reorders the loads"),
];

/// The runs the best column looks in: the default environment first, then
/// each preset's, by step name.
const RUNS: [&str; 5] = ["litmus", "litmus-stale-l1", "litmus-tuned-mp", "litmus-tuned-wrc", "litmus-tuned-iriw"];

/// One row's counts in one run.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Count {
    weak: u64,
    instances: u64,
    allowed: bool,
}

/// The row `pick` of a `host litmus` run's rows, if it ran.
fn find(rows: &[LitmusRow], (test, variant, placement, _): Pick) -> Option<Count> {
    let test_kind = layout::litmus::Test::ALL.iter().find(|t| t.key() == test)?;
    let kernel = format!("{test}_{}", variant.replace('-', "_"));
    let row = rows.iter().find(|r| r.kernel == kernel && r.placement == placement && !r.sequential)?;
    Some(Count {
        weak: *row.counts.histogram.get(test_kind.weak() as usize)?,
        instances: row.counts.instances,
        allowed: row.allowed,
    })
}

/// `x` with three significant digits, or whole from 1,000 up.
fn significant(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    if x >= 1000.0 {
        return format!("{x:.0}");
    }
    let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// A count as weak outcomes per million, or for a zero, the rule of three's
/// bound and so its denominator. (The intervals are in the full tables.)
fn per_million(c: Count) -> String {
    if c.weak == 0 {
        format!("0 (< {})", significant(lab_stats::rule_of_three(c.instances) * 1e6))
    } else {
        significant(c.weak as f64 / c.instances as f64 * 1e6)
    }
}

/// The headline table from the litmus runs of `results`, or `None` when it
/// has no `litmus.json`.
pub fn headline(results: &Path) -> Result<Option<String>, Error> {
    let mut runs = Vec::new();
    for name in RUNS {
        let path = results.join(format!("{name}.json"));
        let Ok(text) = fs::read_to_string(&path) else { continue };
        let record: Record = serde_json::from_str(&text).map_err(|e| Error(format!("{}: {e}", path.display())))?;
        let Results::Litmus(litmus) = record.results else {
            return Err(Error(format!("{}: not a `host litmus` record", path.display())));
        };
        runs.push((name, litmus.rows));
    }
    if runs.first().is_none_or(|(name, _)| *name != "litmus") {
        return Ok(None);
    }
    Ok(Some(table(&runs)))
}

/// The table over `runs` (step name, record), the default run first.
fn table(runs: &[(&str, Vec<LitmusRow>)]) -> String {
    let mut out = String::from(
        "| test | variant | placement | model | weak /M, default | best /M, preset | shows |\n\
         |---|---|---|---|---:|---|---|\n",
    );
    for pick in HEADLINE {
        let (test, variant, placement, shows) = pick;
        let name = layout::litmus::Test::ALL.iter().find(|t| t.key() == test).map_or(test, |t| t.name());
        let Some(default) = runs.first().and_then(|(_, r)| find(r, pick)) else {
            out.push_str(&format!("| {name} | `{variant}` | {placement} | not run | | | {shows} |\n"));
            continue;
        };
        // The best rate over every run; a tie goes to the larger run.
        let best = runs
            .iter()
            .filter_map(|(step, r)| find(r, pick).map(|c| (*step, c)))
            .max_by(|(_, a), (_, b)| {
                let rate = |c: &Count| c.weak as f64 / c.instances.max(1) as f64;
                rate(a).total_cmp(&rate(b)).then(a.instances.cmp(&b.instances))
            })
            .map_or_else(String::new, |(step, c)| {
                let preset = step.strip_prefix("litmus-").unwrap_or("default");
                match c.weak {
                    0 => format!("0 in all {}", runs.len()),
                    _ => format!("{} ({preset})", significant(c.weak as f64 / c.instances as f64 * 1e6)),
                }
            });
        let model = if default.allowed { "allowed" } else { "**forbidden**" };
        out.push_str(&format!(
            "| {name} | `{variant}` | {placement} | {model} | {} | {best} | {shows} |\n",
            per_million(default)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use lab_records::host::LitmusCounts;

    use super::*;

    fn run(weak: u64) -> Vec<LitmusRow> {
        let mut histogram = vec![0u64; layout::litmus::BINS];
        histogram[layout::litmus::Test::Mp.weak() as usize] = weak;
        vec![LitmusRow {
            kernel: "mp_relaxed_gpu".to_owned(),
            placement: "inter-block".to_owned(),
            sequential: false,
            allowed: true,
            counts: LitmusCounts { instances: 1_000_000, histogram, seconds: 1.0 },
        }]
    }

    #[test]
    fn a_row_shows_its_rate_its_best_preset_and_a_zero_its_bound() {
        let t = table(&[("litmus", run(0)), ("litmus-stale-l1", run(20))]);
        assert!(t.contains("| MP | `relaxed-gpu` | inter-block | allowed | 0 (< 3.00) | 20.0 (stale-l1) |"), "{t}");
        // A row no run has says so rather than vanish.
        assert!(t.contains("| SB | `fence-sc-gpu` | inter-block | not run |"), "{t}");
        let t = table(&[("litmus", run(5))]);
        assert!(t.contains("| 5.00 | 5.00 (default) |"), "{t}");
    }

    #[test]
    fn every_headline_row_names_a_kernel_of_the_suite() {
        for (test, variant, _, _) in HEADLINE {
            let symbol = format!("litmus_{test}_{}", variant.replace('-', "_"));
            assert!(layout::litmus::KERNELS.iter().any(|k| k.entry.symbol == symbol), "{symbol}");
        }
        assert!(HEADLINE.len() <= 15, "the chapter's table stays short");
    }
}
