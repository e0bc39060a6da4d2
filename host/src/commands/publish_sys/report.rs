//! `publish-sys`'s report: one row per variant, with the verdict in
//! `publish`'s words and the model's reason, in the table and in CSV. No
//! plot. A guaranteed variant that saw a stale record or timed out fails the
//! run; a timeout is named as a progress failure, not an ordering one.

use tabled::builder::Builder;

use super::{PublishSysResults, PublishSysRow};
use crate::device::DeviceInfo;
use crate::report::table::{Look, device_header, rate_per_million, render_some, significant};
use crate::report::{Checks, Csv, Report};

/// The columns of `publish-sys`'s CSV, one row per variant.
const HEADER: [&str; 13] = [
    "variant",
    "direction",
    "gpu_flag",
    "cpu_ordering",
    "guaranteed",
    "launches",
    "slots",
    "cpu_threads",
    "pairs",
    "stale",
    "timeouts",
    "wall_s",
    "verdict",
];

impl Report for PublishSysResults {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, None) + "\n" + &publish_sys(&self.rows, look)
    }

    fn csv(&self) -> Csv {
        let rows = self
            .rows
            .iter()
            .map(|r| {
                let c = &r.counts;
                vec![
                    r.variant.name.to_owned(),
                    r.variant.kernel.direction.text().to_owned(),
                    r.variant.kernel.flag_op().to_owned(),
                    r.variant.cpu.text().to_owned(),
                    r.variant.guaranteed.to_string(),
                    c.launches.to_string(),
                    r.geometry.slots.to_string(),
                    r.geometry.cpu_threads.to_string(),
                    c.counts.pairs.to_string(),
                    c.counts.stale.to_string(),
                    c.counts.timeouts.to_string(),
                    c.wall_s.to_string(),
                    r.verdict().text().to_owned(),
                ]
            })
            .collect();
        Csv { header: &HEADER, rows }
    }

    fn checks(&self) -> Checks {
        Checks { passed: !self.rows.iter().any(|r| r.verdict().fails_the_run()), lines: String::new() }
    }
}

/// Pairs a second over the run's wall clock, in millions to three
/// significant digits (one run's wall clock says no more); a run too short
/// to time shows a dash.
fn pairs_per_second(row: &PublishSysRow) -> String {
    let c = &row.counts;
    if c.wall_s > 0.0 { format!("{} M/s", significant(c.counts.pairs as f64 / c.wall_s / 1e6)) } else { "-".to_owned() }
}

/// The table: one row per variant, the verdict in `publish`'s words, then
/// each variant's reason from the model.
pub fn publish_sys(rows: &[PublishSysRow], look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record([
        "variant",
        "direction",
        "GPU flag",
        "CPU flag",
        "pairs observed",
        "stale",
        "stale per million [95%]",
        "timeouts",
        "pairs per second",
        "verdict",
    ]);
    for row in rows {
        let c = &row.counts.counts;
        builder.push_record([
            row.variant.name.to_owned(),
            row.variant.kernel.direction.text().to_owned(),
            row.variant.kernel.flag_op().to_owned(),
            row.variant.cpu.text().to_owned(),
            c.pairs.to_string(),
            c.stale.to_string(),
            rate_per_million(c.stale, c.pairs),
            c.timeouts.to_string(),
            pairs_per_second(row),
            row.verdict().text().to_owned(),
        ]);
    }
    let table = render_some(builder, look, 4..9);
    let (launches, slots, threads) =
        rows.first().map_or((0, 0, 0), |r| (r.counts.launches, r.geometry.slots, r.geometry.cpu_threads));
    let reasons: String = rows.iter().map(|r| format!("- {}: {}.\n", r.variant.name, r.variant.reason)).collect();
    format!(
        "System scope: a GPU and a CPU thread publish {} 16-byte records a round through mapped host memory;\n\
         the producer writes the record, then sets its flag to the round; the consumer waits for the flag and reads the record.\n\
         {launches} rounds per variant, {threads} CPU threads; a stale record is one not the round's after its flag was seen.\n\
         {table}\nWhat the PTX memory model says of each (a host thread is in the .sys scope, in no .gpu one):\n{reasons}",
        slots
    )
}
