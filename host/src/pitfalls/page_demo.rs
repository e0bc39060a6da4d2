//! Page 2's `producer_consumer_demo<<<1, 64>>>`, launched as the page
//! launches it, beside the relaxed twin its practice task asks for and that
//! twin with its record loads before the wait, as the memory model permits.

use layout::pitfall::{
    PAGE_DEMO, PAGE_DEMO_EARLY_READ, PAGE_DEMO_RELAXED, PAGE_ERROR, PAGE_OBSERVED_ID, PAGE_OBSERVED_SCORE,
    PAGE_THREADS, PAGE_TIMED_OUT, PAGE_WORDS,
};

use super::{Lab, Size, Trial};
use crate::error::LabError;
use crate::gpu::pitfall::{Buffers, PitfallKernel};
use crate::verdict::PROGRESS_FAILURE;

/// How long the consumer may wait for the flag: far longer than the
/// producer's three stores take, short enough that a lost flag ends the run.
const DEADLINE_NS: u64 = 10_000_000;

/// Waits that may time out before a variant's loop stops: a flag that is
/// never seen is a progress failure, counted apart, and a hundred of them
/// say so as well as a hundred thousand.
const MAX_TIMEOUTS: u64 = 100;

/// Each kernel launched `launches` times, one block of 64 threads, its
/// report read after each launch.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let launches = size.pick(100_000u64, 10);
    let mut trials = Vec::new();
    for (spec, broken) in [(&PAGE_DEMO_RELAXED, true), (&PAGE_DEMO_EARLY_READ, true), (&PAGE_DEMO, false)] {
        let kernel = PitfallKernel::of(spec);
        let (mut errors, mut timeouts) = (0u64, 0u64);
        let mut first = None;
        let mut ran = 0u64;
        while ran < launches && timeouts < MAX_TIMEOUTS {
            ran += 1;
            let mut out = lab.pitfalls.zeros(PAGE_WORDS)?;
            let buffers = Buffers { out: Some(out.whole_mut()), deadline_ns: DEADLINE_NS, ..Buffers::default() };
            // SAFETY: one block of the page's 64 threads, a zeroed report of
            // `PAGE_WORDS` words and a deadline that ends the only spin; the
            // shared bytes are the registry's.
            unsafe { lab.pitfalls.launch(kernel, 1, PAGE_THREADS, buffers)? };
            let report = lab.pitfalls.read(&out)?;
            errors += u64::from(report[PAGE_ERROR]);
            timeouts += u64::from(report[PAGE_TIMED_OUT]);
            first.get_or_insert(report);
        }
        let first = first.unwrap_or_default();
        let observed = format!(
            "first launch: observed {{{}, {}}}, error {}",
            first[PAGE_OBSERVED_ID] as i32,
            f32::from_bits(first[PAGE_OBSERVED_SCORE]),
            first[PAGE_ERROR]
        );
        let detail =
            if timeouts > 0 { format!("{observed}; {timeouts} consumers {PROGRESS_FAILURE}") } else { observed };
        trials.push(Trial {
            name: kernel.key().to_owned(),
            broken,
            how: format!("<<<1, {PAGE_THREADS}>>>: thread 0 produces, thread 32 consumes; {ran} launches"),
            failures: errors,
            out_of: ran - timeouts,
            unit: "launches with error = 1".to_owned(),
            per: "launches whose consumer saw the flag before the deadline".to_owned(),
            detail: Some(detail),
            time_ms: None,
            refused: None,
            also: Vec::new(),
        });
    }
    Ok(trials)
}
