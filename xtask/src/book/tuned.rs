//! The tuned runs the litmus appendix shows: the run's own (`host tune`'s
//! steps beside its others, or in its later part, [`litmus::LATER`]) and each
//! reference GPU's later part, each under a line naming where it ran.

use std::fs;

use lab_records::{MANIFEST, Manifest};

use super::{REFERENCE, SECOND_GPU, Sources, columns, litmus, read, render, without_machine_paths};
use crate::Error;

/// Every tuned run the book can show, each under its own provenance line:
/// the run's own tuned steps (beside its others, or in its later part,
/// [`litmus::LATER`]), then each reference GPU's later part. Each is its
/// search's table (`host render`), and how many of the suite's allowed rows
/// showed their weak outcome in its winners.
pub(super) fn runs(s: &Sources<'_>) -> Result<String, Error> {
    let root = crate::paths::workspace_root();
    let candidates = [
        s.results.to_path_buf(),
        s.results.join(litmus::LATER),
        root.join(REFERENCE).join(litmus::LATER),
        root.join(SECOND_GPU).join(litmus::LATER),
    ];
    let mut seen = Vec::new();
    let mut out = String::new();
    for dir in candidates {
        let (tune, suite) = (dir.join("litmus-gpu-tune.json"), dir.join("litmus-gpu-tuned.json"));
        let Ok(canonical) = fs::canonicalize(&dir) else { continue };
        if !tune.is_file() || seen.contains(&canonical) {
            continue;
        }
        seen.push(canonical);
        let manifest: Manifest = serde_json::from_str(&read(&dir.join(MANIFEST))?)
            .map_err(|e| Error(format!("{}: not a manifest ({e})", dir.join(MANIFEST).display())))?;
        let name = dir.strip_prefix(&root).unwrap_or(&dir).display().to_string();
        let date = manifest.started.get(..10).unwrap_or(&manifest.started);
        out += &format!(
            "**{}**, driver {}, CUDA {}, commit `{}`, {date} (`{name}`):\n\n",
            manifest.gpu.name,
            manifest.gpu.driver.as_deref().unwrap_or("unknown"),
            manifest.gpu.cuda,
            manifest.commit.describe(),
        );
        out += &columns::measured(&without_machine_paths(&render(s.host, &tune, &["--format", "markdown"])?));
        if suite.is_file() {
            out += &format!("\n{}\n\n", litmus::tuned_coverage(&suite)?);
        }
    }
    Ok(out)
}
