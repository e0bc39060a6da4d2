//! The one record every command's result becomes, and every exporter reads:
//! where it ran and what it measured, with the measurement as [`Results`],
//! the union of every command's result type. This module sits above the
//! command folders (it names each one's result) and below only `app` and
//! `render`, which reads a saved record of any command. The commands hand
//! back a [`Written`] of their own result type; the [`Output`] here turns it
//! into a [`Record`] and writes it.

use crate::commands::accuracy::AccuracyReport;
use crate::commands::bench::BenchReport;
use crate::commands::exercise::ExerciseReport;
use crate::commands::histogram::HistogramReport;
use crate::commands::litmus::{LitmusResults, MutantResults, TuneResults, TunedResults};
use crate::commands::pitfalls::PitfallsReport;
use crate::commands::publish::PublishResults;
use crate::commands::publish_sys::PublishSysResults;
use crate::commands::scopes::ScopesResults;
use crate::commands::sweep::SweepResults;
use crate::commands::{Output, Provenance, Written};
use crate::device::DeviceInfo;
use crate::error::LabError;
use crate::report::{self, Checks, Document, Report, plot};

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
    /// The record of `results`, made where `provenance` says.
    pub fn new(provenance: Provenance, results: Results) -> Record {
        let Provenance { tool, kernel_compiler, ptx, device, partial } = provenance;
        Record { tool, kernel_compiler, ptx, device, results, partial }
    }

    /// Reads a record back from its JSON export, and holds its parts to
    /// one another's shapes ([`Report::validate`]) before anything reads
    /// them: a damaged record is refused here, with the reason.
    pub fn from_json(text: &str) -> Result<Record, String> {
        let record: Record =
            serde_json::from_str(text).map_err(|e| format!("not a record written by `--format json` ({e})"))?;
        record.results.report().validate().map_err(|why| format!("a damaged record: {why}"))?;
        Ok(record)
    }

    /// Where and with what it ran.
    pub fn provenance(&self) -> Provenance {
        let Record { tool, kernel_compiler, ptx, device, partial, .. } = self;
        Provenance {
            tool: tool.clone(),
            kernel_compiler: kernel_compiler.clone(),
            ptx: ptx.clone(),
            device: device.clone(),
            partial: *partial,
        }
    }
}

impl Document for Record {
    fn device(&self) -> &DeviceInfo {
        &self.device
    }

    fn report(&self) -> &dyn Report {
        self.results.report()
    }

    fn partial(&self) -> bool {
        self.partial
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
    /// `publish-sys`.
    PublishSys(PublishSysResults),
    /// `scopes`.
    Scopes(ScopesResults),
    /// `litmus`.
    Litmus(LitmusResults),
    /// `litmus --tune`.
    LitmusTune(TuneResults),
    /// `litmus --mutants`.
    LitmusMutants(MutantResults),
    /// `tune`.
    Tune(TunedResults),
    /// `pitfalls`.
    Pitfalls(PitfallsReport),
}

/// Everything a command records can be written: as the record of every
/// command, in the format and to the place the command line chose.
impl<R> Output for Written<R>
where
    R: Report + Clone + Into<Results>,
{
    fn emit(&self) -> Result<(), LabError> {
        let record = Record::new(self.provenance.clone(), self.results.clone().into());
        let text = report::export(&record, self.to.format);
        // The plot is drawn before anything is written, so a plot that
        // cannot be drawn leaves the results file as it was.
        let plot = match &self.plot {
            Some(path) => match plot::svg(&record) {
                Ok(svg) => Some((path, svg)),
                // An interrupted run may have stopped before it measured
                // anything to plot: that is the interruption, not a file that
                // cannot be written.
                Err(reason) if record.partial => {
                    eprintln!("no plot written to {}: {reason}", path.display());
                    None
                }
                Err(reason) => return Err(LabError::Output { path: path.clone(), reason }),
            },
            None => None,
        };
        // The results file and the plot are written together, or neither.
        let mut files: Vec<(&std::path::Path, &str)> =
            plot.iter().map(|(p, svg)| (p.as_path(), svg.as_str())).collect();
        match &self.to.output {
            Some(path) => files.push((path, &text)),
            None => crate::commands::print(&text)?,
        }
        crate::commands::write_all(&files)
    }

    fn checks(&self) -> Checks {
        if self.judged { self.results.checks() } else { Checks::none() }
    }

    fn partial(&self) -> bool {
        self.judged && self.provenance.partial
    }
}

/// A saved record printed again (`render`) reports as the result it holds.
impl Report for Results {
    fn tables(&self, device: &DeviceInfo, look: report::table::Look) -> String {
        self.report().tables(device, look)
    }

    fn csv(&self) -> report::Csv {
        self.report().csv()
    }

    fn plot(&self, device: &DeviceInfo) -> Option<report::Plot> {
        self.report().plot(device)
    }

    fn checks(&self) -> Checks {
        self.report().checks()
    }
}

#[cfg(test)]
mod golden;

#[cfg(test)]
mod tests {
    use std::path::Path;

    use lab_records::host as view;

    use super::*;
    use crate::litmus::LitmusRow;
    use crate::sums::SweepRow;

    /// The view's row holds the host's: size, reference, and each kernel's
    /// name and times, in order.
    fn rows_agree(name: &str, host: &SweepRow, view: &view::SweepRow) {
        assert_eq!(host.n as u64, view.n, "{name}: n");
        assert_eq!(host.reference.to_bits(), view.reference.to_bits(), "{name}: reference");
        assert_eq!(host.measurements.len(), view.measurements.len(), "{name}: measurements");
        for (h, v) in host.measurements.iter().zip(&view.measurements) {
            assert_eq!((h.kernel.key(), &h.times_ms), (v.kernel.as_str(), &v.times_ms), "{name}: a measurement");
        }
    }

    /// The view's litmus rows hold the host's: kernel, placement, control
    /// and counts, in order.
    fn litmus_rows_agree(name: &str, host: &[LitmusRow], view: &[view::LitmusRow]) {
        assert_eq!(host.len(), view.len(), "{name}: litmus rows");
        for (h, v) in host.iter().zip(view) {
            assert_eq!(
                (h.kernel.key(), h.placement.key(), h.sequential),
                (v.kernel.as_str(), v.placement.as_str(), v.sequential),
                "{name}: a litmus row"
            );
            let (hc, vc) = (&h.counts, &v.counts);
            assert_eq!(
                (hc.instances, &hc.histogram, hc.seconds.to_bits()),
                (vc.instances, &vc.histogram, vc.seconds.to_bits()),
                "{name}: {} counts",
                v.kernel
            );
        }
    }

    /// Every golden record reads through the typed view `xtask` reads
    /// (`lab_records::host`), and every field the view names holds the
    /// host's value: a field the host renames breaks this test, not a
    /// figure made by `xtask nvcc-compare` or the book's litmus anchors.
    #[test]
    fn every_golden_record_reads_as_the_view_xtask_reads() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/record/golden");
        let (mut sweeps, mut benches, mut litmus, mut tunes, mut accuracies, mut scopes) = (0, 0, 0, 0, 0, 0);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let host = Record::from_json(&text).unwrap();
            let view: view::Record =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} does not read as the view: {e}"));
            assert_eq!(
                (&host.tool, &host.kernel_compiler, &host.ptx, host.partial),
                (&view.tool, &view.kernel_compiler, &view.ptx, view.partial),
                "{name}"
            );
            let (d, v) = (&host.device, &view.device);
            assert_eq!(
                (&d.name, d.compute_capability, d.sm_count, d.driver_cuda_version, d.l2_bytes as u64),
                (&v.name, v.compute_capability, v.sm_count, v.driver_cuda_version, v.l2_bytes),
                "{name}: device"
            );
            assert_eq!((d.memory_clock_khz, d.memory_bus_bits), (v.memory_clock_khz, v.memory_bus_bits));
            match (&host.results, &view.results) {
                (Results::Sweep(h), view::Results::Sweep(v)) => {
                    sweeps += 1;
                    assert_eq!(h.sweep.rows.len(), v.sweep.rows.len(), "{name}: rows");
                    for (h, v) in h.sweep.rows.iter().zip(&v.sweep.rows) {
                        rows_agree(&name, h, v);
                    }
                }
                (Results::Bench(h), view::Results::Bench(v)) => {
                    benches += 1;
                    assert_eq!(h.rows.len(), v.rows.len(), "{name}: rows");
                    for (h, v) in h.rows.iter().zip(&v.rows) {
                        rows_agree(&name, &h.sums, &v.sums);
                        assert_eq!((&h.copy_ms, &h.empty_ms), (&v.copy_ms, &v.empty_ms), "{name}: baselines");
                    }
                }
                (Results::Litmus(h), view::Results::Litmus(v)) => {
                    litmus += 1;
                    litmus_rows_agree(&name, &h.rows, &v.rows);
                }
                (Results::LitmusTune(h), view::Results::LitmusTune(v)) => {
                    tunes += 1;
                    assert_eq!(h.trials.len(), v.trials.len(), "{name}: trials");
                    for (h, v) in h.trials.iter().zip(&v.trials) {
                        assert_eq!(h.index, v.index, "{name}: a trial's index");
                        litmus_rows_agree(&name, &h.rows, &v.rows);
                    }
                }
                (Results::Accuracy(h), view::Results::Accuracy(v)) => {
                    accuracies += 1;
                    assert_eq!(h.rows.len(), v.rows.len(), "{name}: rows");
                    for (h, v) in h.rows.iter().zip(&v.rows) {
                        assert_eq!((&h.data, h.n as u64), (&v.data, v.n), "{name}: an array");
                        let host_sums: Vec<Vec<u32>> =
                            h.results.iter().map(|m| m.sums.iter().map(|s| s.to_bits()).collect()).collect();
                        let view_sums: Vec<&Vec<u32>> = v.results.iter().map(|m| &m.sums).collect();
                        assert_eq!(host_sums.iter().collect::<Vec<_>>(), view_sums, "{name}: the sums' bits");
                    }
                }
                (Results::Scopes(h), view::Results::Scopes(v)) => {
                    scopes += 1;
                    let host: Vec<Option<f64>> =
                        h.rungs.iter().map(|r| Some(r.trips.as_ref()?.device.as_ref()?.median_ns)).collect();
                    let view: Vec<Option<f64>> =
                        v.rungs.iter().map(|r| Some(r.trips.as_ref()?.device.as_ref()?.median_ns)).collect();
                    assert_eq!(host, view, "{name}: the rungs' round trips");
                    let agents: Vec<&str> = h.rungs.iter().map(|r| r.agents.as_str()).collect();
                    assert_eq!(agents, v.rungs.iter().map(|r| r.agents.as_str()).collect::<Vec<_>>(), "{name}");
                }
                (
                    Results::Sweep(_)
                    | Results::Bench(_)
                    | Results::Litmus(_)
                    | Results::LitmusTune(_)
                    | Results::Accuracy(_)
                    | Results::Scopes(_),
                    other,
                ) => {
                    panic!("{name} reads as {other:?}")
                }
                (_, view::Results::Other) => {}
                (_, other) => panic!("{name} is not a kind the view reads, yet reads as {other:?}"),
            }
        }
        assert_eq!(
            (sweeps, benches, litmus, tunes, accuracies, scopes),
            (1, 1, 1, 1, 1, 1),
            "the golden sweep, bench, litmus, litmus --tune, accuracy and scopes records were read"
        );
    }
}
