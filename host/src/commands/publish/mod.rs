//! `host publish`, the publication stress run: every variant, many launches,
//! one table.

pub mod args;
pub mod report;

pub use args::PublishArgs;

use crate::error::LabError;
use crate::gpu::publish::{FlagPlacement, PublishCounts, PublishGeometry, PublishKernels, PublishVariant};
use crate::progress::Progress;
use crate::verdict::Verdict;

/// One variant's result.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PublishRow {
    /// Which variant.
    pub variant: PublishVariant,
    /// The geometry of each launch.
    pub geometry: PublishGeometry,
    /// What the consumers saw, over every launch.
    pub counts: PublishCounts,
}

impl PublishRow {
    /// The verdict on this row.
    pub fn verdict(&self) -> Verdict {
        Verdict::judge(self.variant.guaranteed, self.counts.stale, self.counts.timeouts)
    }
}

/// The litmus kernel and placement that test the same pattern as `variant`:
/// MP, with the flag's ordering and scope, in the variant's placement. Its
/// rows in `host litmus` say what the model allows and what the GPU showed.
/// None for the cluster barrier, which has no flag: MP has no barrier form.
///
/// # Panics
///
/// If the registry holds a flag at `.sys` that is not volatile: no variant
/// is, and MP has no such litmus kernel.
pub fn litmus_twin(variant: PublishVariant) -> Option<(layout::litmus::Variant, layout::Placement)> {
    use layout::Scope;
    use layout::litmus::Variant as V;
    use layout::publish::Ordering;
    let kernel = match (variant.ordering, variant.scope) {
        (Ordering::Relaxed, Scope::Cta) => V::RelaxedCta,
        (Ordering::Relaxed, Scope::Gpu) => V::RelaxedGpu,
        (Ordering::ReleaseAcquire, Scope::Cta) => V::ReleaseAcquireCta,
        (Ordering::ReleaseAcquire, Scope::Gpu) => V::ReleaseAcquireGpu,
        (Ordering::Relaxed, Scope::Cluster) => V::RelaxedCluster,
        (Ordering::ReleaseAcquire, Scope::Cluster) => V::ReleaseAcquireCluster,
        // A volatile access names no scope: it is relaxed at `.sys` whatever
        // the registry records, and MP's volatile kernel is that.
        (Ordering::Volatile, _) => V::Volatile,
        (Ordering::Barrier, _) => return None,
        (_, Scope::Sys) => unreachable!("{}: a .sys flag that is not volatile has no litmus twin", variant.key()),
    };
    Some((kernel, variant.placement))
}

/// What one publication run does.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PublishOptions {
    /// The variants, in order.
    pub variants: Vec<PublishVariant>,
    /// Launches per variant.
    pub launches: usize,
    /// Rounds per pair and launch, if not the geometry's default.
    pub rounds: Option<u32>,
    /// Each consumer's budget per launch, in nanoseconds.
    pub budget_ns: u64,
    /// Across blocks: where each round's flag sits.
    pub flags: FlagPlacement,
    /// Across blocks: the consumer reads the payload before it waits.
    pub preload: bool,
    /// Across blocks: nanoseconds the producer waits before each round.
    #[serde(default)]
    pub delay_ns: u32,
}

/// What `publish` writes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PublishResults {
    /// What ran.
    pub options: PublishOptions,
    /// One row per variant.
    pub rows: Vec<PublishRow>,
    /// The variants of a default run left out because the device cannot
    /// load the Hopper module (compute capability below 9.0).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<PublishVariant>,
}

/// Runs each variant of `options` on a device with `sm_count` SMs.
pub fn run(
    kernels: &PublishKernels<'_>,
    sm_count: u32,
    options: &PublishOptions,
    progress: &Progress,
) -> Result<Vec<PublishRow>, LabError> {
    progress.start(options.variants.len() as u64);
    let rows = options
        .variants
        .iter()
        .map(|&variant| {
            progress.message(variant.symbol().to_owned());
            let mut geometry = PublishGeometry::for_device(variant, sm_count);
            geometry.rounds = options.rounds.unwrap_or(geometry.rounds);
            geometry.budget_ns = options.budget_ns;
            geometry.flags = options.flags;
            geometry.preload = options.preload;
            geometry.delay_ns = options.delay_ns;
            let counts = kernels.run(variant, geometry, options.launches)?;
            progress.step();
            Ok(PublishRow { variant, geometry, counts })
        })
        .collect();
    progress.finish();
    rows
}

#[cfg(test)]
mod tests {
    use layout::publish::{self as variants, Variant};

    use super::*;

    /// The options of a one-launch run of `variants`, for the tests' records.
    fn options(variants: Vec<PublishVariant>) -> PublishOptions {
        PublishOptions {
            variants,
            launches: 1,
            rounds: None,
            budget_ns: 1,
            flags: FlagPlacement::Apart,
            preload: false,
            delay_ns: 0,
        }
    }

    fn row(spec: &Variant, stale: u64, timeouts: u64) -> PublishRow {
        let variant = PublishVariant::of(spec);
        PublishRow {
            variant,
            geometry: PublishGeometry::for_device(variant, 132),
            counts: PublishCounts { launches: 1, pairs: 10, stale, timeouts, observed: (42, 3.5) },
        }
    }

    #[test]
    fn a_relaxed_run_without_stale_payloads_is_not_a_proof() {
        assert_eq!(row(&variants::BLOCK_RELAXED, 0, 0).verdict(), Verdict::NotAProof);
        assert_eq!(row(&variants::BLOCK_RELAXED, 3, 0).verdict(), Verdict::BrokenAndSeen);
        assert_eq!(row(&variants::GRID_WRONG_SCOPE, 13, 9).verdict(), Verdict::BrokenAndSeen);
    }

    #[test]
    fn a_broken_variant_that_only_timed_out_showed_no_breakage_and_passes() {
        use crate::report::Report;
        // The reference run's `grid_wrong_scope`: no stale record, only
        // flags never seen before the deadline.
        let timed_out = row(&variants::GRID_WRONG_SCOPE, 0, 10_560);
        assert_eq!(timed_out.verdict(), Verdict::NoProgress);
        assert!(timed_out.verdict().text().contains(crate::verdict::PROGRESS_FAILURE));
        let results = |rows| PublishResults { options: options(Vec::new()), rows, not_run: Vec::new() };
        assert!(results(vec![timed_out]).checks().passed);
        // The same timeouts on the guaranteed variant fail the run, as a
        // progress failure.
        let guaranteed = row(&variants::GRID_RELEASE_ACQUIRE, 0, 10_560);
        assert_eq!(guaranteed.verdict(), Verdict::ProgressFailed);
        assert!(!results(vec![guaranteed]).checks().passed);
    }

    #[test]
    fn each_variant_s_litmus_twin_has_the_model_s_verdict_on_its_guarantee() {
        for variant in PublishVariant::all() {
            let Some((kernel, placement)) = litmus_twin(variant) else {
                assert_eq!(variant.ordering, layout::publish::Ordering::Barrier, "{variant:?}");
                continue;
            };
            let v = crate::litmus::verdict(layout::litmus::Test::Mp, kernel, placement);
            assert_eq!(v.allowed, !variant.guaranteed, "{variant:?}");
            let twin =
                layout::litmus::KERNELS.iter().any(|k| k.test == layout::litmus::Test::Mp && k.variant == kernel);
            assert!(twin, "{}: its twin mp {} is no litmus kernel", variant.key(), kernel.key());
        }
    }

    #[test]
    fn a_volatile_flag_is_a_relaxed_one_to_the_model() {
        use layout::litmus::Variant as V;
        for spec in [&variants::BLOCK_VOLATILE, &variants::GRID_VOLATILE] {
            let variant = PublishVariant::of(spec);
            assert_eq!(litmus_twin(variant).map(|t| t.0), Some(V::Volatile));
            assert!(!variant.guaranteed);
            assert_eq!(row(spec, 0, 0).verdict(), Verdict::NotAProof);
        }
    }

    #[test]
    fn the_cluster_variants_are_named_in_help_and_parse_by_name() {
        use clap::CommandFactory;
        let mut cli = crate::cli::Cli::command();
        let publish = cli.find_subcommand_mut("publish").expect("a publish subcommand");
        let help = publish.render_long_help().to_string();
        for v in PublishVariant::all() {
            assert!(help.contains(v.name), "--help lacks {}", v.name);
        }
        assert!(help.contains("needs compute capability 9.0"));
        let argv = ["host", "publish", "--variant", "cluster-dsmem-release-acquire,cluster-barrier"];
        let parsed = <crate::cli::Cli as clap::Parser>::try_parse_from(argv);
        assert!(parsed.is_ok(), "{:?}", parsed.err());
    }

    #[test]
    fn a_run_without_the_hopper_module_names_what_it_left_out() {
        use crate::report::Report;
        let left_out: Vec<PublishVariant> =
            PublishVariant::all().filter(|v| v.entry().module == layout::Module::Hopper).collect();
        assert_eq!(left_out.len(), 5);
        let results = PublishResults {
            options: options(vec![PublishVariant::of(&variants::BLOCK_RELEASE_ACQUIRE)]),
            rows: vec![row(&variants::BLOCK_RELEASE_ACQUIRE, 0, 0)],
            not_run: left_out.clone(),
        };
        let device = crate::device::DeviceInfo {
            name: "a GPU before Hopper".to_owned(),
            compute_capability: (8, 0),
            sm_count: 108,
            driver_cuda_version: (13, 0),
            l2_bytes: 41_943_040,
            memory_clock_khz: None,
            memory_bus_bits: None,
        };
        let text = results.tables(&device, crate::report::table::Look::Plain);
        let line = text.lines().find(|l| l.starts_with("Not run: ")).expect("a not-run line");
        assert!(line.contains("needs compute capability 9.0"), "{line}");
        for v in &left_out {
            assert!(line.contains(v.key()), "{line}");
        }
        // Without it the field is not written, so older records read back.
        let json = serde_json::to_value(PublishResults { not_run: Vec::new(), ..results }).unwrap();
        assert!(json.get("not_run").is_none());
    }

    #[test]
    fn a_guaranteed_variant_fails_on_a_stale_payload_and_on_a_timeout_as_progress() {
        assert_eq!(row(&variants::BLOCK_RELEASE_ACQUIRE, 0, 0).verdict(), Verdict::Correct);
        assert_eq!(row(&variants::BLOCK_RELEASE_ACQUIRE, 1, 0).verdict(), Verdict::Failed);
        assert_eq!(row(&variants::GRID_RELEASE_ACQUIRE, 0, 1).verdict(), Verdict::ProgressFailed);
        assert_eq!(row(&variants::GRID_RELEASE_ACQUIRE, 1, 1).verdict(), Verdict::Failed);
        assert_eq!(row(&variants::CLUSTER_DSMEM_RELEASE_ACQUIRE, 1, 0).verdict(), Verdict::Failed);
        assert_eq!(row(&variants::CLUSTER_BARRIER, 1, 0).verdict(), Verdict::Failed);
        assert_eq!(row(&variants::CLUSTER_DSMEM_WRONG_SCOPE, 0, 0).verdict(), Verdict::NotAProof);
        assert_eq!(row(&variants::CLUSTER_DSMEM_RELAXED, 2, 0).verdict(), Verdict::BrokenAndSeen);
    }
}
