//! A written answer: what the learner wrote in a puzzle file's doc comment,
//! as `key: value` lines, and the checks of page 1's exercise on it.
//!
//! The exercise asks which of the three sums' columns barely moves when the
//! block size changes, and why. Its checks hold the learner's counts of
//! global atomic adds to the lab's own (each sum's registry row says whether
//! it adds once per element or once per block), the column named to the
//! count that has no `block` in it, and the kernels it is about to their
//! own puzzles, so that the GPU run times kernels that are right.

use layout::practice::StandsFor;
use layout::sum::{self, GlobalAtomics};

use super::Puzzle;
use super::outcome::Outcome;

/// The value of the first line of `source` that reads `key value` once a
/// comment's `//!` and spaces are taken off (`key` ends with its colon),
/// trimmed.
pub fn field<'s>(source: &'s str, key: &str) -> Option<&'s str> {
    source.lines().find_map(|l| l.trim_start_matches("//!").trim().strip_prefix(key).map(str::trim))
}

/// `key`'s value in `source`, or why it cannot be read: absent, empty, or
/// still the stub's `TODO`.
fn written<'s>(source: &'s str, key: &str) -> Result<&'s str, String> {
    match field(source, key) {
        None => Err(format!("no `{key}` line in the file's answer block")),
        Some(text) if text.is_empty() || text.starts_with("TODO") => {
            Err(format!("the answer's `{key}` line is not written yet"))
        }
        Some(text) => Ok(text),
    }
}

/// The puzzles a written answer is about, and each one's count of global
/// atomic adds per launch in the lab's registry.
fn about(puzzle: &Puzzle) -> Vec<(&'static Puzzle, GlobalAtomics)> {
    let StandsFor::Written(keys) = puzzle.kernel.stands_for else { return Vec::new() };
    keys.iter()
        .filter_map(|key| super::find(key))
        .filter_map(|p| {
            let lab = p.kernel.stands_for.lab()?;
            let row = sum::KERNELS.iter().find(|s| s.entry.symbol == lab.symbol)?;
            Some((p, row.global_atomics))
        })
        .collect()
}

/// How a learner may write a count: `n / block`, `ceil(n / block)` and
/// `⌈n/block⌉` are one count.
fn normalized(count: &str) -> String {
    count.to_lowercase().replace("ceil", "").chars().filter(|c| !c.is_whitespace() && !"()⌈⌉`".contains(*c)).collect()
}

/// Whether `count`, as written, is `atomics` for a launch of `n` elements in
/// blocks of `block` threads.
fn says(count: &str, atomics: GlobalAtomics) -> bool {
    let count = normalized(count);
    match atomics {
        GlobalAtomics::PerElement => count == "n",
        GlobalAtomics::PerBlock => {
            ["n/block", "n/blocksize", "n/block_size", "n/blockdim", "n/threads", "blocks", "grid", "griddim"]
                .contains(&count.as_str())
        }
        GlobalAtomics::None => count == "0",
    }
}

/// Whether `count`, as written, depends on the block size.
fn has_block(count: &str) -> bool {
    let count = normalized(count);
    ["block", "thread", "grid"].iter().any(|w| count.contains(w))
}

/// [`super::Check::Counts`]: each kernel's count, as written, is the lab's.
pub fn counts(puzzle: &Puzzle, source: &str) -> Outcome {
    let mut seen = Vec::new();
    for (about, atomics) in about(puzzle) {
        let key = format!("{}:", about.kernel.key);
        let count = match written(source, &key) {
            Ok(count) => count,
            Err(why) => return Outcome::Failed(why),
        };
        if !says(count, atomics) {
            return Outcome::Failed(format!(
                "`{key} {count}` is not the number of atomic adds that reach `*total` in one launch of your \
                 `{}`: count them as a function of `n` and `block` (`n`, `n / block`, ...)",
                about.kernel.symbol
            ));
        }
        seen.push(format!("{} {count}", about.kernel.key));
    }
    Outcome::Passed(format!("global atomic adds per launch: {}", seen.join(", ")))
}

/// [`super::Check::Column`]: the column named is the one whose count has no
/// `block` in it, and the sentence says why.
pub fn column(puzzle: &Puzzle, source: &str) -> Outcome {
    let (named, because) = match (written(source, "barely moves:"), written(source, "because:")) {
        (Ok(named), Ok(because)) => (named, because),
        (Err(why), _) | (_, Err(why)) => return Outcome::Failed(why),
    };
    let spelled =
        named.trim_matches('`').trim_start_matches("sum_").trim_start_matches("sum-").replace(['_', ' '], "-");
    let Some((right, _)) = about(puzzle).into_iter().find(|&(_, atomics)| atomics == GlobalAtomics::PerElement) else {
        return Outcome::Failed("the puzzle names no kernel that adds once per element".to_owned());
    };
    let count = field(source, &format!("{}:", right.kernel.key)).unwrap_or_default();
    let short = right.kernel.key.trim_start_matches("sum-");
    if spelled != short && format!("{spelled}-atomic") != short {
        return Outcome::Failed(format!(
            "`{named}`: the column that barely moves is the kernel whose count of global adds has no `block` in \
             it, so that changing the block changes neither how many adds meet at one address nor where"
        ));
    }
    if has_block(count) || because.split_whitespace().count() < 6 {
        return Outcome::Failed(format!(
            "`because: {because}`: say in one sentence why `{}` barely moves, from its count",
            right.kernel.key
        ));
    }
    Outcome::Passed(format!(
        "`{}`, whose count is `{count}`. Yours: \"{because}\" The page's: \"{THE_PAGES_SENTENCE}\"",
        right.kernel.key
    ))
}

/// Page 1's own answer to its exercise, shown beside the learner's once the
/// learner's is right.
const THE_PAGES_SENTENCE: &str = "The naive column barely moves. It performs n global atomics however you cut the \
                                  grid up, so the block size changes where those atomics come from and not how many \
                                  there are.";

/// [`super::Check::Solved`]: each kernel the answer is about passes its own
/// puzzle's checks, as `own` runs them on the same crate.
pub fn solved(puzzle: &Puzzle, own: impl Fn(&Puzzle) -> Result<(), String>) -> Outcome {
    let about = about(puzzle);
    for (about, _) in &about {
        if let Err(why) = own(about) {
            let number = super::PUZZLES.iter().position(|p| p.kernel.key == about.kernel.key).map_or(0, |k| k + 1);
            return Outcome::Failed(format!(
                "puzzle {number}, `{}`, is not solved yet ({why}); the exercise times your kernels, so solve it \
                 first",
                about.kernel.key
            ));
        }
    }
    let keys: Vec<&str> = about.iter().map(|(p, _)| p.kernel.key).collect();
    Outcome::Passed(format!("{} pass their own checks", keys.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_may_be_written_several_ways() {
        for count in ["n / block", "ceil(n / block)", "⌈n/block⌉", "blocks", "N/Block"] {
            assert!(says(count, GlobalAtomics::PerBlock), "{count}");
            assert!(has_block(count), "{count}");
        }
        assert!(says("n", GlobalAtomics::PerElement) && !has_block("n"));
        assert!(!says("n / block", GlobalAtomics::PerElement) && !says("n * block", GlobalAtomics::PerBlock));
    }

    #[test]
    fn a_field_is_read_from_a_doc_comment() {
        let source = "//! ```text\n//! barely moves: global-atomic\n//! because: TODO\n//! ```\n";
        assert_eq!(field(source, "barely moves:"), Some("global-atomic"));
        assert!(written(source, "because:").unwrap_err().contains("not written yet"));
        assert!(written(source, "tree-atomic:").unwrap_err().contains("no `tree-atomic:` line"));
    }
}
