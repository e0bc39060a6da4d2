//! The verdict on a publication run, worded as the page words it: what the
//! memory model guarantees, set against what the run saw. `publish` and
//! `publish-sys` judge their rows with it.
//!
//! A stale record and a timeout are different findings. A stale record (the
//! flag seen, the payload not) is an ordering failure, the one thing the
//! memory model speaks to. A timeout (the flag never seen before the spin's
//! deadline) is a progress failure: the PTX memory model has no progress
//! axiom, so it neither permits nor forbids a flag that stays unseen, and a
//! timeout shows no breakage of order. A broken variant that only timed out
//! has shown nothing about order; a guaranteed variant that timed out still
//! fails the run, since the lab's publication promises to finish, but it is
//! named as a progress failure, never as a stale record.

/// What a timeout is, in the words every table and pitfall uses for it: the
/// consumer never saw the flag before its deadline.
pub const PROGRESS_FAILURE: &str = "never saw the flag before the deadline: a progress failure, not an ordering one";

/// The kind of failure alone, for a wait that waited on something other than
/// a flag (the pitfalls' grid barriers): the end of [`PROGRESS_FAILURE`].
pub const NOT_AN_ORDERING_FAILURE: &str = "a progress failure, not an ordering one";

/// The verdict on one publication variant's run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A guaranteed variant saw only `{42, 3.5}` and never timed out.
    Correct,
    /// A guaranteed variant saw a stale record: a bug in the lab or the GPU.
    Failed,
    /// A guaranteed variant saw no stale record, but a consumer never saw
    /// its flag before the deadline: a progress failure, which fails the run.
    ProgressFailed,
    /// A broken variant showed its breakage: a stale record.
    BrokenAndSeen,
    /// A broken variant saw no stale record, but a consumer never saw its
    /// flag before the deadline: neither a proof of order nor a failure.
    NoProgress,
    /// A broken variant happened to show nothing: not a proof.
    NotAProof,
}

impl Verdict {
    /// The verdict on a run of a variant the memory model does (`guaranteed`)
    /// or does not guarantee, that saw `stale` stale records and `timeouts`
    /// timeouts. A stale record decides the verdict whatever the timeouts;
    /// timeouts alone are a progress failure, not an ordering one.
    pub fn judge(guaranteed: bool, stale: u64, timeouts: u64) -> Verdict {
        match (guaranteed, stale > 0, timeouts > 0) {
            (true, true, _) => Verdict::Failed,
            (true, false, true) => Verdict::ProgressFailed,
            (true, false, false) => Verdict::Correct,
            (false, true, _) => Verdict::BrokenAndSeen,
            (false, false, true) => Verdict::NoProgress,
            (false, false, false) => Verdict::NotAProof,
        }
    }

    /// Whether a row with this verdict fails the run (exit code 1): only a
    /// guaranteed variant's stale record or timeout does. A broken variant
    /// fails nothing, whatever it saw.
    pub fn fails_the_run(self) -> bool {
        matches!(self, Verdict::Failed | Verdict::ProgressFailed)
    }

    /// The text of the verdict column.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Correct => "correct: release/acquire at this scope publishes the record",
            Verdict::Failed => "FAILED: a guaranteed variant saw a stale record",
            Verdict::ProgressFailed => {
                "FAILED: a guaranteed variant never saw the flag before the deadline: a progress failure, not an ordering one"
            }
            Verdict::BrokenAndSeen => "broken, and it showed: permitted by the memory model",
            Verdict::NoProgress => {
                "never saw the flag before the deadline: a progress failure, not an ordering one; neither proof nor failure"
            }
            Verdict::NotAProof => "none seen, which is not a proof: stale records are permitted",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every case of the judgement: guaranteed or not, stale records or
    /// none, timeouts or none, with the verdict and whether it fails the run.
    const CASES: [(bool, u64, u64, Verdict, bool); 8] = [
        (true, 0, 0, Verdict::Correct, false),
        (true, 0, 7, Verdict::ProgressFailed, true),
        (true, 3, 0, Verdict::Failed, true),
        (true, 3, 7, Verdict::Failed, true),
        (false, 0, 0, Verdict::NotAProof, false),
        (false, 0, 7, Verdict::NoProgress, false),
        (false, 3, 0, Verdict::BrokenAndSeen, false),
        (false, 3, 7, Verdict::BrokenAndSeen, false),
    ];

    #[test]
    fn judge_covers_guarantee_stale_and_timeouts() {
        for (guaranteed, stale, timeouts, verdict, fails) in CASES {
            let got = Verdict::judge(guaranteed, stale, timeouts);
            assert_eq!(got, verdict, "guaranteed {guaranteed}, {stale} stale, {timeouts} timeouts");
            assert_eq!(got.fails_the_run(), fails, "{got:?}");
        }
    }

    #[test]
    fn only_a_guaranteed_variant_fails_the_run() {
        for (guaranteed, stale, timeouts, _, _) in CASES {
            let verdict = Verdict::judge(guaranteed, stale, timeouts);
            let clean = stale == 0 && timeouts == 0;
            assert_eq!(verdict.fails_the_run(), guaranteed && !clean, "{verdict:?}");
        }
    }

    #[test]
    fn timeouts_alone_are_named_a_progress_failure_and_never_a_stale_record() {
        for verdict in [Verdict::ProgressFailed, Verdict::NoProgress] {
            let text = verdict.text();
            assert!(text.contains(PROGRESS_FAILURE), "{text}");
            assert!(!text.contains("stale record"), "{text}");
            assert!(!text.contains("broken, and it showed"), "{text}");
        }
        // The ordering verdicts never speak of progress.
        for verdict in [Verdict::Correct, Verdict::Failed, Verdict::BrokenAndSeen, Verdict::NotAProof] {
            assert!(!verdict.text().contains("progress"), "{}", verdict.text());
        }
        assert!(Verdict::Failed.text().contains("stale record"));
    }

    #[test]
    fn the_pitfalls_words_end_the_publications() {
        assert!(PROGRESS_FAILURE.ends_with(NOT_AN_ORDERING_FAILURE));
    }
}
