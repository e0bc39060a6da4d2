//! A two-field record: two atomics, one 64-bit word, and a sequence lock.

use layout::pitfall::{
    RECORD_COUNTERS as COUNTERS, RECORD_ONE_WORD, RECORD_READS, RECORD_RETRIES, RECORD_SEQLOCK, RECORD_TORN,
    RECORD_TRIES, RECORD_TWO_ATOMICS, RECORD_WORDS,
};

use super::{Lab, Size, Trial};
use crate::error::LabError;
use crate::gpu::pitfall::{Buffers, PitfallKernel};

/// Each kernel, one writer against a block of readers per SM.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let grid = size.pick(lab.gpu.info.sm_count, 3);
    let rounds = size.pick(1 << 16, 64);
    let launches = size.pick(4, 1);
    let mut trials = Vec::new();
    let cases = [
        (&RECORD_TWO_ATOMICS, true, "two atom.exch, then two loads"),
        (&RECORD_ONE_WORD, false, "one 64-bit store, one 64-bit load"),
        (&RECORD_SEQLOCK, false, "a sequence lock around two stores and two loads"),
    ];
    for (spec, broken, how) in cases {
        let kernel = PitfallKernel::of(spec);
        let mut totals = [0u64; COUNTERS];
        for _ in 0..launches {
            let mut record = lab.pitfalls.zeros(RECORD_WORDS)?;
            let mut counts = lab.pitfalls.zeros(COUNTERS)?;
            let buffers = Buffers {
                scratch: Some(record.whole_mut()),
                out: Some(counts.whole_mut()),
                value: rounds,
                ..Buffers::default()
            };
            // SAFETY: a fresh zeroed record of `RECORD_WORDS` words at the
            // start of its allocation (256-byte aligned, so the 64-bit view
            // is aligned), three zeroed counters, at least two blocks.
            unsafe { lab.pitfalls.launch(kernel, grid, 32, buffers)? };
            let counts = lab.pitfalls.read(&counts)?;
            for (total, count) in totals.iter_mut().zip(counts) {
                *total += u64::from(count);
            }
        }
        let retries = totals[RECORD_RETRIES];
        trials.push(Trial {
            name: kernel.key().to_owned(),
            broken,
            how: format!("{how}: 1 writer, {} readers, {rounds} updates and reads each", grid - 1),
            failures: totals[RECORD_TORN],
            out_of: totals[RECORD_READS],
            unit: "torn reads".to_owned(),
            detail: (spec == &RECORD_SEQLOCK).then(|| {
                format!("{retries} attempts overlapped a write and were retried (at most {RECORD_TRIES} per read)")
            }),
            time_ms: None,
            refused: None,
        });
    }
    Ok(trials)
}
