//! The straight path of the correctly rounded sum's small entries: every
//! float added in `f64`, every addition checked exact, no limb, no atomic,
//! no ticket. The one-block entry and the cluster entry run it; where a
//! check fails, each turns to the kernel's general body.

use layout::exact::is_exact_sum;

use crate::{global, shared, thread, warp};

/// Quads a thread loads, all before it adds any: the small route's block
/// gives each thread at most 16 floats
/// ([`layout::sum::CORRECTLY_ROUNDED`]'s `small_per_thread`), and so does the
/// cluster route ([`layout::sum::correctly_rounded::CLUSTER_PER_THREAD`]).
pub(super) const QUADS: usize = layout::sum::CORRECTLY_ROUNDED.grid.small_per_thread as usize / 4;

// `thread_sum` adds its four quads in a chain written out by hand: a route of
// more floats a thread would load quads it never adds.
const _: () = assert!(QUADS == 4, "thread_sum's chain adds four quads a thread");
#[cfg(feature = "hopper")]
const _: () = assert!(layout::sum::correctly_rounded::CLUSTER_PER_THREAD as usize == 4 * QUADS);

/// One thread's floats added in `f64`: quads `first`, `first + stride`,
/// `first + 2 * stride` and `first + 3 * stride` (loads past the end are
/// predicated off and read as zeros) in four 128-bit loads issued together,
/// then the trailing float `4 * (n / 4) + first` if it is below `n`. Each
/// quad is added as `(x + y) + (z + w)`, the four quad sums in load order,
/// then the trailing float, each addition checked by [`is_exact_sum`].
/// Returns the sum and whether every addition was exact. (A tree over the
/// four quad sums is shorter, but its live values took the one-block entry
/// to 70 registers, past the 64 a block of 1,024 threads has room for.)
///
/// # Safety
///
/// `input` points to `n` readable `f32` in global memory that nothing writes
/// during the launch, 16-byte aligned, and `n / 4` is at most
/// `first + 4 * stride` for the thread that covers the last quad: the
/// caller's threads, `first` from 0 to `stride − 1`, cover every quad, and
/// `n / 4 + 3 * stride` fits in 32 bits.
#[inline(always)]
pub(super) unsafe fn thread_sum(input: *const f32, n: usize, first: u32, stride: u32) -> (f64, bool) {
    let quads = (n / 4) as u32;
    let load = |k: u32| {
        let quad = first + k * stride;
        // SAFETY: `quad < quads`: floats `4 * quad..4 * quad + 4` are inside
        // the input, which the caller guarantees 16-byte aligned.
        if quad < quads { unsafe { global::load_f32x4(input.add(4 * quad as usize)) } } else { [0.0; 4] }
    };
    let loaded: [[f32; 4]; QUADS] = core::array::from_fn(|k| load(k as u32));
    let trailing = 4 * quads as usize + first as usize;
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
    (sum, exact)
}

/// The block's threads' sums added in `f64`, every addition checked: the
/// block's exact sum in every thread, or `None` in every thread if any
/// addition, the threads' own (`exact` false in some thread) included, was
/// not exact.
///
/// 1. **Per warp.** The checked butterfly ([`warp::sum_f64_checked`]); lane
///    0 stores the warp's sum in a shared slot.
/// 2. **The block's one barrier** (`bar.red.or`) publishes the slots and ORs
///    every thread's "some addition of mine was not exact". An infinity or a
///    NaN among the floats makes its check fail, so the general path, which
///    knows what to do with them, gets them.
/// 3. **Every warp** adds the slots in the same checked butterfly: the same
///    values in the same lanes, so every warp reaches the same sum and the
///    same verdict, and the block leaves together without a second barrier.
///
/// Exact additions are exact in any order, so the butterflies and the
/// block's shape never reach the result.
///
/// # Safety
///
/// The whole block calls it once; its dynamic shared memory holds at least
/// one `f64` per warp, at its start. A caller that goes on to use that
/// memory after `None` must pass a barrier first: other warps may still be
/// reading the slots.
#[inline(always)]
pub(super) unsafe fn block_sum(place: Place, sum: f64, exact: bool) -> Option<f64> {
    let Place { lane, warp: warp_index, warps } = place;

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
        return None;
    }
    // SAFETY: lane `l < warps` reads the slot warp `l` wrote before the barrier.
    let slot = if lane < warps { unsafe { slots.add(lane as usize).read() } } else { 0.0 };
    // SAFETY: the whole warp is here (every warp runs this).
    let (block_sum, lane_exact) = unsafe { warp::sum_f64_checked(slot) };
    // SAFETY: the whole warp is here; a full-mask vote, the same in every warp.
    if unsafe { warp::any_sync(!lane_exact) } {
        return None;
    }
    Some(block_sum)
}

/// This thread's place in its block, for [`block_sum`].
///
/// A value of its own, read before the loads: where the kernel reads it
/// decides `ptxas`'s register choices, and the one-block entry's are at the
/// 64 a block of 1,024 threads has room for.
#[derive(Clone, Copy)]
pub(super) struct Place {
    /// The thread's lane in its warp.
    lane: u32,
    /// The warp's index in the block.
    warp: u32,
    /// The block's warps.
    warps: u32,
}

impl Place {
    /// The calling thread's.
    #[inline(always)]
    pub(super) fn of_thread() -> Place {
        let tid = thread::thread_idx_x();
        Place {
            lane: tid % warp::WARP_SIZE,
            warp: tid / warp::WARP_SIZE,
            warps: thread::block_dim_x() / warp::WARP_SIZE,
        }
    }
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
