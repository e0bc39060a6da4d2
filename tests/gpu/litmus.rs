//! The litmus suite, briefly: every kernel in every placement, the sequential
//! control, the mutants and the cluster placements, and nothing forbidden seen.

use host::gpu::Gpu;
use host::gpu::litmus::{Budget, LitmusKernel, LitmusKernels};
use host::litmus::{self, LitmusOptions, LitmusRow, Preset};
use host::progress::Progress;
use layout::litmus::Split;

/// The mutants of MP `rel-acq-gpu` in both placements: each killable one is
/// made, loaded and run, and either is killed, with the instances and time
/// it took, or ran its whole budget; an equivalent one is never run. Whether
/// a given mutant is killed depends on the GPU and the environment, so that
/// is reported by `host litmus --mutants`, not asserted here.
pub(super) fn litmus_mutants_run(gpu: &Gpu) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut options = litmus_options(Preset::StaleL1, false);
    options.kernels.retain(|k| k.entry().symbol == "litmus_mp_rel_acq_gpu");
    options.budget = Budget::Instances(1_000_000);
    let rows = host::litmus::mutants::run(&kernels, gpu, gpu.ptx_text(), &options, &Progress::new(false))
        .map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for r in &rows {
        let m = &r.mutant;
        let what = format!("  {} {}: {}", m.placement.key(), m.mutation, r.skipped.as_deref().unwrap_or(""));
        match (&r.counts, r.killed_after) {
            (None, _) if r.skipped.is_none() => wrong.push(format!("{what}: neither run nor skipped")),
            (Some(_), _) if !m.allowed => wrong.push(format!("{what}: an equivalent mutant ran")),
            (Some(c), None) if c.instances < 1_000_000 => {
                wrong.push(format!("{what}: survived on {} instances", c.instances))
            }
            (Some(c), Some((n, _))) if n > c.instances || c.histogram[m.kernel.test.weak() as usize] == 0 => {
                wrong.push(format!("{what}: killed after {n} of {} instances", c.instances))
            }
            _ => {}
        }
    }
    if rows.iter().all(|r| r.counts.is_none()) {
        wrong.push("no mutant ran".to_owned());
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// The options of a short run of every litmus kernel: two million instances
/// in batches of four, `preset`'s environment, a fixed seed, and the default
/// placements, or, when `sequential` (a barrier between the roles), the
/// intra-block one alone.
fn litmus_options(preset: Preset, sequential: bool) -> LitmusOptions {
    LitmusOptions {
        kernels: LitmusKernel::all().collect(),
        placements: if sequential { vec![Split::IntraBlock] } else { Split::DEFAULT.to_vec() },
        budget: Budget::Instances(2_000_000),
        batch: 4,
        preset: Some(preset),
        environment: preset.environment(),
        tuned: None,
        sequential,
        seed: 26,
    }
}

/// A tuning search of two seconds on MP and SB (relaxed, across blocks):
/// it draws environments, runs each test's finalists and the starting
/// environment again, keeps a winner only for a test that showed its weak
/// outcome and never one that did worse than the start in that round; the
/// suite run with those winners runs each test in its own, and nothing
/// forbidden appears anywhere.
pub(super) fn litmus_tuning_search(gpu: &Gpu) -> Result<(), String> {
    use host::litmus::tune;
    use host::litmus::tuned::Winners;
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut options = litmus_options(Preset::TunedWrc, false);
    let searched = ["litmus_mp_relaxed_gpu", "litmus_mp_fence_acq_rel_cta", "litmus_sb_relaxed_gpu"];
    options.kernels.retain(|k| searched.contains(&k.entry().symbol));
    options.placements = vec![Split::InterBlock];
    let (trials, confirmations) =
        tune::search(&kernels, &options, 2.0, 0.02, &Progress::new(false)).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    if trials.is_empty() {
        wrong.push("the search drew no environment in two seconds".to_owned());
    }
    for kernel in &options.kernels {
        if !confirmations.iter().any(|c| c.kernel == *kernel && c.configuration.is_none()) {
            wrong.push(format!("{}: the starting environment was not run again", kernel.key()));
        }
    }
    let winners = tune::winners(&confirmations);
    for w in &winners {
        let (rate, start) = (w.weak as f64 / w.instances as f64, w.start_weak as f64 / w.start_instances.max(1) as f64);
        if w.weak == 0 || rate < start {
            wrong.push(format!(
                "{} {}: a winner of {}/{} against the start's {}/{}",
                w.test.name(),
                w.variant.key(),
                w.weak,
                w.instances,
                w.start_weak,
                w.start_instances
            ));
        }
    }
    let rows = trials.iter().flat_map(|t| &t.rows).chain(confirmations.iter().flat_map(|c| &c.rows));
    wrong.extend(rows.filter(|r| r.forbidden() > 0).map(|r| format!("{}: forbidden outcomes", r.kernel.key())));
    options.tuned = Some(Winners {
        gpu: gpu.info.name.clone(),
        driver: None,
        tool: "gpu test".to_owned(),
        budget_seconds: 2.0,
        environments_tried: trials.len(),
        variants: vec!["relaxed-gpu".to_owned(), "fence-acq-rel-cta".to_owned()],
        placements: vec!["inter-block".to_owned()],
        location_stride: options.environment.location_stride,
        winners: winners.clone(),
    });
    options.budget = Budget::Instances(1_000_000);
    let suite = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    for row in &suite {
        // Its own winner, or else its test's relaxed-gpu one.
        let of = |variant| winners.iter().find(|w| w.test == row.test() && w.variant == variant);
        let winner = of(row.kernel.variant).or_else(|| of(layout::litmus::Variant::RelaxedGpu)).map(|w| &w.environment);
        if row.environment.as_ref() != winner {
            wrong.push(format!("{}: ran in {:?}, not its winner", row.kernel.key(), row.environment));
        }
        if let Err(e) = counted_and_allowed(row, 1_000_000) {
            wrong.push(e);
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// `options` less what this GPU cannot run: on one without the Hopper
/// module, the `.cluster` kernels and the cluster placements.
fn runnable_here(gpu: &Gpu, mut options: LitmusOptions) -> LitmusOptions {
    if gpu.hopper().is_err() {
        options.kernels.retain(|k| k.entry().module == layout::Module::Base);
        options.placements.retain(|p| !p.needs_clusters());
    }
    options
}

/// A short run of every litmus kernel in the default placements (intra- and
/// inter-block): it finishes, every instance is counted, and no outcome the
/// model forbids appears (nor a register value no thread wrote).
pub(super) fn litmus_sees_nothing_forbidden(gpu: &Gpu, preset: Preset) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let options = runnable_here(gpu, litmus_options(preset, false));
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    assert_eq!(rows.len(), 2 * options.kernels.len());
    rows.iter().try_for_each(|row| counted_and_allowed(row, 2_000_000))
}

/// Whether `row` counted every instance it ran, ran at least `least`, and saw
/// no outcome the model forbids; if not, one line that names the row.
fn counted_and_allowed(row: &LitmusRow, least: u64) -> Result<(), String> {
    let what = format!("{:?} {}", row.kernel, row.placement.key());
    let counted: u64 = row.counts.histogram.iter().sum();
    if counted != row.counts.instances || row.counts.instances < least {
        return Err(format!("{what}: {counted} counted of {} run", row.counts.instances));
    }
    if row.forbidden() > 0 {
        return Err(format!("{what}: forbidden outcomes {:?}", row.outcomes()));
    }
    Ok(())
}

/// The classifier counts what it claims: with a barrier between roles, every
/// instance of every kernel ends in the one outcome program order predicts.
pub(super) fn litmus_sequential_control(gpu: &Gpu) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let options = runnable_here(gpu, litmus_options(Preset::Parallel, true));
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    for row in &rows {
        let predicted = row.counts.histogram[row.test().sequential() as usize];
        if predicted != row.counts.instances || predicted == 0 {
            return Err(format!(
                "{:?}: {:?}, not all {}",
                row.kernel,
                row.outcomes(),
                litmus::outcome_text(row.test().sequential() as usize, row.test())
            ));
        }
    }
    Ok(())
}

/// A short run of two kernels whose verdicts depend most on where the
/// threads run (WRC with `.cta` acq_rel fences, IRIW with `fence.sc.cta`) in
/// every placement that fits them: one warp, one block, each block split and
/// every role apart. Every instance is counted and nothing the model forbids
/// appears; then the sequential control in one warp gives only program
/// order.
pub(super) fn litmus_every_placement(gpu: &Gpu) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let chosen = ["litmus_wrc_fence_acq_rel_cta", "litmus_iriw_fence_sc_cta"];
    let mut options = litmus_options(Preset::Parallel, false);
    options.kernels.retain(|k| chosen.contains(&k.symbol()));
    if options.kernels.len() != 2 {
        return Err(format!("expected two kernels, found {:?}", options.kernels));
    }
    options.placements = Split::ALL.to_vec();
    options.budget = Budget::Instances(500_000);
    let mut options = runnable_here(gpu, options);
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    let expected: usize =
        options.kernels.iter().map(|k| options.placements.iter().filter(|s| s.fits(k.test)).count()).sum();
    if rows.len() != expected {
        return Err(format!("{} rows, expected {expected}", rows.len()));
    }
    for row in &rows {
        counted_and_allowed(row, 500_000)?;
    }
    options.sequential = true;
    options.placements = vec![Split::Warp];
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    for row in &rows {
        let predicted = row.counts.histogram[row.test().sequential() as usize];
        if predicted != row.counts.instances || predicted == 0 {
            return Err(format!("{:?} in one warp: {:?}, not only program order", row.kernel, row.outcomes()));
        }
    }
    Ok(())
}

/// MP with release/acquire in the two cluster placements (a cluster launch,
/// clusters of two blocks), at `.cluster` beside its `.cta` and `.gpu`
/// twins, and relaxed at `.cluster`: every row runs to its budget, every
/// instance is counted, and no outcome the model forbids appears. The rows
/// are held to the model's verdicts: `.cluster` forbids the weak outcome
/// between blocks of one cluster and allows it between clusters, `.cta`
/// allows it between blocks of one cluster, `.gpu` forbids it everywhere. A
/// count of zero on an allowed row proves nothing, so none is asserted;
/// each row's count is printed with its instances and its 95% bound. On a
/// GPU before Hopper the cluster placement is refused in one line.
pub(super) fn litmus_cluster_placements(gpu: &Gpu) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let chosen =
        ["litmus_mp_rel_acq_gpu", "litmus_mp_rel_acq_cta", "litmus_mp_relaxed_cluster", "litmus_mp_rel_acq_cluster"];
    let mut options = litmus_options(Preset::Parallel, false);
    options.kernels.retain(|k| chosen.contains(&k.symbol()));
    if options.kernels.len() != chosen.len() {
        return Err(format!("expected {} kernels, found {:?}", chosen.len(), options.kernels));
    }
    options.placements = Split::CLUSTER.to_vec();
    options.budget = Budget::Instances(1_000_000);
    if let Err(why) = gpu.hopper() {
        let refused = litmus::run(&kernels, &options, &Progress::new(false)).err().map(|e| e.to_string());
        println!("cluster placements: not run on this GPU ({why}); refused with: {refused:?}");
        return match refused {
            Some(line) if !line.contains('\n') => Ok(()),
            _ => Err(format!("a cluster placement without the Hopper module: {refused:?}")),
        };
    }
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    if rows.len() != chosen.len() * Split::CLUSTER.len() {
        return Err(format!("{} rows, expected {}", rows.len(), chosen.len() * Split::CLUSTER.len()));
    }
    for row in &rows {
        let (rate, (_, upper)) = row.rate_per_million();
        println!(
            "{} {}: {} weak in {} instances ({rate:.3} per million, 95% upper bound {upper:.3}), {}",
            row.kernel.key(),
            row.placement.key(),
            row.weak(),
            row.counts.instances,
            row.model()
        );
        counted_and_allowed(row, 1_000_000)?;
    }
    let allowed = |symbol: &str, placement: Split| {
        rows.iter().find(|r| r.kernel.symbol() == symbol && r.placement == placement).map(|r| r.allowed)
    };
    let expected = [
        ("litmus_mp_rel_acq_cluster", Split::IntraCluster, false),
        ("litmus_mp_rel_acq_cluster", Split::InterCluster, true),
        ("litmus_mp_rel_acq_cta", Split::IntraCluster, true),
        ("litmus_mp_rel_acq_gpu", Split::InterCluster, false),
        ("litmus_mp_relaxed_cluster", Split::IntraCluster, true),
    ];
    for (symbol, placement, verdict) in expected {
        if allowed(symbol, placement) != Some(verdict) {
            return Err(format!(
                "{symbol} {}: allowed {:?}, the model says {verdict}",
                placement.key(),
                allowed(symbol, placement)
            ));
        }
    }
    Ok(())
}
