//! The litmus chapter's own tables, from the run's litmus records:
//!
//! - `litmus-headline.md`: the few litmus rows that carry the chapter's
//!   argument, each with its count in the default environment and its best
//!   rate over the presets' runs. Which rows is the chapter's choice
//!   ([`HEADLINE`]); every number is the run's. The rest of the counts are
//!   in the appendix's full tables and in CSV.
//! - `litmus-coverage.md`: how many of the default run's rows whose weak
//!   outcome the model allows showed it, and, test by test, the variants
//!   that did not, with the fewest instances among them and so the largest
//!   bound ([`coverage`]).
//! - `litmus-unseen.md`: each of those rows with its own instances and
//!   bound, whether its machine code keeps the program's order, and which
//!   preset's run showed it ([`unseen`]).

use std::fs;
use std::path::Path;

use lab_records::host::{LitmusRow, Record, Results};

use crate::Error;
use crate::anchors::Coverage;

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
/// each preset's, then the environments `host tune` found on this GPU, by
/// step name.
const RUNS: [&str; 6] =
    ["litmus", "litmus-stale-l1", "litmus-tuned-mp", "litmus-tuned-wrc", "litmus-tuned-iriw", TUNED];

/// The step that runs the suite in the environments tuned on this GPU.
const TUNED: &str = "litmus-gpu-tuned";

/// Where a run keeps steps made later than itself, at another commit: a run
/// of its own, with its own manifest, inside the first (the reference run's
/// tuned steps). A learner's run has them beside the others.
pub const LATER: &str = "gpu-tuned";

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
    weak_per_million(c.weak, c.instances)
}

/// `weak` of `instances` per million, three significant digits, or for a
/// zero the rule of three's bound: how every litmus figure the book
/// generates reads.
pub fn weak_per_million(weak: u64, instances: u64) -> String {
    if weak == 0 {
        format!("0 (< {})", significant(lab_stats::rule_of_three(instances) * 1e6))
    } else {
        significant(weak as f64 / instances as f64 * 1e6)
    }
}

/// A litmus run's step name and its rows.
type Run = (&'static str, Vec<LitmusRow>);

/// The litmus runs of `results` ([`RUNS`]) that it has, by step name, or
/// `None` when it has no `litmus.json` (the default run, always first).
fn read_runs(results: &Path) -> Result<Option<Vec<Run>>, Error> {
    let mut runs = Vec::new();
    for name in RUNS {
        let file = format!("{name}.json");
        let path = if results.join(&file).exists() { results.join(&file) } else { results.join(LATER).join(&file) };
        let Ok(text) = fs::read_to_string(&path) else { continue };
        let record: Record = serde_json::from_str(&text).map_err(|e| Error(format!("{}: {e}", path.display())))?;
        let Results::Litmus(litmus) = record.results else {
            return Err(Error(format!("{}: not a `host litmus` record", path.display())));
        };
        runs.push((name, litmus.rows));
    }
    Ok(runs.first().is_some_and(|(name, _)| *name == "litmus").then_some(runs))
}

/// The headline table from the litmus runs of `results`, or `None` when it
/// has no `litmus.json`.
pub fn headline(results: &Path) -> Result<Option<String>, Error> {
    Ok(read_runs(results)?.map(|runs| table(&runs)))
}

/// The chapter's coverage paragraph and table from the default run of
/// `results`, beside cuda-litmus's published coverage, or `None` when it
/// has no `litmus.json`.
pub fn coverage(results: &Path, published: &[Coverage]) -> Result<Option<String>, Error> {
    Ok(read_runs(results)?.map(|runs| {
        let tuned = runs.iter().find(|(name, _)| *name == TUNED).map(|(_, rows)| rows.as_slice());
        coverage_text(&runs[0].1, published, tuned)
    }))
}

/// The appendix's table of every allowed row the default run never showed
/// the weak outcome of, or `None` when `results` has no `litmus.json`.
pub fn unseen(results: &Path) -> Result<Option<String>, Error> {
    Ok(read_runs(results)?.map(|runs| unseen_table(&runs)))
}

/// One sentence on the suite run in a GPU's tuned winners (`path`, a
/// `host litmus --tuned` record): how many of its allowed rows showed their
/// weak outcome, and how many instances broke a rule.
pub fn tuned_coverage(path: &Path) -> Result<String, Error> {
    let text = fs::read_to_string(path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
    let record: Record = serde_json::from_str(&text).map_err(|e| Error(format!("{}: {e}", path.display())))?;
    let Results::Litmus(litmus) = record.results else {
        return Err(Error(format!("{}: not a `host litmus` record", path.display())));
    };
    let (allowed, unseen) = allowed_and_unseen(&litmus.rows);
    let seconds = litmus.rows.iter().map(|r| r.counts.seconds).fold(0.0, f64::max);
    Ok(format!(
        "The whole suite in these winners (a variant without one of its own in its test's, a test without any in \
         the default environment), about {} s a row: \
         **{} of its {allowed}** allowed rows showed their weak outcome.",
        significant(seconds),
        allowed - unseen.len()
    ))
}

/// A row of a run as the registry knows it: its test (from the kernel's
/// name, so that a row whose kernel has since left the registry still has
/// one) and, if the registry still has it, its kernel.
fn test_of(row: &LitmusRow) -> Option<(layout::litmus::Test, Option<&'static layout::litmus::Kernel>)> {
    let symbol = format!("litmus_{}", row.kernel);
    let kernel = layout::litmus::KERNELS.iter().find(|k| k.entry.symbol == symbol);
    let test = match kernel {
        Some(k) => k.test,
        // The longest test key the name starts with (`s_` is a prefix of no
        // other test's kernels, but a key could be).
        None => *layout::litmus::Test::ALL
            .iter()
            .filter(|t| row.kernel.starts_with(&format!("{}_", t.key())))
            .max_by_key(|t| t.key().len())?,
    };
    Some((test, kernel))
}

/// The variant part of a row's kernel name, as the tables write variants
/// (`rel-acq-cta`).
fn variant_of(row: &LitmusRow, test: layout::litmus::Test) -> String {
    row.kernel.strip_prefix(&format!("{}_", test.key())).unwrap_or(&row.kernel).replace('_', "-")
}

/// One row of the default run whose weak outcome the model allows and which
/// never showed it.
struct Unseen<'a> {
    row: &'a LitmusRow,
    test: layout::litmus::Test,
    kernel: Option<&'static layout::litmus::Kernel>,
}

/// The rows of `rows` (a run's) whose weak outcome the model allows, and of
/// those the ones that never showed it. The sequential control's rows are
/// not judged by the model, and are left out.
fn allowed_and_unseen(rows: &[LitmusRow]) -> (usize, Vec<Unseen<'_>>) {
    let mut allowed = 0;
    let mut unseen = Vec::new();
    for row in rows.iter().filter(|r| r.allowed && !r.sequential) {
        allowed += 1;
        let Some((test, kernel)) = test_of(row) else { continue };
        if row.counts.histogram.get(test.weak() as usize).copied().unwrap_or(0) == 0 {
            unseen.push(Unseen { row, test, kernel });
        }
    }
    (allowed, unseen)
}

/// The rule of three's bound on a zero in `instances`, per million.
fn bound(instances: u64) -> String {
    format!("< {}", significant(lab_stats::rule_of_three(instances) * 1e6))
}

/// `n` instances, shortly: `1.08e9`.
fn instances(n: u64) -> String {
    format!("{n:.2e}")
}

/// The coverage paragraph and the per-test table of `rows` (the default
/// run's), with the run in the environments tuned on this GPU (`tuned`)
/// and `published`'s figures after the lab's.
fn coverage_text(rows: &[LitmusRow], published: &[Coverage], tuned: Option<&[LitmusRow]>) -> String {
    let (allowed, unseen) = allowed_and_unseen(rows);
    let mut placements: Vec<&str> = Vec::new();
    for u in &unseen {
        if !placements.contains(&u.row.placement.as_str()) {
            placements.push(&u.row.placement);
        }
    }
    let mut out = format!(
        "In the default run, **{} of the {allowed}** rows whose weak outcome the model allows showed it. The other {}, \
         test by test, with the fewest instances any of them ran and so the largest bound:\n\n",
        allowed - unseen.len(),
        unseen.len()
    );
    if let Some(sentence) = published_coverage(published) {
        out = out.replacen(" The other", &format!(" {sentence} The lab's other"), 1);
    }
    if let Some(tuned) = tuned {
        let (of, unseen) = allowed_and_unseen(tuned);
        let sentence =
            format!("In the environments `host tune` found on this GPU, **{} of {of}** did.", of - unseen.len());
        out = out.replacen(" showed it.", &format!(" showed it. {sentence}"), 1);
    }
    out += "| test |";
    for p in &placements {
        out += &format!(" not seen, {p} |");
    }
    out += " fewest instances | largest bound /M |\n|---|";
    out += &"---|".repeat(placements.len());
    out += "---:|---:|\n";
    for test in layout::litmus::Test::ALL {
        let of: Vec<&Unseen<'_>> = unseen.iter().filter(|u| u.test == test).collect();
        let Some(fewest) = of.iter().map(|u| u.row.counts.instances).min() else { continue };
        out += &format!("| {} |", test.name());
        for p in &placements {
            let variants: Vec<String> =
                of.iter().filter(|u| u.row.placement == *p).map(|u| format!("`{}`", variant_of(u.row, test))).collect();
            out += &format!(" {} |", variants.join(" "));
        }
        out += &format!(" {} | {} |\n", instances(fewest), bound(fewest));
    }
    out += "\n";
    out += &sass_sentence(&unseen);
    out += "\n";
    out
}

/// cuda-litmus's coverage in one sentence, GPU by GPU, or `None` without
/// the file's rows: its tests are generated, so it has many more, and the
/// sentence says so.
fn published_coverage(published: &[Coverage]) -> Option<String> {
    let first = published.first()?;
    let name = |gpu: &str| match gpu {
        "a100" => "an A100".to_owned(),
        "h100" => "an H100".to_owned(),
        "gh200" => "a GH200".to_owned(),
        other => other.to_uppercase(),
    };
    let mut per_gpu: Vec<String> =
        published.iter().map(|c| format!("{} on {}", c.allowed_seen, name(&c.gpu))).collect();
    per_gpu[0] = format!("{} of its {} allowed tests on {}", first.allowed_seen, first.allowed, name(&first.gpu));
    let last = per_gpu.pop()?;
    let gpus = if per_gpu.is_empty() { last } else { format!("{} and {last}", per_gpu.join(", ")) };
    let forbidden_seen: u64 = published.iter().map(|c| c.forbidden_seen).sum();
    let forbidden = if forbidden_seen == 0 {
        format!("and in none of its {} forbidden ones on any", first.forbidden)
    } else {
        format!("and {forbidden_seen} times in all among its {} forbidden ones", first.forbidden)
    };
    Some(format!(
        "For scale, cuda-litmus, whose {} generated tests vary scopes and thread placements far more, saw the weak \
         outcome in {gpus} ({forbidden}).",
        first.tests
    ))
}

/// What the lab knows of `unseen`'s machine code: the SASS test holds every
/// kernel's accesses to the program, in program order, except the weak
/// kernels whose loads `ptxas` reorders
/// ([`layout::litmus::Kernel::loads_reordered_by_ptxas`]), so a zero there
/// is the hardware's, not the compiler's.
fn sass_sentence(unseen: &[Unseen<'_>]) -> String {
    let reordered = unseen.iter().filter(|u| u.kernel.is_some_and(|k| k.loads_reordered_by_ptxas())).count();
    let unknown = unseen.iter().filter(|u| u.kernel.is_none()).count();
    let ordered = unseen.len() - reordered - unknown;
    let rows = |n: usize| if n == 1 { "1 row".to_owned() } else { format!("{n} rows") };
    let mut out = if reordered + unknown == 0 {
        "The SASS test finds each of these rows' accesses in the machine code, in program order and with its \
         variant's strength, so these zeros are the hardware's in this environment, not the compiler's."
            .to_owned()
    } else {
        format!(
            "The SASS test finds the accesses of {} of these in the machine code, in program order and with their \
             variant's strength, so their zeros are the hardware's in this environment, not the compiler's.",
            rows(ordered)
        )
    };
    if reordered > 0 {
        out += &format!(" `ptxas` reorders the weak loads of {}.", rows(reordered));
    }
    if unknown > 0 {
        out += &format!(" The kernels of {} are no longer in the registry.", rows(unknown));
    }
    out + " No reading of the SASS the lab has rules any of them out."
}

/// The appendix's table: every allowed row of the default run (`runs[0]`)
/// that never showed its weak outcome, with its instances and bound,
/// whether `ptxas` keeps its loads in program order, and the other runs of
/// `runs` that showed it.
fn unseen_table(runs: &[(&str, Vec<LitmusRow>)]) -> String {
    let (_, unseen) = allowed_and_unseen(&runs[0].1);
    let mut out = String::from(
        "| test | variant | placement | instances | bound /M | SASS | seen in |\n|---|---|---|---:|---:|---|---|\n",
    );
    for u in &unseen {
        let sass = match u.kernel {
            Some(k) if k.loads_reordered_by_ptxas() => "loads reordered",
            Some(_) => "program order",
            None => "not in the registry",
        };
        let seen: Vec<&str> = runs[1..]
            .iter()
            .filter(|(_, rows)| {
                rows.iter().any(|r| {
                    r.kernel == u.row.kernel
                        && r.placement == u.row.placement
                        && !r.sequential
                        && r.counts.histogram.get(u.test.weak() as usize).is_some_and(|&w| w > 0)
                })
            })
            .map(|(step, _)| step.strip_prefix("litmus-").unwrap_or(step))
            .collect();
        let seen = if seen.is_empty() { format!("none of {}", runs.len() - 1) } else { seen.join(", ") };
        out += &format!(
            "| {} | `{}` | {} | {} | {} | {sass} | {seen} |\n",
            u.test.name(),
            variant_of(u.row, u.test),
            u.row.placement,
            u.row.counts.instances,
            bound(u.row.counts.instances),
        );
    }
    out
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

    /// A row of `kernel` in `placement` with `weak` weak outcomes in
    /// `instances`, allowed or not.
    fn one(kernel: &str, placement: &str, allowed: bool, weak: u64, instances: u64) -> LitmusRow {
        let (test, _) = test_of(&LitmusRow {
            kernel: kernel.to_owned(),
            placement: String::new(),
            sequential: false,
            allowed,
            counts: LitmusCounts { instances: 0, histogram: Vec::new(), seconds: 0.0 },
        })
        .unwrap();
        let mut histogram = vec![0u64; layout::litmus::BINS];
        histogram[test.weak() as usize] = weak;
        LitmusRow {
            kernel: kernel.to_owned(),
            placement: placement.to_owned(),
            sequential: false,
            allowed,
            counts: LitmusCounts { instances, histogram, seconds: 1.0 },
        }
    }

    #[test]
    fn coverage_counts_allowed_rows_and_lists_the_unseen_ones_with_their_bounds() {
        let rows = vec![
            one("mp_relaxed_gpu", "inter-block", true, 7, 1_000_000),
            one("mp_relaxed_gpu", "intra-block", true, 0, 1_000_000),
            one("mp_rel_acq_cta", "inter-block", true, 0, 3_000_000),
            one("mp_weak", "intra-block", true, 0, 2_000_000),
            // Forbidden rows, and the sequential control, are not counted.
            one("mp_rel_acq_gpu", "inter-block", false, 0, 1_000_000),
            LitmusRow { sequential: true, ..one("sb_weak", "intra-block", true, 0, 1_000_000) },
            one("cowr_weak", "inter-block", true, 0, 6_000_000),
        ];
        let text = coverage_text(&rows, &[], None);
        assert!(
            text.starts_with("In the default run, **1 of the 5** rows whose weak outcome the model allows"),
            "{text}"
        );
        assert!(text.contains("The other 4,"), "{text}");
        let published = ["a100", "gh200"].map(|gpu| Coverage {
            gpu: gpu.to_owned(),
            tests: 10,
            allowed: 8,
            allowed_seen: if gpu == "a100" { 5 } else { 3 },
            forbidden: 2,
            forbidden_seen: 0,
        });
        let with = coverage_text(&rows, &published, Some(&rows[..1]));
        assert!(
            with.contains(
                "showed it. In the environments `host tune` found on this GPU, **1 of 1** did. For scale, cuda-litmus, whose 10 generated tests vary scopes and thread placements far \
                 more, saw the weak outcome in 5 of its 8 allowed tests on an A100 and 3 on a GH200 (and in none of \
                 its 2 forbidden ones on any). The lab's other 4,"
            ),
            "{with}"
        );
        assert!(
            text.contains("| MP | `relaxed-gpu` `weak` | `rel-acq-cta` | 1.00e6 | < 3.00 |"),
            "the fewest instances and so the largest bound: {text}"
        );
        assert!(text.contains("| CoWR |  | `weak` | 6.00e6 | < 0.500 |"), "{text}");
        assert!(!text.contains("| SB |"), "{text}");
        // MP's weak loads are reordered by ptxas: the SASS sentence says so.
        assert!(
            text.contains("accesses of 3 rows of these") && text.contains("`ptxas` reorders the weak loads of 1 row."),
            "{text}"
        );

        let later = vec![one("mp_rel_acq_cta", "inter-block", true, 2, 1_000_000)];
        let table = unseen_table(&[("litmus", rows), ("litmus-tuned-mp", later)]);
        assert!(
            table.contains("| MP | `rel-acq-cta` | inter-block | 3000000 | < 1.00 | program order | tuned-mp |"),
            "{table}"
        );
        assert!(
            table.contains("| MP | `weak` | intra-block | 2000000 | < 1.50 | loads reordered | none of 1 |"),
            "{table}"
        );
        assert_eq!(table.lines().count(), 2 + 4, "{table}");
    }

    #[test]
    fn a_row_whose_kernel_left_the_registry_keeps_its_test() {
        let row = one("mp_relaxed_gpu", "inter-block", true, 0, 1);
        let gone = LitmusRow { kernel: "mp_relaxed_warp".to_owned(), ..row };
        let (test, kernel) = test_of(&gone).unwrap();
        assert_eq!((test, kernel.is_none()), (layout::litmus::Test::Mp, true));
        assert_eq!(variant_of(&gone, test), "relaxed-warp");
        let text = coverage_text(&[gone], &[], None);
        assert!(text.contains("accesses of 0 rows of these") && text.contains("of 1 row are no longer"), "{text}");
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
