//! A device-wide phase: two launches, a cooperative launch with a grid
//! barrier, a last-block ticket, and the grid barrier in an ordinary launch
//! too large to be co-resident.

use layout::pitfall::{PHASE_GRID_BARRIER, PHASE_HEADER_WORDS, PHASE_PARTIALS, PHASE_TICKET, PHASE_TIMEOUTS};

use super::{Figure, Lab, Size, Trial};
use crate::error::LabError;
use crate::gpu::pitfall::{Buffers, PitfallKernel, Words};
use crate::gpu::timing::{self, Plan};
use crate::stats;
use crate::verdict::NOT_AN_ORDERING_FAILURE;

/// Threads per block.
const THREADS: u32 = 256;
/// How long a block of the grid barrier spins before it gives up.
const DEADLINE_NS: u64 = 2_000_000;
/// How many times the resident grid the too-large launches ask for.
const OVERSUBSCRIBED: u32 = 4;
/// What a block that timed out at the grid barrier is: one whose spin never
/// saw the count reach the grid.
const GAVE_UP: &str = "blocks that never saw every block arrive before the deadline";

/// Every way, each sum checked exactly; the correct ones timed.
pub fn run(lab: &Lab<'_>, size: Size) -> Result<Vec<Trial>, LabError> {
    let n = size.pick(1 << 24, 1 << 12);
    let plan = Plan { warmup: size.pick(2, 0), runs: size.pick(10, 1), cold: false };
    let values: Vec<u32> = (0..n).map(|i| (i % 16) as u32).collect();
    let expected = values.iter().fold(0u32, |s, &v| s.wrapping_add(v));
    let input = lab.pitfalls.upload(&values)?;
    let (partials_kernel, barrier, ticket) =
        (PitfallKernel::of(&PHASE_PARTIALS), PitfallKernel::of(&PHASE_GRID_BARRIER), PitfallKernel::of(&PHASE_TICKET));
    let resident = lab.pitfalls.resident_blocks(barrier, THREADS)?;
    let grid = size.pick(resident, resident.min(4));
    let launches = plan.warmup + plan.runs;
    let scratch_words = PHASE_HEADER_WORDS + grid as usize;
    let zeros = |words: usize| lab.pitfalls.zeros(words);
    let read = |words: &Words| lab.pitfalls.read(words);
    let how = |what: &str| format!("{what}: {grid} blocks of {THREADS} (all resident at once), n = {n}");
    let mut trials = Vec::new();

    // The grid barrier in an ordinary launch of more blocks than fit: the
    // first wave spins for blocks that cannot start until it leaves. The
    // deadline turns the deadlock into counted timeouts.
    let big = resident * OVERSUBSCRIBED;
    let mut out = zeros(1)?;
    let mut scratch = zeros(PHASE_HEADER_WORDS + big as usize)?;
    let buffers = whole_grid(&input, n, &mut out, &mut scratch);
    // SAFETY: a zeroed header and one partial per block, one output word;
    // the spin is bounded by `DEADLINE_NS`.
    unsafe { lab.pitfalls.launch(barrier, big, THREADS, buffers)? };
    let (sum, header) = (read(&out)?[0], read(&scratch)?);
    let timeouts = u64::from(header[PHASE_TIMEOUTS]);
    // Two figures with their own denominators: the blocks that gave up, of
    // every block, and the one launch's sum, of one launch.
    let mut words = Vec::new();
    if timeouts > 0 {
        words.push(format!("they never saw every block arrive: {NOT_AN_ORDERING_FAILURE}"));
    }
    if sum != expected {
        words.push(format!("block 0 added the partials it had: {sum}, not {expected}"));
    }
    let ordinary = format!(
        "ordinary launch of {big} blocks ({OVERSUBSCRIBED}x the {resident} that fit at once), \
         each spin bounded at {} ms",
        DEADLINE_NS / 1_000_000
    );
    trials.push(Trial {
        detail: (!words.is_empty()).then(|| words.join("; ")),
        also: vec![Figure::failures(u64::from(sum != expected), 1, "wrong sums", "launches")],
        ..Trial::new(barrier.key(), true, ordinary, Figure::failures(timeouts, u64::from(big), GAVE_UP, "blocks"))
    });

    // The same grid through the cooperative launch: the driver says no.
    let mut scratch = zeros(PHASE_HEADER_WORDS + big as usize)?;
    let buffers = whole_grid(&input, n, &mut out, &mut scratch);
    // SAFETY: as above.
    let refused = unsafe { lab.pitfalls.launch_cooperative(barrier, big, THREADS, buffers)? }.err().map(|r| r.0);
    let ran = u64::from(refused.is_none());
    let same = format!("cooperative launch of the same {big} blocks");
    trials.push(Trial {
        refused,
        ..Trial::new(barrier.key(), true, same, Figure::failures(0, ran, "wrong sums", "launches"))
    });

    // Two launches: the end of the first kernel is the phase boundary.
    let mut sums = zeros(launches)?;
    let mut partials = zeros(launches * grid as usize)?;
    let times = timing::time_launches(lab.gpu, plan, |k| {
        let g = grid as usize;
        let first = Buffers {
            input: Some(input.whole()),
            n,
            out: Some(partials.part_mut(k * g..(k + 1) * g)),
            ..Buffers::default()
        };
        // SAFETY: one partial per block of this launch's part of `partials`.
        unsafe { lab.pitfalls.launch(partials_kernel, grid, THREADS, first)? };
        let second = Buffers {
            input: Some(partials.part(k * g..(k + 1) * g)),
            n: g,
            out: Some(sums.part_mut(k..k + 1)),
            ..Buffers::default()
        };
        // SAFETY: one block, one output word, `g` inputs.
        unsafe { lab.pitfalls.launch(partials_kernel, 1, THREADS, second) }
    })?;
    trials.push(checked(
        partials_kernel.key(),
        how("two launches, the second one block"),
        &read(&sums)?,
        expected,
        &times,
        None,
    ));

    // The grid barrier, cooperatively launched, and the ticket: one launch each.
    for (kernel, cooperative) in [(barrier, true), (ticket, false)] {
        let mut sums = zeros(launches)?;
        let mut scratch = zeros(launches * scratch_words)?;
        let mut refusal = None;
        let times = timing::time_launches(lab.gpu, plan, |k| {
            let buffers = Buffers {
                input: Some(input.whole()),
                n,
                out: Some(sums.part_mut(k..k + 1)),
                scratch: Some(scratch.part_mut(k * scratch_words..(k + 1) * scratch_words)),
                deadline_ns: DEADLINE_NS,
                ..Buffers::default()
            };
            if cooperative {
                // SAFETY: this launch's zeroed header and one partial per
                // block, one output word; the spin is bounded.
                if let Err(r) = unsafe { lab.pitfalls.launch_cooperative(kernel, grid, THREADS, buffers)? } {
                    refusal = Some(r.0);
                }
                Ok(())
            } else {
                // SAFETY: as above; the ticket does not spin.
                unsafe { lab.pitfalls.launch(kernel, grid, THREADS, buffers) }
            }
        })?;
        let timeouts: u64 = read(&scratch)?.chunks(scratch_words).map(|header| u64::from(header[PHASE_TIMEOUTS])).sum();
        let what = if cooperative { "cooperative launch" } else { "one ordinary launch" };
        let mut trial = checked(kernel.key(), how(what), &read(&sums)?, expected, &times, refusal);
        if cooperative {
            // A block that timed out is a failure of its own, per block: it
            // is not added to the wrong sums, whose denominator is launches.
            let blocks = if trial.refused.is_some() { 0 } else { u64::from(grid) * launches as u64 };
            trial.also.push(Figure::failures(timeouts, blocks, GAVE_UP, "blocks"));
            if timeouts > 0 {
                let gave_up = format!("{timeouts} blocks never saw every block arrive: {NOT_AN_ORDERING_FAILURE}");
                trial.detail = Some(match trial.detail.take() {
                    Some(wrong) => format!("{wrong}; {gave_up}"),
                    None => gave_up,
                });
            }
        }
        trials.push(trial);
    }
    Ok(trials)
}

/// The grid barrier's arguments over whole buffers: the input, one output
/// word, the header and a partial per block.
fn whole_grid<'a>(input: &'a Words, n: usize, out: &'a mut Words, scratch: &'a mut Words) -> Buffers<'a> {
    Buffers {
        input: Some(input.whole()),
        n,
        out: Some(out.whole_mut()),
        scratch: Some(scratch.whole_mut()),
        deadline_ns: DEADLINE_NS,
        ..Buffers::default()
    }
}

/// A correct way's trial: every launch's sum against the CPU's.
fn checked(name: &str, how: String, sums: &[u32], expected: u32, times: &[f32], refused: Option<String>) -> Trial {
    let wrong: Vec<u32> = sums.iter().copied().filter(|&s| s != expected).collect();
    let ran = if refused.is_some() { 0 } else { sums.len() as u64 };
    Trial {
        detail: wrong.first().map(|s| format!("summed {s}, not {expected}")),
        time_ms: if refused.is_some() { None } else { stats::median(times) },
        refused,
        ..Trial::new(name, false, how, Figure::failures(wrong.len() as u64, ran, "wrong sums", "launches"))
    }
}
