//! A volatile flag as the publication's signal, beside the relaxed flag whose
//! semantics it has in PTX ("equivalent to a relaxed memory operation with
//! system-scope", PTX ISA 9.1 §8.4.2) and the release/acquire flag that fixes
//! both.

use layout::publish::{GRID_RELAXED, GRID_RELEASE_ACQUIRE, GRID_VOLATILE, Variant};

use super::{Lab, Size, Trial};
use crate::error::LabError;
use crate::gpu::publish::{PublishGeometry, PublishVariant};
use crate::verdict::PROGRESS_FAILURE;

/// The publication demo's stale-record condition (`host evidence`'s
/// `publish-stale` step): the consumer preloads the record into its L1, and
/// the producer waits this long before each round.
const DELAY_NS: u32 = 2000;

/// The cross-block publication with each flag, under the condition that
/// makes a stale record visible.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let launches = size.pick(10, 1);
    let cases: [(&Variant, bool); 3] = [(&GRID_VOLATILE, true), (&GRID_RELAXED, true), (&GRID_RELEASE_ACQUIRE, false)];
    let mut trials = Vec::new();
    for (spec, broken) in cases {
        let variant = PublishVariant::of(spec);
        let mut geometry = PublishGeometry::for_device(variant, lab.gpu.info.sm_count);
        geometry.preload = true;
        geometry.delay_ns = DELAY_NS;
        if size == Size::Quick {
            geometry.blocks = 4;
            geometry.rounds = 4;
        }
        let counts = lab.publish.run(variant, geometry, launches)?;
        trials.push(Trial {
            name: format!("publish_{}", variant.key()),
            broken,
            how: format!(
                "{}: {launches} launches, {} pairs each; the consumer preloads the record, \
                 the producer waits {DELAY_NS} ns a round",
                spec.name,
                geometry.pairs_per_launch(variant)
            ),
            failures: counts.stale,
            out_of: counts.pairs,
            unit: "stale records".to_owned(),
            per: "pairs whose consumer saw the flag before the deadline".to_owned(),
            detail: (counts.timeouts > 0).then(|| format!("{} waits {PROGRESS_FAILURE}", counts.timeouts)),
            time_ms: None,
            refused: None,
            also: Vec::new(),
        });
    }
    Ok(trials)
}
