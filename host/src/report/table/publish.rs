//! `publish`'s table: one row per variant, with the verdict in the page's
//! words.

use tabled::builder::Builder;

use super::{Look, rate_per_million, render_some};
use crate::gpu::publish::FlagPlacement;
use crate::publish::{PublishRow, Verdict, litmus_twin};

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
        "last record",
        "verdict",
        "litmus twin",
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
            format!("{{{}, {}}}", c.observed.0, c.observed.1),
            Verdict::of(row).text().to_owned(),
            {
                let (kernel, placement) = litmus_twin(row.variant);
                format!("mp {} {}", kernel.key(), placement.key())
            },
        ]);
    }
    let launches = rows.first().map_or(0, |r| r.counts.launches);
    let table = render_some(builder, look, 4..8);
    let layout =
        rows.iter().find(|r| r.variant.placement == layout::Placement::InterBlock).map_or(String::new(), |r| {
            let flags = match r.geometry.flags {
                FlagPlacement::SameSlot => "in the payload's own 16-byte slot (the page's layout)",
                FlagPlacement::Apart => "half the slots away from its payload",
            };
            let preload =
                if r.geometry.preload { ", and each consumer reads the payload once before it waits" } else { "" };
            format!(
                "Across blocks each round's flag sits {flags}{preload}.\n\
                 The litmus twin is the MP test with the same flag, run by `host litmus --test mp`.\n"
            )
        });
    format!(
        "Publication: producer writes {{42, 3.5}} then sets a flag; consumer waits for the flag, reads the record.\n\
         {launches} launches per variant; a stale record is one read as {{0, 0}} after the flag was seen.\n{layout}{table}\n"
    )
}
