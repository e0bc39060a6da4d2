//! `scopes`' report: the ladder table, one row per rung, in the table and in
//! CSV. No plot. A rung that ran with a timeout (a progress failure, not an
//! ordering one), no round trip, or (`.gpu`) both agents on one SM fails the
//! run, one line each.

use tabled::builder::Builder;

use super::{ScopesResults, Spread, failures};
use crate::device::DeviceInfo;
use crate::report::table::{Look, device_header, render_some};
use crate::report::{Checks, Csv, Report};

/// The columns of `scopes`' CSV, one row per rung and fence.
const HEADER: [&str; 18] = [
    "scope",
    "includes",
    "agents",
    "launches",
    "round_trips",
    "timeouts",
    "trip_median_ns",
    "trip_p10_ns",
    "trip_p90_ns",
    "trip_ratio_to_cta",
    "host_trip_median_ns",
    "fence",
    "ns_per_fence",
    "fence_ratio_to_cta",
    "sms",
    "unavailable",
    "publication",
    "litmus",
];

/// A figure in nanoseconds with one decimal, or empty.
fn ns(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| format!("{v:.1}"))
}

/// A ratio with two decimals and its `×`, or empty.
fn times(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| format!("{v:.2}×"))
}

/// `median [p10, p90]` of a spread, or "none".
fn spread(s: Option<Spread>) -> String {
    s.map_or_else(|| "none".to_owned(), |s| format!("{:.1} [{:.1}, {:.1}]", s.median_ns, s.p10_ns, s.p90_ns))
}

impl Report for ScopesResults {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        device_header(device, None) + "\n" + &ladder(self, look)
    }

    fn csv(&self) -> Csv {
        let mut rows = Vec::new();
        for row in &self.rungs {
            let t = row.trips.as_ref();
            let mut line = |fence: String, cost: Option<f64>, ratio: Option<f64>| {
                rows.push(vec![
                    row.rung.scope().to_owned(),
                    row.includes.clone(),
                    row.agents.clone(),
                    t.map_or_else(String::new, |t| t.launches.to_string()),
                    t.map_or_else(String::new, |t| t.trips.to_string()),
                    t.map_or_else(String::new, |t| t.timeouts.to_string()),
                    ns(t.and_then(|t| t.device).map(|s| s.median_ns)),
                    ns(t.and_then(|t| t.device).map(|s| s.p10_ns)),
                    ns(t.and_then(|t| t.device).map(|s| s.p90_ns)),
                    t.and_then(|t| t.ratio_to_cta).map_or_else(String::new, |r| format!("{r:.3}")),
                    ns(t.and_then(|t| t.host).map(|s| s.median_ns)),
                    fence,
                    ns(cost),
                    ratio.map_or_else(String::new, |r| format!("{r:.3}")),
                    t.map_or_else(String::new, |t| {
                        t.sms.iter().map(|(a, b)| format!("{a}/{b}")).collect::<Vec<_>>().join(" ")
                    }),
                    row.unavailable.clone().unwrap_or_default(),
                    row.publication.clone().unwrap_or_default(),
                    row.litmus.clone().unwrap_or_default(),
                ]);
            };
            if row.fences.is_empty() {
                line(String::new(), None, None);
            }
            for f in &row.fences {
                line(f.fence.clone(), Some(f.ns_per_fence), f.ratio_to_cta);
            }
        }
        Csv { header: &HEADER, rows }
    }

    fn checks(&self) -> Checks {
        Checks::from_lines(failures(self).into_iter().map(|l| l + "\n").collect())
    }
}

/// The ladder table, then the fence table, each one row per rung.
pub fn ladder(results: &ScopesResults, look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record([
        "scope",
        "includes",
        "agents",
        "round trips",
        "timeouts",
        "ns per round trip [p10, p90]",
        "× .cta",
    ]);
    for row in &results.rungs {
        let mut cells = vec![row.rung.scope().to_owned(), row.includes.clone(), row.agents.clone()];
        match (&row.trips, &row.unavailable) {
            (Some(t), _) => cells.extend([
                t.trips.to_string(),
                format!("{} of {} launches", t.timeouts, t.launches),
                spread(t.device),
                times(t.ratio_to_cta),
            ]),
            (None, reason) => {
                cells.extend([reason.clone().unwrap_or_default(), String::new(), String::new(), String::new()])
            }
        }
        builder.push_record(cells);
    }
    let trips = render_some(builder, look, 3..7);
    let mut fences = Builder::default();
    fences.push_record(["scope", "fence", "ns per fence", "× .cta", "fence", "ns per fence", "× .cta"]);
    for row in &results.rungs {
        let mut cells = vec![row.rung.scope().to_owned()];
        if row.fences.is_empty() {
            cells.extend([row.unavailable.clone().unwrap_or_default(), String::new(), String::new()]);
            cells.extend([String::new(), String::new(), String::new()]);
        }
        for f in &row.fences {
            cells.extend([f.fence.clone(), ns(Some(f.ns_per_fence)), times(f.ratio_to_cta)]);
        }
        fences.push_record(cells);
    }
    let fence_table = render_some(fences, look, 2..4);
    // Each rung's correct publication and MP row, when the run made them.
    let checked = results.rungs.iter().any(|r| r.publication.is_some() || r.litmus.is_some());
    let checks = if checked {
        let mut table = Builder::default();
        table.push_record(["scope", "correct publication", "MP litmus row"]);
        for row in &results.rungs {
            let cell = |text: &Option<String>| text.clone().or_else(|| row.unavailable.clone()).unwrap_or_default();
            table.push_record([row.rung.scope().to_owned(), cell(&row.publication), cell(&row.litmus)]);
        }
        format!(
            "\n\nAt each rung, the publication that releases and acquires at its scope (one launch) and MP with\n\
             release/acquire at its scope between agents placed as the rung's are; a zero comes with its 95% bound.\n{}",
            render_some(table, look, 0..0)
        )
    } else {
        String::new()
    };
    let o = &results.options;
    let host = results
        .rungs
        .iter()
        .filter_map(|r| Some((r.rung.scope(), r.trips.as_ref()?.host?)))
        .map(|(scope, s)| format!("On {scope} the CPU agent's own clock gave {} ns per round trip.\n", spread(Some(s))))
        .collect::<String>();
    let sms = results
        .rungs
        .iter()
        .filter(|r| r.rung == crate::gpu::ladder::Rung::Gpu)
        .filter_map(|r| r.trips.as_ref())
        .map(|t| {
            let pairs = t.sms.iter().map(|(a, b)| format!("{a} and {b}")).collect::<Vec<_>>().join(", ");
            format!("The .gpu rung's two blocks ran on SMs {pairs} (one pair per launch).\n")
        })
        .collect::<String>();
    format!(
        "The scope ladder: a ping-pong round trip between two agents at each scope (release store, acquire spin),\n\
         {} launches per rung of {} batches of {} round trips, each batch one sample on the GPU's %globaltimer.\n\
         {host}{sms}{trips}\n\
         One fence: the median loop of {} fences (a volatile store before each) minus the same loop without fences\n\
         ({} ns per iteration), {} loops each.\n{fence_table}{checks}\n",
        o.launches,
        o.shape.batches,
        o.shape.per_batch,
        o.iterations,
        ns(results.loop_ns),
        o.repeats,
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::{FenceCost, RungRow, ScopesOptions, Trips, count_line, fill_ratios};
    use super::*;
    use crate::gpu::ladder::{Rung, TripShape};

    /// A ladder with made-up figures (no GPU measured them): `.cta` at 100
    /// ns, `.cluster` unavailable, `.gpu` at 400 ns, `.sys` at 1,500 ns.
    pub(crate) fn fixture() -> ScopesResults {
        let spread = |m: f64| Some(Spread { samples: 128, median_ns: m, p10_ns: m * 0.9, p90_ns: m * 1.2 });
        let trips = |m: f64, host: Option<Spread>, sms: Vec<(u32, u32)>| Trips {
            launches: 2,
            trips: 8192,
            timeouts: 0,
            device: spread(m),
            host,
            ratio_to_cta: None,
            sms,
        };
        let fences = |scope: &str, acq_rel: f64, sc: f64| {
            vec![
                FenceCost { fence: format!("fence.acq_rel.{scope}"), ns_per_fence: acq_rel, ratio_to_cta: None },
                FenceCost { fence: format!("fence.sc.{scope}"), ns_per_fence: sc, ratio_to_cta: None },
            ]
        };
        let row = |rung: Rung, trips: Option<Trips>, fences: Vec<FenceCost>, unavailable: Option<&str>| RungRow {
            rung,
            includes: rung.includes().to_owned(),
            agents: rung.agents().to_owned(),
            trips,
            fences,
            unavailable: unavailable.map(str::to_owned),
            publication: None,
            litmus: None,
        };
        let mut rungs = vec![
            row(Rung::Cta, Some(trips(100.0, None, vec![(0, 0), (0, 0)])), fences("cta", 2.0, 4.0), None),
            row(Rung::Cluster, None, Vec::new(), Some(super::super::NEEDS_HOPPER)),
            row(Rung::Gpu, Some(trips(400.0, None, vec![(0, 2), (2, 4)])), fences("gpu", 20.0, 30.0), None),
            row(Rung::Sys, Some(trips(1500.0, spread(1480.0), vec![(0, 0), (0, 0)])), fences("sys", 40.0, 60.0), None),
        ];
        for row in rungs.iter_mut().filter(|r| r.trips.is_some()) {
            row.publication = Some(count_line(0, 2_162_688, "stale", "pairs"));
            row.litmus =
                Some(format!("MP at {}: {}", row.rung.scope(), count_line(3, 100_000_000, "weak", "instances")));
        }
        fill_ratios(&mut rungs);
        ScopesResults {
            options: ScopesOptions {
                launches: 2,
                shape: TripShape { batches: 16, per_batch: 256, budget_ns: 1_000_000_000 },
                iterations: 4096,
                repeats: 32,
                checks: true,
            },
            loop_ns: Some(1.5),
            rungs,
        }
    }

    #[test]
    fn the_check_columns_appear_only_when_filled() {
        let mut results = fixture();
        results.rungs.iter_mut().for_each(|r| (r.publication, r.litmus) = (None, None));
        assert!(!ladder(&results, Look::Plain).contains("correct publication"));
        results.rungs[0].publication = Some("0 stale in 10^8".to_owned());
        assert!(ladder(&results, Look::Plain).contains("0 stale in 10^8"));
    }
}
