//! `pitfalls`' report: for each pitfall, the mistake, what catches it and
//! the fix, then one row per version with what happened. CSV has a row per
//! version. No plot. A fix that went wrong fails the run.

use tabled::builder::Builder;

use super::PitfallsReport;
use crate::gpu::DeviceInfo;
use crate::pitfalls::{Finding, Trial, describe};
use crate::report::table::{Look, device_header, rate_per_million, render_some, significant};
use crate::report::{Checks, Csv, Report};

/// The columns of `pitfalls`' CSV, one row per version.
const HEADER: [&str; 10] =
    ["pitfall", "version", "broken", "condition", "failures", "out_of", "unit", "detail", "time_ms", "refused"];

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
        let rows = self
            .findings
            .iter()
            .flat_map(|f| f.trials.iter().map(move |t| (f.pitfall, t)))
            .map(|(pitfall, t)| {
                vec![
                    pitfall.key().to_owned(),
                    t.name.clone(),
                    t.broken.to_string(),
                    t.how.clone(),
                    t.failures.to_string(),
                    t.out_of.to_string(),
                    t.unit.clone(),
                    t.detail.clone().unwrap_or_default(),
                    t.time_ms.map_or_else(String::new, |ms| ms.to_string()),
                    t.refused.clone().unwrap_or_default(),
                ]
            })
            .collect();
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
                None => {
                    format!("fix failed: {} {}: {} {} in {}\n", pitfall.key(), t.name, t.failures, t.unit, t.out_of)
                }
            })
            .collect();
        Checks { passed: self.fixes_held(), lines }
    }
}

/// One pitfall: its three sentences and its versions' table.
pub fn finding_table(finding: &Finding, look: Look) -> String {
    let words = describe(finding.pitfall);
    let mut builder = Builder::default();
    builder.push_record([
        "version",
        "",
        "condition",
        "went wrong",
        "out of",
        "rate per million [95%]",
        "ms",
        "verdict",
    ]);
    for t in &finding.trials {
        builder.push_record([
            t.name.clone(),
            (if t.broken { "mistake" } else { "fix" }).to_owned(),
            t.how.clone(),
            went_wrong(t),
            t.out_of.to_string(),
            if t.out_of == 0 { String::new() } else { rate_per_million(t.failures, t.out_of) },
            t.time_ms.map_or_else(String::new, |ms| significant(f64::from(ms))),
            verdict(t),
        ]);
    }
    format!(
        "Pitfall `{}`: {}.\nCaught by: {}.\nFix: {}.\n{}\n",
        finding.pitfall.key(),
        words.mistake,
        words.catches,
        words.fix,
        render_some(builder, look, 4..7)
    )
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

/// A version's verdict in words. A broken version that showed nothing is
/// reported with its denominator, never as correct.
fn verdict(t: &Trial) -> String {
    match (&t.refused, t.broken) {
        (Some(refusal), true) => format!("refused by the driver ({refusal})"),
        (Some(refusal), false) => format!("FAILED: refused by the driver ({refusal})"),
        (None, true) if t.failures > 0 => "the mistake showed".to_owned(),
        (None, true) => format!("not seen in {} (not a proof it cannot happen)", t.out_of),
        (None, false) if t.fix_failed() => "FAILED".to_owned(),
        (None, false) => "held".to_owned(),
    }
}
