use layout::exact::{self, Filter, LIMBS, Limbs, SLOT_EMPTY, SLOT_IN_LIMBS, Split, Superaccumulator};

use crate::{atomic, global, order, shared, thread, warp};

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
///    block's one barrier (`bar.red.or.pred`, which also tells every thread
///    whether any thread of the block added to the global accumulator), warp
///    0 adds the slots the same way. If that butterfly was exact and no
///    thread added anything, the block's whole sum is one exact `f64`, and
///    lane 0 stores it in the block's own slot of the global accumulator
///    ([`exact::slot_word`], one `st.relaxed.gpu.b64`): no atomic on the
///    limbs, and no fence. Where a check fails, the values take the limbs'
///    path instead: a warp that flushed, or whose butterfly was not exact,
///    normalizes its lanes' limbs, sums each across the warp with integer
///    shuffles ([`warp::sum_i64`]), and lane 0 adds each non-zero one; a
///    block that added (or whose own butterfly was not exact) adds its sum
///    as three 32-bit-aligned pieces ([`exact::split_f64`]) with
///    `red.global.add.u64` (or each warp sum on its own), and after every
///    lane that added has fenced, marks its slot [`SLOT_IN_LIMBS`].
///    Infinities and NaNs are OR-ed into the `specials` word, which counts
///    as adding. Integer atomics commute: the global limbs hold the same
///    value whatever order the blocks arrive in.
/// 4. **Once, in the block that started last.** Before any load, thread 0
///    of every block draws a *start* ticket (`atom.global.inc.u32`, relaxed,
///    wrapping to 0 at the last), so its round trip, and the queue of every
///    block's ticket at one address, overlap the block's reads. The block
///    that draws the last one knows every block has started, so it may wait
///    for them: after its own slot, its warp 0 reads every slot with
///    `ld.relaxed.gpu.b64`, 16 a lane at once, reading again any slot still
///    empty (its block has started, waits for no one, and will store it).
///    If no slot says [`SLOT_IN_LIMBS`] and every `f64` addition of the
///    slots (each lane's own, then a checked butterfly) was exact, the limbs
///    and specials are untouched and the `f64` is the exact sum: one
///    `cvt.rn.f32.f64` rounds it to the nearest `f32`, ties to even. Else
///    every lane adds its slots' `f64` sums to the limbs as above (its own
///    exact sum of them, or each slot if that sum was not exact), fences
///    (the acquire side of the markers, which each block stored after its
///    fences, and the release side of its atomics) and meets the others at
///    `bar.warp.sync`; lane 0 then fences, reads and clears every limb and
///    the specials with `atom.global.exch.b64`/`.b32` (at the point of
///    coherence, so no stale L1 copy) and rounds them with [`exact::round`]
///    (carry into one integer, take the magnitude, keep 24 bits, round on
///    the guard and sticky bits, ties to even). Either way the slots are
///    cleared and the result stored.
///
/// No block waits at the end for an atomic's answer, and in the common case
/// no block executes an atomic or a fence after its loads: the only
/// same-address traffic, the start tickets, queues while the loads are in
/// flight. (A finish ticket, drawn by every block after a fence that waits
/// for its limb atomics, put two such queues, and two round trips, between
/// the last block's loads and its result.)
///
/// Why the fast path needs no fence: what a fast block contributes is the
/// one 64-bit word it stores in its slot, and the gathering block takes the
/// value from that word itself, read whole (single-copy atomicity of
/// morally strong 64-bit accesses), never from another location that the
/// word would have to publish. The ticket only chooses the block that
/// gathers; reading a slot as empty just means reading it again. A slot
/// cannot show a previous launch's value: that launch's gathering block
/// cleared it, and kernel boundaries order that store before this launch's
/// accesses. Whatever reached the limbs was added before its block's
/// fences, and its block's marker was stored after them; the gathering
/// block's lanes read the marker, then fence, so the fences synchronize and
/// the gathering's exchanges see those atomics.
///
/// # Launch
///
/// A grid of at most [`SLOTS`](layout::exact::SLOTS) blocks (the host uses as many blocks as fit on
/// the device at once, and no more than 8 floats per thread need) of `block`
/// threads, a multiple of 32,
/// with **`block * 80` bytes** of dynamic shared memory: ten `i64` limbs per
/// thread (more than 48 KiB at block 1024, which the host allows on the
/// function). `acc` points to one [`Superaccumulator`] (limbs, specials,
/// start ticket and [`SLOTS`](layout::exact::SLOTS) slots), zero before the first launch; each
/// launch leaves it zero. The blocks need not be resident at once: the
/// gathering block waits only for blocks that have started.
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
/// `f64` sum is below 2^33, and each limb takes at most one of these per warp
/// (a block whose sum went to its slot adds nothing; the gathering warp adds
/// at most one piece a limb for each such block in its place).
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn sum_correctly_rounded(
    input: *const f32,
    total: *mut f32,
    n: usize,
    acc: *mut Superaccumulator,
) {
    let tid = thread::thread_idx_x();
    let grid = thread::grid_dim_x();
    // The start ticket, drawn before any load so that its round trip and its
    // queue overlap the block's reads. An `inc` that wraps at `grid - 1`, not
    // an add of 1: `ptxas` warp-aggregates an add and shuffles its result at
    // once, which would hold warp 0's loads back for the round trip. The
    // last draw wraps the ticket back to 0 for the next launch.
    let started = if tid == 0 {
        // SAFETY: `acc` is a global `Superaccumulator` by the contract.
        unsafe { atomic::global_fetch_inc_u32(&raw mut (*acc).ticket, grid - 1) }
    } else {
        0
    };
    let threads = grid as usize * thread::block_dim_x() as usize;
    let g = thread::index_1d();
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
    // Whether this thread's atomics must be ordered before the block's marker.
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
        unsafe { atomic::global_or_u32(&raw mut (*acc).specials, specials) };
        added = true;
    }
    // Release side: this thread's atomics come before its block's marker.
    if added {
        order::fence_acq_rel_gpu();
    }
    // The warp's sum goes to a slot in shared memory: limb 0 of the warp's
    // lane 0, which its limb path no longer needs (the warp's limb sums are
    // in registers by now); warp 0 reads it after the barrier. Thread 0 also
    // leaves there, in its own limb 1, whether this block gathers, so that
    // every warp learns it at the barrier.
    if lane == 0 {
        // SAFETY: `slots[32 * w]` is limb 0 of thread `32 * w` of this block,
        // inside the shared bytes the launch provides; only its own thread
        // writes it, and warp 0 reads it only after the barrier.
        unsafe { slots.add(warp_index as usize * warp::WARP_SIZE as usize).write(warp_sum) };
    }
    let gathers_at = shared::dynamic_shared::<u32>().wrapping_add(2 * thread::block_dim_x() as usize);
    if tid == 0 {
        // SAFETY: limb 1 of thread 0 (word `2 * block` of the shared bytes),
        // which only thread 0 used, and has finished with; read after the
        // barrier.
        unsafe { gathers_at.write(u32::from(started == grid - 1)) };
    }
    // The block's one barrier, which also tells every thread whether any
    // thread of the block added to the global accumulator (each such thread
    // fenced above).
    // SAFETY: reached by every thread of the block.
    let block_added = unsafe { thread::sync_threads_or(added) };
    // SAFETY: written by thread 0 before the barrier.
    let gathers = unsafe { gathers_at.read() } != 0;
    if warp_index == 0 {
        // SAFETY: the whole of warp 0 is here, after the barrier; forwarded
        // from the contract.
        unsafe { deliver(acc, slots, block_added, lane) };
    }
    if !gathers {
        return;
    }
    // SAFETY: the whole block that drew the last start ticket, after its own
    // slot (or marker) was stored; forwarded from the contract.
    unsafe { gather(total, acc, tid, lane) };
}

/// Warp 0 of every block: the block's warp sums, combined the same way as a
/// warp's. If that butterfly was exact and no thread of the block touched the
/// global accumulator, the block's whole sum is one `f64`: lane 0 stores it in
/// the block's slot with one relaxed 64-bit store, and nothing needs a fence.
/// Otherwise the block adds its exact sum to the global limbs as three integer
/// atomics (or, if the butterfly was not exact, every warp sum on its own),
/// fences, and marks its slot [`SLOT_IN_LIMBS`].
///
/// # Safety
///
/// All 32 lanes of warp 0 call it together, after the block's barrier, with
/// `slots[32 * w]` holding warp `w`'s sum and `block_added` the barrier's
/// verdict; `acc` as in [`sum_correctly_rounded`].
#[inline(always)]
unsafe fn deliver(acc: *mut Superaccumulator, slots: *const f64, block_added: bool, lane: u32) {
    let warps = thread::block_dim_x() / warp::WARP_SIZE;
    // SAFETY: lane `l < warps` reads the slot warp `l` wrote before the barrier.
    let slot = if lane < warps { unsafe { slots.add((lane * warp::WARP_SIZE) as usize).read() } } else { 0.0 };
    // SAFETY: the whole of warp 0 is here.
    let (block_sum, lane_exact) = unsafe { warp::sum_f64_checked(slot) };
    // SAFETY: the whole of warp 0 is here; a full-mask vote, so every lane
    // takes the same branch.
    let block_exact = !unsafe { warp::any_sync(!lane_exact) };
    // SAFETY: `acc` is a global `Superaccumulator` by the contract, and the
    // grid has at most `SLOTS` blocks.
    let own_slot = unsafe { (&raw mut (*acc).slots).cast::<u64>().add(thread::block_idx_x() as usize) };
    if block_exact && !block_added {
        if lane == 0 {
            // SAFETY: this block's slot; only this thread writes it in this
            // launch, and the gathering block reads it.
            unsafe { order::store_relaxed_gpu_u64(own_slot, exact::slot_word(block_sum)) };
        }
        return;
    }
    let mut added = false;
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
        order::fence_acq_rel_gpu();
    }
    // Every lane's fence comes before lane 0's marker (`bar.warp.sync`
    // orders memory among the lanes it synchronizes).
    // SAFETY: the whole of warp 0 is here.
    unsafe { warp::sync() };
    if lane == 0 {
        // SAFETY: as above. After this block's fences: a reader that sees
        // the marker and then fences sees this block's atomics.
        unsafe { order::store_relaxed_gpu_u64(own_slot, SLOT_IN_LIMBS) };
    }
}

/// The gathering block: every slot, summed in `f64` with every addition
/// checked exact (each thread its own slots, then the warp's butterfly, then
/// warp 0's over the warp sums), then rounded once to `f32`; or, if an
/// addition was not exact or some block's sum is in the limbs, every
/// thread's slots added to the limbs and the limbs rounded ([`finish`]).
/// Leaves every slot [`SLOT_EMPTY`].
///
/// Thread `t` of `B` reads slots `t, t + B, t + 2B, ...`, `2 * GATHER` at once
/// before it waits for any: one round trip to L2 for up to `2 * GATHER * B`
/// blocks (2,048 at the default block of 256 threads, against a grid of 528
/// on an H200), and few registers, since every thread gathers.
///
/// A slot still [`SLOT_EMPTY`] here belongs to a block that is still adding,
/// or whose store has not yet reached the point of coherence: the thread
/// reads it again until the store arrives. It does arrive: the block has
/// drawn its start ticket (this block drew the last), so it is running or
/// done, and it waits for nothing before its store.
///
/// # Safety
///
/// The whole block that drew the last start ticket calls it, after its warp
/// 0 stored the block's own slot (or marker), and no thread still reads
/// limb 2 of the block's lanes `32 * w`; `total` and `acc` as in
/// [`sum_correctly_rounded`].
#[inline(always)]
unsafe fn gather(total: *mut f32, acc: *mut Superaccumulator, tid: u32, lane: u32) {
    // At most `SLOTS`, by the contract.
    let blocks = thread::grid_dim_x() as usize;
    let stride = thread::block_dim_x() as usize;
    // SAFETY: `acc` is a global `Superaccumulator` by the contract, and every
    // `b` below is under `blocks <= SLOTS`.
    let slot_at = |b: usize| unsafe { (&raw mut (*acc).slots).cast::<u64>().add(b) };
    let mut in_limbs = false;
    let (mut sum, mut exact) = (0.0f64, true);
    // Batches of four unroll into registers.
    const GATHER: usize = 4;
    let load = |first: usize| {
        let mut words = [SLOT_EMPTY; GATHER];
        // Index loop: the array stays in registers once it unrolls.
        #[allow(clippy::needless_range_loop)]
        for i in 0..GATHER {
            if first + i * stride < blocks {
                // SAFETY: a slot of this grid.
                words[i] = unsafe { order::load_relaxed_gpu_u64(slot_at(first + i * stride)) };
            }
        }
        words
    };
    let mut take = |first: usize, words: [u64; GATHER]| {
        #[allow(clippy::needless_range_loop)]
        for i in 0..GATHER {
            let b = first + i * stride;
            if b < blocks {
                let mut word = words[i];
                while word == SLOT_EMPTY {
                    // SAFETY: a slot of this grid.
                    word = unsafe { order::load_relaxed_gpu_u64(slot_at(b)) };
                }
                if word == SLOT_IN_LIMBS {
                    in_limbs = true;
                } else {
                    let v = exact::slot_value(word);
                    let s = sum + v;
                    exact &= exact::is_exact_sum(sum, v, s);
                    sum = s;
                }
            }
        }
    };
    let mut first = tid as usize;
    while first < blocks {
        let second = first + GATHER * stride;
        let (a, b) = (load(first), load(second));
        take(first, a);
        take(second, b);
        first += 2 * GATHER * stride;
    }
    // SAFETY: the whole block is here, so the whole warp (the contract).
    let (warp_sum, lane_exact) = unsafe { warp::sum_f64_checked(sum) };
    let warp_index = tid / warp::WARP_SIZE;
    // The warp sums go to limb 2 of each warp's lane 0, free since the
    // block's first barrier (limb 0 still holds the block's own warp sums,
    // which warp 0 may still be reading).
    let sums = shared::dynamic_shared::<f64>().wrapping_add(2 * stride);
    if lane == 0 {
        // SAFETY: limb 2 of thread `32 * w`, inside the shared bytes; read by
        // warp 0 after the barrier below.
        unsafe { sums.add(warp_index as usize * warp::WARP_SIZE as usize).write(warp_sum) };
    }
    // SAFETY: the whole block is here.
    let slow = unsafe { thread::sync_threads_or(in_limbs || !exact || !lane_exact) };
    if !slow && warp_index == 0 {
        let warps = thread::block_dim_x() / warp::WARP_SIZE;
        // SAFETY: lane `l < warps` reads warp `l`'s sum, written before the
        // barrier.
        let w = if lane < warps { unsafe { sums.add((lane * warp::WARP_SIZE) as usize).read() } } else { 0.0 };
        // SAFETY: the whole of warp 0 is here.
        let (block_sum, lane_exact) = unsafe { warp::sum_f64_checked(w) };
        // SAFETY: as above; a full-mask vote.
        if !unsafe { warp::any_sync(!lane_exact) } {
            // Every block's sum is in the slots and `block_sum` is their exact
            // sum; the limbs and specials are zero (no block touched them).
            // One rounding, `cvt.rn.f32.f64`, gives the nearest `f32`, ties to
            // even, and an infinity past the largest; an exact zero is `+0.0`.
            if lane == 0 {
                let rounded = block_sum as f32;
                // SAFETY: `total` is global by the contract. Only this thread
                // writes it.
                unsafe { total.write(if rounded == 0.0 { 0.0 } else { rounded }) };
            }
        } else {
            // The warp sums are exact, their sum is not: each joins the
            // limbs on its own, then lane 0 rounds the limbs.
            // SAFETY: forwarded from the contract.
            if unsafe { add_f64(acc, w) } {
                order::fence_acq_rel_gpu();
            }
            // SAFETY: the whole of warp 0 is here.
            unsafe { warp::sync() };
            if lane == 0 {
                // SAFETY: lane 0 of the gathering block, after every lane's
                // fence; forwarded from the contract.
                unsafe { finish(total, acc) };
            }
        }
    }
    if slow {
        // Every thread's slots join the limbs: its own exact sum of them as
        // three pieces, or, if that sum was not exact, each slot on its own.
        if exact {
            // SAFETY: forwarded from the contract.
            unsafe { add_f64(acc, sum) };
        } else {
            let mut b = tid as usize;
            while b < blocks {
                // SAFETY: a slot of this grid; not empty, this thread read it
                // above.
                let word = unsafe { order::load_relaxed_gpu_u64(slot_at(b)) };
                if word != SLOT_IN_LIMBS {
                    // SAFETY: forwarded from the contract.
                    unsafe { add_f64(acc, exact::slot_value(word)) };
                }
                b += stride;
            }
        }
        // Acquire side for the slots this thread read as `SLOT_IN_LIMBS`
        // (each stored after its block's fences), release side for this
        // thread's atomics: both come before thread 0's gathering.
        order::fence_acq_rel_gpu();
    }
    let mut b = tid as usize;
    while b < blocks {
        // SAFETY: a slot of this grid; this thread has read it for the last
        // time.
        unsafe { order::store_relaxed_gpu_u64(slot_at(b), SLOT_EMPTY) };
        b += stride;
    }
    if slow {
        // SAFETY: the whole block is here (`slow` is the same in every
        // thread: the barrier's verdict).
        unsafe { thread::sync_threads() };
        if tid == 0 {
            // SAFETY: thread 0 of the gathering block, after every thread's
            // fence; forwarded from the contract.
            unsafe { finish(total, acc) };
        }
    }
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
            unsafe { atomic::global_add_i64((&raw mut (*acc).limbs).cast::<i64>().add(k), warp_limb) };
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
            unsafe { atomic::global_add_i64((&raw mut (*acc).limbs).cast::<i64>().add(split.limb), split.addend) };
            added = true;
        }
    }
    added
}

/// The gathering block's thread 0: gathers the limbs, rounds, clears them.
///
/// Out of line so that its registers (the rounding's twelve words) do not
/// count against the accumulation loop's, which every thread runs.
///
/// # Safety
///
/// Only lane 0 of the block that drew the last start ticket calls it, after
/// every lane of its warp fenced; `total` and `acc` as in
/// [`sum_correctly_rounded`].
#[inline(never)]
unsafe fn finish(total: *mut f32, acc: *mut Superaccumulator) {
    // Acquire side, with the lanes' fences before the warp's barrier: every
    // block that added fenced before its marker, which a lane of this warp
    // read.
    order::fence_acq_rel_gpu();
    let mut sum = [0i64; LIMBS];
    let mut k = 0;
    while k < LIMBS {
        // SAFETY: `acc` is global by the contract; `k < LIMBS`. Reading and
        // clearing in one atomic leaves the accumulator zero for the next
        // launch.
        sum[k] = unsafe { atomic::global_exchange_i64((&raw mut (*acc).limbs).cast::<i64>().add(k), 0) };
        k += 1;
    }
    // SAFETY: as above.
    let specials = unsafe { atomic::global_exchange_u32(&raw mut (*acc).specials, 0) };
    // SAFETY: `total` is global by the contract. Only this thread writes it.
    unsafe { total.write(exact::round(&sum, specials)) };
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
