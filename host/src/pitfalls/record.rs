//! A two-field record: two atomics, one 64-bit word, and a sequence lock.

use layout::pitfall::{
    RECORD_ABANDONED, RECORD_BEFORE, RECORD_COUNTERS as COUNTERS, RECORD_ONE_WORD, RECORD_READS, RECORD_RETRIES,
    RECORD_SEQLOCK, RECORD_TORN, RECORD_TRIES, RECORD_TWO_ATOMICS, RECORD_WORDS, SEQLOCK_PAUSE_NS,
};

use super::{Figure, Lab, Size, Trial};
use crate::error::LabError;
use crate::gpu::pitfall::{Buffers, PitfallKernel};

/// What one torn-read rate is per: a read that could have been torn.
const PER: &str = "reads during the writer's updates";

/// Each kernel, one writer against a block of readers per SM.
///
/// The kernels count only the reads that overlapped the writer's updates
/// (`kernels/src/pitfall/record_window.rs`): a read before the first update
/// or after the last cannot be torn by any protocol. The sequence lock also
/// reports the reads it gave up on after `RECORD_TRIES` attempts, beside the
/// ones it kept.
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
            // is aligned), `RECORD_COUNTERS` zeroed counters, at least two
            // blocks, every block resident (one 32-thread block per SM).
            unsafe { lab.pitfalls.launch(kernel, grid, 32, buffers)? };
            let counts = lab.pitfalls.read(&counts)?;
            for (total, count) in totals.iter_mut().zip(counts) {
                *total += u64::from(count);
            }
        }
        let seqlock = spec == &RECORD_SEQLOCK;
        let pause = if seqlock { format!(" pausing {SEQLOCK_PAUSE_NS} ns after each") } else { String::new() };
        let how = format!(
            "{how}: 1 writer, {} readers, {rounds} updates{pause}, up to {rounds} reads each until the writer is \
             done; {launches} launches",
            grid - 1
        );
        let counted = Figure::failures(totals[RECORD_TORN], totals[RECORD_READS], "torn reads", PER);
        trials.push(Trial {
            detail: Some(detail(&totals, seqlock)),
            also: seqlock.then(|| abandoned(&totals)).into_iter().collect(),
            ..Trial::new(kernel.key(), broken, how, counted)
        });
    }
    Ok(trials)
}

/// The sequence lock's reads given up on, out of every read it attempted
/// while the writer was updating: the kept ones and the abandoned ones.
fn abandoned(totals: &[u64; COUNTERS]) -> Figure {
    let abandoned = totals[RECORD_ABANDONED];
    Figure::cost(
        abandoned,
        totals[RECORD_READS] + abandoned,
        &format!("reads abandoned after {RECORD_TRIES} attempts"),
        "reads during the updates, kept or abandoned",
    )
}

/// What the counts outside the rate say: the reads before the writer's
/// first update, left out, and the sequence lock's retries.
fn detail(totals: &[u64; COUNTERS], seqlock: bool) -> String {
    let before = format!("{} reads made before the first update were not counted", totals[RECORD_BEFORE]);
    if seqlock {
        format!(
            "{before}; {} attempts overlapped a write and were retried (at most {RECORD_TRIES} per read)",
            totals[RECORD_RETRIES]
        )
    } else {
        before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abandoned_reads_are_out_of_every_read_during_the_updates_and_fail_nothing() {
        let mut totals = [0u64; COUNTERS];
        totals[RECORD_READS] = 990;
        totals[RECORD_ABANDONED] = 10;
        totals[RECORD_RETRIES] = 700;
        totals[RECORD_BEFORE] = 3;
        let figure = abandoned(&totals);
        assert_eq!((figure.count, figure.out_of), (10, 1000));
        assert!(!figure.failed(), "a read given up on is a cost, not a torn read");
        let words = detail(&totals, true);
        assert!(words.contains("3 reads made before") && words.contains("700 attempts"), "{words}");
        assert!(!detail(&totals, false).contains("attempts"));
    }
}
