use layout::exact::{self, Filter, LIMBS, Limbs, Split, Superaccumulator};

use crate::order::{AcqRel, AtomicRef, Device, Global, Relaxed, fence};
use crate::{global, shared, thread, warp};

#[cfg(feature = "hopper")]
mod cluster;
#[cfg(not(feature = "hopper"))]
mod one_block;
mod straight;

#[cfg(feature = "hopper")]
pub use cluster::sum_correctly_rounded_cluster;
#[cfg(not(feature = "hopper"))]
pub use one_block::sum_correctly_rounded_small;

/// Float4 loads each thread keeps in flight ahead of the quads it is adding:
/// the next trip's loads are issued before this trip's additions, so the
/// memory latency overlaps the arithmetic. The window lives in registers.
const AHEAD: usize = 2;

/// Quads added per trip of the loop, taken from the front of the window.
///
/// With `STEP == AHEAD` the window is double-buffered: a trip takes the whole
/// window and loads the next one, so no register moves shift it. The
/// optimisation history (`book/src/appendix/optimisation-history.md`) lists
/// the shapes tried; this one, at 64 registers a thread (the most a
/// 1024-thread block has room for, which `tests/ptx.rs` holds every sum kernel
/// to), was the fastest that fits.
const STEP: usize = 2;

const _: () = assert!(AHEAD.is_multiple_of(STEP) && (STEP == 1 || STEP == 2 || STEP == 4));

/// Sums `input[0..n]` into `*total` exactly, then rounds once: the result is
/// the `f32` nearest the true sum (ties to even), and so the same bits on every
/// run, for every block size and grid, on every GPU.
///
/// The method is `layout::exact`'s superaccumulator, the same limbs and the
/// same rounding as the CPU reference (`host::exact`), with an `f64` filter
/// in front of it ([`Filter`]). Every finite float is an integer number of
/// 2^-149 units, and so is every exact sum of them; no step below rounds:
///
/// 1. **Per thread, in an `f64` register.** Each thread reads its floats on a
///    grid-stride loop of 128-bit loads, two quads a trip, the next trip's
///    two loaded while it adds the current two, and adds each float to a
///    running `f64` sum. Each
///    addition is proved exact as it happens by [`exact::is_exact_sum`]
///    (`fl(s − a) == b` and `fl(s − b) == a`, the Fast2Sum lemma; the proof
///    is in `layout::exact::filter`): the fast path is one conversion, one
///    `DADD` and a two-`DADD`, two-`DSETP` check per float. When a warp's
///    vote finds an inexact addition, an infinity or a NaN on any lane, the
///    warp redoes that quad one float at a time: a running sum that cannot
///    take the next float exactly goes, still exact, into the thread's ten
///    64-bit integer limbs as three 32-bit-aligned pieces ([`exact::split_f64`]),
///    and the float starts the next running sum. Arrays of one distribution
///    rarely take that path; an array of random bit patterns takes it on
///    almost every float.
/// 2. **Per thread, in shared memory.** The limbs live in the block's dynamic
///    shared memory, limb-major (`limb * block + thread`), so a warp touching
///    one limb touches 32 consecutive words; no other thread touches them
///    while it adds, so no atomic and no barrier. Every [`exact::ADDS_BETWEEN_NORMALIZATIONS`]
///    limb additions the thread [`normalize`](exact::normalize)s them, moving
///    each limb's bits above 32 into the next, so no limb can overflow. At the
///    end the running sum joins the limbs and they are normalized once more.
/// 3. **Per warp, then per block, in `f64`.** If no lane of a warp flushed,
///    the running sums alone are the sum: the warp adds them in a butterfly
///    of shuffles ([`warp::sum_f64_checked`]), each addition checked the
///    same way, and lane 0 leaves the warp's sum in a shared slot. After the
///    block's one barrier, warp 0 adds the slots the same way, and thread 0
///    adds the block's sum to the global accumulator as three 32-bit-aligned
///    pieces ([`exact::split_f64`]) with `red.global.add.u64`: three integer
///    atomics per block, not ten per warp. Where a check fails, the same
///    values take the limbs' path instead: a warp that flushed, or whose
///    butterfly was not exact, normalizes its lanes' limbs, sums each across
///    the warp with integer shuffles ([`warp::sum_i64`]), and lane 0 adds
///    each non-zero one; a block whose butterfly was not exact adds each warp
///    sum on its own. Infinities and NaNs are OR-ed into the `specials`
///    word. Integer atomics commute: the global limbs hold the same value
///    whatever order the blocks arrive in.
/// 4. **One block alone.** In a grid of one block, if no thread added to the
///    global limbs or saw an infinity or NaN (the block's barrier ORs that,
///    `bar.red.or`) and warp 0's butterfly was exact, `block_sum` is the
///    exact sum: thread 0 rounds it once (`cvt.rn.f32.f64`, the rounding
///    [`exact::round`] does) and stores it. No atomic, no fence, no ticket,
///    no trip through L2 after the loads. Otherwise step 5.
/// 5. **Once, in the last block.** Each lane that added fences
///    (`fence.acq_rel.gpu`) before the block's barrier (or, in warp 0, before
///    a `bar.warp.sync`), and thread 0 takes a ticket, as in
///    [`sum_deterministic`](super::sum_deterministic). The thread that draws
///    the last ticket fences again, reads and clears every limb and the
///    specials with `atom.global.exch.b64`/`.b32` (at the point of
///    coherence, so no stale L1 copy), rounds them with [`exact::round`]
///    (carry into one integer, take the magnitude, keep 24 bits, round on the
///    guard and sticky bits, ties to even), stores the result, and resets the
///    ticket.
///
/// # Launch
///
/// Any grid (the host uses as many blocks as fit on the device at once, and no
/// more than 8 floats per thread need) of `block` threads, a multiple of 32,
/// with **`block * 80` bytes** of dynamic shared memory: ten `i64` limbs per
/// thread (more than 48 KiB at block 1024, which the host allows on the
/// function). `acc` points to one [`Superaccumulator`], zero before the first
/// launch; each launch leaves it zero.
///
/// # Thread mapping
///
/// With `T` threads in the grid and the input 16-byte aligned, thread `g`
/// reads float4s `g, g + T, g + 2T, ...`, two per trip, loading the next
/// trip's while it adds this one's (loads past the end are predicated off); the `n % 4` trailing floats
/// go to threads `0..n % 4`. An unaligned input is read one float at a
/// time with the same stride.
///
/// # Safety
///
/// `input` must point to `n` readable `f32` in global memory that nothing
/// writes during the launch, `total` to one writable `f32` and `acc` to one
/// [`Superaccumulator`] as above, both in global memory; the launch must
/// provide the shared bytes above. `n` at most 2^33 (the registry's `max_n`)
/// and a grid of fewer than 2^26 warps keep the quad indices, `n / 4 + 3T`,
/// inside 32 bits and every partial sum below 2^162, and keep the global
/// limbs inside 64 bits: every thread normalizes its own limbs, so a warp's
/// sum of them is below 32 · 2^32 = 2^37, each piece of a block's or warp's
/// `f64` sum is below 2^33, and each limb takes at most one of these per warp.
#[cfg(not(feature = "hopper"))]
#[kernel(layout::sum::SUPERACCUMULATOR_PARAMS)]
pub unsafe fn sum_correctly_rounded(input: *const f32, total: *mut f32, n: usize, acc: *mut Superaccumulator) {
    // SAFETY: the kernel's contract is `sum`'s, over the whole grid.
    unsafe { sum(input, total, n, acc, Share::Grid) }
}

/// Which blocks run the general body together: they split the input and
/// meet at the ticket.
#[derive(Clone, Copy)]
enum Share {
    /// The whole grid, each block at its own index: the kernel's own launch.
    #[cfg(not(feature = "hopper"))]
    Grid,
    /// This block alone, as if it were a grid of one: how a cluster's rank 0
    /// sums the input again when the cluster's check fails.
    #[cfg(feature = "hopper")]
    Alone,
}

impl Share {
    /// How many blocks.
    #[inline(always)]
    fn blocks(self) -> u32 {
        match self {
            #[cfg(not(feature = "hopper"))]
            Share::Grid => thread::grid_dim_x(),
            #[cfg(feature = "hopper")]
            Share::Alone => 1,
        }
    }

    /// This block's index among them.
    #[inline(always)]
    fn index(self) -> u32 {
        match self {
            #[cfg(not(feature = "hopper"))]
            Share::Grid => thread::block_idx_x(),
            #[cfg(feature = "hopper")]
            Share::Alone => 0,
        }
    }
}

/// The body of [`sum_correctly_rounded`], for any launch its contract
/// allows: its small entries run it too, for the launches their own paths do
/// not finish.
///
/// # Safety
///
/// Every thread of the `share.blocks` blocks calls it, with
/// [`sum_correctly_rounded`]'s contract for a grid of those blocks, and no
/// other block of the launch touches `acc` or `total`.
#[inline(always)]
unsafe fn sum(input: *const f32, total: *mut f32, n: usize, acc: *mut Superaccumulator, share: Share) {
    let tid = thread::thread_idx_x();
    let threads = share.blocks() as usize * thread::block_dim_x() as usize;
    let g = share.index() as usize * thread::block_dim_x() as usize + tid as usize;
    let limbs = ThreadLimbs {
        base: shared::dynamic_shared::<i64>(),
        thread: tid as usize,
        stride: thread::block_dim_x() as usize,
    };
    limbs.clear();
    let mut filter = Filter::new(limbs);

    if (input as usize).is_multiple_of(16) {
        // 32-bit indices: `n` is below 2^34 by the contract, and 64-bit
        // index arithmetic would cost two instructions for each one here.
        let (quads, stride) = ((n / 4) as u32, threads as u32);
        let load = |quad: u32| {
            // SAFETY: `quad < quads`: floats `4 * quad..4 * quad + 4` are
            // inside the input, and 16-byte aligned.
            if quad < quads { unsafe { global::load_f32x4(input.add(4 * quad as usize)) } } else { [0.0; 4] }
        };
        // The quads this thread adds next, `ahead[0]` first: loaded a trip or
        // more before they are added.
        let mut ahead: [[f32; 4]; AHEAD] = core::array::from_fn(|a| load(g as u32 + a as u32 * stride));
        let mut q = g as u32;
        while q < quads {
            // The quads of this trip leave the front of the window, and as
            // many loads are issued at its back; constant indices keep the
            // window in registers. Quads past the end load as zeros, and
            // adding zero is exact.
            let trip: [[f32; 4]; STEP] = core::array::from_fn(|i| ahead[i]);
            // Empty when `STEP == AHEAD`: the whole window leaves each trip.
            #[allow(clippy::reversed_empty_ranges)]
            for a in STEP..AHEAD {
                ahead[a - STEP] = ahead[a];
            }
            for i in 0..STEP {
                ahead[AHEAD - STEP + i] = load(q + (AHEAD + i) as u32 * stride);
            }
            // Written out: LLVM keeps a loop over the quads rolled, and a
            // rolled loop would index the trip's array in local memory.
            filter.add_quad(trip[0], warp::any);
            if STEP > 1 {
                filter.add_quad(trip[1 % STEP], warp::any);
            }
            if STEP > 2 {
                filter.add_quad(trip[2 % STEP], warp::any);
                filter.add_quad(trip[3 % STEP], warp::any);
            }
            q += STEP as u32 * stride;
        }
        let quads = quads as usize;
        let tail = 4 * quads + g;
        if tail < n {
            // SAFETY: `tail < n`.
            filter.add(unsafe { *input.add(tail) });
        }
    } else {
        let mut i = g;
        while i < n {
            // SAFETY: `i < n`.
            filter.add(unsafe { *input.add(i) });
            i += threads;
        }
    }
    let specials = filter.specials;
    let lane = tid % warp::WARP_SIZE;
    let warp_index = tid / warp::WARP_SIZE;
    let slots = shared::dynamic_shared::<f64>();
    // Whether this thread's atomics must be ordered before the block's ticket.
    let mut added = false;

    // Per warp: if no lane flushed anything, the running sums alone are the
    // sum, and an exact butterfly of `f64` additions combines them. Otherwise,
    // or if an addition of the butterfly was not exact, the limbs: every
    // lane's limbs normalized, each summed across the warp with integer
    // shuffles, and lane 0 adds them to the global accumulator.
    let mut warp_sum = 0.0;
    // Full-mask votes: every lane of the warp is here (no thread has
    // returned), and the `.sync` with all 32 lanes makes them meet at each
    // vote, so every lane takes the same branch into the full-mask shuffles
    // below, however the compiler left the warp after the loop.
    // SAFETY: every lane of every warp is here.
    let mut exact = !unsafe { warp::any_sync(filter.flushed()) };
    if exact {
        // SAFETY: every lane of every warp is here, and `exact` is the same on
        // every lane (the full-mask vote above).
        let (sum, lane_exact) = unsafe { warp::sum_f64_checked(filter.acc) };
        // SAFETY: as above.
        exact = !unsafe { warp::any_sync(!lane_exact) };
        warp_sum = sum;
    }
    if !exact {
        let (limbs, _) = filter.finish();
        // SAFETY: the whole warp is here, and `exact` is the same on every
        // lane: each vote that set it was a full-mask `vote.sync`, which all
        // 32 lanes execute together and which returns one value to all.
        added |= unsafe { add_warp_limbs(&limbs, acc, lane) };
        warp_sum = 0.0;
    }
    if specials != 0 {
        // SAFETY: `acc` is a global `Superaccumulator` by the contract.
        let flags = unsafe { AtomicRef::<u32, Device>::from_global(&raw mut (*acc).specials.value) };
        flags.or(specials, Relaxed);
        added = true;
    }
    // Release side: this thread's atomics come before its block's ticket.
    if added {
        fence(AcqRel, Device);
    }
    // The warp's sum goes to a slot in shared memory: limb 0 of the warp's
    // lane 0, which its limb path no longer needs (the warp's limb sums are
    // in registers by now); warp 0 reads it after the barrier.
    if lane == 0 {
        // SAFETY: `slots[32 * w]` is limb 0 of thread `32 * w` of this block,
        // inside the shared bytes the launch provides; only its own thread
        // writes it, and warp 0 reads it only after the barrier.
        unsafe { slots.add(warp_index as usize * warp::WARP_SIZE as usize).write(warp_sum) };
    }
    // The barrier also tells the block whether any of its threads added to
    // the global accumulator: a grid of one block that added nothing may
    // round its own sum (below).
    // SAFETY: reached by every thread of the block.
    let block_added = unsafe { thread::sync_threads_or(added) };
    if warp_index != 0 {
        return;
    }

    // Warp 0: the block's warp sums, combined the same way; the block adds
    // its exact sum to the global limbs as three integer atomics. If that
    // butterfly was not exact, every warp sum goes on its own.
    let warps = thread::block_dim_x() / warp::WARP_SIZE;
    // SAFETY: lane `l < warps` reads the slot warp `l` wrote before the barrier.
    let slot = if lane < warps { unsafe { slots.add((lane * warp::WARP_SIZE) as usize).read() } } else { 0.0 };
    // SAFETY: the whole of warp 0 is here.
    let (block_sum, lane_exact) = unsafe { warp::sum_f64_checked(slot) };
    let mut added = false;
    // SAFETY: the whole of warp 0 is here; a full-mask vote, so every lane
    // takes the same branch.
    let block_exact = !unsafe { warp::any_sync(!lane_exact) };
    if block_exact && !block_added && share.blocks() == 1 {
        // The one-block route: no thread touched the global accumulator, no
        // special was seen, and every addition from the floats to
        // `block_sum` was proved exact, so `block_sum` is the exact sum, and
        // `cvt.rn.f32.f64` rounds it once, ties to even, as `exact::round`
        // does (to an infinity past the largest float, to `+0.0` for a zero
        // sum: the running sums start at `+0.0`). No fence, no atomic, no
        // ticket; the accumulator stays zero.
        if lane == 0 {
            // SAFETY: `total` is one writable global `f32` by the contract;
            // this thread is its one writer.
            unsafe { total.write(block_sum as f32) };
        }
        return;
    }
    if block_exact {
        if lane == 0 {
            // SAFETY: forwarded from the contract.
            added = unsafe { add_f64(acc, block_sum) };
        }
    } else {
        // SAFETY: forwarded from the contract.
        added = unsafe { add_f64(acc, slot) };
    }
    if added {
        fence(AcqRel, Device);
    }
    // Every lane's fence comes before lane 0's ticket (`bar.warp.sync`
    // orders memory among the lanes it synchronizes).
    // SAFETY: the whole of warp 0 is here.
    unsafe { warp::sync() };
    if tid != 0 {
        return;
    }
    // SAFETY: `acc` is global by the contract.
    let ticket = unsafe { AtomicRef::<u32, Device>::from_global(&raw mut (*acc).ticket.value) };
    let ticket = ticket.fetch_add(1, Relaxed);
    if ticket != share.blocks() - 1 {
        return;
    }
    // SAFETY: this thread drew the last ticket; forwarded from the contract.
    unsafe { finish(total, acc) };
}

/// The warp's limbs, each summed across the lanes, added to the global
/// accumulator by lane 0 with one integer atomic per non-zero limb; returns
/// whether this lane added any. Normalized limbs are below 2^32 (the last one
/// excepted, which only carries reach), so no warp sum nears 2^63.
///
/// # Safety
///
/// All 32 lanes of the warp must call it together; `acc` as in
/// [`sum_correctly_rounded`].
#[inline(always)]
unsafe fn add_warp_limbs(limbs: &ThreadLimbs, acc: *mut Superaccumulator, lane: u32) -> bool {
    let mut added = false;
    let mut k = 0;
    while k < LIMBS {
        // SAFETY: forwarded from the caller: the whole warp is here.
        let warp_limb = unsafe { warp::sum_i64(limbs.get(k)) };
        if lane == 0 && warp_limb != 0 {
            // SAFETY: `acc` is a global `Superaccumulator` by the contract and
            // `k < LIMBS`.
            unsafe { limb(acc, k) }.add(warp_limb, Relaxed);
            added = true;
        }
        k += 1;
    }
    added
}

/// Adds `v`, an exact sum of floats, to the global limbs: its three pieces
/// ([`exact::split_f64`]), each below 2^33, one integer atomic for each that
/// is not zero. Returns whether it added any.
///
/// # Safety
///
/// `acc` as in [`sum_correctly_rounded`].
#[inline(always)]
unsafe fn add_f64(acc: *mut Superaccumulator, v: f64) -> bool {
    let mut added = false;
    let splits = exact::split_f64(v);
    // Index loop: the array's by-value iterator would live in local memory.
    #[allow(clippy::needless_range_loop)]
    for k in 0..splits.len() {
        let split = splits[k];
        if split.addend != 0 {
            // SAFETY: `acc` is global by the contract; `split.limb < LIMBS`.
            unsafe { limb(acc, split.limb) }.add(split.addend, Relaxed);
            added = true;
        }
    }
    added
}

/// The last block's thread 0: gathers the accumulator, rounds, resets.
///
/// Out of line so that its registers (the rounding's twelve words) do not
/// count against the accumulation loop's, which every thread runs.
///
/// # Safety
///
/// Only the thread that drew the last ticket calls it; `total` and `acc` as
/// in [`sum_correctly_rounded`].
#[inline(never)]
unsafe fn finish(total: *mut f32, acc: *mut Superaccumulator) {
    // Acquire side: every other block fenced its atomics before its ticket.
    fence(AcqRel, Device);
    let mut sum = [0i64; LIMBS];
    let mut k = 0;
    while k < LIMBS {
        // SAFETY: `acc` is global by the contract; `k < LIMBS`. Reading and
        // clearing in one atomic leaves the accumulator zero for the next
        // launch.
        sum[k] = unsafe { limb(acc, k) }.exchange(0, Relaxed);
        k += 1;
    }
    // SAFETY: as above.
    let specials = unsafe { AtomicRef::<u32, Device>::from_global(&raw mut (*acc).specials.value) };
    let specials = specials.exchange(0, Relaxed);
    // SAFETY: `total` and `acc` are global by the contract. Only this thread
    // writes them, and the next launch starts after this one ends.
    unsafe {
        total.write(exact::round(&sum, specials));
        (*acc).ticket.value = 0;
    }
}

/// Global limb `k`, as a device-scope atomic: the `value` of
/// `acc.limbs[k]`, which leads its [`exact::SpacedLimb`], its address
/// computed without an index check (a check would put a panic branch into
/// every block's end).
///
/// # Safety
///
/// `acc` points to a [`Superaccumulator`] in global memory; `k < LIMBS`.
#[inline(always)]
unsafe fn limb(acc: *mut Superaccumulator, k: usize) -> AtomicRef<i64, Device, Global> {
    // SAFETY: `limbs` is an array of `LIMBS` `#[repr(C)]` structs whose
    // first field is the `i64`, and `k < LIMBS` by the contract; it is in
    // global memory because `acc` is.
    unsafe { AtomicRef::from_global((&raw mut (*acc).limbs).cast::<exact::SpacedLimb>().add(k).cast::<i64>()) }
}

/// One thread's ten limbs in the block's dynamic shared memory, limb-major.
struct ThreadLimbs {
    base: *mut i64,
    thread: usize,
    stride: usize,
}

impl ThreadLimbs {
    /// The address of limb `k` of this thread.
    #[inline(always)]
    fn at(&self, k: usize) -> *mut i64 {
        // The kernel's contract provides `LIMBS * stride` words, and every
        // caller passes `k < LIMBS`; `wrapping_add` keeps this function safe.
        self.base.wrapping_add(k * self.stride + self.thread)
    }

    #[inline(always)]
    fn get(&self, k: usize) -> i64 {
        // SAFETY: `at(k)` is this thread's own limb, inside the shared bytes
        // the launch provides; no other thread touches it.
        unsafe { self.at(k).read() }
    }

    #[inline(always)]
    fn set(&self, k: usize, value: i64) {
        // SAFETY: as in `get`.
        unsafe { self.at(k).write(value) }
    }

    fn clear(&self) {
        for k in 0..LIMBS {
            self.set(k, 0);
        }
    }
}

impl Limbs for ThreadLimbs {
    #[inline(always)]
    fn add(&mut self, split: Split) {
        self.set(split.limb, self.get(split.limb) + split.addend);
    }

    /// [`exact::normalize`] on this thread's limbs in shared memory: every
    /// index is a constant once the loop unrolls.
    fn normalize(&mut self) {
        let mut k = 0;
        while k + 1 < LIMBS {
            let limb = self.get(k);
            let carry = limb >> exact::LIMB_BITS;
            self.set(k, limb - (carry << exact::LIMB_BITS));
            self.set(k + 1, self.get(k + 1) + carry);
            k += 1;
        }
    }
}
