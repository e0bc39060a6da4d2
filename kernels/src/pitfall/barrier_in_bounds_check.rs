use super::block_sum;
use crate::{shared, thread};

/// Sums each block's values of `input[0..n]` into `out[block]`, with the
/// block barrier inside the bounds check: **broken**.
///
/// The mistake, as CUDA C++ often writes it:
///
/// ```text
/// if (i >= n) return;            // threads with no input leave
/// tile[t] = input[i];
/// __syncthreads();               // ... so this barrier waits without them
/// for (s = blockDim.x / 2; s > 0; s /= 2) { ... tile[t + s] ... }
/// ```
///
/// The PTX ISA makes this undefined (`bar.sync` is `barrier.sync.aligned`,
/// and an aligned barrier in code whose condition differs between threads is
/// undefined), but says what releases it: exiting threads that hold up a
/// barrier release it, so the kernel does not hang. But they also never
/// wrote their slots, and the tree reads those slots anyway: the last block's
/// sum adds whatever its shared memory held before. The page's rule is that
/// "threads that have no valid input still participate in the barrier when
/// later phases require the complete block"; [`super::pitfall_barrier_every_thread`]
/// is the fix.
///
/// # Launch
///
/// Grid `ceil(n / block)` blocks of a power-of-two `block`, with `block * 4`
/// bytes of dynamic shared memory. `out` holds one word per block.
///
/// # Thread mapping
///
/// Thread `i` stores `input[i]` in slot `t` of its block's tile, or returns
/// if `i >= n`; then the tree sum; thread 0 writes the block's sum.
///
/// # Safety
///
/// `input` must hold `n` values and `out` one word per block; the launch
/// must provide `block * 4` bytes of shared memory. The kernel reads shared
/// words it never wrote, by design: their values are arbitrary bits, never
/// undefined behaviour of the Rust code, because the tile is raw memory
/// behind a pointer. Its barrier placement is undefined in the PTX ISA's
/// terms (above); it is run only to show what it does.
#[kernel(layout::pitfall::SUM_PARAMS)]
pub unsafe fn pitfall_barrier_in_bounds_check(input: *const u32, n: usize, out: *mut u32) {
    let local = shared::dynamic_shared::<u32>();
    let i = thread::index_1d();
    if i >= n {
        // The mistake: these threads leave before the barrier below, and
        // their slots of the tile stay unwritten.
        return;
    }
    let tid = thread::thread_idx_x();
    // SAFETY: `i < n`; `tid < block` is inside the tile.
    unsafe { local.add(tid as usize).write(*input.add(i)) };
    // SAFETY: not every thread reaches these barriers, which is the mistake
    // this kernel shows, and the PTX ISA leaves an aligned barrier (`bar.sync`)
    // in non-uniform control flow undefined. What keeps it from hanging is the
    // ISA's rule for `exit`: exiting threads that hold up a barrier release
    // it, and the threads that skip these barriers have all exited.
    unsafe { thread::sync_threads() };
    // SAFETY: as above; the tile holds `block` words.
    let sum = unsafe { block_sum(local) };
    if tid == 0 {
        // SAFETY: `out` holds one word per block.
        unsafe { out.add(thread::block_idx_x() as usize).write(sum) };
    }
}
