//! The kernels on a real GPU, checked bit for bit against the CPU reference.
//!
//! On a machine without a GPU this prints `skipped: no CUDA device` and the
//! reason, and passes: CI has no GPU. On a GPU machine every case runs, under
//! `libtest-mimic` (`harness = false`): the skip line is never hidden by
//! libtest's output capture, `cargo test --release --test gpu -- NAME` runs
//! only the tests whose name contains NAME, and one summary line ends the run.

mod histogram;
mod litmus;
mod loading;
mod pitfalls;
mod practice;
mod publication;
mod sums;

use std::process::ExitCode;
use std::sync::Mutex;

use host::error::LabError;
use host::gpu::publish::PublishVariant;
use host::gpu::system::SystemVariant;
use host::gpu::{Gpu, PtxSource};
use host::litmus::Preset;
use libtest_mimic::{Arguments, Failed, Trial};

/// Blocks the sum tests launch: one warp, two, the default and the largest.
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
            Box::new(move |gpu| sums::sums_are_bit_exact(gpu, threads)),
        ));
    }
    cases.push((
        "roofline_sums_are_bit_exact_at_awkward_sizes_and_offsets".to_owned(),
        Box::new(sums::roofline_sums_are_bit_exact),
    ));
    cases.push(("deterministic_sum_has_one_value".to_owned(), Box::new(sums::deterministic_sum_has_one_value)));
    cases.push((
        "cold_measurements_flush_and_stay_exact".to_owned(),
        Box::new(sums::cold_measurements_flush_and_stay_exact),
    ));
    cases.push((
        "ptx_without_the_timing_kernels_is_timed_with_the_embedded_ones".to_owned(),
        Box::new(|_| sums::ptx_without_the_timing_kernels_is_timed()),
    ));
    cases.push((
        "deterministic_sum_follows_its_documented_order_on_every_path".to_owned(),
        Box::new(sums::deterministic_sum_follows_its_documented_order),
    ));
    for threads in [32, 256, 1024] {
        cases.push((
            format!("correctly_rounded_sum_is_the_exact_sum/block_{threads}"),
            Box::new(move |gpu| sums::correctly_rounded_sum_is_the_exact_sum(gpu, threads)),
        ));
    }
    cases.push((
        "sum_small_routes_launch_blocks_their_functions_take".to_owned(),
        Box::new(sums::sum_small_routes_launch_blocks_their_functions_take),
    ));
    cases.push((
        "sum_cluster_routes_launch_where_the_hopper_module_loads".to_owned(),
        Box::new(sums::sum_cluster_routes_launch_where_the_hopper_module_loads),
    ));
    cases.push((
        "correctly_rounded_sum_of_nan_and_infinities".to_owned(),
        Box::new(sums::correctly_rounded_sum_of_nan_and_infinities),
    ));
    for variant in PublishVariant::all().filter(|v| v.guaranteed) {
        cases.push((
            format!("guaranteed_publication_is_never_stale/{}", variant.key()),
            Box::new(move |gpu| publication::guaranteed_publication_is_never_stale(gpu, variant)),
        ));
    }
    cases.push(("broken_variants_run_to_the_end".to_owned(), Box::new(publication::broken_variants_run_to_the_end)));
    for variant in SystemVariant::all().filter(|v| v.guaranteed) {
        cases.push((
            format!("system_scope_publication_is_never_stale/{}", variant.name),
            Box::new(move |gpu| publication::system_scope_publication_is_never_stale(gpu, variant)),
        ));
    }
    cases.push((
        "system_scope_broken_variants_run_to_the_end".to_owned(),
        Box::new(publication::system_scope_broken_variants_run_to_the_end),
    ));
    for bins in [1, 7, 256, 4096, layout::histogram::MAX_BINS] {
        cases.push((
            format!("histograms_are_exact/bins_{bins}"),
            Box::new(move |gpu| histogram::histograms_are_exact(gpu, bins)),
        ));
    }
    cases.push(("broken_ptx_names_the_file".to_owned(), Box::new(|_| loading::broken_ptx_names_the_file())));
    cases.push((
        "broken_ptx_shows_the_jit_compilers_log".to_owned(),
        Box::new(|_| loading::broken_ptx_shows_the_jit_log()),
    ));
    cases.push((
        "driver_sass_keeps_the_registry_and_litmus_promises".to_owned(),
        Box::new(loading::driver_sass_is_checked),
    ));
    cases.push((
        "cluster_launch_gives_each_block_its_rank_and_its_neighbours_shared_memory".to_owned(),
        Box::new(loading::cluster_launch_places_blocks_as_documented),
    ));
    cases.push((
        "scope_ladder_completes_every_round_trip_without_a_timeout".to_owned(),
        Box::new(publication::scope_ladder_runs),
    ));
    for preset in [Preset::Quiet, Preset::Stress] {
        cases.push((
            format!("litmus_runs_every_kernel_and_sees_nothing_forbidden/{preset:?}"),
            Box::new(move |gpu| litmus::litmus_sees_nothing_forbidden(gpu, preset)),
        ));
    }
    cases.push((
        "litmus_sequential_control_gives_only_program_order".to_owned(),
        Box::new(litmus::litmus_sequential_control),
    ));
    cases.push((
        "litmus_mutants_load_run_and_account_for_their_budget".to_owned(),
        Box::new(litmus::litmus_mutants_run),
    ));
    cases.push(("litmus_every_placement_of_two_kernels".to_owned(), Box::new(litmus::litmus_every_placement)));
    cases.push((
        "litmus_tuning_search_keeps_winners_no_worse_than_its_start".to_owned(),
        Box::new(litmus::litmus_tuning_search),
    ));
    cases.push((
        "litmus_mp_in_the_cluster_placements_holds_the_model".to_owned(),
        Box::new(litmus::litmus_cluster_placements),
    ));
    cases.push((
        "practice_evidence_keeps_what_page_2_asks".to_owned(),
        Box::new(|_| practice::evidence_keeps_what_page_2_asks()),
    ));
    for puzzle in xtask::practice::PUZZLES.iter().filter(|p| !p.on_gpu.is_empty()) {
        cases.push((
            format!("practice_answers_run_as_their_puzzle_says/{}", puzzle.kernel.key),
            Box::new(move |_| practice::answers_run_as_the_puzzle_says(puzzle)),
        ));
        // A written answer's kernels are sanitized in their own puzzles.
        if !xtask::practice::sets::written(puzzle) {
            cases.push((
                format!("practice_solution_passes_the_sanitizer/{}", puzzle.kernel.key),
                Box::new(move |_| practice::solution_passes_the_sanitizer(puzzle)),
            ));
        }
    }
    for size in [host::pitfalls::Size::Quick, host::pitfalls::Size::Full] {
        cases.push((
            format!("pitfall_fixes_hold_and_every_version_runs/{size:?}"),
            Box::new(move |gpu| pitfalls::pitfall_fixes_hold(gpu, size)),
        ));
    }
    cases
}
