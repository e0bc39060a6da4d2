//! `publish`'s report: one row per variant, with the verdict in the page's
//! words, in the table and in CSV, and each variant's stale records per
//! million on a log axis, a zero drawn at its bound. A guaranteed variant that saw a
//! stale record or timed out fails the run; its row's verdict says which (a
//! timeout is a progress failure, not an ordering one), and no line on
//! standard error repeats it.

use tabled::builder::Builder;

use super::{PublishResults, PublishRow};
use crate::device::DeviceInfo;
use crate::gpu::publish::FlagPlacement;
use crate::report::plot::Rate;
use crate::report::table::{Look, device_header, rate_per_million, render_some};
use crate::report::{Checks, Csv, Plot, Report};
use crate::verdict::Verdict;

/// The columns of `publish`'s CSV, one row per variant.
const HEADER: [&str; 13] = [
    "variant",
    "participants",
    "scope",
    "ordering",
    "launches",
    "pairs",
    "stale",
    "timeouts",
    "observed_id",
    "observed_score",
    "flags",
    "preload",
    "delay_ns",
];

impl Report for PublishResults {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, None) + "\n" + &publish(&self.rows, look) + &not_run(&self.not_run)
    }

    fn csv(&self) -> Csv {
        let rows = self
            .rows
            .iter()
            .map(|r| {
                let c = &r.counts;
                vec![
                    r.variant.symbol().to_owned(),
                    r.variant.placement.text().to_owned(),
                    r.variant.scope.text().to_owned(),
                    r.variant.ordering.text().to_owned(),
                    c.launches.to_string(),
                    c.pairs.to_string(),
                    c.stale.to_string(),
                    c.timeouts.to_string(),
                    c.observed.0.to_string(),
                    c.observed.1.to_string(),
                    // Both only shape the cross-block variants.
                    clap::ValueEnum::to_possible_value(&r.geometry.flags)
                        .map_or_else(String::new, |v| v.get_name().to_owned()),
                    r.geometry.preload.to_string(),
                    r.geometry.delay_ns.to_string(),
                ]
            })
            .collect();
        Csv { header: &HEADER, rows }
    }

    fn plot(&self, _device: &DeviceInfo) -> Option<Plot> {
        let rows = self
            .rows
            .iter()
            .map(|r| Rate { label: r.variant.key().to_owned(), events: r.counts.stale, out_of: r.counts.pairs })
            .collect();
        Some(Plot::Rates { what: "stale records per million pairs".to_owned(), rows })
    }

    fn checks(&self) -> Checks {
        Checks { passed: !self.rows.iter().any(|r| r.verdict().fails_the_run()), lines: String::new() }
    }
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
        "stale per million [95%]",
        "timeouts",
        "verdict",
    ]);
    for row in rows {
        let c = &row.counts;
        builder.push_record([
            row.variant.key().to_owned(),
            row.variant.placement.text().to_owned(),
            row.variant.scope.text().to_owned(),
            row.variant.ordering.text().to_owned(),
            c.pairs.to_string(),
            c.stale.to_string(),
            rate_per_million(c.stale, c.pairs),
            c.timeouts.to_string(),
            match (row.verdict(), row.variant.ordering) {
                // No flag: the barrier, not a release/acquire, published it.
                (Verdict::Correct, layout::publish::Ordering::Barrier) => {
                    "correct: the barrier at this scope publishes the record".to_owned()
                }
                (verdict, _) => verdict.text().to_owned(),
            },
        ]);
    }
    let launches = rows.first().map_or(0, |r| r.counts.launches);
    let table = render_some(builder, look, 4..8);
    let layout = rows.iter().find(|r| r.variant.memory == layout::publish::Memory::Global).map_or(String::new(), |r| {
        let flags = match r.geometry.flags {
            FlagPlacement::SameSlot => "in the payload's own 16-byte slot (the page's layout)",
            FlagPlacement::Apart => "half the slots away from its payload",
        };
        let preload =
            if r.geometry.preload { ", and each consumer reads the payload once before it waits" } else { "" };
        let delay = match r.geometry.delay_ns {
            0 => String::new(),
            ns => format!("; each producer waits {ns} ns before each round"),
        };
        format!(
            "Across blocks each round's flag sits {flags}{preload}{delay}.\n\
                 Each variant's litmus twin is the MP test with the same flag, scope and placement: `host litmus --test mp`.\n"
        )
    });
    format!(
        "Publication: producer writes {{42, 3.5}} then sets a flag; consumer waits for the flag, reads the record.\n\
         {launches} launches per variant; a stale record is one read as {{0, 0}} after the flag was seen.\n{layout}{table}\n"
    )
}

/// The line that names the variants a default run left out, or nothing.
fn not_run(variants: &[crate::gpu::publish::PublishVariant]) -> String {
    if variants.is_empty() {
        return String::new();
    }
    let (major, minor) = layout::Module::Hopper.min_compute_capability();
    let names: Vec<&str> = variants.iter().map(|v| v.key()).collect();
    format!(
        "Not run: {} (needs compute capability {major}.{minor}: thread-block clusters, the Hopper module).\n",
        names.join(", ")
    )
}
