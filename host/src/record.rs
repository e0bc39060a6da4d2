//! The one result type every command produces, and every exporter reads.

use crate::commands::Report;
use crate::commands::accuracy::AccuracyReport;
use crate::commands::bench::BenchReport;
use crate::commands::exercise::ExerciseReport;
use crate::commands::histogram::HistogramReport;
use crate::commands::litmus::{LitmusResults, TuneResults};
use crate::commands::publish::PublishResults;
use crate::commands::sweep::SweepResults;
use crate::gpu::{DeviceInfo, Gpu};

/// A finished run: where and with what it ran, and what it measured. The
/// JSON export is this, serialized, so a run can be compared with a later one.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// The host's name and version.
    pub tool: String,
    /// The toolchain that compiled the kernels to PTX.
    pub kernel_compiler: String,
    /// Where the PTX came from.
    pub ptx: String,
    /// The GPU and its driver.
    pub device: DeviceInfo,
    /// What was measured.
    pub results: Results,
    /// The run was interrupted (Ctrl-C) and holds only what was measured
    /// before it stopped. Written to the JSON only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
}

impl Record {
    /// A whole run's record of `results`, on `gpu`, by this host.
    pub fn of(gpu: &Gpu, results: Results) -> Record {
        Record {
            tool: format!("host {}", env!("CARGO_PKG_VERSION")),
            kernel_compiler: KERNEL_COMPILER.to_owned(),
            ptx: gpu.ptx_name().to_owned(),
            device: gpu.info.clone(),
            results,
            partial: false,
        }
    }
}

/// [`Results`], its [`Results::report`] and a `From` for each result type,
/// from one list: a new command's result is one line of it.
macro_rules! results {
    ($($(#[$doc:meta])* $variant:ident($result:ty),)*) => {
        /// What each command measured. In the JSON each is an object whose
        /// `command` names the variant (kebab-case) beside the result's own
        /// fields.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "command", rename_all = "kebab-case")]
        pub enum Results {
            $($(#[$doc])* $variant($result),)*
        }

        impl Results {
            /// What the exporters read: the result's tables, CSV rows, plot
            /// and checks.
            pub fn report(&self) -> &dyn Report {
                match self {
                    $(Results::$variant(result) => result,)*
                }
            }
        }

        $(impl From<$result> for Results {
            fn from(result: $result) -> Results {
                Results::$variant(result)
            }
        })*
    };
}

results! {
    /// `sweep`: the timed sums and the determinism table.
    Sweep(SweepResults),
    /// `exercise`: three sweeps.
    Exercise(ExerciseReport),
    /// `bench`.
    Bench(BenchReport),
    /// `histogram`.
    Histogram(HistogramReport),
    /// `accuracy`.
    Accuracy(AccuracyReport),
    /// `publish`.
    Publish(PublishResults),
    /// `litmus`.
    Litmus(LitmusResults),
    /// `litmus --tune`.
    LitmusTune(TuneResults),
}

/// The toolchain the host's build script compiled the kernels with.
pub const KERNEL_COMPILER: &str = env!("LAB_KERNEL_COMPILER");
