use layout::litmus::{BINS, Params, REGISTERS, final_outcome_bin};

use crate::order::{AtomicRef, Device, Relaxed};
use crate::{shared, thread};

/// Counts each instance's outcome into `histogram` and resets the instance
/// for the next launch: the second half of every litmus launch.
///
/// # Launch
///
/// Grid: any number of blocks; block: any number of threads. Shared memory:
/// [`BINS`] `u32`s, the block's private histogram.
///
/// # Thread mapping
///
/// Grid-stride over the instances: thread `g` classifies instances `g`,
/// `g + grid threads`, ... Each reads the instance's four registers and the
/// final values of its `x`, `y` and `z` (which only the tests about the order
/// of stores put in their outcome, `params.outcome_finals`; for every other
/// test the bin is the registers' alone), adds 1
/// to its bin with a shared-memory atomic, then zeroes the registers and the
/// instance's `x`, `y` and `z` (every test's, whether it uses them or not: the
/// words are the instance's alone). After a barrier, the block's first [`BINS`]
/// threads add its counts to `histogram` with one 64-bit global atomic per
/// non-empty bin, and thread 0 of block 0 zeroes the start counter.
///
/// # Safety
///
/// The arguments of the litmus launch it follows: `params` in global memory,
/// `locations` of `params.location_words()` words, `results` of four words per
/// instance, `control` one word, and `histogram` [`BINS`] `u64`s, all in global
/// memory; the launch must provide the shared bytes above.
#[kernel(layout::litmus::CLASSIFY_PARAMS)]
pub unsafe fn litmus_classify(
    params: *const Params,
    locations: *mut u32,
    results: *mut u32,
    control: *mut u32,
    histogram: *mut u64,
) {
    // SAFETY: the caller guarantees `params`.
    let params = unsafe { *params };
    let bins = shared::dynamic_shared::<u32>();
    let tid = thread::thread_idx_x();
    if (tid as usize) < BINS {
        // SAFETY: the launch provides `BINS` shared words.
        unsafe { bins.add(tid as usize).write(0) };
    }
    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads() };

    let stride = thread::block_dim_x() * thread::grid_dim_x();
    let mut i = thread::block_idx_x() * thread::block_dim_x() + tid;
    while i < params.instances() {
        let registers = i as usize * REGISTERS;
        // SAFETY: the results buffer holds `REGISTERS` words per instance and
        // the location buffer `x(i)`, `y(i)` and `z(i)`; the test launch before this
        // one has finished (same stream), so plain accesses suffice.
        unsafe {
            let r = results.add(registers);
            // The locations' final values: the test launch has ended, so each
            // holds the last store in its coherence order. They are read
            // before the zeroing below.
            let finals = [
                locations.add(params.x(i)).read(),
                locations.add(params.y(i)).read(),
                locations.add(params.z(i)).read(),
            ];
            let bin = final_outcome_bin(
                [r.read(), r.add(1).read(), r.add(2).read(), r.add(3).read()],
                params.outcome_registers,
                finals,
                params.outcome_finals,
            );
            AtomicRef::<u32, Device>::from_shared(bins.add(bin)).add(1, Relaxed);
            for k in 0..REGISTERS {
                r.add(k).write(0);
            }
            locations.add(params.x(i)).write(0);
            locations.add(params.y(i)).write(0);
            locations.add(params.z(i)).write(0);
        }
        i += stride;
    }

    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads() };
    if (tid as usize) < BINS {
        // SAFETY: `tid` is a bin of both histograms.
        unsafe {
            let count = bins.add(tid as usize).read();
            if count != 0 {
                AtomicRef::<i64, Device>::from_global(histogram.add(tid as usize).cast())
                    .add(i64::from(count), Relaxed);
            }
        }
    }
    if tid == 0 && thread::block_idx_x() == 0 {
        // SAFETY: `control` is one global word; no test thread runs now.
        unsafe { control.write(0) };
    }
}
