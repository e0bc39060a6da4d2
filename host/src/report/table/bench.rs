//! `bench`'s table: every sum kernel beside the device's copy and an empty
//! launch.

use tabled::builder::Builder;

use super::{Check, Look, check_sentence, render_some};
use crate::bench::{BenchReport, PER_ELEMENT_ATOMICS_MAX_N};
use crate::report::INPUT_BYTES_PER_ELEMENT;
use crate::{reference, stats};

/// The bench table: per size, the copy and the empty launch, then every
/// kernel with its median, spread, input bandwidth, share of the copy's
/// bandwidth and multiple of an empty launch.
pub fn bench(report: &BenchReport, look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record(["n", "kernel", "median ms", "min ms", "max ms", "GB/s", "% of copy", "x empty", "sums"]);
    let ms = |t: &[f32]| stats::median(t).unwrap_or(f32::NAN);
    let spread = |t: &[f32]| stats::min_max(t).unwrap_or((f32::NAN, f32::NAN));
    for row in &report.rows {
        let n = row.sums.n;
        let copy = ms(&row.copy_ms);
        let copy_gbs = stats::gb_per_s(2 * n as u64 * INPUT_BYTES_PER_ELEMENT, copy);
        let empty = ms(&row.empty_ms);
        let (lo, hi) = spread(&row.copy_ms);
        builder.push_record([
            n.to_string(),
            "copy (read+write)".to_owned(),
            format!("{copy:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            format!("{copy_gbs:.1}"),
            "100.0".to_owned(),
            format!("{:.2}", copy / empty),
            "-".to_owned(),
        ]);
        let (lo, hi) = spread(&row.empty_ms);
        builder.push_record([
            n.to_string(),
            "empty launch".to_owned(),
            format!("{empty:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            "-".to_owned(),
            "-".to_owned(),
            "1.00".to_owned(),
            "-".to_owned(),
        ]);
        for m in &row.sums.measurements {
            let t = ms(&m.times_ms);
            let (lo, hi) = spread(&m.times_ms);
            let gbs = stats::gb_per_s(n as u64 * INPUT_BYTES_PER_ELEMENT, t);
            let wrong = m.sums.iter().filter(|&&s| !reference::bit_exact(s, row.sums.reference)).count();
            builder.push_record([
                n.to_string(),
                m.kernel.label.to_owned(),
                format!("{t:.4}"),
                format!("{lo:.4}"),
                format!("{hi:.4}"),
                format!("{gbs:.1}"),
                format!("{:.1}", 100.0 * gbs / copy_gbs),
                format!("{:.2}", t / empty),
                if wrong == 0 { "exact".to_owned() } else { format!("{wrong} wrong") },
            ]);
        }
    }
    let o = &report.options;
    let cache = if o.plan.cold {
        "cold: L2 flushed before every timed launch (and copy)"
    } else {
        "warm: inputs that fit in L2 may be read from cache; use --cold to flush it"
    };
    let table = render_some(builder, look, 2..8);
    let check = Check {
        checked: report.rows.iter().flat_map(|r| &r.sums.measurements).map(|m| m.sums.len()).sum(),
        wrong: report.mismatches().len(),
        things: "sums (every launch, warm-ups included)",
        reference: "the Kahan double reference",
        how: "bit for bit, compared with == and not a tolerance",
    };
    format!(
        "Bench: block {}, {} timed runs after {} warm-ups; L2 {cache}.\n\
         Input: every 64th element is 0, 1, 2, 3 in turn, the rest 0, so every partial sum is an integer\n\
         below 2^24 and every sum is compared with == to the Kahan reference. GB/s counts input bytes;\n\
         the copy counts bytes read plus written. Kernels with one global atomic per element (the page's\n\
         naive kernel) are left out above 2^{}.\n{table}\n{}",
        o.block,
        o.plan.runs,
        o.plan.warmup,
        PER_ELEMENT_ATOMICS_MAX_N.trailing_zeros(),
        check_sentence(&check)
    )
}
