//! The kernels on a real GPU, checked bit for bit against the CPU reference.
//!
//! On a machine without a GPU this prints `skipped: no CUDA device` and the
//! reason, and passes: CI has no GPU. On a GPU machine every case runs. The
//! program is its own test harness (`harness = false`) so the skip line is
//! never hidden by libtest's output capture.

use std::process::ExitCode;

use host::error::LabError;
use host::gpu::launch::Block;
use host::gpu::sum::{SumKernel, SumKernels};
use host::gpu::{Gpu, PtxSource};
use host::{input, reference};

/// Sizes that are and are not multiples of every block: one element, less
/// than a warp, one past a power of two, a prime-ish million, the largest
/// size the exact-sum rule allows.
const SIZES: [usize; 7] = [1, 31, 32, 4097, 65_536, 1_000_003, reference::MAX_EXACT_N];
const BLOCKS: [u32; 4] = [32, 64, 256, 1024];

type Case = (String, Box<dyn Fn(&Gpu) -> Result<(), String>>);

fn main() -> ExitCode {
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
    println!("running GPU tests on {} (compute capability {:?})", gpu.info.name, gpu.info.compute_capability);

    let mut cases: Vec<Case> = Vec::new();
    for threads in BLOCKS {
        cases.push((format!("sums_are_bit_exact/block_{threads}"), Box::new(move |gpu| sums_are_bit_exact(gpu, threads))));
    }
    cases.push(("broken_ptx_names_the_file".to_owned(), Box::new(|_| broken_ptx_names_the_file())));

    let mut failed = 0;
    for (name, case) in &cases {
        match case(&gpu) {
            Ok(()) => println!("test {name} ... ok"),
            Err(why) => {
                failed += 1;
                println!("test {name} ... FAILED\n{why}");
            }
        }
    }
    println!("GPU tests: {} passed, {failed} failed", cases.len() - failed);
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
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
        for kernel in SumKernel::ALL {
            let m = kernels.measure(kernel, &device_input, block, 2, 0).map_err(|e| e.to_string())?;
            for found in m.sums {
                if !reference::bit_exact(found, expected) {
                    wrong.push(format!("  {} n = {n}: expected {expected}, found {found}", kernel.label()));
                }
            }
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// A PTX file the driver rejects gives an error that names the file and the
/// driver's reason.
fn broken_ptx_names_the_file() -> Result<(), String> {
    let path = std::env::temp_dir().join(format!("broken-{}.ptx", std::process::id()));
    std::fs::write(&path, ".version 7.0\n.target sm_70\n.address_size 64\nthis is not ptx\n").map_err(|e| e.to_string())?;
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
