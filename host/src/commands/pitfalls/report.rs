//! `pitfalls`' report: for each pitfall, the mistake, what catches it and
//! the fix, then one row per figure of each version: its count, what it is
//! out of (a number and what one of them is, which is what the rate is per),
//! and the rate. CSV has a row per figure too. No plot. A fix that went
//! wrong fails the run.

use tabled::builder::Builder;

use super::PitfallsReport;
use crate::device::DeviceInfo;
use crate::pitfalls::{Figure, Finding, Trial, describe};
use crate::report::table::{Look, device_header, rate_per_million, render_some, significant};
use crate::report::{Checks, Csv, Report};

/// The columns of `pitfalls`' CSV, one row per figure of each version: its
/// main one (`counts_failures` true), then its further ones.
const HEADER: [&str; 12] = [
    "pitfall",
    "version",
    "broken",
    "condition",
    "failures",
    "out_of",
    "unit",
    "per",
    "counts_failures",
    "detail",
    "time_ms",
    "refused",
];

impl Report for PitfallsReport {
    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        let mut text = device_header(device, None);
        for finding in &self.findings {
            text.push('\n');
            text.push_str(&finding_table(finding, look));
        }
        text
    }

    fn csv(&self) -> Csv {
        let mut rows = Vec::new();
        for finding in &self.findings {
            for t in &finding.trials {
                let row = |figure: &Figure, main: bool| {
                    let only_main = |cell: String| if main { cell } else { String::new() };
                    vec![
                        finding.pitfall.key().to_owned(),
                        t.name.clone(),
                        t.broken.to_string(),
                        t.how.clone(),
                        figure.count.to_string(),
                        figure.out_of.to_string(),
                        figure.unit.clone(),
                        figure.per.clone(),
                        figure.fails.to_string(),
                        only_main(t.detail.clone().unwrap_or_default()),
                        only_main(t.time_ms.map_or_else(String::new, |ms| ms.to_string())),
                        only_main(t.refused.clone().unwrap_or_default()),
                    ]
                };
                rows.push(row(&t.main(), true));
                rows.extend(t.also.iter().map(|figure| row(figure, false)));
            }
        }
        Csv { header: &HEADER, rows }
    }

    fn checks(&self) -> Checks {
        let lines = self
            .findings
            .iter()
            .flat_map(|f| f.trials.iter().filter(|t| t.fix_failed()).map(move |t| (f.pitfall, t)))
            .map(|(pitfall, t)| match &t.refused {
                Some(refusal) => {
                    format!("fix failed: {} {}: the driver refused it: {refusal}\n", pitfall.key(), t.name)
                }
                None => format!("fix failed: {} {}: {}\n", pitfall.key(), t.name, what_failed(t)),
            })
            .collect();
        Checks { passed: self.fixes_held(), lines }
    }
}

/// One pitfall: its three sentences and its versions' table, a row per
/// figure. A condition every version shares is said once, above the table,
/// not repeated in a column.
pub fn finding_table(finding: &Finding, look: Look) -> String {
    let words = describe(finding.pitfall);
    let shared = match finding.trials.as_slice() {
        [first, rest @ ..] if rest.iter().all(|t| t.how == first.how) => Some(first.how.as_str()),
        _ => None,
    };
    // Conditions that differ only before their first ": " (what each version
    // does: the rest is the run's size) keep that part in the column and say
    // the rest once.
    let shared_tail = shared.is_none().then(|| shared_tail(&finding.trials)).flatten();
    let mut rows: Vec<Vec<String>> = vec![
        ["version", "role", "condition", "went wrong", "out of", "rate per million [95%]", "ms", "verdict"]
            .map(str::to_owned)
            .to_vec(),
    ];
    for t in &finding.trials {
        rows.push(vec![
            t.name.clone(),
            (if t.broken { "mistake" } else { "fix" }).to_owned(),
            match shared_tail {
                Some(tail) => t.how.strip_suffix(tail).unwrap_or(&t.how).trim_end_matches(": ").to_owned(),
                None => t.how.clone(),
            },
            went_wrong(t),
            out_of(&t.main()),
            if t.out_of == 0 { String::new() } else { rate_per_million(t.failures, t.out_of) },
            t.time_ms.map_or_else(String::new, |ms| significant(f64::from(ms))),
            verdict(t),
        ]);
        for figure in &t.also {
            rows.push(vec![
                String::new(),
                String::new(),
                String::new(),
                format!("{} {}", figure.count, figure.unit),
                out_of(figure),
                if figure.out_of == 0 { String::new() } else { rate_per_million(figure.count, figure.out_of) },
                String::new(),
                figure_verdict(t, figure),
            ]);
        }
    }
    // The rate and time columns are right-aligned; they move left with the
    // condition column when it goes.
    let (condition_line, numbers) = match shared {
        Some(how) => {
            const CONDITION: usize = 2;
            for row in &mut rows {
                row.remove(CONDITION);
            }
            (format!("Every version: {how}.\n"), 4..6)
        }
        None => (shared_tail.map_or_else(String::new, |tail| format!("Every version: {tail}.\n")), 5..7),
    };
    let mut builder = Builder::default();
    for row in rows {
        builder.push_record(row);
    }
    format!(
        "Pitfall `{}`: {}.\nCaught by: {}.\nFix: {}.\n{condition_line}{}\n",
        finding.pitfall.key(),
        words.mistake,
        words.catches,
        words.fix,
        render_some(builder, look, numbers)
    )
}

/// The part after the first ": " that every version's condition shares,
/// if each has one and they are all the same.
fn shared_tail(trials: &[Trial]) -> Option<&str> {
    let tails: Vec<&str> =
        trials.iter().map(|t| t.how.split_once(": ").map(|(_, tail)| tail)).collect::<Option<_>>()?;
    let first = *tails.first()?;
    tails.iter().all(|&t| t == first).then_some(first)
}

/// A figure's denominator with what one of it is: what its rate is per.
/// Records written before the lab kept it have only the number.
fn out_of(figure: &Figure) -> String {
    if figure.per.is_empty() { figure.out_of.to_string() } else { format!("{} {}", figure.out_of, figure.per) }
}

/// The count of failures with its unit, and what they looked like.
fn went_wrong(t: &Trial) -> String {
    if t.refused.is_some() {
        return "not launched".to_owned();
    }
    match &t.detail {
        Some(detail) => format!("{} {}; {detail}", t.failures, t.unit),
        None => format!("{} {}", t.failures, t.unit),
    }
}

/// A version's verdict in words, from its main figure and its refusal. A
/// broken version that showed nothing is reported with its denominator,
/// never as correct.
fn verdict(t: &Trial) -> String {
    match (&t.refused, t.broken) {
        (Some(refusal), true) => format!("refused by the driver ({refusal})"),
        (Some(refusal), false) => format!("FAILED: refused by the driver ({refusal})"),
        (None, true) if t.failures > 0 => "the mistake showed".to_owned(),
        (None, true) => format!("not seen in {} (not a proof it cannot happen)", t.out_of),
        (None, false) if t.failures > 0 || t.out_of == 0 => "FAILED".to_owned(),
        (None, false) => "held".to_owned(),
    }
}

/// A further figure's verdict: as a main figure's when it counts failures;
/// a cost is reported, and never fails or shows anything.
fn figure_verdict(t: &Trial, figure: &Figure) -> String {
    match (figure.fails, t.broken) {
        (false, _) => "a cost, not a failure".to_owned(),
        _ if t.refused.is_some() => String::new(),
        (true, true) if figure.count > 0 => "the mistake showed".to_owned(),
        (true, true) => format!("not seen in {} (not a proof it cannot happen)", figure.out_of),
        (true, false) if figure.count > 0 => "FAILED".to_owned(),
        (true, false) => "held".to_owned(),
    }
}

/// What made a fix fail, each failing figure with its denominator, for the
/// run's failure line.
fn what_failed(t: &Trial) -> String {
    let said = |f: &Figure| format!("{} {} in {}", f.count, f.unit, out_of(f));
    let main = t.main();
    let mut parts: Vec<String> = t.also.iter().filter(|f| f.failed()).map(said).collect();
    if main.count > 0 || main.out_of == 0 || parts.is_empty() {
        parts.insert(0, said(&main));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(failures: u64, also: Vec<Figure>) -> Trial {
        Trial {
            also,
            ..Trial::new("k", false, String::new(), Figure::failures(failures, 10, "wrong sums", "launches"))
        }
    }

    #[test]
    fn a_fix_failure_names_every_failing_figure_with_its_own_denominator() {
        let timeouts = Figure::failures(3, 400, "blocks that gave up", "blocks");
        assert_eq!(what_failed(&fix(0, vec![timeouts.clone()])), "3 blocks that gave up in 400 blocks");
        assert_eq!(
            what_failed(&fix(2, vec![timeouts])),
            "2 wrong sums in 10 launches; 3 blocks that gave up in 400 blocks"
        );
        assert_eq!(what_failed(&fix(0, vec![])), "0 wrong sums in 10 launches");
    }

    #[test]
    fn a_condition_every_version_shares_is_said_once_above_the_table() {
        let with = |how: &str| Trial { how: how.to_owned(), ..fix(0, vec![]) };
        let finding = |hows: [&str; 2]| Finding {
            pitfall: layout::pitfall::Pitfall::DivergentBarrier,
            trials: hows.iter().map(|h| with(h)).collect(),
        };
        let shared = finding_table(&finding(["n = 16228", "n = 16228"]), Look::Plain);
        assert!(shared.contains("Every version: n = 16228.\n"), "{shared}");
        assert!(!shared.contains("condition"), "{shared}");
        let different = finding_table(&finding(["n = 16228", "n = 4096"]), Look::Plain);
        assert!(!different.contains("Every version"), "{different}");
        assert!(different.contains("condition") && different.contains("n = 4096"), "{different}");
        // What each version does differs; the run's size is said once.
        let sized = finding_table(&finding(["warp barrier: 264 blocks", "block barrier: 264 blocks"]), Look::Plain);
        assert!(sized.contains("Every version: 264 blocks.\n"), "{sized}");
        assert!(sized.contains("warp barrier") && !sized.contains("warp barrier:"), "{sized}");
    }

    #[test]
    fn a_further_figure_gets_its_own_verdict() {
        let t = fix(0, vec![]);
        assert_eq!(figure_verdict(&t, &Figure::cost(4, 9, "abandoned reads", "reads")), "a cost, not a failure");
        assert_eq!(figure_verdict(&t, &Figure::failures(4, 9, "x", "y")), "FAILED");
        assert_eq!(figure_verdict(&t, &Figure::failures(0, 9, "x", "y")), "held");
        let broken = Trial { broken: true, ..t };
        assert_eq!(figure_verdict(&broken, &Figure::failures(4, 9, "x", "y")), "the mistake showed");
        assert!(figure_verdict(&broken, &Figure::failures(0, 9, "x", "y")).starts_with("not seen in 9"));
    }
}
