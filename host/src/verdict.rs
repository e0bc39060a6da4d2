//! The verdict on a publication run, worded as the page words it: what the
//! memory model guarantees, set against what the run saw. `publish` and
//! `publish-sys` judge their rows with it.

/// The verdict on one publication variant's run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A guaranteed variant saw only `{42, 3.5}` and never timed out.
    Correct,
    /// A guaranteed variant saw a stale record or timed out: a bug.
    Failed,
    /// A broken variant showed its breakage.
    BrokenAndSeen,
    /// A broken variant happened to show nothing: not a proof.
    NotAProof,
}

impl Verdict {
    /// The verdict on a run of a variant the memory model does (`guaranteed`)
    /// or does not guarantee, that saw `stale` stale records and `timeouts`
    /// timeouts.
    pub fn judge(guaranteed: bool, stale: u64, timeouts: u64) -> Verdict {
        let clean = stale == 0 && timeouts == 0;
        match (guaranteed, clean) {
            (true, true) => Verdict::Correct,
            (true, false) => Verdict::Failed,
            (false, true) => Verdict::NotAProof,
            (false, false) => Verdict::BrokenAndSeen,
        }
    }

    /// The text of the verdict column.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Correct => "correct: release/acquire at this scope publishes the record",
            Verdict::Failed => "FAILED: a guaranteed variant saw a stale record or timed out",
            Verdict::BrokenAndSeen => "broken, and it showed: permitted by the memory model",
            Verdict::NotAProof => "none seen, which is not a proof: stale records are permitted",
        }
    }
}
