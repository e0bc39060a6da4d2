//! The kernels on a real GPU, checked bit for bit against the CPU reference.
//!
//! On a machine without a GPU this prints `skipped: no CUDA device` and the
//! reason, and passes: CI has no GPU. On a GPU machine every case runs, under
//! `libtest-mimic` (`harness = false`): the skip line is never hidden by
//! libtest's output capture, `cargo test --release --test gpu -- NAME` runs
//! only the tests whose name contains NAME, and one summary line ends the run.

use std::path::Path;
use std::process::{Command, ExitCode};
use std::sync::Mutex;

use host::commands::{publish, publish_sys};
use host::error::LabError;
use host::gpu::histogram::{HistogramKernel, HistogramKernels};
use host::gpu::launch::Block;
use host::gpu::litmus::{Budget, LitmusKernel, LitmusKernels};
use host::gpu::publish::{FlagPlacement, PublishGeometry, PublishKernels, PublishVariant};
use host::gpu::sum::{SumKernel, SumKernels, SumMeasurement};
use host::gpu::system::{SystemGeometry, SystemKernels, SystemVariant};
use host::gpu::timing::Plan;
use host::gpu::{Gpu, PtxSource};
use host::input::{self, Distribution};
use host::litmus::{self, LitmusOptions, Preset};
use host::pitfalls;
use host::progress::Progress;
use host::{exact, reference};
use layout::litmus::Split;
use libtest_mimic::{Arguments, Failed, Trial};

/// Sizes that are and are not multiples of every block: one element, less
/// than a warp, one past a power of two, a prime-ish million, the largest
/// size the exact-sum rule allows.
const SIZES: [usize; 7] = [1, 31, 32, 4097, 65_536, 1_000_003, reference::MAX_EXACT_N];
const BLOCKS: [u32; 4] = [32, 64, 256, 1024];

/// Set in the environment of the child that `driver_sass_is_checked` starts:
/// the child opens the GPU, so the driver compiles both modules into the
/// JIT cache the child's environment names, and exits.
const LOAD_ONLY: &str = "LAB_GPU_TESTS_LOAD_ONLY";

/// One test: its name and what it runs on the shared GPU.
type Case = (String, Box<dyn Fn(&Gpu) -> Result<(), String> + Send>);

fn main() -> ExitCode {
    let mut args = Arguments::from_args();
    let gpu = match Gpu::open(&PtxSource::Embedded) {
        Ok(gpu) => gpu,
        Err(LabError::NoDevice(reason)) => {
            println!("skipped: no CUDA device ({reason})");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            println!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if std::env::var_os(LOAD_ONLY).is_some() {
        return ExitCode::SUCCESS;
    }
    println!("running GPU tests on {} (compute capability {:?})", gpu.info.name, gpu.info.compute_capability);
    // One context and module for every test, used by one test at a time:
    // tests that time or stress the GPU must not share it with each other.
    args.test_threads = Some(1);
    let gpu: &'static Mutex<Gpu> = Box::leak(Box::new(Mutex::new(gpu)));
    let trials = cases().into_iter().map(|(name, case)| {
        Trial::test(name, move || {
            let gpu = gpu.lock().map_err(|_| Failed::from("an earlier test panicked holding the GPU"))?;
            case(&gpu).map_err(Failed::from)
        })
    });
    libtest_mimic::run(&args, trials.collect()).exit_code()
}

/// Every test, named as `cargo test --test gpu -- NAME` filters them.
fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for threads in BLOCKS {
        cases.push((
            format!("sums_are_bit_exact/block_{threads}"),
            Box::new(move |gpu| sums_are_bit_exact(gpu, threads)),
        ));
    }
    cases.push((
        "roofline_sums_are_bit_exact_at_awkward_sizes_and_offsets".to_owned(),
        Box::new(roofline_sums_are_bit_exact),
    ));
    cases.push(("deterministic_sum_has_one_value".to_owned(), Box::new(deterministic_sum_has_one_value)));
    cases.push(("cold_measurements_flush_and_stay_exact".to_owned(), Box::new(cold_measurements_flush_and_stay_exact)));
    cases.push((
        "ptx_without_the_timing_kernels_is_timed_with_the_embedded_ones".to_owned(),
        Box::new(|_| ptx_without_the_timing_kernels_is_timed()),
    ));
    cases.push((
        "deterministic_sum_follows_its_documented_order_on_every_path".to_owned(),
        Box::new(deterministic_sum_follows_its_documented_order),
    ));
    for threads in [32, 256, 1024] {
        cases.push((
            format!("correctly_rounded_sum_is_the_exact_sum/block_{threads}"),
            Box::new(move |gpu| correctly_rounded_sum_is_the_exact_sum(gpu, threads)),
        ));
    }
    cases.push((
        "sum_small_routes_launch_blocks_their_functions_take".to_owned(),
        Box::new(sum_small_routes_launch_blocks_their_functions_take),
    ));
    cases.push((
        "correctly_rounded_sum_of_nan_and_infinities".to_owned(),
        Box::new(correctly_rounded_sum_of_nan_and_infinities),
    ));
    for variant in PublishVariant::all().filter(|v| v.guaranteed) {
        cases.push((
            format!("guaranteed_publication_is_never_stale/{}", variant.key()),
            Box::new(move |gpu| guaranteed_publication_is_never_stale(gpu, variant)),
        ));
    }
    cases.push(("broken_variants_run_to_the_end".to_owned(), Box::new(broken_variants_run_to_the_end)));
    for variant in SystemVariant::all().filter(|v| v.guaranteed) {
        cases.push((
            format!("system_scope_publication_is_never_stale/{}", variant.name),
            Box::new(move |gpu| system_scope_publication_is_never_stale(gpu, variant)),
        ));
    }
    cases.push((
        "system_scope_broken_variants_run_to_the_end".to_owned(),
        Box::new(system_scope_broken_variants_run_to_the_end),
    ));
    for bins in [1, 7, 256, 4096, layout::histogram::MAX_BINS] {
        cases.push((format!("histograms_are_exact/bins_{bins}"), Box::new(move |gpu| histograms_are_exact(gpu, bins))));
    }
    cases.push(("broken_ptx_names_the_file".to_owned(), Box::new(|_| broken_ptx_names_the_file())));
    cases.push(("broken_ptx_shows_the_jit_compilers_log".to_owned(), Box::new(|_| broken_ptx_shows_the_jit_log())));
    cases.push(("driver_sass_keeps_the_registry_and_litmus_promises".to_owned(), Box::new(driver_sass_is_checked)));
    cases.push((
        "cluster_launch_gives_each_block_its_rank_and_its_neighbours_shared_memory".to_owned(),
        Box::new(cluster_launch_places_blocks_as_documented),
    ));
    cases.push(("scope_ladder_completes_every_round_trip_without_a_timeout".to_owned(), Box::new(scope_ladder_runs)));
    for preset in [Preset::Quiet, Preset::Stress] {
        cases.push((
            format!("litmus_runs_every_kernel_and_sees_nothing_forbidden/{preset:?}"),
            Box::new(move |gpu| litmus_sees_nothing_forbidden(gpu, preset)),
        ));
    }
    cases.push(("litmus_sequential_control_gives_only_program_order".to_owned(), Box::new(litmus_sequential_control)));
    cases.push(("litmus_mutants_load_run_and_account_for_their_budget".to_owned(), Box::new(litmus_mutants_run)));
    cases.push(("litmus_every_placement_of_two_kernels".to_owned(), Box::new(litmus_every_placement)));
    cases.push(("litmus_mp_in_the_cluster_placements_holds_the_model".to_owned(), Box::new(litmus_cluster_placements)));
    for size in [pitfalls::Size::Quick, pitfalls::Size::Full] {
        cases.push((
            format!("pitfall_fixes_hold_and_every_version_runs/{size:?}"),
            Box::new(move |gpu| pitfall_fixes_hold(gpu, size)),
        ));
    }
    cases
}

/// Every pitfall at `size`: each fix runs and never goes wrong, and each
/// broken version runs to the end with a denominator (or, for the oversized
/// cooperative launch, is refused by the driver). Whether a broken version
/// shows its mistake depends on the GPU's timing, so that is reported by
/// `host pitfalls`, not asserted here, with two exceptions the harness makes
/// certain: the accumulator never reset holds a wrong sum, and a cooperative
/// launch of four times the resident grid is refused.
fn pitfall_fixes_hold(gpu: &Gpu, size: pitfalls::Size) -> Result<(), String> {
    let lab = pitfalls::Lab::load(gpu).map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    for pitfall in layout::pitfall::Pitfall::ALL {
        let finding = pitfalls::run(&lab, pitfall, size).map_err(|e| e.to_string())?;
        for t in &finding.trials {
            if t.fix_failed() {
                problems.push(format!(
                    "{} {}: {} {} in {} ({:?})",
                    pitfall.key(),
                    t.name,
                    t.failures,
                    t.unit,
                    t.out_of,
                    t.refused
                ));
            }
            if t.broken && t.refused.is_none() && t.out_of == 0 {
                problems.push(format!("{} {}: ran nothing", pitfall.key(), t.name));
            }
        }
        let broken: Vec<_> = finding.trials.iter().filter(|t| t.broken).collect();
        match pitfall {
            layout::pitfall::Pitfall::UnresetAccumulator if !broken.iter().all(|t| t.shown()) => {
                problems.push("the accumulator never reset held the right sum".to_owned());
            }
            layout::pitfall::Pitfall::DevicePhase if !broken.iter().any(|t| t.refused.is_some()) => {
                problems.push("the driver launched a cooperative grid four times too large".to_owned());
            }
            _ => {}
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

/// The mutants of MP `rel-acq-gpu` in both placements: each killable one is
/// made, loaded and run, and either is killed, with the instances and time
/// it took, or ran its whole budget; an equivalent one is never run. Whether
/// a given mutant is killed depends on the GPU and the environment, so that
/// is reported by `host litmus --mutants`, not asserted here.
fn litmus_mutants_run(gpu: &Gpu) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut options = litmus_options(Preset::StaleL1, false);
    options.kernels.retain(|k| k.entry().symbol == "litmus_mp_rel_acq_gpu");
    options.budget = Budget::Instances(1_000_000);
    let rows = host::litmus::mutants::run(&kernels, gpu, gpu.ptx_text(), &options, &Progress::new(false))
        .map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for r in &rows {
        let m = &r.mutant;
        let what = format!("  {} {}: {}", m.placement.key(), m.mutation, r.skipped.as_deref().unwrap_or(""));
        match (&r.counts, r.killed_after) {
            (None, _) if r.skipped.is_none() => wrong.push(format!("{what}: neither run nor skipped")),
            (Some(_), _) if !m.allowed => wrong.push(format!("{what}: an equivalent mutant ran")),
            (Some(c), None) if c.instances < 1_000_000 => {
                wrong.push(format!("{what}: survived on {} instances", c.instances))
            }
            (Some(c), Some((n, _))) if n > c.instances || c.histogram[m.kernel.test.weak() as usize] == 0 => {
                wrong.push(format!("{what}: killed after {n} of {} instances", c.instances))
            }
            _ => {}
        }
    }
    if rows.iter().all(|r| r.counts.is_none()) {
        wrong.push("no mutant ran".to_owned());
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// Every kernel, at every size, twice: each sum equals the Kahan reference
/// bit for bit.
fn sums_are_bit_exact(gpu: &Gpu, threads: u32) -> Result<(), String> {
    let block = Block::new(threads).map_err(|e| e.to_string())?;
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for n in SIZES {
        let values = input::exact(n);
        let expected = reference::kahan_sum(&values);
        let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
        for kernel in SumKernel::all() {
            let m = kernels
                .measure(kernel, &device_input, block, Plan { warmup: 2, runs: 0, cold: false })
                .map_err(|e| e.to_string())?;
            for found in m.sums {
                if !reference::bit_exact(found, expected) {
                    wrong.push(format!("  {} n = {n}: expected {expected}, found {found}", kernel.label));
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// A cold plan queues the L2 flush (`evict_l2`) before each timed launch:
/// every kernel still sums exactly, at a size inside L2 and one past it, and
/// every timed launch gives a positive, finite time. (Whether the flush
/// empties L2 is measured with ncu, not here: see the README's section 5.)
fn cold_measurements_flush_and_stay_exact(gpu: &Gpu) -> Result<(), String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for n in [4096, 3 * gpu.info.l2_bytes / 4 + 5] {
        let values = input::sparse_exact(n);
        let expected = reference::kahan_sum(&values);
        let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
        for kernel in SumKernel::all().filter(|k| k.label != layout::sum::GLOBAL_ATOMIC.label) {
            let plan = Plan { warmup: 1, runs: 3, cold: true };
            let m = kernels.measure(kernel, &device_input, Block::DEFAULT, plan).map_err(|e| e.to_string())?;
            wrong.extend(timed_problems(&m, plan, expected, &format!("{} n = {n}", kernel.label)));
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// What is wrong with a timed measurement `m` made with `plan`: a time per
/// timed launch, each positive and finite, and every sum equal to `expected`
/// bit for bit. Each problem is one line that starts with `what`.
fn timed_problems(m: &SumMeasurement, plan: Plan, expected: f64, what: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    if m.times_ms.len() != plan.runs || !m.times_ms.iter().all(|t| t.is_finite() && *t > 0.0) {
        wrong.push(format!("  {what}: times {:?}", m.times_ms));
    }
    for &found in &m.sums {
        if !reference::bit_exact(found, expected) {
            wrong.push(format!("  {what}: expected {expected}, found {found}"));
        }
    }
    wrong
}

/// The embedded PTX without `evict_l2` and `hold`, as a file: the kernels
/// under test come from it, and a warm and a cold measurement still run,
/// with the timing kernels taken from the embedded PTX (as `nvcc-compare`
/// needs for nvcc's PTX of the page's kernels).
fn ptx_without_the_timing_kernels_is_timed() -> Result<(), String> {
    let mut ptx = host::gpu::EMBEDDED_PTX.to_owned();
    for symbol in [layout::baseline::EVICT_L2.symbol, layout::baseline::HOLD.symbol] {
        // Each function runs from its `// .globl` line to the `}` after its
        // `// -- End function` line (rustc's PTX layout).
        let start = ptx.find(&format!("// .globl\t{symbol} ")).ok_or(format!("no `{symbol}` in the embedded PTX"))?;
        let end_mark = ptx[start..].find("// -- End function").ok_or("no end of function")? + start;
        let end = ptx[end_mark..].find("}\n").ok_or("no closing brace")? + end_mark + 2;
        ptx.replace_range(start..end, "");
    }
    let path = std::env::temp_dir().join(format!("without-timing-{}.ptx", std::process::id()));
    std::fs::write(&path, &ptx).map_err(|e| e.to_string())?;
    let gpu = Gpu::open(&PtxSource::File(path.clone())).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&path);
    if gpu.function(layout::baseline::HOLD.symbol).is_ok() {
        return Err("the cut PTX still defines `hold`".to_owned());
    }
    let kernels = SumKernels::load(&gpu).map_err(|e| e.to_string())?;
    let values = input::sparse_exact(100_003);
    let expected = reference::kahan_sum(&values);
    let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for cold in [false, true] {
        let plan = Plan { warmup: 1, runs: 2, cold };
        let kernel = SumKernel::of(&layout::sum::DETERMINISTIC);
        let m = kernels.measure(kernel, &device_input, Block::DEFAULT, plan).map_err(|e| e.to_string())?;
        wrong.extend(timed_problems(&m, plan, expected, &format!("cold = {cold}")));
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// The kernels beyond the page at sizes around every boundary they have
/// (warp, block, float4, chunk) and at starts misaligned by 1 to 3 floats,
/// which sends the 128-bit paths to their scalar fallbacks.
fn roofline_sums_are_bit_exact(gpu: &Gpu) -> Result<(), String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for threads in [32, 256, 1024] {
        let block = Block::new(threads).map_err(|e| e.to_string())?;
        for n in [1, 2, 3, 5, 31, 4095, 4097, 4099, 65_537, 1_000_003, reference::MAX_EXACT_N] {
            let values = input::exact(n);
            let expected = reference::kahan_sum(&values);
            for offset in [0, 1, 2, 3] {
                let device_input = kernels.upload_at(&values, offset).map_err(|e| e.to_string())?;
                for kernel in SumKernel::all().filter(|k| !k.on_page) {
                    let plan = Plan { warmup: 2, runs: 0, cold: false };
                    let m = kernels.measure(kernel, &device_input, block, plan).map_err(|e| e.to_string())?;
                    for found in m.sums {
                        if !reference::bit_exact(found, expected) {
                            wrong.push(format!(
                                "  {} n = {n} block {threads} offset {offset}: expected {expected}, found {found}",
                                kernel.label
                            ));
                        }
                    }
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// On inexact input, where any change of order shows in the last bits, the
/// deterministic kernel returns one bit pattern over repeated launches, every
/// block size, grids sized for 1 to 264 SMs, and misaligned starts.
fn deterministic_sum_has_one_value(gpu: &Gpu) -> Result<(), String> {
    use layout::sum::deterministic::{CHUNK, HANDOFF_CHUNKS};
    // Half the handoff route's chunks and a last chunk of 3 floats (513
    // chunks): a grid of many blocks takes the handoff route, a grid of one
    // block (where one SM holds only one) the one-block route, and the short last
    // chunk goes to the block mode in both.
    let n = HANDOFF_CHUNKS / 2 * CHUNK + 3;
    let values = input::inexact(n);
    let mut seen = std::collections::BTreeMap::new();
    for sm_count in [1, 7, gpu.info.sm_count, 2 * gpu.info.sm_count] {
        let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?.with_sm_count(sm_count);
        for offset in [0, 1] {
            let device_input = kernels.upload_at(&values, offset).map_err(|e| e.to_string())?;
            for threads in BLOCKS {
                let block = Block::new(threads).map_err(|e| e.to_string())?;
                let plan = Plan { warmup: 3, runs: 0, cold: false };
                let m = kernels
                    .measure(SumKernel::of(&layout::sum::DETERMINISTIC), &device_input, block, plan)
                    .map_err(|e| e.to_string())?;
                for s in m.sums {
                    seen.entry(s.to_bits()).or_insert_with(Vec::new).push((sm_count, offset, threads));
                }
            }
        }
    }
    if seen.len() == 1 { Ok(()) } else { Err(format!("  {} distinct sums: {seen:?}", seen.len())) }
}

/// The deterministic kernel's documented order, on the CPU: chunks of
/// `CHUNK` floats, each summed by 32 lanes (lane `l` adds its quads
/// `l + 32k` in batches of eight `k`, each batch in order from `+0.0`, each
/// quad as `(x + y) + (z + w)`; the eight batch sums joined as `((p0 + p1) +
/// (p2 + p3)) + ((p4 + p5) + (p6 + p7))`), then a butterfly over the lanes;
/// the chunk sums combined the same way in segments of `SEGMENT` (one batch
/// each), and the segment sums once more. Always both phases: the kernel's
/// one-chunk shortcut, its three routes to the combining block, and its
/// warp-per-chunk and block-per-chunk modes, must all give these bits.
fn deterministic_order(values: &[f32]) -> f32 {
    use layout::sum::deterministic::{CHUNK, SEGMENT};
    fn lanes_then_butterfly(list: &[f32], quads: usize) -> f32 {
        let mut lanes = [0f32; 32];
        for (l, lane) in lanes.iter_mut().enumerate() {
            let mut p = [0f32; 8];
            for (b, batch) in p.iter_mut().enumerate().take(quads / 256) {
                for j in 0..8 {
                    let k = l + 32 * (8 * b + j);
                    let q = |i: usize| list.get(4 * k + i).copied().unwrap_or(0.0);
                    *batch += (q(0) + q(1)) + (q(2) + q(3));
                }
            }
            *lane = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
        }
        for mask in [16, 8, 4, 2, 1] {
            let before = lanes;
            for (l, value) in lanes.iter_mut().enumerate() {
                *value = before[l] + before[l ^ mask];
            }
        }
        lanes[0]
    }
    let partials: Vec<f32> = values.chunks(CHUNK).map(|c| lanes_then_butterfly(c, CHUNK / 4)).collect();
    let segments: Vec<f32> = partials.chunks(SEGMENT).map(|s| lanes_then_butterfly(s, SEGMENT / 4)).collect();
    lanes_then_butterfly(&segments, layout::sum::deterministic::MAX_SEGMENTS / 4)
}

/// Every path of the deterministic kernel (one chunk; one block; many
/// blocks through the handoff slots or the finish ticket; a warp or a block
/// per chunk), at sizes on both sides of each switch (a chunk, a block's worth
/// of chunks for each block size, the handoff's limit), aligned and not, on
/// grids sized for one SM and for the device: the bits of the documented
/// order.
fn deterministic_sum_follows_its_documented_order(gpu: &Gpu) -> Result<(), String> {
    let kernel = SumKernel::of(&layout::sum::DETERMINISTIC);
    let mut wrong = Vec::new();
    use layout::sum::deterministic::{CHUNK, HANDOFF_CHUNKS};
    // Half a chunk (`CHUNK / 2`): the one-chunk route, whose four whole
    // batches the short chunk's reader hands to the 128-bit loads. Around
    // one chunk (`CHUNK - 1` to `CHUNK + 1`): up to `CHUNK` block 0 alone sums
    // the input and stops; past it the chunk sums take a route to the
    // combining block. `2 * CHUNK + 1`: three chunks, the last of one float.
    // Around 64 chunks (`64 * CHUNK`, 64 being the most warps an SM holds on
    // sm_90, 2,048 threads): on a one-SM grid, where the kernel starts to sum whole
    // rounds of chunks a warp each and the rest a block each. Around
    // `HANDOFF_CHUNKS` chunks (where the chunk sums stop travelling through
    // the handoff slots and take the finish ticket); and between.
    let handoff = HANDOFF_CHUNKS * CHUNK;
    let mut sizes = vec![
        1,
        2,
        31,
        CHUNK / 2,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        2 * CHUNK + 1,
        64 * CHUNK - 1,
        64 * CHUNK + 1,
        1_000_003,
        handoff,
        handoff + 1,
    ];
    for threads in BLOCKS {
        // As many chunks as the block has warps: on a grid of one block, the
        // size from which its warps sum whole chunks a warp each.
        let one_block = (threads / layout::WARP_SIZE) as usize * CHUNK;
        sizes.extend([one_block - 1, one_block, one_block + 1]);
    }
    for n in sizes {
        let values = input::inexact(n);
        let expected = deterministic_order(&values);
        for sm_count in [1, gpu.info.sm_count] {
            let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?.with_sm_count(sm_count);
            for offset in [0, 1] {
                let device_input = kernels.upload_at(&values, offset).map_err(|e| e.to_string())?;
                for threads in BLOCKS {
                    let block = Block::new(threads).map_err(|e| e.to_string())?;
                    // Two launches on one scratch allocation: the second finds
                    // the ticket and the slots as the first left them.
                    let plan = Plan { warmup: 2, runs: 0, cold: false };
                    let m = kernels.measure(kernel, &device_input, block, plan).map_err(|e| e.to_string())?;
                    if m.sums.iter().any(|s| s.to_bits() != expected.to_bits()) {
                        wrong.push(format!(
                            "  n = {n}, block {threads}, {sm_count} SMs, offset {offset}: {:?}, expected {expected}",
                            m.sums
                        ));
                    }
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// Every sum kernel's most threads a block on this device, printed (the
/// driver compiles the PTX itself, and its build may need more registers
/// than `ptxas`'s); each small route's block within it, and a launch of each
/// at its reach, asked at block 32 so the asked grid is many blocks, giving
/// the exact sum. A block of more threads than the function takes fails to
/// launch (`CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES`), which a small route of a
/// fixed 1024 threads once did.
fn sum_small_routes_launch_blocks_their_functions_take(gpu: &Gpu) -> Result<(), String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?.with_small_route(true);
    let mut wrong = Vec::new();
    for kernel in SumKernel::all() {
        let most = kernels.max_threads(kernel).map_err(|e| e.to_string())?;
        let registers = kernels.registers(kernel).map_err(|e| e.to_string())?;
        println!("  {}: {registers} registers a thread, at most {most} threads a block", kernel.symbol());
        if kernel.grid.small_per_thread == 0 {
            continue;
        }
        let Some(route) = kernels.small_route_of(kernel) else {
            wrong.push(format!("  {}: no small route at {most} threads a block", kernel.symbol()));
            continue;
        };
        if route.threads > most || route.threads != kernel.grid.small_threads(most) {
            wrong.push(format!("  {}: a block of {} threads for a function of {most}", kernel.symbol(), route.threads));
        }
        let values = input::sparse_exact(route.max_n);
        let expected = exact::sum(&values);
        let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
        let block = Block::new(32).map_err(|e| e.to_string())?;
        let plan = Plan { warmup: 1, runs: 1, cold: false };
        let m = kernels.measure(kernel, &device_input, block, plan).map_err(|e| e.to_string())?;
        if m.sums.iter().any(|s| s.to_bits() != expected.to_bits()) {
            wrong.push(format!("  {} at n = {}: {:?}, expected {expected}", kernel.symbol(), route.max_n, m.sums));
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// The largest input `kernel`'s small route takes on this device, whose one
/// block there is the most threads the driver's build of the function
/// launches with (up to 1024, in whole granules of eight warps; a smaller
/// input takes fewer granules); printed, so a run says the largest block its
/// small-route launches had.
fn small_route_reach(gpu: &Gpu, kernel: SumKernel) -> Result<usize, String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let most = kernels.max_threads(kernel).map_err(|e| e.to_string())?;
    let route = kernels.small_route_of(kernel).ok_or_else(|| {
        format!("  {}: no small route: its build launches with at most {most} threads a block", kernel.symbol())
    })?;
    println!(
        "  {}: the small route takes n <= {} on one block of at most {} threads (the function launches with at most {most})",
        kernel.symbol(),
        route.max_n,
        route.threads
    );
    Ok(route.max_n)
}

/// The correctly rounded kernel against the CPU's exact sum, bit for bit, on
/// every generated spread and on random finite bit patterns (every exponent,
/// both signs, subnormals: the kind of array a user might bring), at sizes
/// around every boundary of the kernel (a quad, a trip of 8, a block's
/// worth), with starts misaligned for the vector loads and grids sized for 1
/// SM up to twice the device.
fn correctly_rounded_sum_is_the_exact_sum(gpu: &Gpu, threads: u32) -> Result<(), String> {
    let kernel = SumKernel::of(&layout::sum::CORRECTLY_ROUNDED);
    let block = Block::new(threads).map_err(|e| e.to_string())?;
    let mut arrays: Vec<(String, Vec<f32>)> = Vec::new();
    // The small route's reach on this device and around it.
    let small = small_route_reach(gpu, kernel)?;
    // 4,097 and 8,193 are the first sizes of the route's blocks of 512 and 768.
    for n in [1, 3, 4, 5, 15, 16, 17, 4095, 4097, 8193, small - 1, small, small + 1, 65_537, 1_000_003, (1 << 22) + 3] {
        for spread in input::Spread::ALL {
            arrays.push((format!("{} n = {n}", spread.name()), input::spread(spread, n, 11)));
        }
    }
    for (seed, n) in [2, 1000, 65_536, 1 << 20].into_iter().enumerate() {
        arrays.push((format!("random bits n = {n}"), input::random_finite(n, 5 + seed as u64)));
    }
    // Every thread's quads share one magnitude, so no running sum flushes,
    // but neighbouring lanes (then neighbouring warps) differ by 2^80: the
    // warp's (then the block's) f64 butterfly cannot be exact and the limbs
    // must take over. On a grid of an even number of warps a thread's later
    // quads keep the parity of its first; on any grid the sum must be exact.
    // At 2^16 on many blocks, and at the small route's limit on its one
    // block, which must then leave its own rounding for the limbs.
    for (what, period) in [("lanes", 4), ("warps", 4 * 32)] {
        for len in [1 << 16, small] {
            let values = (0..len).map(|i| if (i / period) % 2 == 0 { 2f32.powi(40) } else { 3.0 * 2f32.powi(-40) });
            arrays.push((format!("{what} 2^80 apart, n = {len}"), values.collect()));
        }
    }
    // Sums past the largest float, exact in `f64`: the one-block route's
    // rounding of its `f64` sum must overflow where the limbs' does, a tie
    // at the top (the largest float plus half its last place) included.
    let half_ulp_of_max = 2f32.powi(103);
    for (what, values) in [
        ("two largest floats", vec![f32::MAX, f32::MAX]),
        ("largest float and half its last place", vec![f32::MAX, half_ulp_of_max]),
        ("largest float and just under half its last place", vec![f32::MAX, half_ulp_of_max, -1.0]),
        ("largest float and half its last place, negated", vec![-f32::MAX, -half_ulp_of_max]),
        ("negative zeros", vec![-0.0; 4099]),
        ("smallest subnormals", vec![f32::from_bits(1); 5003]),
    ] {
        arrays.push((what.to_owned(), values));
    }
    let mut wrong = Vec::new();
    for (name, values) in &arrays {
        let expected = exact::sum(values);
        // The small route on for every grid, and off on the device's (the
        // grids before it), where it could change the launch.
        let mut grids = vec![(gpu.info.sm_count, 0, true), (1, 1, true), (2 * gpu.info.sm_count, 3, true)];
        if values.len() <= 2 * small {
            grids.push((gpu.info.sm_count, 0, false));
        }
        for (sm_count, offset, small_route) in grids {
            let kernels =
                SumKernels::load(gpu).map_err(|e| e.to_string())?.with_sm_count(sm_count).with_small_route(small_route);
            let device_input = kernels.upload_at(values, offset).map_err(|e| e.to_string())?;
            let plan = Plan { warmup: 2, runs: 0, cold: false };
            for found in kernels.measure(kernel, &device_input, block, plan).map_err(|e| e.to_string())?.sums {
                if found.to_bits() != expected.to_bits() {
                    wrong.push(format!(
                        "  {name}, {sm_count} SMs, offset {offset}, small route {small_route}: \
                         expected {expected:e} ({:#010x}), found {found:e} ({:#010x})",
                        expected.to_bits(),
                        found.to_bits()
                    ));
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// NaN and infinities decide the correctly rounded sum as IEEE addition
/// would, and as the CPU reference does.
fn correctly_rounded_sum_of_nan_and_infinities(gpu: &Gpu) -> Result<(), String> {
    let kernels = SumKernels::load(gpu).map_err(|e| e.to_string())?;
    let kernel = SumKernel::of(&layout::sum::CORRECTLY_ROUNDED);
    let mut wrong = Vec::new();
    let mut with = |what: &str, at: usize, value: f32, n: usize| -> Result<(), String> {
        let mut values = input::spread(input::Spread::Normal, n, 1);
        values[at] = value;
        let expected = exact::sum(&values);
        let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
        let plan = Plan { warmup: 2, runs: 0, cold: false };
        for found in kernels.measure(kernel, &device_input, Block::DEFAULT, plan).map_err(|e| e.to_string())?.sums {
            if !(found.to_bits() == expected.to_bits() || (found.is_nan() && expected.is_nan())) {
                wrong.push(format!("  {what}: expected {expected}, found {found}"));
            }
        }
        Ok(())
    };
    with("one NaN", 7, f32::NAN, 100_003)?;
    with("one +inf", 99_999, f32::INFINITY, 100_003)?;
    with("one -inf in the tail", 100_002, f32::NEG_INFINITY, 100_003)?;
    with("the largest float beside small ones", 0, f32::MAX, 3)?;
    // On the small route's one block, whose own rounding must step aside.
    let small = small_route_reach(gpu, kernel)?;
    with("one NaN, one block", 7, f32::NAN, small)?;
    with("one -inf, one block", small - 1, f32::NEG_INFINITY, small)?;
    let mut values = vec![f32::MAX; 1000];
    values.push(f32::NEG_INFINITY);
    values.push(f32::INFINITY);
    let device_input = kernels.upload(&values).map_err(|e| e.to_string())?;
    let found = kernels.measure(kernel, &device_input, Block::DEFAULT, Plan { warmup: 1, runs: 0, cold: false });
    let found = found.map_err(|e| e.to_string())?.sums[0];
    if !found.is_nan() {
        wrong.push(format!("  +inf and -inf: expected NaN, found {found}"));
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// The page's example and the device-scope version: over three launches
/// (over six million pairs on an H200) every consumer reads `{42, 3.5}` and
/// none times out, with each flag beside its payload or apart from it, and
/// with or without the consumer's preload, and with the preload and a
/// producer's delay, the setting that makes the relaxed variant stale.
fn guaranteed_publication_is_never_stale(gpu: &Gpu, variant: PublishVariant) -> Result<(), String> {
    let kernels = PublishKernels::load(gpu).map_err(|e| e.to_string())?;
    if let Some(refused) = refused_without_hopper(gpu, &kernels, variant)? {
        println!("  {}: not run on this GPU; refused with: {refused}", variant.symbol());
        return Ok(());
    }
    for (flags, preload, delay_ns) in [
        (FlagPlacement::SameSlot, false, 0),
        (FlagPlacement::Apart, false, 0),
        (FlagPlacement::Apart, true, 0),
        (FlagPlacement::Apart, true, 2000),
    ] {
        let mut geometry = PublishGeometry::for_device(variant, gpu.info.sm_count);
        geometry.flags = flags;
        geometry.preload = preload;
        geometry.delay_ns = delay_ns;
        let c = kernels.run(variant, geometry, 3).map_err(|e| e.to_string())?;
        let expected_pairs = geometry.pairs_per_launch(variant) * 3;
        if !(c.pairs == expected_pairs && c.stale == 0 && c.timeouts == 0 && c.observed == (42, 3.5)) {
            return Err(format!(
                "  {flags:?}, preload {preload}, delay {delay_ns} ns: expected {expected_pairs} clean pairs ending in {{42, 3.5}}, got {c:?}"
            ));
        }
    }
    Ok(())
}

/// The relaxed and wrong-scope variants may show anything, but they must end
/// (the deadline bounds every wait) and account for every round.
fn broken_variants_run_to_the_end(gpu: &Gpu) -> Result<(), String> {
    let kernels = PublishKernels::load(gpu).map_err(|e| e.to_string())?;
    for variant in PublishVariant::all().filter(|v| !v.guaranteed) {
        if let Some(refused) = refused_without_hopper(gpu, &kernels, variant)? {
            println!("  {}: not run on this GPU; refused with: {refused}", variant.symbol());
            continue;
        }
        let geometry = PublishGeometry::for_device(variant, gpu.info.sm_count);
        let c = kernels.run(variant, geometry, 1).map_err(|e| e.to_string())?;
        if c.pairs + c.timeouts != geometry.pairs_per_launch(variant) {
            return Err(format!("  {}: rounds unaccounted for: {c:?}", variant.symbol()));
        }
        let row = publish::PublishRow { variant, geometry, counts: c };
        println!("  {}: {}", variant.symbol(), row.verdict().text());
    }
    Ok(())
}

/// A correct system-scope variant (`.sys` release/acquire on the GPU,
/// `Release`/`Acquire` on the CPU), both directions: over ten rounds of the
/// default 2^20 slots (over 10^7 pairs; `host publish-sys` runs the 10^8)
/// every record is the round's and no wait times out, as the model
/// guarantees. Also with one CPU thread and a slot count that is not a
/// multiple of the grid or of the CPU threads.
fn system_scope_publication_is_never_stale(gpu: &Gpu, variant: SystemVariant) -> Result<(), String> {
    let kernels = SystemKernels::load(gpu).map_err(|e| e.to_string())?;
    let standard = SystemGeometry::for_device(gpu.info.sm_count, SystemGeometry::default_cpu_threads());
    let odd = SystemGeometry { slots: 1_000_003, cpu_threads: 1, ..standard };
    for (geometry, launches) in [(standard, 10), (odd, 3)] {
        let c = kernels.run(variant, geometry, launches).map_err(|e| e.to_string())?;
        let expected = u64::from(geometry.slots) * launches as u64;
        println!("  {}: {:?} in {:.3} s", variant.name, c.counts, c.wall_s);
        if !(c.counts.pairs == expected && c.counts.stale == 0 && c.counts.timeouts == 0) {
            return Err(format!("  {geometry:?}: expected {expected} clean pairs, got {c:?}"));
        }
    }
    Ok(())
}

/// The wrong-scope and relaxed system-scope variants may show anything, but
/// they must end (every wait on both sides has a deadline) and account for
/// every slot of every round.
fn system_scope_broken_variants_run_to_the_end(gpu: &Gpu) -> Result<(), String> {
    let kernels = SystemKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut geometry = SystemGeometry::for_device(gpu.info.sm_count, SystemGeometry::default_cpu_threads());
    geometry.budget_ns = 200_000_000;
    for variant in SystemVariant::all().filter(|v| !v.guaranteed) {
        let c = kernels.run(variant, geometry, 3).map_err(|e| e.to_string())?;
        if c.counts.pairs + c.counts.timeouts != u64::from(geometry.slots) * 3 {
            return Err(format!("  {}: slots unaccounted for: {c:?}", variant.name));
        }
        let row = publish_sys::PublishSysRow { variant, geometry, counts: c };
        println!("  {}: {:?}: {}", variant.name, row.counts.counts, row.verdict().text());
    }
    Ok(())
}

/// On a GPU without the Hopper module, a cluster variant's run must fail
/// with the one-line error: `Some(that line)`. `None` where the variant can
/// run here.
fn refused_without_hopper(
    gpu: &Gpu,
    kernels: &PublishKernels<'_>,
    variant: PublishVariant,
) -> Result<Option<String>, String> {
    if variant.entry().module == layout::Module::Base || gpu.hopper().is_ok() {
        return Ok(None);
    }
    let geometry = PublishGeometry::for_device(variant, gpu.info.sm_count);
    match kernels.run(variant, geometry, 1) {
        Ok(c) => Err(format!("  {}: ran without the Hopper module: {c:?}", variant.symbol())),
        Err(e) if e.to_string().lines().count() == 1 => Ok(Some(e.to_string())),
        Err(e) => Err(format!("  {}: refused in more than one line: {e}", variant.symbol())),
    }
}

/// Both histogram kernels, both distributions, sizes that are not multiples
/// of the block: counts equal the CPU's exactly.
fn histograms_are_exact(gpu: &Gpu, bins: u32) -> Result<(), String> {
    let kernels = HistogramKernels::load(gpu).map_err(|e| e.to_string())?;
    let mut wrong = Vec::new();
    for threads in [32, 256, 1024] {
        let block = Block::new(threads).map_err(|e| e.to_string())?;
        for n in [1, 31, 4097, 1_000_003] {
            for distribution in [Distribution::Uniform, Distribution::OneBin] {
                let values = input::bin_indices(n, bins, distribution);
                let expected = reference::histogram(&values, bins);
                let device_values = kernels.upload(&values, bins).map_err(|e| e.to_string())?;
                for kernel in HistogramKernel::all() {
                    let m = kernels
                        .measure(kernel, &device_values, block, Plan { warmup: 1, runs: 0, cold: false })
                        .map_err(|e| e.to_string())?;
                    if m.counts.iter().any(|c| *c != expected) {
                        wrong.push(format!("  {} n = {n} block {threads} {distribution:?}", kernel.symbol()));
                    }
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// A PTX file the driver rejects gives an error that names the file and the
/// driver's reason.
/// A launch in clusters (`cuLaunchKernelEx`, Hopper module) gives every
/// block the rank, cluster size and cluster index the PTX ISA defines for a
/// one-dimensional grid, and distributed shared memory reads the next rank's
/// block's own word. On a GPU before Hopper it says so and checks that the
/// request fails with the one-line error.
fn cluster_launch_places_blocks_as_documented(gpu: &Gpu) -> Result<(), String> {
    use host::gpu::baseline::{ProbeReport, cluster_probe, probe_max_active_clusters};
    if let Err(why) = gpu.hopper() {
        let refused = cluster_probe(gpu, 1, 2, 32).err().map(|e| e.to_string());
        println!("cluster launch: not run on this GPU ({why}); the probe was refused with: {refused:?}");
        return if refused.is_some() { Ok(()) } else { Err("a cluster probe ran without the Hopper module".into()) };
    }
    let mut problems = Vec::new();
    for cluster in [1, 2, 4, 8] {
        for threads in [32, 128, 1024] {
            let fits = probe_max_active_clusters(gpu, cluster, threads).map_err(|e| e.to_string())?;
            if fits == 0 {
                problems.push(format!("clusters of {cluster} blocks of {threads}: none fits"));
                continue;
            }
            // More clusters than fit at once, so some wait for others to end.
            let clusters = 2 * fits + 1;
            let reports = cluster_probe(gpu, clusters, cluster, threads).map_err(|e| e.to_string())?;
            for (block, report) in reports.iter().enumerate() {
                let block = block as u32;
                let (index, rank) = (block / cluster, block % cluster);
                let expected = ProbeReport {
                    rank,
                    size: cluster,
                    cluster: index,
                    neighbour_block: index * cluster + (rank + 1) % cluster,
                };
                if *report != expected {
                    problems.push(format!("{cluster}x{threads}, block {block}: {report:?}, expected {expected:?}"));
                }
            }
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

fn broken_ptx_names_the_file() -> Result<(), String> {
    let path = std::env::temp_dir().join(format!("broken-{}.ptx", std::process::id()));
    std::fs::write(&path, ".version 7.0\n.target sm_70\n.address_size 64\nthis is not ptx\n")
        .map_err(|e| e.to_string())?;
    match Gpu::open(&PtxSource::File(path.clone())) {
        Err(e @ LabError::PtxLoad { .. }) => {
            let text = e.to_string();
            if text.contains(&path.display().to_string()) && text.contains("CUDA_ERROR") {
                Ok(())
            } else {
                Err(format!("message lacks the file or the driver error: {text}"))
            }
        }
        Err(e) => Err(format!("wrong error: {e}")),
        Ok(_) => Err("the driver accepted broken PTX".to_owned()),
    }
}

/// PTX the driver's JIT compiler rejects fails in one line that names the
/// file, the driver's error and the compiler's own log (which names the line).
fn broken_ptx_shows_the_jit_log() -> Result<(), String> {
    let path = std::env::temp_dir().join(format!("broken-jit-{}.ptx", std::process::id()));
    std::fs::write(&path, ".version 7.0\n.target sm_70\n.address_size 64\nthis is not ptx\n")
        .map_err(|e| e.to_string())?;
    match Gpu::open(&PtxSource::File(path.clone())) {
        Err(e @ LabError::PtxLoad { .. }) => {
            let text = e.to_string();
            let one_line = !text.contains('\n');
            if one_line && text.contains("JIT compiler says") && text.contains("line 4") {
                Ok(())
            } else {
                Err(format!("not one line with the JIT compiler's log: {text}"))
            }
        }
        Err(e) => Err(format!("wrong error: {e}")),
        Ok(_) => Err("the driver accepted broken PTX".to_owned()),
    }
}

/// The machine code that ran. The lab loads its modules from PTX
/// (`cuModuleLoadData`), which the driver compiles itself and keeps in its
/// JIT cache. A child of this test binary opens the GPU with the cache
/// pointed at an empty folder, so the driver writes the cubin of each module
/// it compiled there; each is disassembled with `cuobjdump` (which runs
/// `nvdisasm`) and held to every registry entry's SASS promise and every
/// litmus kernel's accesses, as `tests/ptx.rs` holds `ptxas`'s SASS of the
/// same PTX. Without the disassemblers it says so in one line and passes;
/// the checks read sm_90's parameter bank, so a GPU before Hopper is told
/// so too.
fn driver_sass_is_checked(gpu: &Gpu) -> Result<(), String> {
    let root = xtask::paths::workspace_root();
    let tools = (xtask::ptxas::find_tool(&root, "cuobjdump"), xtask::ptxas::find_tool(&root, "nvdisasm"));
    let (Some(cuobjdump), Some(_)) = tools else {
        println!("skipped: no nvdisasm/cuobjdump on PATH");
        return Ok(());
    };
    if gpu.info.compute_capability.0 < 9 {
        println!("skipped: the SASS checks read sm_90 machine code; this GPU is {:?}", gpu.info.compute_capability);
        return Ok(());
    }
    let dir = std::env::temp_dir().join(format!("lab-jit-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let status = Command::new(exe)
        .env(LOAD_ONLY, "1")
        .env("CUDA_CACHE_PATH", &dir)
        .env("CUDA_CACHE_MAXSIZE", "4294967296")
        .env_remove("CUDA_CACHE_DISABLE")
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("the child that loads the modules failed: {status}"));
    }
    let cubins = cached_cubins(&dir)?;
    if cubins.is_empty() {
        return Err(format!("the driver left no cubin in its JIT cache at {}", dir.display()));
    }
    let mut text = String::new();
    for path in &cubins {
        text += &xtask::sass::disassemble_cubin(&cuobjdump, path).map_err(|e| e.to_string())?;
    }
    let _ = std::fs::remove_dir_all(&dir);
    let loaded: Vec<layout::Module> =
        layout::Module::ALL.into_iter().filter(|&m| m == layout::Module::Base || gpu.hopper().is_ok()).collect();
    let functions = xtask::sass::split_functions(&text);
    let summaries = xtask::sass::summarize(&text);
    let mut broken = Vec::new();
    let mut checked = 0;
    for entry in layout::entries().filter(|e| loaded.contains(&e.module)) {
        match summaries.iter().find(|s| s.kernel == entry.symbol) {
            None => broken.push(format!("{}: not in the driver's cubins", entry.symbol)),
            Some(summary) => {
                checked += 1;
                for promise in summary.broken_promises(entry) {
                    broken.push(format!("{}: {promise} ({})", entry.symbol, summary.line()));
                }
            }
        }
    }
    let mut stress_loads = std::collections::BTreeSet::new();
    for kernel in layout::litmus::KERNELS.iter().filter(|k| loaded.contains(&k.entry.module)) {
        let Some((_, body)) = functions.iter().find(|(f, _)| f == kernel.entry.symbol) else { continue };
        let (problems, stress) = xtask::sass::litmus_problems(kernel, body);
        broken.extend(problems);
        stress_loads.insert(stress);
    }
    if stress_loads.len() > 1 {
        broken.push(format!("the litmus kernels have different numbers of stress loads: {stress_loads:?}"));
    }
    println!(
        "  checked the SASS the driver compiled ({} cubins from its JIT cache) of {checked} kernels with {}",
        cubins.len(),
        cuobjdump.display()
    );
    if broken.is_empty() { Ok(()) } else { Err(broken.join("\n")) }
}

/// The cubins in the JIT cache at `dir`, each copied beside its entry as
/// `ENTRY.cubin`. An entry is the driver's header, the PTX it compiled,
/// then the cubin to the end of the file (whose section headers need not
/// come last, so the ELF header does not give its end).
fn cached_cubins(dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for item in std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))? {
            let path = item.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_some_and(|e| e == "cubin") {
                continue;
            }
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some(start) = bytes.windows(4).position(|w| w == b"\x7fELF") {
                let cubin = path.with_extension("cubin");
                std::fs::write(&cubin, &bytes[start..]).map_err(|e| format!("{}: {e}", cubin.display()))?;
                found.push(cubin);
            }
        }
    }
    found.sort();
    Ok(found)
}

fn litmus_options(preset: Preset, sequential: bool) -> LitmusOptions {
    LitmusOptions {
        kernels: LitmusKernel::all().collect(),
        placements: if sequential { vec![Split::IntraBlock] } else { Split::DEFAULT.to_vec() },
        budget: Budget::Instances(2_000_000),
        batch: 4,
        preset: Some(preset),
        environment: preset.environment(),
        sequential,
        seed: 26,
    }
}

/// `options` less what this GPU cannot run: on one without the Hopper
/// module, the `.cluster` kernels and the cluster placements.
fn runnable_here(gpu: &Gpu, mut options: LitmusOptions) -> LitmusOptions {
    if gpu.hopper().is_err() {
        options.kernels.retain(|k| k.entry().module == layout::Module::Base);
        options.placements.retain(|p| !p.needs_clusters());
    }
    options
}

/// A short run of every litmus kernel in the default placements (intra- and
/// inter-block): it finishes, every instance is counted, and no outcome the
/// model forbids appears (nor a register value no thread wrote).
fn litmus_sees_nothing_forbidden(gpu: &Gpu, preset: Preset) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let options = runnable_here(gpu, litmus_options(preset, false));
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    assert_eq!(rows.len(), 2 * options.kernels.len());
    for row in &rows {
        let counted: u64 = row.counts.histogram.iter().sum();
        if counted != row.counts.instances || row.counts.instances < 2_000_000 {
            return Err(format!(
                "{:?} {:?}: {counted} counted of {} run",
                row.kernel, row.placement, row.counts.instances
            ));
        }
        if row.forbidden() > 0 {
            return Err(format!("{:?} {:?}: forbidden outcomes {:?}", row.kernel, row.placement, row.outcomes()));
        }
    }
    Ok(())
}

/// The classifier counts what it claims: with a barrier between roles, every
/// instance of every kernel ends in the one outcome program order predicts.
fn litmus_sequential_control(gpu: &Gpu) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let options = runnable_here(gpu, litmus_options(Preset::Parallel, true));
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    for row in &rows {
        let predicted = row.counts.histogram[row.test().sequential() as usize];
        if predicted != row.counts.instances || predicted == 0 {
            return Err(format!(
                "{:?}: {:?}, not all {}",
                row.kernel,
                row.outcomes(),
                litmus::outcome_text(row.test().sequential() as usize, row.test())
            ));
        }
    }
    Ok(())
}

/// A short run of two kernels whose verdicts depend most on where the
/// threads run (WRC with `.cta` acq_rel fences, IRIW with `fence.sc.cta`) in
/// every placement that fits them: one warp, one block, each block split and
/// every role apart. Every instance is counted and nothing the model forbids
/// appears; then the sequential control in one warp gives only program
/// order.
fn litmus_every_placement(gpu: &Gpu) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let chosen = ["litmus_wrc_fence_acq_rel_cta", "litmus_iriw_fence_sc_cta"];
    let mut options = litmus_options(Preset::Parallel, false);
    options.kernels.retain(|k| chosen.contains(&k.symbol()));
    if options.kernels.len() != 2 {
        return Err(format!("expected two kernels, found {:?}", options.kernels));
    }
    options.placements = Split::ALL.to_vec();
    options.budget = Budget::Instances(500_000);
    let mut options = runnable_here(gpu, options);
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    let expected: usize =
        options.kernels.iter().map(|k| options.placements.iter().filter(|s| s.fits(k.test)).count()).sum();
    if rows.len() != expected {
        return Err(format!("{} rows, expected {expected}", rows.len()));
    }
    for row in &rows {
        let counted: u64 = row.counts.histogram.iter().sum();
        if counted != row.counts.instances || row.counts.instances < 500_000 {
            return Err(format!(
                "{:?} {}: {counted} counted of {} run",
                row.kernel,
                row.placement.key(),
                row.counts.instances
            ));
        }
        if row.forbidden() > 0 {
            return Err(format!("{:?} {}: forbidden outcomes {:?}", row.kernel, row.placement.key(), row.outcomes()));
        }
    }
    options.sequential = true;
    options.placements = vec![Split::Warp];
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    for row in &rows {
        let predicted = row.counts.histogram[row.test().sequential() as usize];
        if predicted != row.counts.instances || predicted == 0 {
            return Err(format!("{:?} in one warp: {:?}, not only program order", row.kernel, row.outcomes()));
        }
    }
    Ok(())
}

/// MP with release/acquire in the two cluster placements (a cluster launch,
/// clusters of two blocks), at `.cluster` beside its `.cta` and `.gpu`
/// twins, and relaxed at `.cluster`: every row runs to its budget, every
/// instance is counted, and no outcome the model forbids appears. The rows
/// are held to the model's verdicts: `.cluster` forbids the weak outcome
/// between blocks of one cluster and allows it between clusters, `.cta`
/// allows it between blocks of one cluster, `.gpu` forbids it everywhere. A
/// count of zero on an allowed row proves nothing, so none is asserted;
/// each row's count is printed with its instances and its 95% bound. On a
/// GPU before Hopper the cluster placement is refused in one line.
fn litmus_cluster_placements(gpu: &Gpu) -> Result<(), String> {
    let kernels = LitmusKernels::load(gpu).map_err(|e| e.to_string())?;
    let chosen =
        ["litmus_mp_rel_acq_gpu", "litmus_mp_rel_acq_cta", "litmus_mp_relaxed_cluster", "litmus_mp_rel_acq_cluster"];
    let mut options = litmus_options(Preset::Parallel, false);
    options.kernels.retain(|k| chosen.contains(&k.symbol()));
    if options.kernels.len() != chosen.len() {
        return Err(format!("expected {} kernels, found {:?}", chosen.len(), options.kernels));
    }
    options.placements = Split::CLUSTER.to_vec();
    options.budget = Budget::Instances(1_000_000);
    if let Err(why) = gpu.hopper() {
        let refused = litmus::run(&kernels, &options, &Progress::new(false)).err().map(|e| e.to_string());
        println!("cluster placements: not run on this GPU ({why}); refused with: {refused:?}");
        return match refused {
            Some(line) if !line.contains('\n') => Ok(()),
            _ => Err(format!("a cluster placement without the Hopper module: {refused:?}")),
        };
    }
    let rows = litmus::run(&kernels, &options, &Progress::new(false)).map_err(|e| e.to_string())?;
    if rows.len() != chosen.len() * Split::CLUSTER.len() {
        return Err(format!("{} rows, expected {}", rows.len(), chosen.len() * Split::CLUSTER.len()));
    }
    for row in &rows {
        let counted: u64 = row.counts.histogram.iter().sum();
        let (rate, (_, upper)) = row.rate_per_million();
        println!(
            "{} {}: {} weak in {} instances ({rate:.3} per million, 95% upper bound {upper:.3}), {}",
            row.kernel.key(),
            row.placement.key(),
            row.weak(),
            row.counts.instances,
            row.model()
        );
        if counted != row.counts.instances || row.counts.instances < 1_000_000 {
            return Err(format!(
                "{:?} {}: {counted} counted of {} run",
                row.kernel,
                row.placement.key(),
                row.counts.instances
            ));
        }
        if row.forbidden() > 0 {
            return Err(format!("{:?} {}: forbidden outcomes {:?}", row.kernel, row.placement.key(), row.outcomes()));
        }
    }
    let allowed = |symbol: &str, placement: Split| {
        rows.iter().find(|r| r.kernel.symbol() == symbol && r.placement == placement).map(|r| r.allowed)
    };
    let expected = [
        ("litmus_mp_rel_acq_cluster", Split::IntraCluster, false),
        ("litmus_mp_rel_acq_cluster", Split::InterCluster, true),
        ("litmus_mp_rel_acq_cta", Split::IntraCluster, true),
        ("litmus_mp_rel_acq_gpu", Split::InterCluster, false),
        ("litmus_mp_relaxed_cluster", Split::IntraCluster, true),
    ];
    for (symbol, placement, verdict) in expected {
        if allowed(symbol, placement) != Some(verdict) {
            return Err(format!(
                "{symbol} {}: allowed {:?}, the model says {verdict}",
                placement.key(),
                allowed(symbol, placement)
            ));
        }
    }
    Ok(())
}

/// The scope ladder, briefly (`host scopes --quick`'s shape): every rung this
/// GPU can run completes all its round trips with no timeout, the `.gpu`
/// rung's two blocks ran on two SMs, every fence loop measured something,
/// and on a GPU before Hopper the `.cluster` rung says so in one line.
/// Timings are printed, never asserted.
fn scope_ladder_runs(gpu: &Gpu) -> Result<(), String> {
    use host::commands::scopes::{self, NEEDS_HOPPER, ScopesOptions};
    use host::gpu::ladder::TripShape;
    let shape = TripShape { batches: 8, per_batch: 64, budget_ns: 1_000_000_000 };
    let options = ScopesOptions { launches: 2, shape, iterations: 256, repeats: 4, checks: true };
    let results = scopes::run(gpu, &options).map_err(|e| e.to_string())?;
    let mut problems = scopes::failures(&results);
    let expected = u64::from(options.launches) * u64::from(shape.batches) * u64::from(shape.per_batch);
    for row in &results.rungs {
        let scope = row.rung.scope();
        match (&row.trips, &row.unavailable) {
            (Some(t), _) => {
                println!("{scope}: {} round trips, {:?}, sms {:?}", t.trips, t.device, t.sms);
                if t.trips != expected {
                    problems.push(format!("{scope}: {} round trips of {expected}", t.trips));
                }
                let samples = t.device.map_or(0, |s| s.samples);
                if samples != (options.launches * shape.batches) as usize {
                    problems.push(format!("{scope}: {samples} batch samples"));
                }
                if row.fences.len() != 2 {
                    problems.push(format!("{scope}: {} fence costs of 2", row.fences.len()));
                }
                // Each rung's correct publication must show no stale record.
                match &row.publication {
                    Some(line) if line.contains(": 0 stale in ") && line.ends_with(", 0 timeouts") => {}
                    other => problems.push(format!("{scope}: publication {other:?}")),
                }
                println!("{scope}: {:?}; {:?}", row.publication, row.litmus);
                if row.litmus.is_none() {
                    problems.push(format!("{scope}: no litmus line"));
                }
            }
            (None, Some(why)) if row.rung == host::gpu::ladder::Rung::Cluster && gpu.hopper().is_err() => {
                if why != NEEDS_HOPPER {
                    problems.push(format!("{scope}: unavailable as {why:?}"));
                }
            }
            (None, why) => problems.push(format!("{scope}: did not run ({why:?})")),
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}
