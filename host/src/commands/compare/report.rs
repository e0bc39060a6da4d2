//! `compare`'s tables: the two runs named, then each headline figure of
//! both with B's as a ratio of A's, then the bits of the reproducible sums.

use tabled::builder::Builder;

use super::comparison::{Comparison, Pair, Run};
use crate::report::table::{Look, render_some, significant};

/// The whole comparison as text.
pub fn tables(c: &Comparison, look: Look) -> String {
    let [a, b] = &c.runs;
    let mut text = format!("Run A: {}\n\nRun B: {}\n", describe(a), describe(b));
    let sections: [(&str, &str, &[Pair]); 4] = [
        ("The page's sweep at block 256 (warm)", "median ms", &c.sweep),
        ("The bench at its smallest common size, where the launch dominates", "median ms", &c.bench_small),
        ("The bench at its largest common size, where memory bandwidth dominates", "median ms", &c.bench_large),
        ("The scope ladder: one round trip between two agents", "median ns", &c.rungs),
    ];
    for (title, unit, pairs) in sections {
        text.push('\n');
        if pairs.is_empty() {
            text += &format!("{title}: not in both runs.\n");
            continue;
        }
        let mut builder = Builder::default();
        builder.push_record(["measured".to_owned(), format!("A, {unit}"), format!("B, {unit}"), "B / A".to_owned()]);
        for p in pairs {
            builder.push_record([p.what.clone(), significant(p.a), significant(p.b), format!("{:.2}", p.ratio())]);
        }
        text +=
            &format!("{title}: B's time over A's, above 1 where B is slower\n{}\n", render_some(builder, look, 1..4));
    }
    text.push('\n');
    text += &bits(c);
    text
}

/// One line naming a run: its GPU, driver, commit and date.
fn describe(run: &Run) -> String {
    let m = &run.manifest;
    format!(
        "{} ({} SMs, driver {}, CUDA {}), commit {}, {} ({})",
        m.gpu.name,
        m.gpu.sm_count,
        m.gpu.driver.as_deref().unwrap_or("unknown"),
        m.gpu.cuda,
        m.commit.describe(),
        m.started,
        run.dir.display()
    )
}

/// The sentence on the reproducible sums' bits.
fn bits(c: &Comparison) -> String {
    if let Some(why) = &c.bits_not_compared {
        return format!("Bits of the reproducible sums: not compared: {why}.\n");
    }
    let differ = c.bits.iter().filter(|b| !b.same()).count();
    let arrays = c.bits.iter().map(|b| (&b.data, b.n)).collect::<std::collections::BTreeSet<_>>().len();
    let sums = c.bits.iter().map(|b| (&b.data, b.n, b.method)).collect::<std::collections::BTreeSet<_>>().len();
    if differ == 0 {
        format!(
            "Same bits on both GPUs: {sums} sums of the reproducible kernels on the accuracy run's {arrays} arrays, \
             {} launches in all, compared bit for bit.\n",
            c.bits.len()
        )
    } else {
        format!(
            "{differ} of {} launches of the reproducible kernels' {sums} sums differ between the two GPUs; the first \
             is named on stderr.\n",
            c.bits.len()
        )
    }
}
