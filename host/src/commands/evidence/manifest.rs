//! The manifest: the commit the host was built from, the GPU and driver it
//! ran on, and how a run's steps merge into an earlier run's.

use std::path::Path;

use lab_records::{Commit, Gpu as GpuRecord, MANIFEST, Manifest, SANITIZE};

use crate::device::DeviceInfo;

/// The commit and tree state the build script saw.
pub fn build_commit() -> Commit {
    Commit { hash: env!("LAB_GIT_COMMIT").to_owned(), dirty: env!("LAB_GIT_DIRTY") == "true" }
}

/// The manifest already in `dir`, if there is one that reads.
pub(super) fn existing_manifest(dir: &Path) -> Option<Manifest> {
    serde_json::from_str(&std::fs::read_to_string(dir.join(MANIFEST)).ok()?).ok()
}

/// `new`'s steps merged into `old`'s: a step run again replaces the old one
/// in its place, a step new to the run is added at the end; the run started
/// when `old` did and took both parts' time. Where one part found the
/// sanitizer and ran it, the other part's note that it could not is dropped.
pub(super) fn merge(old: Manifest, new: Manifest) -> Manifest {
    let mut steps = old.steps;
    for step in new.steps {
        match steps.iter_mut().find(|s| s.name == step.name) {
            Some(slot) => *slot = step,
            None => steps.push(step),
        }
    }
    if steps.iter().any(|s| s.name != SANITIZE && s.name.starts_with(SANITIZE)) {
        steps.retain(|s| s.name != SANITIZE);
    }
    Manifest { started: old.started, wall_s: old.wall_s + new.wall_s, steps, ..new }
}

/// The GPU and driver as the manifest records them.
pub(super) fn gpu_record(info: &DeviceInfo) -> GpuRecord {
    let (major, minor) = info.compute_capability;
    let (cuda_major, cuda_minor) = info.driver_cuda_version;
    GpuRecord {
        name: info.name.clone(),
        compute_capability: format!("{major}.{minor}"),
        sm_count: info.sm_count,
        driver: crate::device::kernel_driver_version(),
        cuda: format!("{cuda_major}.{cuda_minor}"),
    }
}
