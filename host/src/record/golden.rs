//! Every exporter on one fixed record per command, against golden files in
//! `golden/`: the text table, Markdown, CSV, JSON (which must also read back
//! to the same record) and, for the commands that plot, the SVG. After an
//! intended change, regenerate them with
//! `UPDATE_GOLDEN=1 cargo test -p host --lib record` and review the diff.

use layout::{publish as variants, sum};

use super::*;
use crate::commands::bench::{BenchOptions, BenchReport, BenchRow};
use crate::commands::exercise::ExerciseReport;
use crate::commands::histogram::{HistogramOptions, HistogramReport, HistogramRow};
use crate::commands::publish::{PublishOptions, PublishResults, PublishRow};
use crate::commands::sweep::SweepResults;
use crate::commands::sweep::determinism::DeterminismReport;
use crate::device::DeviceInfo;
use crate::gpu::histogram::{HistogramKernel, HistogramMeasurement};
use crate::gpu::publish::{PublishCounts, PublishGeometry, PublishVariant};
use crate::gpu::sum::{SmallRoute, SumKernel, SumMeasurement};
use crate::gpu::timing::Plan;
use crate::input::Distribution;
use crate::launch::Block;
use crate::record::Results;
use crate::report::{Format, export, launch_time};
use crate::sums::{SweepOptions, SweepReport, SweepRow};

fn block(threads: u32) -> Block {
    Block::new(threads).unwrap()
}

fn record(results: Results) -> Record {
    Record {
        tool: "host 0.1.0".to_owned(),
        kernel_compiler: "rustc 1.97.0-nightly (e50aa6fba 2026-05-19), target nvptx64-nvidia-cuda, sm_70".to_owned(),
        ptx: "embedded PTX".to_owned(),
        device: DeviceInfo {
            name: "NVIDIA H200".to_owned(),
            compute_capability: (9, 0),
            sm_count: 132,
            driver_cuda_version: (13, 0),
            l2_bytes: 62_914_560,
            memory_clock_khz: Some(3_201_000),
            memory_bus_bits: Some(6144),
        },
        results,
        partial: false,
    }
}

/// One warm-up and two timed launches of `kernel`, every sum `value`.
fn measured(kernel: &sum::Sum, times: [f32; 2], value: f32) -> SumMeasurement {
    SumMeasurement { kernel: SumKernel::of(kernel), times_ms: times.to_vec(), sums: vec![value; 3], entry: None }
}

/// A sweep row of the page's three kernels, every sum exact, times scaled.
fn page_row(n: usize, scale: f32) -> SweepRow {
    let exact = 1.5 * n as f32;
    SweepRow {
        n,
        reference: f64::from(exact),
        measurements: vec![
            measured(&sum::GLOBAL_ATOMIC, [0.01 * scale, 0.012 * scale], exact),
            measured(&sum::SHARED_ATOMIC, [0.004 * scale, 0.005 * scale], exact),
            measured(&sum::TREE_ATOMIC, [0.002 * scale, 0.0025 * scale], exact),
        ],
    }
}

fn sweep_report(threads: u32, scale: f32) -> SweepReport {
    SweepReport {
        options: SweepOptions { block: block(threads), runs: 2, warmup: 1, sizes: vec![4096, 65_536] },
        rows: vec![page_row(4096, scale), page_row(65_536, 10.0 * scale)],
    }
}

/// A sweep at two sizes and a determinism table: small, but every field is
/// exercised.
pub(crate) fn sweep() -> Record {
    record(Results::Sweep(SweepResults {
        sweep: sweep_report(256, 1.0),
        determinism: Some(DeterminismReport {
            n: 4096,
            block: block(256),
            reference: 6144.25,
            sums: vec![
                (SumKernel::of(&sum::GLOBAL_ATOMIC), vec![6144.0, 6144.5]),
                (SumKernel::of(&sum::DETERMINISTIC), vec![6144.25; 2]),
            ],
        }),
    }))
}

/// The three sweeps of the exercise, the shared column slower at both ends.
fn exercise() -> Record {
    let mut small = sweep_report(64, 1.0);
    small.rows[1].measurements[1].times_ms = vec![0.03, 0.032];
    let mut large = sweep_report(1024, 1.0);
    large.rows[1].measurements[1].times_ms = vec![0.12, 0.125];
    record(Results::Exercise(ExerciseReport { runs: vec![small, sweep_report(256, 1.0), large] }))
}

/// The kernels of the bench fixture: a fixed list, not the registry, so that
/// adding a kernel to the registry leaves these golden files alone.
const BENCHED: [sum::Sum; 4] = [sum::GLOBAL_ATOMIC, sum::TREE_ATOMIC, sum::BANDWIDTH, sum::DETERMINISTIC];

/// Two sizes: four kernels at the small one, the per-element-atomic kernel
/// left out of the large one, and one wrong sum to show the cell.
fn bench() -> Record {
    let row = |n: usize, kernels: &[sum::Sum], scale: f32| {
        let exact = (n / 64 * 3 / 2) as f32;
        let measurements = kernels
            .iter()
            .enumerate()
            .map(|(i, k)| measured(k, [scale * (1.0 + i as f32 * 0.1), scale * (1.1 + i as f32 * 0.1)], exact))
            .collect();
        BenchRow {
            sums: SweepRow { n, reference: f64::from(exact), measurements },
            copy_ms: vec![scale * 1.5, scale * 1.6],
            empty_ms: vec![0.0035, 0.0041],
        }
    };
    let mut large = row(1 << 26, &BENCHED[1..], 0.06);
    large.sums.measurements[2].sums[2] += 1.0;
    record(Results::Bench(BenchReport {
        options: BenchOptions {
            sizes: vec![4096, 1 << 26],
            block: block(256),
            plan: Plan { warmup: 1, runs: 2, cold: true },
            small_route: true,
        },
        rows: vec![row(4096, &BENCHED, 0.004), large],
        // The correctly rounded sum's, the one route; the fixture does not
        // bench that kernel, so no row is marked (the report's tests mark one).
        small_routes: Some(vec![SmallRoute {
            kernel: SumKernel::of(&sum::CORRECTLY_ROUNDED),
            threads: 1024,
            max_n: 16_384,
        }]),
    }))
}

/// Eight values in four bins, both distributions.
fn histogram() -> Record {
    let row = |distribution, expected: Vec<u32>, times: [f32; 2]| HistogramRow {
        n: 8,
        distribution,
        measurements: HistogramKernel::all()
            .map(|kernel| HistogramMeasurement { kernel, times_ms: times.to_vec(), counts: vec![expected.clone(); 3] })
            .collect(),
        expected,
    };
    record(Results::Histogram(HistogramReport {
        options: HistogramOptions {
            bins: 4,
            block: block(32),
            runs: 2,
            warmup: 1,
            sizes: vec![8],
            distributions: vec![Distribution::Uniform, Distribution::OneBin],
        },
        rows: vec![
            row(Distribution::Uniform, vec![2, 2, 2, 2], [0.003, 0.0031]),
            row(Distribution::OneBin, vec![8, 0, 0, 0], [0.009, 0.0092]),
        ],
    }))
}

/// Every variant: the correct ones clean, the relaxed one clean (not a
/// proof), the wrong-scope one stale with timeouts, the volatile one with
/// timeouts alone (a progress failure, not an ordering one).
fn publish() -> Record {
    let row = |spec: &variants::Variant, stale: u64, timeouts: u64| {
        let variant = PublishVariant::of(spec);
        let geometry = PublishGeometry::for_device(variant, 132);
        let pairs = geometry.pairs_per_launch(variant) * 5 - timeouts;
        PublishRow {
            variant,
            geometry,
            counts: PublishCounts { launches: 5, pairs, stale, timeouts, observed: (42, 3.5) },
        }
    };
    let options = PublishOptions {
        variants: PublishVariant::all().collect(),
        launches: 5,
        rounds: None,
        budget_ns: 1_000_000_000,
        flags: crate::gpu::publish::FlagPlacement::Apart,
        preload: false,
        delay_ns: 0,
    };
    record(Results::Publish(PublishResults {
        options,
        rows: vec![
            row(&variants::BLOCK_RELEASE_ACQUIRE, 0, 0),
            row(&variants::BLOCK_RELAXED, 0, 0),
            row(&variants::GRID_RELEASE_ACQUIRE, 0, 0),
            row(&variants::GRID_RELAXED, 1234, 0),
            row(&variants::GRID_WRONG_SCOPE, 12, 10_123),
            row(&variants::GRID_VOLATILE, 0, 2_048),
            row(&variants::CLUSTER_DSMEM_RELEASE_ACQUIRE, 0, 0),
            row(&variants::CLUSTER_DSMEM_WRONG_SCOPE, 0, 0),
            row(&variants::CLUSTER_BARRIER, 0, 0),
        ],
        not_run: Vec::new(),
    }))
}

/// Every system-scope variant: the two correct ones clean, the wrong-scope
/// GPU-to-CPU one clean (not a proof), the relaxed CPU-to-GPU one stale, the
/// wrong-scope CPU-to-GPU one stale with timeouts. Made-up counts.
fn publish_sys() -> Record {
    use crate::commands::publish_sys::{PublishSysOptions, PublishSysResults, PublishSysRow};
    use crate::cpu_agent::HostCounts;
    use crate::gpu::system::{SystemCounts, SystemGeometry, SystemVariant};
    let options = PublishSysOptions {
        variants: SystemVariant::all().collect(),
        launches: 100,
        slots: layout::system::DEFAULT_SLOTS,
        cpu_threads: 8,
        budget_ns: 1_000_000_000,
    };
    let row = |name: &str, stale: u64, timeouts: u64, wall_s: f64| {
        let variant = SystemVariant::from_name(name).unwrap();
        let geometry = SystemGeometry::for_device(132, 8);
        let pairs = u64::from(geometry.slots) * 100 - timeouts;
        PublishSysRow {
            variant,
            geometry,
            counts: SystemCounts { launches: 100, counts: HostCounts { pairs, stale, timeouts }, wall_s },
        }
    };
    record(Results::PublishSys(PublishSysResults {
        options,
        rows: vec![
            row("gpu-cpu-release-sys", 0, 0, 4.5),
            row("gpu-cpu-release-gpu", 0, 0, 4.25),
            row("cpu-gpu-acquire-sys", 0, 0, 9.0),
            row("cpu-gpu-acquire-gpu", 31, 1024, 12.5),
            row("cpu-gpu-relaxed-sys", 977, 0, 8.75),
        ],
    }))
}

/// Two spreads at two sizes: an atomic kernel that wanders, the
/// deterministic kernel off by a constant, the correctly rounded kernel
/// exact, the CPU strategies, and a NaN from one of them.
fn accuracy() -> Record {
    use crate::commands::accuracy::{AccuracyOptions, AccuracyReport, AccuracyRow, Data, Method, MethodResult};
    use crate::input::Spread;
    use crate::strategies::CpuSum;
    let row = |data: &str, n: usize, exact: f32| {
        let up = |k: u32| f32::from_bits(exact.to_bits() + k);
        let gpu = |kernel: &sum::Sum, sums: Vec<f32>| MethodResult { method: Method::Gpu(SumKernel::of(kernel)), sums };
        let mut results = vec![
            gpu(&sum::GLOBAL_ATOMIC, vec![up(3), up(1), up(3), exact]),
            gpu(&sum::DETERMINISTIC, vec![up(2); 4]),
            gpu(&sum::CORRECTLY_ROUNDED, vec![exact; 4]),
        ];
        results.extend(
            CpuSum::ALL
                .iter()
                .zip([up(40), up(2), exact, exact])
                .map(|(&s, v)| MethodResult { method: Method::Cpu(s), sums: vec![v] }),
        );
        AccuracyRow { data: data.to_owned(), n, exact, reference_ms: n as f64 / 4e5, results }
    };
    let mut cancel_large = row("cancel", 65_536, 1013.25);
    cancel_large.results[3].sums = vec![f32::NAN];
    record(Results::Accuracy(AccuracyReport {
        options: AccuracyOptions {
            data: Data::Generated {
                spreads: vec![Spread::Uniform, Spread::Cancel],
                sizes: vec![4096, 65_536],
                seed: 26,
            },
            block: block(256),
            runs: 4,
        },
        rows: vec![
            row("uniform", 4096, 2047.6),
            row("uniform", 65_536, 32_770.5),
            row("cancel", 4096, 61.7),
            cancel_large,
        ],
    }))
}

/// The fixtures' two litmus kernels, named by symbol so that a kernel added
/// to the grid does not change which rows the golden files hold.
const MP_RELAXED_GPU: &str = "litmus_mp_relaxed_gpu";
/// See [`MP_RELAXED_GPU`].
const MP_REL_ACQ_GPU: &str = "litmus_mp_rel_acq_gpu";

/// The registry's litmus kernel `symbol`.
fn litmus_kernel(symbol: &str) -> &'static layout::litmus::Kernel {
    layout::litmus::KERNELS.iter().find(|k| k.entry.symbol == symbol).expect("a litmus kernel of the registry")
}

/// Three rows of the suite: an allowed weak outcome seen, a forbidden one
/// not seen (with its bound), and the sequential control.
fn litmus_options(sequential: bool) -> crate::litmus::LitmusOptions {
    use crate::gpu::litmus::{Budget, LitmusKernel};
    use crate::litmus::{LitmusOptions, Preset};
    LitmusOptions {
        kernels: [MP_RELAXED_GPU, MP_REL_ACQ_GPU].map(|symbol| LitmusKernel::of(litmus_kernel(symbol))).to_vec(),
        placements: layout::litmus::Split::DEFAULT.to_vec(),
        budget: Budget::Instances(1_000_000),
        batch: 16,
        preset: Some(Preset::Parallel),
        environment: Preset::Parallel.environment(),
        tuned: None,
        sequential,
        seed: 26,
    }
}

fn litmus_row(
    kernel: &str,
    placement: layout::Placement,
    sequential: bool,
    bins: &[(usize, u64)],
) -> crate::litmus::LitmusRow {
    use crate::gpu::litmus::{LitmusCounts, LitmusKernel};
    let kernel = LitmusKernel::of(litmus_kernel(kernel));
    let mut histogram = vec![0; kernel.test.bins()];
    for &(bin, n) in bins {
        histogram[bin] = n;
    }
    let counts = LitmusCounts { launches: 4, instances: histogram.iter().sum(), histogram, seconds: 0.0125 };
    crate::litmus::LitmusRow::new(kernel, placement.into(), sequential, 1056, counts)
}

fn litmus() -> Record {
    use layout::Placement::{InterBlock, IntraBlock};
    record(Results::Litmus(crate::commands::litmus::LitmusResults {
        options: litmus_options(false),
        rows: vec![
            litmus_row(MP_RELAXED_GPU, IntraBlock, false, &[(0, 250_000), (0b11, 831_488)]),
            litmus_row(MP_RELAXED_GPU, InterBlock, false, &[(0, 300_000), (0b11, 781_476), (0b01, 10), (0b10, 2)]),
            litmus_row(MP_REL_ACQ_GPU, IntraBlock, false, &[(0, 250_000), (0b11, 831_488)]),
            litmus_row(MP_REL_ACQ_GPU, InterBlock, false, &[(0, 300_000), (0b11, 781_488)]),
        ],
    }))
}

fn litmus_tune() -> Record {
    use crate::litmus::Environment;
    use crate::litmus::tune::Trial;
    use layout::Placement::{InterBlock, IntraBlock};
    let mut state = 7;
    let trials = (0..2)
        .map(|index| Trial {
            index,
            environment: Environment::random(&mut state, crate::litmus::environment::DEFAULT_LOCATION_STRIDE),
            rows: vec![
                litmus_row(MP_RELAXED_GPU, IntraBlock, false, &[(0b11, 1_000_000)]),
                litmus_row(MP_RELAXED_GPU, InterBlock, false, &[(0b11, 999_990), (0b01, 10 * index as u64)]),
                litmus_row(MP_REL_ACQ_GPU, IntraBlock, false, &[(0b11, 1_000_000)]),
                litmus_row(MP_REL_ACQ_GPU, InterBlock, false, &[(0b11, 1_000_000)]),
            ],
        })
        .collect();
    record(Results::LitmusTune(crate::commands::litmus::TuneResults { options: litmus_options(false), trials }))
}

/// A search of two environments on MP `relaxed-gpu` across blocks: the
/// second wins its confirming round against the starting environment.
fn tune() -> Record {
    use crate::commands::litmus::TunedResults;
    use crate::litmus::tune::{self, Confirmation, Trial};
    use crate::litmus::tuned::Winners;
    use crate::litmus::{Environment, Preset};
    use layout::Placement::InterBlock;
    let mut state = 7;
    let mut options = litmus_options(false);
    options.kernels.retain(|k| k.entry().symbol == MP_RELAXED_GPU);
    options.placements = vec![layout::litmus::Split::InterBlock];
    options.environment = Environment { location_stride: 8, ..Preset::TunedWrc.environment() };
    let trials: Vec<Trial> = (0..2)
        .map(|index| Trial {
            index,
            environment: Environment::random(&mut state, 8),
            rows: vec![litmus_row(MP_RELAXED_GPU, InterBlock, false, &[(0b11, 999_000), (0b01, 10 * index as u64)])],
        })
        .collect();
    let confirm = |configuration: Option<usize>, weak: u64| Confirmation {
        kernel: options.kernels[0],
        configuration,
        environment: configuration.map_or(options.environment.clone(), |i| trials[i].environment.clone()),
        rows: vec![litmus_row(MP_RELAXED_GPU, InterBlock, false, &[(0b11, 4_000_000 - weak), (0b01, weak)])],
    };
    let confirmations = vec![confirm(Some(1), 120), confirm(None, 40)];
    let winners = Box::new(Winners {
        gpu: "NVIDIA H200".to_owned(),
        driver: Some("580.159.04".to_owned()),
        tool: "host 0.1.0".to_owned(),
        budget_seconds: 30.0,
        environments_tried: trials.len(),
        variants: vec!["relaxed-gpu".to_owned()],
        placements: vec!["inter-block".to_owned()],
        location_stride: 8,
        winners: tune::winners(&confirmations),
    });
    let saved = "runs/tuned/nvidia-h200-580.159.04.json".into();
    record(Results::Tune(TunedResults { options, trials, confirmations, winners, saved }))
}

fn golden(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/record/golden").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(actual, expected, "{name} differs from its golden file");
}

/// Every format of `record` against `golden/<name>.*`, and the JSON read back.
fn every_format(name: &str, record: &Record) {
    golden(&format!("{name}.txt"), &export(record, Format::Table));
    golden(&format!("{name}.md"), &export(record, Format::Markdown));
    golden(&format!("{name}.csv"), &export(record, Format::Csv));
    let text = export(record, Format::Json);
    golden(&format!("{name}.json"), &text);
    // Read back and written again, the same text: a comparison of records
    // would fail on any NaN, which is never equal to itself.
    let back = Record::from_json(&text).unwrap_or_else(|e| panic!("{name}.json does not read back: {e}"));
    assert_eq!(export(&back, Format::Json), text, "{name}.json does not read back to the same record");
}

/// The plot of `record` against `golden/<name>.svg`, with one legend entry
/// and at least two coloured polylines (the line and its legend sample) per
/// series.
fn plots(name: &str, record: &Record, labels: &[&str]) {
    let (series, _) = plot::series(record);
    assert_eq!(series.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(), labels);
    let svg = plot::svg(record).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for label in labels {
        assert_eq!(svg.matches(&format!("\n{label}\n</text>")).count(), 1, "legend entry {label}");
    }
    // At least the line and its legend sample per series; a dashed line is
    // drawn as many polylines.
    let coloured = svg.lines().filter(|l| l.starts_with("<polyline") && !l.contains("stroke=\"#000000\"")).count();
    assert!(coloured >= 2 * series.len(), "{coloured} coloured polylines for {} series", series.len());
    golden(&format!("{name}.svg"), &svg);
}

#[test]
fn sweep_in_every_format() {
    let record = sweep();
    every_format("sweep", &record);
    // 2 sizes x 3 kernels x 3 launches, plus 2 kernels x 2 determinism runs.
    assert_eq!(export(&record, Format::Csv).lines().count(), 1 + 18 + 4);
    plots("sweep", &record, &["global atomic", "shared atomic", "tree + atomic"]);
}

#[test]
fn exercise_in_every_format() {
    let record = exercise();
    every_format("exercise", &record);
    let text = export(&record, Format::Table);
    assert!(text.contains("time / time at 256") && text.contains("block 64: tree, tree"), "{text}");
    let labels: Vec<String> = [64, 256, 1024]
        .iter()
        .flat_map(|b| ["global atomic", "shared atomic", "tree + atomic"].map(|k| format!("{k}, block {b}")))
        .collect();
    plots("exercise", &record, &labels.iter().map(String::as_str).collect::<Vec<_>>());
}

#[test]
fn bench_in_every_format() {
    let record = bench();
    every_format("bench", &record);
    let text = export(&record, Format::Table);
    assert!(text.contains("1 wrong") && text.contains("1 of 21 sums"), "{text}");
    // The copy line is drawn in black beside the kernels' lines.
    let (_, copy) = plot::series(&record);
    assert!(copy.is_some());
    let mut labels: Vec<&str> = BENCHED.iter().map(|k| k.label).collect();
    labels.push("limit: empty launch + bytes at 4917 GB/s");
    plots("bench", &record, &labels);
}

#[test]
fn histogram_in_every_format() {
    let record = histogram();
    every_format("histogram", &record);
    // 2 distributions x 2 kernels x 3 launches.
    assert_eq!(export(&record, Format::Csv).lines().count(), 1 + 12);
    assert_eq!(plot::svg(&record), Err("nothing to plot".to_owned()));
}

#[test]
fn publish_in_every_format() {
    let record = publish();
    every_format("publish", &record);
    let text = export(&record, Format::Table);
    assert!(text.contains("broken, and it showed") && text.contains("not a proof"), "{text}");
    // One row a variant: a rate is a filled dot, a zero a ring at its bound.
    let svg = plot::svg(&record).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    golden("publish.svg", &svg);
}

#[test]
fn publish_sys_in_every_format() {
    every_format("publish-sys", &publish_sys());
}

#[test]
fn accuracy_in_every_format() {
    let record = accuracy();
    every_format("accuracy", &record);
    let text = export(&record, Format::Table);
    assert!(text.contains("Every promise was kept"), "{text}");
    // 4 arrays x (3 kernels x 4 runs + 4 CPU strategies).
    assert_eq!(export(&record, Format::Csv).lines().count(), 1 + 4 * 16);
    let Results::Accuracy(report) = &record.results else { unreachable!() };
    let panels = crate::commands::accuracy::report::panels(report);
    assert_eq!(panels.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(), ["uniform", "cancel"]);
    // The NaN result has no error in ulps, so its line has one point, not two.
    let sequential = panels[1].1.iter().find(|s| s.label == "CPU sequential f32").unwrap();
    assert_eq!(sequential.points, [(4096.0, 41.0)]);
    let svg = plot::svg(&record).unwrap();
    for label in ["correctly rounded", "CPU Kahan f32"] {
        assert_eq!(svg.matches(&format!("\n{label}\n</text>")).count(), 2, "one legend entry per panel: {label}");
    }
    golden("accuracy.svg", &svg);
}

#[test]
fn launch_times_skip_the_warm_ups() {
    assert_eq!(launch_time(3, &[1.0, 2.0], 0), None);
    assert_eq!(launch_time(3, &[1.0, 2.0], 1), Some(1.0));
    assert_eq!(launch_time(3, &[1.0, 2.0], 2), Some(2.0));
    assert_eq!(launch_time(2, &[], 1), None);
}

/// The book's sequential control: one line when every instance ended in
/// program order's outcome, the whole table when one did not.
#[test]
fn a_passing_sequential_control_is_one_line_in_markdown() {
    use crate::commands::litmus::report::litmus;
    use crate::report::table::Look;
    use layout::Placement::IntraBlock;
    let options = litmus_options(true);
    let sequential = layout::litmus::Test::Mp.sequential() as usize;
    let passing = [
        litmus_row(MP_RELAXED_GPU, IntraBlock, true, &[(sequential, 1_000_000)]),
        litmus_row(MP_REL_ACQ_GPU, IntraBlock, true, &[(sequential, 2_000_000)]),
    ];
    let text = litmus(&options, &passing, Look::Markdown);
    assert!(!text.contains("| test"), "no table: {text}");
    assert!(text.contains("all 2 rows") && text.contains("3000000 instances, each row at least 1000000"), "{text}");
    let failing = [passing[0].clone(), litmus_row(MP_REL_ACQ_GPU, IntraBlock, true, &[(sequential, 9), (0, 1)])];
    assert!(litmus(&options, &failing, Look::Markdown).contains("| test"));
    assert!(litmus(&options, &passing, Look::Plain).contains("test"));
}

#[test]
fn litmus_in_every_format() {
    let record = litmus();
    every_format("litmus", &record);
    assert_eq!(export(&record, Format::Csv).lines().count(), 1 + 4);
    every_format("litmus-tune", &litmus_tune());
    every_format("litmus-mutants", &litmus_mutants());
    every_format("tune", &tune());
}

/// The mutants of MP `rel-acq-gpu` across blocks: the first killable one
/// killed, the second survived, an equivalent one and one not made.
fn litmus_mutants() -> Record {
    use crate::litmus::mutants::{MutantRow, mutants};
    let kernel = crate::gpu::litmus::LitmusKernel::of(litmus_kernel(MP_REL_ACQ_GPU));
    let all = mutants(kernel, layout::litmus::Split::InterBlock);
    let counts = |weak: u64| {
        let mut histogram = vec![0; layout::litmus::BINS];
        histogram[0b11] = 1_000_000 - weak;
        histogram[0b01] = weak;
        crate::gpu::litmus::LitmusCounts { launches: 8, instances: 1_000_000, histogram, seconds: 0.25 }
    };
    let mut rows = Vec::new();
    for (i, mutant) in all.into_iter().enumerate() {
        rows.push(match (mutant.allowed, i % 3) {
            (false, _) => MutantRow {
                mutant,
                skipped: Some("equivalent: the model still forbids it".to_owned()),
                counts: None,
                killed_after: None,
            },
            (true, 0) => {
                MutantRow { mutant, skipped: None, counts: Some(counts(7)), killed_after: Some((131_072, 0.0325)) }
            }
            (true, 1) => MutantRow { mutant, skipped: None, counts: Some(counts(0)), killed_after: None },
            (true, _) => {
                MutantRow { mutant, skipped: Some("a register shared".to_owned()), counts: None, killed_after: None }
            }
        });
    }
    record(Results::LitmusMutants(crate::commands::litmus::MutantResults { options: litmus_options(false), rows }))
}

#[test]
fn an_interrupted_run_is_marked_partial_in_the_tables_and_the_json() {
    let whole = litmus();
    let partial = Record { partial: true, ..whole.clone() };
    for format in [Format::Table, Format::Markdown] {
        let (before, after) = (export(&whole, format), export(&partial, format));
        let note = after.strip_prefix(before.as_str()).unwrap_or_else(|| panic!("{format:?}: the tables changed"));
        assert_eq!(
            note,
            "\nPartial: the run was interrupted (Ctrl-C), and the tables hold only the rows measured before it.\n"
        );
    }
    assert!(!export(&whole, Format::Json).contains("partial"), "a whole run's JSON is as it was");
    let text = export(&partial, Format::Json);
    assert!(text.contains("\"partial\": true"), "{text}");
    assert!(Record::from_json(&text).unwrap().partial);
    // CSV rows have no place for it: the line on standard error says it.
    assert_eq!(export(&partial, Format::Csv), export(&whole, Format::Csv));
}

/// Two pitfalls: one whose mistake showed and whose fix held, and one whose
/// mistake was not seen, with a driver's refusal and a fix that failed.
fn pitfalls() -> Record {
    use crate::commands::pitfalls::{PitfallsOptions, PitfallsReport};
    use crate::pitfalls::{Figure, Finding, Size, Trial};
    use layout::pitfall::Pitfall;
    let trial = |name: &str, broken: bool, failures: u64, out_of: u64, per: &str| {
        Trial::new(name, broken, "n = 16228".to_owned(), Figure::failures(failures, out_of, "wrong sums", per))
    };
    let gave_up = "blocks that never saw every block arrive before the deadline";
    let findings = vec![
        Finding {
            pitfall: Pitfall::DivergentBarrier,
            trials: vec![
                Trial {
                    detail: Some("each wrong sum was over by 0x9c000000".to_owned()),
                    also: vec![Figure::failures(0, 630, "wrong sums", "blocks with no thread past n")],
                    ..trial("barrier_in_bounds_check", true, 10, 10, "blocks with threads past n")
                },
                trial("barrier_every_thread", false, 0, 10, "blocks with threads past n"),
            ],
        },
        Finding {
            pitfall: Pitfall::DevicePhase,
            trials: vec![
                Trial {
                    also: vec![Figure::failures(1, 1, "wrong sums", "launches")],
                    ..Trial::new(
                        "phase_grid_barrier",
                        true,
                        "n = 16228".to_owned(),
                        Figure::failures(3960, 4224, gave_up, "blocks"),
                    )
                },
                Trial {
                    refused: Some(
                        "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: too many blocks in cooperative launch".to_owned(),
                    ),
                    ..trial("phase_grid_barrier", true, 0, 0, "launches")
                },
                Trial {
                    time_ms: Some(0.0412),
                    also: vec![Figure::failures(0, 12672, gave_up, "blocks")],
                    ..trial("phase_ticket", false, 1, 12, "launches")
                },
            ],
        },
        Finding {
            pitfall: Pitfall::TornRecord,
            trials: vec![Trial {
                also: vec![Figure::cost(
                    12,
                    1000,
                    "reads abandoned after 64 attempts",
                    "reads during the updates, kept or abandoned",
                )],
                ..Trial::new(
                    "record_seqlock",
                    false,
                    "a sequence lock".to_owned(),
                    Figure::failures(0, 988, "torn reads", "reads during the writer's updates"),
                )
            }],
        },
    ];
    record(Results::Pitfalls(PitfallsReport {
        options: PitfallsOptions {
            pitfalls: vec![Pitfall::DivergentBarrier, Pitfall::DevicePhase, Pitfall::TornRecord],
            size: Size::Full,
        },
        findings,
    }))
}

#[test]
fn pitfalls_in_every_format() {
    let record = pitfalls();
    every_format("pitfalls", &record);
    let text = export(&record, Format::Table);
    assert!(
        text.contains("the mistake showed") && text.contains("not a proof") && text.contains("refused by the driver"),
        "{text}"
    );
    let Results::Pitfalls(report) = &record.results else { unreachable!() };
    assert!(!report.fixes_held(), "the ticket's wrong sum fails the run");
    assert_eq!(crate::report::Report::checks(report).lines.lines().count(), 1, "the abandoned reads fail nothing");
    assert!(text.contains("a cost, not a failure") && text.contains("10 blocks with threads past n"), "{text}");
}

/// The scope ladder with made-up figures (`commands::scopes::report`'s
/// fixture: `.cluster` unavailable, so its one line shows).
fn scopes() -> Record {
    record(Results::Scopes(crate::commands::scopes::report::tests::fixture()))
}

#[test]
fn scopes_in_every_format() {
    let record = scopes();
    every_format("scopes", &record);
    let text = export(&record, Format::Table);
    assert!(text.contains("needs compute capability 9.0"), "{text}");
    assert!(text.contains("4.00×"), "{text}");
}
