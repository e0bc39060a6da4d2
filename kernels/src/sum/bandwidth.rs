use super::block;
use crate::order::{AtomicRef, Device, Relaxed};
use crate::{global, shared, thread};

/// 16-byte loads each thread issues before it adds any of them.
const UNROLL: usize = 8;

/// Sums `input[0..n]` into `*total` at memory speed: a grid-stride loop over
/// 128-bit loads, eight in flight per thread, then the hierarchical combine and
/// one global atomic per block.
///
/// Once the atomics are few, a sum is a read of `4n` bytes, and the limit is
/// how many bytes are in flight. This kernel keeps many: a grid sized to fill
/// the GPU (not to cover `n`), 16-byte loads, and eight independent loads per
/// loop trip.
///
/// # Launch
///
/// Any grid (the host uses as many blocks as fit on the device at once) of `block` threads
/// (a multiple of 32), with **`block / 32 * 4` bytes** of dynamic shared
/// memory. `*total` zeroed before the launch.
///
/// # Thread mapping
///
/// With `T` threads in the grid and the input 16-byte aligned, thread `g`
/// reads the float4s `g, g + T, g + 2T, ...` (consecutive threads, consecutive
/// 16 bytes: coalesced), eight per trip; the `n % 4` trailing floats go to
/// threads `0..n % 4`. An unaligned input is read one float at a time with the
/// same grid stride. Each block's threads then combine as in
/// [`sum_warp_shuffle`](super::sum_warp_shuffle).
///
/// # Safety
///
/// `input` must point to `n` readable `f32` in global memory that nothing
/// writes during the launch, `total` to one writable `f32` in global memory;
/// the launch must provide the shared bytes above.
#[kernel(layout::sum::PARAMS)]
pub unsafe fn sum_bandwidth(input: *const f32, total: *mut f32, n: usize) {
    let threads = thread::grid_dim_x() as usize * thread::block_dim_x() as usize;
    let g = thread::index_1d();
    let mut acc = 0.0f32;

    if (input as usize).is_multiple_of(16) {
        let quads = n / 4;
        let add = |q: usize| {
            // SAFETY: `q < quads`, so floats `4q..4q + 4` are inside the
            // input, and 16-byte alignment of the base makes them aligned.
            let [x, y, z, w] = unsafe { global::load_f32x4(input.add(4 * q)) };
            (x + y) + (z + w)
        };
        // Every trip issues UNROLL loads before it adds any, the last trip
        // included: its loads past the end are predicated off and count as
        // 0.0. A separate one-load-at-a-time remainder loop would leave each
        // thread's last loads waiting on each other, which at 2^24 floats
        // (about 15 quads per thread) is half the kernel.
        let mut q = g;
        while q < quads {
            let sums: [f32; UNROLL] = core::array::from_fn(|u| {
                let quad = q + u * threads;
                if quad < quads { add(quad) } else { 0.0 }
            });
            // Index loop: the array's by-value iterator would live in local
            // memory.
            #[allow(clippy::needless_range_loop)]
            for u in 0..UNROLL {
                acc += sums[u];
            }
            q += UNROLL * threads;
        }
        let tail = 4 * quads + g;
        if tail < n {
            // SAFETY: `tail < n`.
            acc += unsafe { *input.add(tail) };
        }
    } else {
        let mut i = g;
        while i < n {
            // SAFETY: `i < n`.
            acc += unsafe { *input.add(i) };
            i += threads;
        }
    }

    // SAFETY: every thread of the block calls it; the launch provides one
    // shared f32 per warp (the contract above), and nothing else uses it.
    let block_sum = unsafe { block::sum_f32(acc, shared::dynamic_shared::<f32>()) };
    if thread::thread_idx_x() == 0 {
        // SAFETY: `total` is one f32 in global memory by the contract.
        let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
        total.add(block_sum, Relaxed);
    }
}
