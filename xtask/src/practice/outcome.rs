//! How one check of an answer went: the word that both the checks
//! (`check.rs`) and the written answers' checks (`written.rs`) return.

/// How one check went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It held; what was seen.
    Passed(String),
    /// It did not; the evidence, in one or two sentences.
    Failed(String),
    /// It was not run; why.
    NotRun(String),
}
