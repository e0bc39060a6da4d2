//! What the lab knows of a GPU once it has asked the driver: plain data,
//! which the driver's layer (`gpu/`) fills in and the exporters (`report/`)
//! print, so that neither reaches into the other.

/// What the device header shows, read from the driver.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DeviceInfo {
    /// The marketing name, e.g. "NVIDIA H200".
    pub name: String,
    /// Compute capability (major, minor).
    pub compute_capability: (i32, i32),
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// The driver's CUDA version as (major, minor), e.g. (13, 0).
    pub driver_cuda_version: (i32, i32),
    /// Bytes of L2 cache.
    pub l2_bytes: usize,
    /// The memory clock the driver reports, in kHz
    /// (`CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE`), if it reports one.
    pub memory_clock_khz: Option<u32>,
    /// The memory bus width the driver reports, in bits
    /// (`CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH`), if it reports one.
    pub memory_bus_bits: Option<u32>,
}

impl DeviceInfo {
    /// The DRAM's peak bandwidth in GB/s (10^9 bytes) from the driver's
    /// figures: two transfers per memory clock (double data rate, as HBM and
    /// GDDR both are) of the bus's width. `None` if the driver gave no figure.
    pub fn peak_dram_gb_per_s(&self) -> Option<f64> {
        let (khz, bits) = (self.memory_clock_khz?, self.memory_bus_bits?);
        Some(2.0 * f64::from(khz) * 1e3 * f64::from(bits) / 8.0 / 1e9)
    }
}
/// The NVIDIA kernel module's version, from the line Linux shows in
/// `/proc/driver/nvidia/version` (`NVRM version: ... Kernel Module  580.159.04 ...`).
pub fn kernel_driver_version() -> Option<String> {
    let text = std::fs::read_to_string("/proc/driver/nvidia/version").ok()?;
    driver_version_in(&text)
}

/// The version in the text of `/proc/driver/nvidia/version`.
pub fn driver_version_in(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.starts_with("NVRM version"))?;
    line.split_whitespace()
        .find(|w| {
            w.split('.').count() >= 2 && w.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_owned)
}

impl DeviceInfo {
    /// A file name for what was found on this GPU under `driver`: the name in
    /// lower case, every run of other characters one `-`, then the driver's
    /// version (`nvidia-h200-580.159.04`), or `driver-unknown`.
    pub fn file_stem(&self, driver: Option<&str>) -> String {
        let mut stem = String::new();
        for c in self.name.chars() {
            if c.is_ascii_alphanumeric() {
                stem.push(c.to_ascii_lowercase());
            } else if !stem.is_empty() && !stem.ends_with('-') {
                stem.push('-');
            }
        }
        let stem = stem.trim_end_matches('-');
        format!("{stem}-{}", driver.unwrap_or("driver-unknown"))
    }
}
