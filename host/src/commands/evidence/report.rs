//! `evidence`'s table: one row per step, with how it ended and how long it
//! took, and where its files went.

use std::path::Path;

use lab_records::Manifest;
use tabled::builder::Builder;

use crate::report::table::{Look, render_some};

/// The steps of an evidence run, and a line naming the run.
pub fn evidence(manifest: &Manifest, dir: &Path, look: Look) -> String {
    let mut builder = Builder::default();
    builder.push_record(["step", "outcome", "seconds", "note"]);
    for step in &manifest.steps {
        builder.push_record([
            step.name.clone(),
            step.outcome.word().to_owned(),
            format!("{:.1}", step.wall_s),
            step.note.clone().unwrap_or_default(),
        ]);
    }
    let g = &manifest.gpu;
    format!(
        "Evidence: {} steps on {} (compute capability {}, driver {}, CUDA {}), commit {}, started {}, {:.0} s\n{}\nFiles: {}\n",
        manifest.steps.len(),
        g.name,
        g.compute_capability,
        g.driver.as_deref().unwrap_or("unknown"),
        g.cuda,
        manifest.commit.describe(),
        manifest.started,
        manifest.wall_s,
        render_some(builder, look, 2..3),
        dir.display()
    )
}
