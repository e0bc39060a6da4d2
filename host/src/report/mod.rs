//! Exporters: pure functions from a finished [`Record`] to text. None of them
//! measures, launches or prints; `app` decides where the text goes.
//! One file per format.

pub mod csv;
pub mod json;
pub mod markdown;
pub mod plot;
pub mod table;

use crate::record::Record;

/// The formats every table-producing command offers (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Text tables for a terminal.
    #[default]
    Table,
    /// Markdown tables.
    Markdown,
    /// One row per measurement.
    Csv,
    /// The whole record: device, versions, options, every timing and sum.
    Json,
}

/// `record` in `format`.
pub fn export(record: &Record, format: Format) -> String {
    match format {
        Format::Table => table::record(record, table::Look::Plain),
        Format::Markdown => markdown::export(record),
        Format::Csv => csv::export(record),
        Format::Json => json::export(record),
    }
}

#[cfg(test)]
mod tests {
    //! Every exporter on one fixed record, against golden files in
    //! `golden/`. After an intended change, regenerate them with
    //! `UPDATE_GOLDEN=1 cargo test -p host --lib report` and review the diff.

    use super::*;
    use crate::determinism::DeterminismReport;
    use crate::gpu::DeviceInfo;
    use crate::gpu::launch::Block;
    use crate::gpu::sum::{SumKernel, SumMeasurement};
    use crate::record::Results;
    use crate::sweep::{SweepOptions, SweepReport, SweepRow};

    /// A sweep at two sizes with one warm-up and two timed runs per kernel,
    /// and a determinism table: small, but every field is exercised.
    pub(crate) fn fixture() -> Record {
        let m =
            |kernel, times: [f32; 2], sum: f32| SumMeasurement { kernel, times_ms: times.to_vec(), sums: vec![sum; 3] };
        let row = |n: usize, scale: f32| SweepRow {
            n,
            reference: 1.5 * n as f64,
            measurements: vec![
                m(SumKernel::GlobalAtomic, [0.01 * scale, 0.012 * scale], 1.5 * n as f32),
                m(SumKernel::SharedAtomic, [0.004 * scale, 0.005 * scale], 1.5 * n as f32),
                m(SumKernel::TreeAtomic, [0.002 * scale, 0.0025 * scale], 1.5 * n as f32),
            ],
        };
        Record {
            tool: "host 0.1.0".to_owned(),
            kernel_compiler: "rustc 1.97.0-nightly (e50aa6fba 2026-05-19), target nvptx64-nvidia-cuda, sm_70"
                .to_owned(),
            ptx: "embedded PTX".to_owned(),
            device: DeviceInfo {
                name: "NVIDIA H200".to_owned(),
                compute_capability: (9, 0),
                sm_count: 132,
                driver_cuda_version: (13, 0),
                l2_bytes: 62_914_560,
            },
            results: Results::Sweep {
                sweep: SweepReport {
                    options: SweepOptions {
                        block: Block::new(256).unwrap(),
                        runs: 2,
                        warmup: 1,
                        sizes: vec![4096, 65_536],
                    },
                    rows: vec![row(4096, 1.0), row(65_536, 10.0)],
                },
                determinism: Some(DeterminismReport {
                    n: 4096,
                    block: Block::new(256).unwrap(),
                    reference: 6144.25,
                    sums: vec![
                        (SumKernel::GlobalAtomic, vec![6144.0, 6144.5]),
                        (SumKernel::Deterministic, vec![6144.25; 2]),
                    ],
                }),
            },
        }
    }

    fn golden(name: &str, actual: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report/golden").join(name);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, actual).unwrap();
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(actual, expected, "{name} differs from its golden file");
    }

    #[test]
    fn table_matches_golden() {
        golden("sweep.txt", &export(&fixture(), Format::Table));
    }

    #[test]
    fn markdown_matches_golden() {
        golden("sweep.md", &export(&fixture(), Format::Markdown));
    }

    #[test]
    fn csv_matches_golden_with_one_row_per_launch() {
        let text = export(&fixture(), Format::Csv);
        // 2 sizes x 3 kernels x 3 launches, plus 2 kernels x 2 determinism runs.
        assert_eq!(text.lines().count(), 1 + 18 + 4);
        golden("sweep.csv", &text);
    }

    #[test]
    fn json_matches_golden_and_parses_back() {
        let record = fixture();
        let text = export(&record, Format::Json);
        golden("sweep.json", &text);
        assert_eq!(json::import(&text).unwrap(), record);
    }

    #[test]
    fn plot_is_svg_with_one_series_per_kernel() {
        let record = fixture();
        let (series, copy) = plot::series(&record);
        assert_eq!(
            series.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(),
            ["global atomic", "shared atomic", "tree + atomic"]
        );
        assert!(series.iter().all(|s| s.points.len() == 2));
        assert_eq!(copy, None);
        let svg = plot::svg(&record).unwrap();
        std::fs::write(std::env::temp_dir().join("lab-plot-test.svg"), &svg).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        for label in ["global atomic", "shared atomic", "tree + atomic"] {
            assert_eq!(svg.matches(&format!("\n{label}\n</text>")).count(), 1, "legend entry {label}");
        }
        // Each series draws one coloured polyline, and its legend sample
        // another; the axes and ticks are black.
        let coloured = svg.lines().filter(|l| l.starts_with("<polyline") && !l.contains("stroke=\"#000000\"")).count();
        assert_eq!(coloured, 2 * series.len());
    }
}
