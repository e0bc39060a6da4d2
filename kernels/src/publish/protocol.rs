//! The protocol every `publish` kernel runs, with the flag operations left as
//! parameters: the variants differ in nothing else.

use crate::{atomic, shared, thread};

/// The payload: two fields written with ordinary stores, so no single atomic
/// can cover both.
#[repr(C)]
#[derive(Clone, Copy, PartialEq)]
pub struct Record {
    /// 42 once published.
    pub id: i32,
    /// 3.5 once published.
    pub score: f32,
}

impl Record {
    /// What the producer publishes.
    pub const PUBLISHED: Record = Record { id: 42, score: 3.5 };
    /// What the record holds before the producer writes it.
    pub const EMPTY: Record = Record { id: 0, score: 0.0 };
}

/// One record and its ready flag, 16 bytes; the host allocates these for the
/// cross-block kernels and zeroes them before each launch.
#[repr(C)]
pub struct Slot {
    /// The payload.
    pub record: Record,
    /// 0 until the producer publishes, then 1.
    pub ready: u32,
    /// Keeps the slot 16 bytes, so a slot never straddles two 32-byte sectors.
    pub padding: u32,
}

/// What a consumer saw, added into the host's `[u32; 3]` by one global
/// atomic per field per consumer: pairs observed, stale records, timeouts.
#[repr(C)]
pub struct Counts {
    /// Rounds in which the consumer saw the flag and read the record.
    pub pairs: u32,
    /// Of those, rounds in which the record was not `{42, 3.5}`.
    pub stale: u32,
    /// Rounds in which the flag was not seen before the deadline.
    pub timeouts: u32,
}

/// A flag store: `st.release.*` or `st.relaxed.*`.
pub type StoreFlag = unsafe fn(*mut u32, u32);
/// A flag load: `ld.acquire.*` or `ld.relaxed.*`.
pub type LoadFlag = unsafe fn(*const u32) -> u32;

/// Spins on `load(flag)` until it reads non-zero (true) or the global timer
/// passes `deadline` (false).
///
/// # Safety
///
/// `flag` must be valid for `load`.
#[inline(always)]
unsafe fn wait(load: LoadFlag, flag: *const u32, deadline: u64) -> bool {
    loop {
        // SAFETY: the caller guarantees `flag` is valid.
        if unsafe { load(flag) } != 0 {
            return true;
        }
        if thread::global_timer_ns() > deadline {
            return false;
        }
    }
}

/// The producer's half: ordinary stores of the payload, then the flag.
///
/// # Safety
///
/// `slot` must point to a live [`Slot`] that `store` can write.
#[inline(always)]
unsafe fn produce(store: StoreFlag, slot: *mut Slot) {
    // SAFETY: the caller guarantees `slot` is valid. The two payload stores
    // are plain `st`; only `store` decides whether they are published.
    unsafe {
        (*slot).record.id = Record::PUBLISHED.id;
        (*slot).record.score = Record::PUBLISHED.score;
        store(&raw mut (*slot).ready, 1);
    }
}

/// The consumer's half: wait for the flag, then read the payload with
/// ordinary loads. Returns the record read, or `None` on timeout.
///
/// # Safety
///
/// `slot` must point to a live [`Slot`] that `load` can read.
#[inline(always)]
unsafe fn consume(load: LoadFlag, slot: *const Slot, deadline: u64) -> Option<Record> {
    // SAFETY: the caller guarantees `slot` is valid. The payload is read only
    // after `wait` saw the flag; the asm of `load` keeps the compiler from
    // moving these loads above it, so only the hardware's ordering is tested.
    unsafe {
        if wait(load, &raw const (*slot).ready, deadline) {
            Some(Record { id: (*slot).record.id, score: (*slot).record.score })
        } else {
            None
        }
    }
}

/// Tallies one round into `counts`.
fn tally(counts: &mut Counts, seen: Option<Record>) {
    match seen {
        Some(record) => {
            counts.pairs += 1;
            counts.stale += u32::from(record != Record::PUBLISHED);
        }
        None => counts.timeouts += 1,
    }
}

/// Adds a consumer's counts into the host's totals.
///
/// # Safety
///
/// `totals` must point to three `u32` in global memory.
unsafe fn report(totals: *mut u32, counts: &Counts) {
    // SAFETY: the caller guarantees three global u32.
    unsafe {
        atomic::global_add_u32(totals, counts.pairs);
        atomic::global_add_u32(totals.add(1), counts.stale);
        atomic::global_add_u32(totals.add(2), counts.timeouts);
    }
}

/// Thread 0 of a block produces.
pub const PRODUCER: u32 = 0;
/// Thread 32, in the block's second warp, consumes.
pub const CONSUMER: u32 = 32;

/// The same-block protocol, `rounds` times: thread [`PRODUCER`] publishes to
/// thread [`CONSUMER`] through a [`Slot`] in shared memory.
///
/// Launch: any grid of blocks of at least 33 threads (the page uses 64), 16
/// bytes of dynamic shared memory. Each block is an independent instance of
/// the page's example; `observed[blockIdx.x]` receives the last record its
/// consumer read.
///
/// # Safety
///
/// `observed` must hold `gridDim.x` records and `totals` three `u32`, both in
/// global memory; the launch must provide 16 bytes of shared memory.
#[inline(always)]
pub unsafe fn same_block(
    store: StoreFlag,
    load: LoadFlag,
    rounds: u32,
    budget_ns: u64,
    observed: *mut Record,
    totals: *mut u32,
) {
    let slot = shared::dynamic_shared::<Slot>();
    let tid = thread::thread_idx_x();
    let deadline = thread::global_timer_ns() + budget_ns;
    let mut counts = Counts { pairs: 0, stale: 0, timeouts: 0 };
    let mut last = Record::EMPTY;

    for _ in 0..rounds {
        if tid == PRODUCER {
            // SAFETY: the launch provides 16 bytes of shared memory for the
            // slot. The page initialises the flag before a barrier; so do we,
            // and the record too, so that a stale read is recognisable.
            unsafe {
                (*slot).record = Record::EMPTY;
                (*slot).ready = 0;
            }
        }
        // SAFETY: reached by every thread of the block, every round. The
        // barrier orders the reset before both roles start.
        unsafe { thread::sync_threads() };

        if tid == PRODUCER {
            // SAFETY: `slot` is this block's shared slot.
            unsafe { produce(store, slot) };
        } else if tid == CONSUMER {
            // SAFETY: as above.
            let seen = unsafe { consume(load, slot, deadline) };
            tally(&mut counts, seen);
            last = seen.unwrap_or(Record::EMPTY);
        }
        // SAFETY: reached by every thread of the block, every round; it keeps
        // the next round's reset after this round's read.
        unsafe { thread::sync_threads() };
    }

    if tid == CONSUMER {
        // SAFETY: the caller guarantees `observed` has one record per block
        // and `totals` three u32.
        unsafe {
            observed.add(thread::block_idx_x() as usize).write(last);
            report(totals, &counts);
        }
    }
}

/// The cross-block protocol, `rounds` times: thread 0 of block `2p` publishes
/// to thread 0 of block `2p + 1` through `slots[p * rounds + r]` in global
/// memory. The other threads of each block do nothing.
///
/// Launch: an even number of blocks, all of which must fit on the device at
/// once for the producer of a pair to run while its consumer waits (the host
/// sizes the grid from the SM count; the deadline covers the case where they
/// do not). The slots must be zero before the launch.
///
/// # Safety
///
/// `slots` must hold `gridDim.x / 2 * rounds` zeroed slots, `observed`
/// `gridDim.x / 2` records and `totals` three `u32`, all in global memory.
#[inline(always)]
pub unsafe fn across_blocks(
    store: StoreFlag,
    load: LoadFlag,
    slots: *mut Slot,
    rounds: u32,
    budget_ns: u64,
    observed: *mut Record,
    totals: *mut u32,
) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    let block = thread::block_idx_x() as usize;
    let pair = block / 2;
    // SAFETY: `pair * rounds + r` stays inside the slots the caller provided.
    let pair_slots = unsafe { slots.add(pair * rounds as usize) };

    if block.is_multiple_of(2) {
        for r in 0..rounds as usize {
            // SAFETY: as above.
            unsafe { produce(store, pair_slots.add(r)) };
        }
        return;
    }

    let deadline = thread::global_timer_ns() + budget_ns;
    let mut counts = Counts { pairs: 0, stale: 0, timeouts: 0 };
    let mut last = Record::EMPTY;
    for r in 0..rounds as usize {
        // SAFETY: as above.
        let seen = unsafe { consume(load, pair_slots.add(r), deadline) };
        tally(&mut counts, seen);
        last = seen.unwrap_or(Record::EMPTY);
    }
    // SAFETY: `observed` has one record per pair, `totals` three u32.
    unsafe {
        observed.add(pair).write(last);
        report(totals, &counts);
    }
}
