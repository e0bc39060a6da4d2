//! The pages' mistakes, each run beside its fix: the runners behind `host
//! pitfalls`.
//!
//! Every pitfall is one module with one `run`, which sets up the condition
//! that makes its mistake show (a shared memory full of a known pattern, a
//! grid too large to be co-resident, a writer racing readers), launches the
//! broken and the fixed versions, checks each against the CPU, and returns a
//! [`Finding`]: numbers, no prose. What each mistake is, what catches it and
//! what fixes it is [`describe`]'s, for the report.

mod accumulator;
mod barrier;
mod golden;
mod histogram;
mod page_demo;
mod phase;
mod record;
mod volatile;
mod warp;

use layout::pitfall::Pitfall;

use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::histogram::HistogramKernels;
use crate::gpu::pitfall::PitfallKernels;
use crate::gpu::publish::PublishKernels;
use crate::gpu::sum::SumKernels;
use crate::litmus::keys::Keyed;

impl Keyed for Pitfall {
    const ALL: &'static [Self] = &Pitfall::ALL;
    fn key(self) -> &'static str {
        Pitfall::key(self)
    }
    fn help(self) -> Option<&'static str> {
        Some(describe(self).mistake)
    }
}

/// Every kernel family a pitfall runs, loaded once.
pub struct Lab<'gpu> {
    /// The device.
    pub gpu: &'gpu Gpu,
    /// The broken kernels and the fixes no other family has.
    pub pitfalls: PitfallKernels<'gpu>,
    /// The sums (the accumulator and the golden test use the page's).
    pub sums: SumKernels<'gpu>,
    /// The histograms (`histogram_privatized` is the fix of its pitfall).
    pub histograms: HistogramKernels<'gpu>,
    /// The publications (the volatile flag beside the relaxed and the
    /// release/acquire ones).
    pub publish: PublishKernels<'gpu>,
}

impl<'gpu> Lab<'gpu> {
    /// Loads every family from `gpu`'s module.
    pub fn load(gpu: &'gpu Gpu) -> Result<Lab<'gpu>, LabError> {
        Ok(Lab {
            gpu,
            pitfalls: PitfallKernels::load(gpu)?,
            sums: SumKernels::load(gpu)?,
            histograms: HistogramKernels::load(gpu)?,
            publish: PublishKernels::load(gpu)?,
        })
    }
}

/// How big a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Size {
    /// Sizes at which the mistakes show, and the fixes are timed.
    Full,
    /// A few blocks and rounds, for compute-sanitizer, which runs every
    /// access through its checks.
    Quick,
}

impl Size {
    /// `full` or `quick`.
    pub fn pick<T>(self, full: T, quick: T) -> T {
        match self {
            Size::Full => full,
            Size::Quick => quick,
        }
    }
}

/// One pitfall's trials.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Finding {
    /// Which pitfall.
    #[serde(with = "crate::litmus::keys::one")]
    pub pitfall: Pitfall,
    /// The broken versions first, then the fixes.
    pub trials: Vec<Trial>,
}

/// One version of a pitfall, run under the condition that makes the mistake
/// show.
///
/// Its main figure is `failures` out of `out_of`, each a count of things
/// that could have gone wrong (`per`), never of everything the run did: a
/// block that cannot meet the mistake, or a read outside the writer's
/// updates, is not in the denominator. A version that can go wrong in two
/// ways with different denominators (a wrong sum per launch, a block that
/// gave up waiting per block) reports the second in [`Trial::also`], so a
/// count never exceeds its own denominator.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Trial {
    /// What ran: a kernel's key, or what the host did.
    pub name: String,
    /// Whether it makes the mistake.
    pub broken: bool,
    /// How it ran (the launch, the condition).
    pub how: String,
    /// Times it went wrong.
    pub failures: u64,
    /// Times it could have.
    pub out_of: u64,
    /// What one failure is ("wrong block sums").
    pub unit: String,
    /// What one of `out_of` is, in the plural ("launches that had threads
    /// past n"): the rate is per one of these. Empty in records written
    /// before it was kept.
    #[serde(default)]
    pub per: String,
    /// What the failures looked like, where a value says it.
    pub detail: Option<String>,
    /// The median of its timed launches, in milliseconds, where it was timed.
    pub time_ms: Option<f32>,
    /// The driver's one line, where it declined the launch.
    pub refused: Option<String>,
    /// Further figures, each with its own denominator.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Figure>,
}

/// A count out of its own denominator: a trial's further figure.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Figure {
    /// How many.
    pub count: u64,
    /// Out of how many that could have been counted.
    pub out_of: u64,
    /// What one counted thing is ("blocks that never saw every block arrive
    /// before the deadline").
    pub unit: String,
    /// What one of `out_of` is, in the plural ("blocks").
    pub per: String,
    /// Whether a count above zero is the version going wrong (a fix fails,
    /// a mistake shows), or a cost reported beside it (reads a sequence lock
    /// gave up on).
    pub fails: bool,
}

impl Figure {
    /// A count of things gone wrong.
    pub fn failures(count: u64, out_of: u64, unit: &str, per: &str) -> Figure {
        Figure { count, out_of, unit: unit.to_owned(), per: per.to_owned(), fails: true }
    }

    /// A count of a cost, never a failure.
    pub fn cost(count: u64, out_of: u64, unit: &str, per: &str) -> Figure {
        Figure { fails: false, ..Figure::failures(count, out_of, unit, per) }
    }

    /// Whether it counts a failure that happened.
    pub fn failed(&self) -> bool {
        self.fails && self.count > 0
    }
}

impl Trial {
    /// A trial whose main figure is `counted`, with no detail, time,
    /// refusal or further figure.
    pub fn new(name: impl Into<String>, broken: bool, how: String, counted: Figure) -> Trial {
        Trial {
            name: name.into(),
            broken,
            how,
            failures: counted.count,
            out_of: counted.out_of,
            unit: counted.unit,
            per: counted.per,
            detail: None,
            time_ms: None,
            refused: None,
            also: Vec::new(),
        }
    }

    /// Its main figure, as a [`Figure`].
    pub fn main(&self) -> Figure {
        Figure::failures(self.failures, self.out_of, &self.unit, &self.per)
    }

    /// Whether any of its figures counts a failure that happened.
    fn went_wrong(&self) -> bool {
        self.failures > 0 || self.also.iter().any(Figure::failed)
    }

    /// A fix that went wrong, or was not allowed to run: what makes `host
    /// pitfalls` exit 1.
    pub fn fix_failed(&self) -> bool {
        !self.broken && (self.went_wrong() || self.refused.is_some() || self.out_of == 0)
    }

    /// A broken version whose mistake showed this run: failures, or the
    /// driver's refusal.
    pub fn shown(&self) -> bool {
        self.broken && (self.went_wrong() || self.refused.is_some())
    }
}

/// What a pitfall is, in the report's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    /// What was done wrong.
    pub mistake: &'static str,
    /// What catches it.
    pub catches: &'static str,
    /// What fixes it.
    pub fix: &'static str,
}

/// The report's words for `pitfall`.
pub fn describe(pitfall: Pitfall) -> Description {
    match pitfall {
        Pitfall::DivergentBarrier => Description {
            mistake: "a block barrier inside the bounds check: threads past n return before it",
            catches: "the exact check of each block's sum against the CPU's",
            fix: "every thread reaches the barrier; a thread with no input stores 0",
        },
        Pitfall::WarpScope => Description {
            mistake: "a warp barrier (__syncwarp) ordering an exchange with another warp",
            catches: "each read checked against the partner's value of that round",
            fix: "the block barrier when the partner is in another warp; the warp barrier only within one",
        },
        Pitfall::DevicePhase => Description {
            mistake: "a grid-wide barrier in an ordinary launch with more blocks than fit at once",
            catches: "the spin's deadline (without it, a hang); the driver refuses such a cooperative launch",
            fix: "two launches, a cooperative launch of a co-resident grid, or a last-block ticket",
        },
        Pitfall::TornRecord => Description {
            mistake: "a two-field record written by two atomics and read by two loads",
            catches: "readers that check the fields against each other",
            fix: "one 64-bit word, or a sequence lock",
        },
        Pitfall::Volatile => Description {
            mistake: "a volatile flag as the publication's signal, as if volatile ordered the record",
            catches: "the consumer's check of the record it reads after the flag",
            fix: "release/acquire at a scope that covers both sides",
        },
        Pitfall::HistogramBarrier => Description {
            mistake: "the privatized histogram without one of its two barriers",
            catches: "the exact check against the CPU histogram, bin for bin",
            fix: "both barriers: after the zeroing and before the flush",
        },
        Pitfall::UnresetAccumulator => Description {
            mistake: "timed launches of an atomic sum into one accumulator, never reset",
            catches: "checking the value the timing loop leaves, not only the first",
            fix: "each launch its own zeroed slot, picked before the start event",
        },
        Pitfall::GoldenEquality => Description {
            mistake: "a golden-value test with == on a float atomic sum",
            catches: "running the test more than once",
            fix: "== only where the kernel promises the bits: the deterministic sum",
        },
        Pitfall::RelaxedFlag => Description {
            mistake: "the page's producer_consumer_demo with a relaxed flag in place of release/acquire",
            catches: "the page's own error check, over a stress loop of launches",
            fix: "the page's block-scoped release store and acquire load",
        },
    }
}

/// Runs `pitfall` at `size`.
pub fn run(lab: &Lab<'_>, pitfall: Pitfall, size: Size) -> Result<Finding, LabError> {
    let trials = match pitfall {
        Pitfall::DivergentBarrier => barrier::run(lab, size)?,
        Pitfall::WarpScope => warp::run(lab, size)?,
        Pitfall::DevicePhase => phase::run(lab, size)?,
        Pitfall::TornRecord => record::run(lab, size)?,
        Pitfall::Volatile => volatile::run(lab, size)?,
        Pitfall::HistogramBarrier => histogram::run(lab, size)?,
        Pitfall::UnresetAccumulator => accumulator::run(lab, size)?,
        Pitfall::GoldenEquality => golden::run(lab, size)?,
        Pitfall::RelaxedFlag => page_demo::run(lab, size)?,
    };
    Ok(Finding { pitfall, trials })
}

/// The pattern the harness fills shared memory with before a kernel that may
/// read a shared word it did not write: easy to spot in a sum or a count.
const PATTERN: u32 = 0x0100_0000;

/// Fills the shared memory of every SM with [`PATTERN`]: several waves of
/// blocks that each take the whole default 48 KiB.
fn fill_shared(lab: &Lab<'_>) -> Result<(), LabError> {
    use crate::gpu::pitfall::{Buffers, PitfallKernel};
    let fill = PitfallKernel::of(&layout::pitfall::FILL_SHARED);
    let grid = lab.gpu.info.sm_count * 8;
    // SAFETY: the kernel takes no buffer, and its shared bytes are the
    // registry's.
    unsafe { lab.pitfalls.launch(fill, grid, 256, Buffers { value: PATTERN, ..Buffers::default() }) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trial(broken: bool, failures: u64, out_of: u64, refused: Option<&str>) -> Trial {
        Trial {
            refused: refused.map(str::to_owned),
            ..Trial::new("k", broken, String::new(), Figure::failures(failures, out_of, "wrong sums", "launches"))
        }
    }

    #[test]
    fn a_further_figure_fails_a_fix_or_shows_a_mistake_only_if_it_counts_failures() {
        let with = |broken: bool, figure: Figure| Trial { also: vec![figure], ..trial(broken, 0, 10, None) };
        assert!(with(false, Figure::failures(2, 40, "blocks that gave up", "blocks")).fix_failed());
        assert!(with(true, Figure::failures(2, 40, "blocks that gave up", "blocks")).shown());
        assert!(!with(false, Figure::failures(0, 40, "blocks that gave up", "blocks")).fix_failed());
        assert!(!with(false, Figure::cost(5, 40, "abandoned reads", "reads")).fix_failed(), "a cost is no failure");
        assert!(!with(true, Figure::cost(5, 40, "abandoned reads", "reads")).shown());
    }

    #[test]
    fn a_record_without_the_new_fields_still_reads() {
        let old = r#"{"name":"k","broken":true,"how":"","failures":1,"out_of":2,"unit":"u",
                      "detail":null,"time_ms":null,"refused":null}"#;
        let t: Trial = serde_json::from_str(old).unwrap();
        assert_eq!((t.per.as_str(), t.also.len()), ("", 0));
        let back = serde_json::to_string(&trial(true, 1, 2, None)).unwrap();
        assert!(!back.contains("also"), "no further figure, no field: {back}");
    }

    #[test]
    fn a_fix_fails_when_it_goes_wrong_is_refused_or_checks_nothing() {
        assert!(!trial(false, 0, 10, None).fix_failed());
        assert!(trial(false, 1, 10, None).fix_failed());
        assert!(trial(false, 0, 0, None).fix_failed(), "a fix that checked nothing proves nothing");
        assert!(trial(false, 0, 0, Some("CUDA_ERROR_NOT_SUPPORTED")).fix_failed());
    }

    #[test]
    fn a_mistake_shows_by_failing_or_by_the_driver_refusing_it_and_never_fails_the_run() {
        assert!(trial(true, 3, 10, None).shown());
        assert!(trial(true, 0, 0, Some("too many blocks")).shown());
        assert!(!trial(true, 0, 10, None).shown(), "not seen is not shown");
        for t in [trial(true, 3, 10, None), trial(true, 0, 10, None), trial(true, 0, 0, Some("x"))] {
            assert!(!t.fix_failed());
        }
    }

    #[test]
    fn every_pitfall_has_its_words_a_key_and_a_kernel_or_a_lab_kernel_to_run() {
        use layout::pitfall::KERNELS;
        for p in Pitfall::ALL {
            let words = describe(p);
            assert!([words.mistake, words.catches, words.fix].iter().all(|w| !w.is_empty() && !w.ends_with('.')));
            assert_eq!(crate::litmus::keys::from_key::<Pitfall>(p.key()), Some(p));
            // The pitfalls whose broken version is host code, or another
            // family's kernel, have no kernel of their own.
            let own = KERNELS.iter().any(|k| k.pitfall == Some(p));
            let borrowed = matches!(p, Pitfall::Volatile | Pitfall::UnresetAccumulator | Pitfall::GoldenEquality);
            assert!(own != borrowed, "{}", p.key());
        }
        assert_eq!(KERNELS.iter().filter(|k| k.pitfall.is_none()).count(), 1, "only the fill is the harness's");
    }

    #[test]
    fn size_picks_its_value() {
        assert_eq!(Size::Full.pick(1 << 20, 4096), 1 << 20);
        assert_eq!(Size::Quick.pick(1 << 20, 4096), 4096);
    }
}
