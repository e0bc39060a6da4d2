//! A device-wide phase: two launches, a cooperative launch with a grid
//! barrier, a last-block ticket, and the grid barrier in an ordinary launch
//! too large to be co-resident.

use layout::pitfall::{PHASE_GRID_BARRIER, PHASE_HEADER_WORDS, PHASE_PARTIALS, PHASE_TICKET, PHASE_TIMEOUTS};

use super::{Lab, Size, Trial};
use crate::error::LabError;
use crate::gpu::pitfall::{Buffers, PitfallKernel, Words};
use crate::gpu::timing::{self, Plan};
use crate::stats;

/// Threads per block.
const THREADS: u32 = 256;
/// How long a block of the grid barrier spins before it gives up.
const DEADLINE_NS: u64 = 2_000_000;
/// How many times the resident grid the too-large launches ask for.
const OVERSUBSCRIBED: u32 = 4;

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
    trials.push(Trial {
        name: barrier.key().to_owned(),
        broken: true,
        how: format!(
            "ordinary launch of {big} blocks ({OVERSUBSCRIBED}x the {resident} that fit at once), \
             each spin bounded at {} ms",
            DEADLINE_NS / 1_000_000
        ),
        failures: u64::from(header[PHASE_TIMEOUTS]),
        out_of: u64::from(big),
        unit: "blocks that gave up waiting".to_owned(),
        detail: Some(if sum == expected {
            "the sum was right".to_owned()
        } else {
            format!("block 0 added the partials it had: {sum}, not {expected}")
        }),
        time_ms: None,
        refused: None,
    });

    // The same grid through the cooperative launch: the driver says no.
    let mut scratch = zeros(PHASE_HEADER_WORDS + big as usize)?;
    let buffers = whole_grid(&input, n, &mut out, &mut scratch);
    // SAFETY: as above.
    let refused = unsafe { lab.pitfalls.launch_cooperative(barrier, big, THREADS, buffers)? }.err().map(|r| r.0);
    trials.push(Trial {
        name: barrier.key().to_owned(),
        broken: true,
        how: format!("cooperative launch of the same {big} blocks"),
        failures: 0,
        out_of: if refused.is_some() { 0 } else { 1 },
        unit: "launches".to_owned(),
        detail: None,
        time_ms: None,
        refused,
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
            trial.failures += timeouts;
            if timeouts > 0 {
                trial.detail = Some(format!("{timeouts} blocks gave up waiting"));
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
    Trial {
        name: name.to_owned(),
        broken: false,
        how,
        failures: wrong.len() as u64,
        out_of: if refused.is_some() { 0 } else { sums.len() as u64 },
        unit: "wrong sums".to_owned(),
        detail: wrong.first().map(|s| format!("summed {s}, not {expected}")),
        time_ms: if refused.is_some() { None } else { stats::median(times) },
        refused,
    }
}
