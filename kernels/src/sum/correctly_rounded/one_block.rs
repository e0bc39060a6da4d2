//! The correctly rounded sum's entry for one block of few floats: a straight
//! path from the entry to the store, tested first, with the general kernel's
//! body behind it for any launch the path does not finish.

use layout::exact::{Superaccumulator, is_exact_sum};

#[cfg(doc)]
use super::sum_correctly_rounded;
use crate::{global, shared, thread, warp};

/// The correctly rounded sum of a small input on one block: the same result
/// as [`sum_correctly_rounded`], the `f32` nearest the true sum, by a
/// straight path when every `f64` addition of the block is exact, and by
/// [`sum_correctly_rounded`]'s own body when one is not.
///
/// A launch this small is short enough that its time is the chain after the
/// loads, and the chain starts with no instruction cached: every jump over
/// the general body's limb code is another fetch before the store. The path
/// touches no limb, takes no ticket and sends no atomic. It is an entry of
/// its own, not a test at the top of [`sum_correctly_rounded`], because that
/// test changed `ptxas`'s register choices in the general body, which every
/// larger launch runs (`results/explore/cr-one-block`).
///
/// # Launch
///
/// [`sum_correctly_rounded`]'s: the same parameters, shared memory and
/// superaccumulator, under the same contract. The path is taken when the
/// grid is one block, `input` is 16-byte aligned and `n` is at most
/// [`QUADS`] quads a thread ([`takes`]); any other launch runs the general
/// body. The host launches this entry for every launch of the correctly
/// rounded sum that is one block ([`layout::sum::CORRECTLY_ROUNDED_SMALL`]):
/// its small route, of at most 16 floats a thread, and any other the path's
/// test may turn back (a misaligned input, or a grid the device caps at one
/// block).
///
/// # Thread mapping
///
/// On the path, thread `t` of the block's `T` loads quads `t`, `t + T`,
/// `t + 2T` and `t + 3T`, and [`try_sum`] adds them, then the warp's, then
/// the block's, in `f64`, every addition checked exact. Off it, as
/// [`sum_correctly_rounded`].
///
/// # Safety
///
/// [`sum_correctly_rounded`]'s.
#[kernel]
pub unsafe fn sum_correctly_rounded_small(input: *const f32, total: *mut f32, n: usize, acc: *mut Superaccumulator) {
    if takes(input, n) {
        // SAFETY: the whole block is here, `takes` holds, and the contract
        // gives the shared memory and `total`.
        if unsafe { try_sum(input, n, total) } {
            return;
        }
        // SAFETY: every thread of the block left the path together (the
        // verdict is the block's), so all of them reach this barrier; the
        // general body may reuse the shared slots only after it.
        unsafe { thread::sync_threads() };
    }
    // SAFETY: the kernel's contract is the general body's.
    unsafe { super::sum(input, total, n, acc) }
}

/// Quads a thread of the route loads, all before it adds any: the small
/// route's block gives each thread at most 16 floats
/// ([`layout::sum::CORRECTLY_ROUNDED`]'s `small_per_thread`).
const QUADS: usize = layout::sum::CORRECTLY_ROUNDED.grid.small_per_thread as usize / 4;

// `try_sum` adds its four quads in a chain written out by hand: a small
// route of more floats a thread would load quads it never adds.
const _: () = assert!(QUADS == 4, "try_sum's chain adds four quads a thread");

/// Whether a launch takes the route: one block, a 16-byte aligned input, and
/// no more than [`QUADS`] quads for each thread.
#[inline(always)]
fn takes(input: *const f32, n: usize) -> bool {
    thread::grid_dim_x() == 1 && (input as usize).is_multiple_of(16) && n / 4 <= QUADS * thread::block_dim_x() as usize
}

/// Sums the block's input in `f64` and, if every addition was exact, stores
/// the sum rounded once (`cvt.rn.f32.f64`, the rounding `exact::round` does)
/// in `total` and returns `true`. Otherwise it returns `false` in every
/// thread, having written only shared memory, and the kernel's general path
/// sums the input again from the start.
///
/// 1. **Per thread.** Thread `t` loads quads `t, t + T, t + 2T, t + 3T` (the
///    block has `T` threads; loads past the end are predicated off and read
///    as zeros) in four 128-bit loads issued together, and thread `f < n % 4`
///    the trailing float `4 * (n / 4) + f`. It adds them in `f64`: each quad
///    as `(x + y) + (z + w)`, the four quad sums in load order, then the
///    trailing float, each addition checked by [`is_exact_sum`]. (A tree over
///    the four quad sums is shorter, but its live values took the kernel to
///    70 registers, past the 64 a block of 1,024 threads has room for.)
/// 2. **Per warp.** The checked butterfly ([`warp::sum_f64_checked`]); lane
///    0 stores the warp's sum in a shared slot.
/// 3. **The block's one barrier** (`bar.red.or`) publishes the slots and ORs
///    every thread's "some addition of mine was not exact". An infinity or a
///    NaN among the floats makes its check fail, so the general path, which
///    knows what to do with them, gets them.
/// 4. **Every warp** adds the slots in the same checked butterfly: the same
///    values in the same lanes, so every warp reaches the same sum and the
///    same verdict, and the block leaves the route together without a second
///    barrier. Warp 0's lane 0 stores `fl32(sum + 0.0)`: the additions were
///    exact, so `sum` is the true sum, and `+ 0.0` turns a sum of negative
///    zeros into `+0.0`, as the general path and the CPU reference give.
///
/// Exact additions are exact in any order, so the tree, the butterflies and
/// the block's shape never reach the result: it is the correctly rounded sum
/// whenever the route returns `true`.
///
/// # Safety
///
/// The whole block calls it once, with [`takes`] true; `input` and `total`
/// as in [`sum_correctly_rounded`](super::sum_correctly_rounded)'s contract;
/// the block's dynamic shared memory holds at least one `f64` per warp. A
/// caller that goes on to use the shared memory after `false` must pass a
/// barrier first: other warps may still be reading the slots.
#[inline(always)]
unsafe fn try_sum(input: *const f32, n: usize, total: *mut f32) -> bool {
    let tid = thread::thread_idx_x();
    let threads = thread::block_dim_x();
    let lane = tid % warp::WARP_SIZE;
    let warp_index = tid / warp::WARP_SIZE;
    let warps = threads / warp::WARP_SIZE;

    // The quad indices fit in 32 bits: `takes` bounds them by `QUADS * 1024`.
    let quads = (n / 4) as u32;
    let load = |k: u32| {
        let quad = tid + k * threads;
        // SAFETY: `quad < quads`: floats `4 * quad..4 * quad + 4` are inside
        // the input, which `takes` found 16-byte aligned.
        if quad < quads { unsafe { global::load_f32x4(input.add(4 * quad as usize)) } } else { [0.0; 4] }
    };
    let loaded: [[f32; 4]; QUADS] = core::array::from_fn(|k| load(k as u32));
    let trailing = 4 * quads as usize + tid as usize;
    // SAFETY: `trailing < n`.
    let last = if trailing < n { f64::from(unsafe { *input.add(trailing) }) } else { 0.0 };

    let mut exact = true;
    // A chain over the quads in load order: each quad's tree joins the
    // running sum as its loads arrive.
    let mut sum = quad_sum(loaded[0], &mut exact);
    sum = add(sum, quad_sum(loaded[1], &mut exact), &mut exact);
    sum = add(sum, quad_sum(loaded[2], &mut exact), &mut exact);
    sum = add(sum, quad_sum(loaded[3], &mut exact), &mut exact);
    sum = add(sum, last, &mut exact);

    // SAFETY: every lane of every warp is here.
    let (warp_sum, butterfly_exact) = unsafe { warp::sum_f64_checked(sum) };
    let slots = shared::dynamic_shared::<f64>();
    if lane == 0 {
        // SAFETY: `warp_index` is below the block's warps, and the shared
        // memory holds one `f64` per warp by the contract.
        unsafe { slots.add(warp_index as usize).write(warp_sum) };
    }
    // SAFETY: reached by every thread of the block.
    if unsafe { thread::sync_threads_or(!(exact & butterfly_exact)) } {
        return false;
    }
    // SAFETY: lane `l < warps` reads the slot warp `l` wrote before the barrier.
    let slot = if lane < warps { unsafe { slots.add(lane as usize).read() } } else { 0.0 };
    // SAFETY: the whole warp is here (every warp runs this).
    let (block_sum, lane_exact) = unsafe { warp::sum_f64_checked(slot) };
    // SAFETY: the whole warp is here; a full-mask vote, the same in every warp.
    if unsafe { warp::any_sync(!lane_exact) } {
        return false;
    }
    if tid == 0 {
        // SAFETY: `total` is one writable global `f32` by the contract, and
        // thread 0 is its one writer.
        unsafe { total.write((block_sum + 0.0) as f32) };
    }
    true
}

/// `a + b` in `f64`, and `exact` cleared if it rounded ([`is_exact_sum`]).
#[inline(always)]
fn add(a: f64, b: f64, exact: &mut bool) -> f64 {
    let s = a + b;
    *exact &= is_exact_sum(a, b, s);
    s
}

/// A quad's floats added as `(x + y) + (z + w)` in `f64`, each addition
/// checked.
#[inline(always)]
fn quad_sum([x, y, z, w]: [f32; 4], exact: &mut bool) -> f64 {
    let (x, y, z, w) = (f64::from(x), f64::from(y), f64::from(z), f64::from(w));
    let (a, b) = (add(x, y, exact), add(z, w, exact));
    add(a, b, exact)
}
