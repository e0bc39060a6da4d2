//! `publish`'s table: one row per variant, with the verdict in the page's
//! words.

use tabled::builder::Builder;

use super::{Look, render_some};
use crate::publish::{PublishRow, Verdict};

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
            row.variant.key().to_owned(),
            row.variant.placement.text().to_owned(),
            row.variant.scope.text().to_owned(),
            row.variant.ordering.text().to_owned(),
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
