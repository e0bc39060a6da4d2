//! The winners of a tuning search on one GPU: per kernel (a test in one
//! variant), the environment that showed its weak outcome most often per
//! instance. `host tune` writes them to a file named after the GPU and its
//! driver (`runs/tuned/nvidia-h200-580.159.04.json`); `host litmus --tuned`
//! runs each kernel in its winner; the book reads the same file from a
//! results folder.

use std::path::{Path, PathBuf};

use layout::litmus::{Test, Variant};

use super::Environment;
use crate::device::DeviceInfo;
use crate::error::LabError;

/// Where `host tune` saves its winners and `host litmus --tuned` looks for
/// them when given no path: one file per GPU and driver.
pub const DEFAULT_FOLDER: &str = "runs/tuned";

/// One kernel's winner.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Winner {
    /// The kernel's test.
    #[serde(with = "super::keys::one")]
    pub test: Test,
    /// The kernel's variant. Files written while winners were per test have
    /// none: their searches ran `relaxed-gpu` alone (the only variant
    /// `host tune` then ran by default, and the only one the lab's results
    /// hold), and a test's winner was that kernel's, which the default names.
    #[serde(with = "super::keys::one", default = "relaxed_gpu")]
    pub variant: Variant,
    /// The environment.
    pub environment: Environment,
    /// [`Environment::summary`], for readers that do not parse the knobs.
    pub summary: String,
    /// Where it came from: `configuration #12` of the search, or `the
    /// starting environment`.
    pub found: String,
    /// Weak outcomes in the confirming run, over the rows the model allows.
    pub weak: u64,
    /// Instances of that run.
    pub instances: u64,
    /// The starting environment's weak outcomes in a confirming run as long.
    pub start_weak: u64,
    /// That run's instances.
    pub start_instances: u64,
}

/// The variant of a winner that names none.
fn relaxed_gpu() -> Variant {
    Variant::RelaxedGpu
}

/// Every winner of one search, and where it was found.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Winners {
    /// The GPU's name, as the driver gives it.
    pub gpu: String,
    /// The NVIDIA kernel module's version, where Linux shows it.
    pub driver: Option<String>,
    /// The host that searched, with its version.
    pub tool: String,
    /// The search's budget in seconds.
    pub budget_seconds: f64,
    /// Random environments the search tried.
    pub environments_tried: usize,
    /// The variants and placements each environment ran, as `--variant`
    /// and `--placement` name them.
    pub variants: Vec<String>,
    /// See `variants`.
    pub placements: Vec<String>,
    /// The location stride every environment had.
    pub location_stride: u32,
    /// One per kernel that showed its weak outcome in some environment, in
    /// registry order.
    pub winners: Vec<Winner>,
}

impl Winners {
    /// The environment for `test` in `variant`: that kernel's own winner,
    /// or else the winner of the first variant the search ran (in `--variant`
    /// order) that has one for `test`, since an environment that brings out
    /// a test's weak outcome in one variant is the best guess for another.
    /// `None` if the search found none for the test: it keeps the
    /// environment it is given.
    pub fn environment(&self, test: Test, variant: Variant) -> Option<&Environment> {
        self.winner(test, variant)
            .or_else(|| {
                let searched = self.variants.iter().filter_map(|key| super::keys::from_key::<Variant>(key));
                searched.filter_map(|v| self.winner(test, v)).next()
            })
            .map(|w| &w.environment)
    }

    /// The winner of `test` in `variant` itself, if the search found one.
    pub fn winner(&self, test: Test, variant: Variant) -> Option<&Winner> {
        self.winners.iter().find(|w| w.test == test && w.variant == variant)
    }

    /// The file these winners go to in `folder`: named after the GPU and
    /// the driver ([`DeviceInfo::file_stem`]).
    pub fn file_in(folder: &Path, device: &DeviceInfo, driver: Option<&str>) -> PathBuf {
        folder.join(format!("{}.json", device.file_stem(driver)))
    }

    /// The winners file `path` names for `device`: `path` itself, or, for a
    /// folder, its file for this GPU and driver ([`Winners::file_in`]). A
    /// file that is not there is refused in one line that says how to make
    /// it.
    pub fn file_for(path: &Path, device: &DeviceInfo, driver: Option<&str>) -> Result<PathBuf, LabError> {
        let file = if path.is_dir() { Winners::file_in(path, device, driver) } else { path.to_path_buf() };
        if !file.exists() {
            return Err(LabError::Unrunnable(format!(
                "no tuned environments for {} (driver {}) at {}: run `host tune` on this GPU first",
                device.name,
                driver.unwrap_or("unknown"),
                file.display()
            )));
        }
        Ok(file)
    }

    /// The winners in `text`, read from `file`, for `device`. Winners found
    /// on another GPU are refused in one line: they were tuned for that
    /// card.
    pub fn parse(text: &str, file: &Path, device: &DeviceInfo) -> Result<Winners, LabError> {
        let winners: Winners = serde_json::from_str(text)
            .map_err(|e| LabError::DataFile { path: file.to_path_buf(), reason: format!("not a winners file: {e}") })?;
        if winners.gpu != device.name {
            return Err(LabError::Unrunnable(format!(
                "{} holds environments tuned on {}, and this GPU is {}: run `host tune` here",
                file.display(),
                winners.gpu,
                device.name
            )));
        }
        Ok(winners)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::litmus::Preset;

    fn h200() -> DeviceInfo {
        DeviceInfo {
            name: "NVIDIA H200".to_owned(),
            compute_capability: (9, 0),
            sm_count: 132,
            driver_cuda_version: (13, 0),
            l2_bytes: 50 << 20,
            memory_clock_khz: None,
            memory_bus_bits: None,
        }
    }

    fn winners(gpu: &str) -> Winners {
        let environment = Preset::TunedWrc.environment();
        Winners {
            gpu: gpu.to_owned(),
            driver: Some("580.159.04".to_owned()),
            tool: "host 0".to_owned(),
            budget_seconds: 1.0,
            environments_tried: 1,
            variants: vec!["relaxed-gpu".to_owned()],
            placements: vec!["inter-block".to_owned()],
            location_stride: 64,
            winners: vec![Winner {
                test: Test::Iriw,
                variant: Variant::RelaxedGpu,
                summary: environment.summary(),
                environment,
                found: "configuration #1".to_owned(),
                weak: 3,
                instances: 100,
                start_weak: 1,
                start_instances: 100,
            }],
        }
    }

    #[test]
    fn a_folder_finds_the_file_of_this_gpu_and_driver_and_another_gpus_is_refused() {
        let folder = std::env::temp_dir().join(format!("lab-tuned-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let file = Winners::file_in(&folder, &h200(), Some("580.159.04"));
        assert!(file.ends_with("nvidia-h200-580.159.04.json"), "{}", file.display());
        std::fs::write(&file, serde_json::to_string(&winners("NVIDIA H200")).unwrap()).unwrap();
        let load = |path: &Path, driver| {
            let file = Winners::file_for(path, &h200(), driver)?;
            Winners::parse(&std::fs::read_to_string(&file).unwrap(), &file, &h200())
        };
        let loaded = load(&folder, Some("580.159.04")).unwrap();
        // IRIW's winner is its relaxed-gpu kernel's, and its other variants
        // run in it too; MP has none.
        let tuned = Some(&Preset::TunedWrc.environment());
        assert_eq!(loaded.environment(Test::Iriw, Variant::RelaxedGpu), tuned);
        assert_eq!(loaded.environment(Test::Iriw, Variant::FenceAcqRelCta), tuned);
        assert!(loaded.winner(Test::Iriw, Variant::FenceAcqRelCta).is_none());
        assert_eq!(loaded.environment(Test::Mp, Variant::RelaxedGpu), None);
        // Another driver has no file here yet.
        let missing = load(&folder, Some("590.1")).unwrap_err().to_string();
        assert!(missing.contains("run `host tune` on this GPU first"), "{missing}");
        // A file tuned on another GPU, named directly.
        std::fs::write(&file, serde_json::to_string(&winners("NVIDIA H100 80GB HBM3")).unwrap()).unwrap();
        let other = load(&file, Some("580.159.04")).unwrap_err().to_string();
        assert!(other.contains("tuned on NVIDIA H100 80GB HBM3, and this GPU is NVIDIA H200"), "{other}");
        std::fs::write(&file, "{").unwrap();
        assert!(load(&file, None).unwrap_err().to_string().contains("not a winners file"));
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_file_stem_names_the_gpu_and_driver() {
        assert_eq!(h200().file_stem(Some("580.159.04")), "nvidia-h200-580.159.04");
        let h100 = DeviceInfo { name: "NVIDIA H100 80GB HBM3".to_owned(), ..h200() };
        assert_eq!(h100.file_stem(None), "nvidia-h100-80gb-hbm3-driver-unknown");
    }
}
