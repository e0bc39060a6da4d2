//! Conformance with Dat3M: every vendored PTX litmus file (`tests/dat3m/`,
//! see its README) is parsed, checked, and its verdict compared with the one
//! Dat3M's own expectations file gives for the `ptx-v6.0` model.

use std::path::Path;

use memory_model::litmus_file::parse;

/// Files where the checker is known to disagree with Dat3M, each with the
/// reason (the README says the same). The test holds them to *disagreeing*,
/// so a change that makes one agree is noticed too.
const EXCLUDED: &[(&str, &str)] = &[];

#[test]
fn every_vendored_file_gets_dat3m_s_verdict() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dat3m");
    let expected = std::fs::read_to_string(root.join("expected.csv")).unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let (path, result) = line.split_once(',').unwrap();
        let relative = path.strip_prefix("litmus/PTX/").unwrap();
        let text = std::fs::read_to_string(root.join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"));
        let file = parse(&text).unwrap_or_else(|e| panic!("{relative}: {e}"));
        let holds = file.holds();
        let agrees = holds == (result.trim() == "1");
        let excluded = EXCLUDED.iter().any(|(f, _)| *f == relative);
        println!("{relative}: holds {holds}, Dat3M {result}{}", if excluded { " (excluded)" } else { "" });
        if agrees == excluded {
            wrong.push(relative.to_string());
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} files");
    assert!(wrong.is_empty(), "disagreements (or excluded files that now agree): {wrong:?}");
}
