//! The book's files made by the puzzles' checker: the table of every
//! puzzle, the record of every kept answer on a GPU, and what `practice
//! check` prints for a stub or a wrong answer.

use crate::practice::{self, PUZZLES, build::Answer};

use super::Made;

/// A puzzle's file: `practice.md`, the table of every puzzle and its
/// checks; `practice-on-gpu*.md`, the record of every kept answer on a GPU
/// (its summary, and its tables by lesson); `practice-KEY-stub.txt`, what `practice check KEY` prints for the
/// stub as the checkout holds it; `practice-KEY-NAME.txt`, for the wrong
/// answer `practice/wrong/KEY/NAME.rs`. Made by the checker itself, with no
/// GPU; `None` for a name of another kind.
pub(super) fn file(name: &str) -> Option<Made> {
    if name == "practice.md" {
        return Some(Made::Text(practice::table()));
    }
    if let Some(part) = name.strip_prefix("practice-on-gpu").and_then(|n| n.strip_suffix(".md")) {
        let path = crate::paths::workspace_root().join(practice::record::FILE);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Some(Made::Missing(format!("there is no {}", practice::record::FILE)));
        };
        let record = practice::record::Record::parse(&text);
        // Lesson 2's second part starts at its first puzzle.
        let part_2 = PUZZLES.iter().position(|p| p.lesson.ends_with("part 2")).map_or(PUZZLES.len(), |k| k + 1);
        return Some(match part {
            "" => Made::Text(record.summary()),
            "-lessons-1-2" => Made::Text(record.table(1, part_2 - 1)),
            "-lesson-2-part-2" => Made::Text(record.table(part_2, PUZZLES.len())),
            other => Made::Missing(format!("no practice table {other}")),
        });
    }
    let rest = name.strip_prefix("practice-")?.strip_suffix(".txt")?;
    let puzzle = PUZZLES.iter().find(|p| rest.strip_prefix(p.kernel.key).is_some_and(|r| r.starts_with('-')))?;
    let answer = &rest[puzzle.kernel.key.len() + 1..];
    let answer = match answer {
        "stub" => Answer::Learner,
        wrong => match puzzle.wrong.iter().find(|w| w.name == wrong) {
            Some(w) => Answer::Wrong(w.name),
            None => return Some(Made::Missing(format!("puzzle {} keeps no wrong answer {wrong}", puzzle.kernel.key))),
        },
    };
    let root = crate::paths::workspace_root();
    let cargo = std::env::var_os("CARGO").map_or_else(|| "cargo".into(), std::path::PathBuf::from);
    Some(Made::Text(practice::transcript(&root, &cargo, puzzle, answer)))
}

#[cfg(test)]
mod tests {
    use std::fs;

    #[test]
    fn a_puzzle_named_with_its_number_has_that_number() {
        // "Puzzle 13, `relaxed-twin`" and "**7, `histogram-global-atomic`**"
        // are typed in the chapters: each number must be the puzzle's place
        // in the list, which moves when a puzzle is added.
        let src = crate::paths::workspace_root().join("book/src");
        let mut wrong = Vec::new();
        for entry in fs::read_dir(&src).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            for (k, puzzle) in crate::practice::PUZZLES.iter().enumerate() {
                let named = format!(", `{}`", puzzle.kernel.key);
                for (at, _) in text.match_indices(&named) {
                    let digits: String = text[..at]
                        .chars()
                        .rev()
                        .take_while(char::is_ascii_digit)
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    if !digits.is_empty() && digits != (k + 1).to_string() {
                        wrong.push(format!("{}: {digits}{named} (it is {})", path.display(), k + 1));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
