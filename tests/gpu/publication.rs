//! Publication through a flag, at block, device and system scope: the correct
//! variants never read stale data, the broken ones run to the end; and the
//! scope ladder's round trips complete.

use host::commands::{publish, publish_sys};
use host::gpu::Gpu;
use host::gpu::publish::{FlagPlacement, PublishGeometry, PublishKernels, PublishVariant};
use host::gpu::system::{SystemGeometry, SystemKernels, SystemVariant};

/// The page's example and the device-scope version: over three launches
/// (over six million pairs on an H200) every consumer reads `{42, 3.5}` and
/// none times out, with each flag beside its payload or apart from it, and
/// with or without the consumer's preload, and with the preload and a
/// producer's delay, the setting that makes the relaxed variant stale.
pub(super) fn guaranteed_publication_is_never_stale(gpu: &Gpu, variant: PublishVariant) -> Result<(), String> {
    let kernels = PublishKernels::load(gpu).map_err(|e| e.to_string())?;
    if let Some(refused) = refused_without_hopper(gpu, &kernels, variant)? {
        println!("  {}: not run on this GPU; refused with: {refused}", variant.symbol());
        return Ok(());
    }
    for (flags, preload, delay_ns) in [
        (FlagPlacement::SameSlot, false, 0),
        (FlagPlacement::Apart, false, 0),
        (FlagPlacement::Apart, true, 0),
        (FlagPlacement::Apart, true, 2000),
    ] {
        let mut geometry = PublishGeometry::for_device(variant, gpu.info.sm_count);
        geometry.flags = flags;
        geometry.preload = preload;
        geometry.delay_ns = delay_ns;
        let c = kernels.run(variant, geometry, 3).map_err(|e| e.to_string())?;
        let expected_pairs = geometry.pairs_per_launch(variant) * 3;
        if !(c.pairs == expected_pairs && c.stale == 0 && c.timeouts == 0 && c.observed == (42, 3.5)) {
            return Err(format!(
                "  {flags:?}, preload {preload}, delay {delay_ns} ns: expected {expected_pairs} clean pairs ending in {{42, 3.5}}, got {c:?}"
            ));
        }
    }
    Ok(())
}

/// The relaxed and wrong-scope variants may show anything, but they must end
/// (the deadline bounds every wait) and account for every round.
pub(super) fn broken_variants_run_to_the_end(gpu: &Gpu) -> Result<(), String> {
    let kernels = PublishKernels::load(gpu).map_err(|e| e.to_string())?;
    for variant in PublishVariant::all().filter(|v| !v.guaranteed) {
        if let Some(refused) = refused_without_hopper(gpu, &kernels, variant)? {
            println!("  {}: not run on this GPU; refused with: {refused}", variant.symbol());
            continue;
        }
        let geometry = PublishGeometry::for_device(variant, gpu.info.sm_count);
        let c = kernels.run(variant, geometry, 1).map_err(|e| e.to_string())?;
        if c.pairs + c.timeouts != geometry.pairs_per_launch(variant) {
            return Err(format!("  {}: rounds unaccounted for: {c:?}", variant.symbol()));
        }
        let row = publish::PublishRow { variant, geometry, counts: c };
        println!("  {}: {}", variant.symbol(), row.verdict().text());
    }
    Ok(())
}

/// A correct system-scope variant (`.sys` release/acquire on the GPU,
/// `Release`/`Acquire` on the CPU), both directions: over ten rounds of the
/// default 2^20 slots (over 10^7 pairs; `host publish-sys` runs the 10^8)
/// every record is the round's and no wait times out, as the model
/// guarantees. Also with one CPU thread and a slot count that is not a
/// multiple of the grid or of the CPU threads.
pub(super) fn system_scope_publication_is_never_stale(gpu: &Gpu, variant: SystemVariant) -> Result<(), String> {
    let kernels = SystemKernels::load(gpu).map_err(|e| e.to_string())?;
    let standard = SystemGeometry::for_device(gpu.info.sm_count, SystemGeometry::default_cpu_threads());
    let odd = SystemGeometry { slots: 1_000_003, cpu_threads: 1, ..standard };
    for (geometry, launches) in [(standard, 10), (odd, 3)] {
        let c = kernels.run(variant, geometry, launches).map_err(|e| e.to_string())?;
        let expected = u64::from(geometry.slots) * launches as u64;
        println!("  {}: {:?} in {:.3} s", variant.name, c.counts, c.wall_s);
        if !(c.counts.pairs == expected && c.counts.stale == 0 && c.counts.timeouts == 0) {
            return Err(format!("  {geometry:?}: expected {expected} clean pairs, got {c:?}"));
        }
    }
    Ok(())
}

/// The wrong-scope and relaxed system-scope variants may show anything, but
/// they must end (every wait on both sides has a deadline) and account for
/// every slot of every round.
pub(super) fn system_scope_broken_variants_run_to_the_end(gpu: &Gpu) -> Result<(), String> {
    let kernels = SystemKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut geometry = SystemGeometry::for_device(gpu.info.sm_count, SystemGeometry::default_cpu_threads());
    geometry.budget_ns = 200_000_000;
    for variant in SystemVariant::all().filter(|v| !v.guaranteed) {
        let c = kernels.run(variant, geometry, 3).map_err(|e| e.to_string())?;
        if c.counts.pairs + c.counts.timeouts != u64::from(geometry.slots) * 3 {
            return Err(format!("  {}: slots unaccounted for: {c:?}", variant.name));
        }
        let row = publish_sys::PublishSysRow { variant, geometry, counts: c };
        println!("  {}: {:?}: {}", variant.name, row.counts.counts, row.verdict().text());
    }
    Ok(())
}

/// On a GPU without the Hopper module, a cluster variant's run must fail
/// with the one-line error: `Some(that line)`. `None` where the variant can
/// run here.
fn refused_without_hopper(
    gpu: &Gpu,
    kernels: &PublishKernels<'_>,
    variant: PublishVariant,
) -> Result<Option<String>, String> {
    if variant.entry().module == layout::Module::Base || gpu.hopper().is_ok() {
        return Ok(None);
    }
    let geometry = PublishGeometry::for_device(variant, gpu.info.sm_count);
    match kernels.run(variant, geometry, 1) {
        Ok(c) => Err(format!("  {}: ran without the Hopper module: {c:?}", variant.symbol())),
        Err(e) if e.to_string().lines().count() == 1 => Ok(Some(e.to_string())),
        Err(e) => Err(format!("  {}: refused in more than one line: {e}", variant.symbol())),
    }
}

/// The scope ladder, briefly (`host scopes --quick`'s shape): every rung this
/// GPU can run completes all its round trips with no timeout, the `.gpu`
/// rung's two blocks ran on two SMs, every fence loop measured something,
/// and on a GPU before Hopper the `.cluster` rung says so in one line.
/// Timings are printed, never asserted.
pub(super) fn scope_ladder_runs(gpu: &Gpu) -> Result<(), String> {
    use host::commands::scopes::{self, NEEDS_HOPPER, ScopesOptions};
    use host::gpu::ladder::TripShape;
    let shape = TripShape { batches: 8, per_batch: 64, budget_ns: 1_000_000_000 };
    let options = ScopesOptions { launches: 2, shape, iterations: 256, repeats: 4, checks: true };
    let results = scopes::run(gpu, &options).map_err(|e| e.to_string())?;
    let mut problems = scopes::failures(&results);
    let expected = u64::from(options.launches) * u64::from(shape.batches) * u64::from(shape.per_batch);
    for row in &results.rungs {
        let scope = row.rung.scope();
        match (&row.trips, &row.unavailable) {
            (Some(t), _) => {
                println!("{scope}: {} round trips, {:?}, sms {:?}", t.trips, t.device, t.sms);
                if t.trips != expected {
                    problems.push(format!("{scope}: {} round trips of {expected}", t.trips));
                }
                let samples = t.device.map_or(0, |s| s.samples);
                if samples != (options.launches * shape.batches) as usize {
                    problems.push(format!("{scope}: {samples} batch samples"));
                }
                if row.fences.len() != 2 {
                    problems.push(format!("{scope}: {} fence costs of 2", row.fences.len()));
                }
                // Each rung's correct publication must show no stale record.
                match &row.publication {
                    Some(line) if line.contains(": 0 stale in ") && line.ends_with(", 0 timeouts") => {}
                    other => problems.push(format!("{scope}: publication {other:?}")),
                }
                println!("{scope}: {:?}; {:?}", row.publication, row.litmus);
                if row.litmus.is_none() {
                    problems.push(format!("{scope}: no litmus line"));
                }
            }
            (None, Some(why)) if row.rung == host::gpu::ladder::Rung::Cluster && gpu.hopper().is_err() => {
                if why != NEEDS_HOPPER {
                    problems.push(format!("{scope}: unavailable as {why:?}"));
                }
            }
            (None, why) => problems.push(format!("{scope}: did not run ({why:?})")),
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}
