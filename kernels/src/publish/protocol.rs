//! The protocol every `publish` kernel runs, with the flag operations left as
//! parameters: the variants differ in nothing else.

pub use layout::publish::{CONSUMER, Counts, PRODUCER, Payload, Slot};

use crate::{atomic, global, shared, thread};

/// A flag store: `st.release.*`, `st.relaxed.*` or `st.volatile`.
pub type StoreFlag = unsafe fn(*mut u32, u32);
/// A flag load: `ld.acquire.*`, `ld.relaxed.*` or `ld.volatile`.
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

// ANCHOR: produce
/// The producer's half: ordinary stores of the payload in `slot`, then the
/// flag at `flag` (the slot's own `ready`, or another slot's).
///
/// # Safety
///
/// `slot` must point to a live [`Slot`], and `flag` to a live `u32` that
/// `store` can write.
#[inline(always)]
unsafe fn produce(store: StoreFlag, slot: *mut Slot, flag: *mut u32) {
    // SAFETY: the caller guarantees `slot` and `flag` are valid. The two
    // payload stores are plain `st`; only `store` decides whether they are
    // published.
    unsafe {
        (*slot).payload.id = Payload::PUBLISHED.id;
        (*slot).payload.score = Payload::PUBLISHED.score;
        store(flag, 1);
    }
}

/// The consumer's half: wait for the flag at `flag`, then read the payload
/// in `slot` with ordinary loads. Returns the record read, or `None` on
/// timeout.
///
/// # Safety
///
/// `slot` must point to a live [`Slot`], and `flag` to a live `u32` that
/// `load` can read.
#[inline(always)]
unsafe fn consume(load: LoadFlag, slot: *const Slot, flag: *const u32, deadline: u64) -> Option<Payload> {
    // SAFETY: the caller guarantees `slot` is valid. The payload is read only
    // after `wait` saw the flag; the asm of `load` keeps the compiler from
    // moving these loads above it, so only the hardware's ordering is tested.
    unsafe {
        if wait(load, flag, deadline) {
            Some(Payload { id: (*slot).payload.id, score: (*slot).payload.score })
        } else {
            None
        }
    }
}
// ANCHOR_END: produce

/// Tallies one round into `counts`.
fn tally(counts: &mut Counts, seen: Option<Payload>) {
    match seen {
        Some(record) => {
            counts.pairs += 1;
            counts.stale += u32::from(record != Payload::PUBLISHED);
        }
        None => counts.timeouts += 1,
    }
}

/// Adds a consumer's counts into the launch's totals.
///
/// # Safety
///
/// `totals` must point to a [`Counts`] in global memory.
unsafe fn report(totals: *mut Counts, counts: &Counts) {
    // SAFETY: the caller guarantees a global `Counts`; each field is a u32.
    unsafe {
        atomic::global_add_u32(&raw mut (*totals).pairs, counts.pairs);
        atomic::global_add_u32(&raw mut (*totals).stale, counts.stale);
        atomic::global_add_u32(&raw mut (*totals).timeouts, counts.timeouts);
    }
}

// ANCHOR: same_block
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
/// `observed` must hold `gridDim.x` payloads and `totals` one [`Counts`],
/// both in global memory; the launch must provide 16 bytes of shared memory.
#[inline(always)]
pub unsafe fn same_block(
    store: StoreFlag,
    load: LoadFlag,
    rounds: u32,
    budget_ns: u64,
    observed: *mut Payload,
    totals: *mut Counts,
) {
    let slot = shared::dynamic_shared::<Slot>();
    let tid = thread::thread_idx_x();
    let deadline = thread::global_timer_ns() + budget_ns;
    let mut counts = Counts::default();
    let mut last = Payload::EMPTY;

    for _ in 0..rounds {
        if tid == PRODUCER {
            // SAFETY: the launch provides 16 bytes of shared memory for the
            // slot. The page initialises the flag before a barrier; so do we,
            // and the record too, so that a stale read is recognisable.
            unsafe {
                (*slot).payload = Payload::EMPTY;
                (*slot).ready = 0;
            }
        }
        // SAFETY: reached by every thread of the block, every round. The
        // barrier orders the reset before both roles start.
        unsafe { thread::sync_threads() };

        if tid == PRODUCER {
            // SAFETY: `slot` is this block's shared slot.
            unsafe { produce(store, slot, &raw mut (*slot).ready) };
        } else if tid == CONSUMER {
            // SAFETY: as above.
            let seen = unsafe { consume(load, slot, &raw const (*slot).ready, deadline) };
            tally(&mut counts, seen);
            last = seen.unwrap_or(Payload::EMPTY);
        }
        // SAFETY: reached by every thread of the block, every round; it keeps
        // the next round's reset after this round's read.
        unsafe { thread::sync_threads() };
    }

    if tid == CONSUMER {
        // SAFETY: the caller guarantees `observed` has one payload per block
        // and `totals` one `Counts`.
        unsafe {
            observed.add(thread::block_idx_x() as usize).write(last);
            report(totals, &counts);
        }
    }
}
// ANCHOR_END: same_block

/// What the cross-block protocol varies besides its flag operations: where
/// each round's flag sits, and what the consumer and the producer do to make
/// a stale read possible.
#[derive(Clone, Copy)]
pub struct Setup {
    /// 0: the round's flag is the `ready` field of its own slot, 16 bytes
    /// from the payload (the page's layout). Otherwise it is the `ready`
    /// field of the slot this many slots further on (mod the slots), so that
    /// payload and flag sit in different lines, usually in different L2
    /// slices. The host passes half the slot count.
    pub flag_apart: u32,
    /// 1: before it waits, the consumer reads the payload once with an
    /// ordinary load, leaving a copy of its line in this SM's L1.
    pub preload: u32,
    /// Nanoseconds the producer waits (on the global timer) before each
    /// round's publication. Without a delay the producer runs ahead of its
    /// consumer, and a consumer that preloads a round's payload finds it
    /// already written: its L1 copy is fresh, and nothing can be stale.
    /// With one, the preload comes first, and the copy it leaves in L1 is
    /// the old record that a weak load after a relaxed flag may still hit.
    pub delay_ns: u32,
}

/// The cross-block protocol, `rounds` times: thread 0 of block `2p` publishes
/// to thread 0 of block `2p + 1` through the payload of `slots[p * rounds + r]`
/// and the flag that `setup` places, with the preload and delay it asks for. The other threads of each block do
/// nothing.
///
/// Launch: an even number of blocks, all of which must fit on the device at
/// once for the producer of a pair to run while its consumer waits (the host
/// sizes the grid from the SM count; the deadline covers the case where they
/// do not). The slots must be zero before the launch.
///
/// # Safety
///
/// `slots` must hold `gridDim.x / 2 * rounds` zeroed slots, `observed`
/// `gridDim.x / 2` payloads and `totals` one [`Counts`], all in global memory.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn across_blocks(
    store: StoreFlag,
    load: LoadFlag,
    slots: *mut Slot,
    rounds: u32,
    budget_ns: u64,
    setup: Setup,
    observed: *mut Payload,
    totals: *mut Counts,
) {
    if thread::thread_idx_x() != 0 {
        return;
    }
    let block = thread::block_idx_x() as usize;
    let pair = block / 2;
    let total = thread::grid_dim_x() as usize / 2 * rounds as usize;
    // The slot of round `r` and the address of its flag: every slot's
    // `ready` is the flag of exactly one round, since adding `apart` mod the
    // slot count is a bijection.
    let round = |r: usize| {
        let i = pair * rounds as usize + r;
        let j = if total == 0 { i } else { (i + setup.flag_apart as usize) % total };
        // SAFETY: `i` and `j` are below `total`, the slots the caller provided.
        unsafe { (slots.add(i), &raw mut (*slots.add(j)).ready) }
    };

    if block.is_multiple_of(2) {
        for r in 0..rounds as usize {
            if setup.delay_ns != 0 {
                let until = thread::global_timer_ns() + u64::from(setup.delay_ns);
                while thread::global_timer_ns() < until {}
            }
            let (slot, flag) = round(r);
            // SAFETY: as above.
            unsafe { produce(store, slot, flag) };
        }
        return;
    }

    let deadline = thread::global_timer_ns() + budget_ns;
    let mut counts = Counts::default();
    let mut last = Payload::EMPTY;
    for r in 0..rounds as usize {
        let (slot, flag) = round(r);
        if setup.preload != 0 {
            // A weak `ld.global` of the payload's line, which allocates in
            // this SM's L1 (a volatile read would not: PTX treats it as
            // `ld.relaxed.sys`, which reads past L1). `ptxas` deletes a weak
            // load whose value is dead, so the value goes to `keep_live`,
            // whose sink is this pair's `observed` entry: it is never written
            // (an id is 0 or 42), and would be overwritten at the end if it were.
            // SAFETY: `slot` is a live global slot and `observed` has one
            // payload per pair (the caller's contract).
            unsafe {
                let id = global::load_b32(global::to_global(slot.cast()));
                global::keep_live(id, global::to_global(observed.add(pair).cast()));
            }
        }
        // SAFETY: as above.
        let seen = unsafe { consume(load, slot, flag, deadline) };
        tally(&mut counts, seen);
        last = seen.unwrap_or(Payload::EMPTY);
    }
    // SAFETY: `observed` has one payload per pair, `totals` one `Counts`.
    unsafe {
        observed.add(pair).write(last);
        report(totals, &counts);
    }
}
