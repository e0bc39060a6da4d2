//! `host publish-sys`, the publication between the GPU and the host at
//! system scope: every variant of `layout::system`, many launches, one
//! table. [`rung`] is the `.sys` rung of the scope ladder for a command that
//! sets every scope side by side.

pub mod args;
pub mod report;

pub use args::PublishSysArgs;

use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::system::{SystemCounts, SystemGeometry, SystemKernels, SystemVariant};
use crate::progress::Progress;
use crate::verdict::Verdict;

/// One variant's result.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PublishSysRow {
    /// Which variant.
    pub variant: SystemVariant,
    /// The geometry of each launch.
    pub geometry: SystemGeometry,
    /// What the consumers saw, over every launch.
    pub counts: SystemCounts,
}

impl PublishSysRow {
    /// The verdict, in `publish`'s words: a guaranteed variant fails on a
    /// stale record, and on a timeout as a progress failure; a broken one
    /// that showed no stale record is not a proof, whatever its timeouts.
    pub fn verdict(&self) -> Verdict {
        Verdict::judge(self.variant.guaranteed, self.counts.counts.stale, self.counts.counts.timeouts)
    }
}

/// What one run does.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PublishSysOptions {
    /// The variants, in order.
    pub variants: Vec<SystemVariant>,
    /// Launches (rounds) per variant.
    pub launches: usize,
    /// Slots per launch.
    pub slots: u32,
    /// CPU threads.
    pub cpu_threads: u32,
    /// Each consumer's budget per launch, in nanoseconds.
    pub budget_ns: u64,
}

impl PublishSysOptions {
    /// Every variant, `launches` launches of the default geometry each.
    pub fn every_variant(launches: usize) -> PublishSysOptions {
        let geometry = SystemGeometry::for_device(1, SystemGeometry::default_cpu_threads());
        PublishSysOptions {
            variants: SystemVariant::all().collect(),
            launches,
            slots: geometry.slots,
            cpu_threads: geometry.cpu_threads,
            budget_ns: geometry.budget_ns,
        }
    }
}

/// What `publish-sys` writes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PublishSysResults {
    /// What ran.
    pub options: PublishSysOptions,
    /// One row per variant.
    pub rows: Vec<PublishSysRow>,
}

/// Runs each variant of `options` on a device with `sm_count` SMs.
pub fn run(
    kernels: &SystemKernels<'_>,
    sm_count: u32,
    options: &PublishSysOptions,
    progress: &Progress,
) -> Result<Vec<PublishSysRow>, LabError> {
    progress.start(options.variants.len() as u64);
    let rows = options
        .variants
        .iter()
        .map(|&variant| {
            progress.message(variant.name.to_owned());
            let mut geometry = SystemGeometry::for_device(sm_count, options.cpu_threads);
            geometry.slots = options.slots;
            geometry.budget_ns = options.budget_ns;
            let counts = kernels.run(variant, geometry, options.launches)?;
            progress.step();
            Ok(PublishSysRow { variant, geometry, counts })
        })
        .collect();
    progress.finish();
    rows
}

/// The `.sys` rung of the scope ladder: every variant, `launches` launches
/// of the default geometry each (100 give each variant over 10^8 pairs), no
/// progress bar. Each row's counts, its variant's `guaranteed` and its
/// [`PublishSysRow::verdict`] are what a ladder prints.
pub fn rung(gpu: &Gpu, launches: usize) -> Result<Vec<PublishSysRow>, LabError> {
    let kernels = SystemKernels::load(gpu)?;
    run(&kernels, gpu.info.sm_count, &PublishSysOptions::every_variant(launches), &Progress::new(false))
}

#[cfg(test)]
mod tests {
    use layout::system::VARIANTS;

    use super::*;
    use crate::cpu_agent::HostCounts;

    fn row(variant: SystemVariant, stale: u64, timeouts: u64) -> PublishSysRow {
        PublishSysRow {
            variant,
            geometry: SystemGeometry::for_device(132, 8),
            counts: SystemCounts {
                launches: 1,
                counts: HostCounts { pairs: 10 - timeouts, stale, timeouts },
                wall_s: 0.5,
            },
        }
    }

    #[test]
    fn a_guaranteed_variant_fails_on_a_stale_record_and_on_a_timeout_as_progress() {
        for v in SystemVariant::all().filter(|v| v.guaranteed) {
            assert_eq!(row(v, 0, 0).verdict(), Verdict::Correct);
            assert_eq!(row(v, 1, 0).verdict(), Verdict::Failed);
            assert_eq!(row(v, 0, 1).verdict(), Verdict::ProgressFailed);
            assert!(row(v, 0, 1).verdict().fails_the_run());
        }
    }

    #[test]
    fn a_broken_variant_without_stale_records_is_not_a_proof_even_if_it_timed_out() {
        for v in SystemVariant::all().filter(|v| !v.guaranteed) {
            assert_eq!(row(v, 0, 0).verdict(), Verdict::NotAProof);
            assert_eq!(row(v, 2, 0).verdict(), Verdict::BrokenAndSeen);
            assert_eq!(row(v, 0, 3).verdict(), Verdict::NoProgress);
            assert_eq!(row(v, 2, 3).verdict(), Verdict::BrokenAndSeen);
            assert!(!row(v, 0, 3).verdict().fails_the_run());
        }
    }

    #[test]
    fn the_rung_runs_every_variant() {
        let options = PublishSysOptions::every_variant(100);
        assert_eq!(options.variants.len(), VARIANTS.len());
        // 100 launches of the default slots pass the 10^8 pairs.
        assert!(options.launches as u64 * u64::from(options.slots) >= 100_000_000);
    }
}
