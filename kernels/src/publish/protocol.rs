//! The protocol every `publish` kernel runs, with the flag operations left as
//! parameters: the variants differ in nothing else.

#[cfg(not(feature = "hopper"))]
pub use layout::publish::{CONSUMER, PRODUCER};
pub use layout::publish::{Counts, Payload, Slot};

use crate::order::{AtomicRef, Device, LoadOrdering, Relaxed, Scope, StoreOrdering};
#[cfg(feature = "hopper")]
use crate::order::{DsmemAtomicRef, DsmemLoadOrdering};
use crate::{global, shared, thread};

/// Spins on `ready.load(order)` until it reads non-zero (true) or the global
/// timer passes `deadline` (false).
#[inline(always)]
fn wait<S: Scope>(ready: AtomicRef<u32, S>, order: impl LoadOrdering<u32, S>, deadline: u64) -> bool {
    loop {
        if ready.load(order) != 0 {
            return true;
        }
        if thread::global_timer_ns() > deadline {
            return false;
        }
    }
}

// ANCHOR: produce
/// The producer's half, the page's `produce_record`: ordinary stores of the
/// payload in `slot`, then `ready.store(1, order)` of the flag at
/// `ready_storage` (the slot's own `ready`, or another slot's), with the
/// variant's scope `S` and ordering.
///
/// # Safety
///
/// `slot` must point to a live [`Slot`], and `ready_storage` to a live,
/// aligned `u32`.
#[inline(always)]
unsafe fn produce<S: Scope>(slot: *mut Slot, ready_storage: *mut u32, order: impl StoreOrdering<u32, S>) {
    // SAFETY: the caller guarantees `slot` and `ready_storage` are valid.
    // The two payload stores are plain `st`; only the flag's ordering
    // decides whether they are published.
    unsafe {
        let ready = AtomicRef::<u32, S>::from_ptr(ready_storage);
        (*slot).payload.id = Payload::PUBLISHED.id;
        (*slot).payload.score = Payload::PUBLISHED.score;
        ready.store(1, order);
    }
}

/// The consumer's half, the page's `consume_record`: wait until
/// `ready.load(order)` of the flag at `ready_storage` reads 1, then read the
/// payload in `slot` with ordinary loads. Returns the record read, or `None`
/// on timeout.
///
/// # Safety
///
/// `slot` must point to a live [`Slot`], and `ready_storage` to a live,
/// aligned `u32`.
#[inline(always)]
unsafe fn consume<S: Scope>(
    slot: *const Slot,
    ready_storage: *mut u32,
    order: impl LoadOrdering<u32, S>,
    deadline: u64,
) -> Option<Payload> {
    // SAFETY: the caller guarantees `slot` and `ready_storage` are valid.
    // The payload is read only after `wait` saw the flag; the asm of the
    // flag's load keeps the compiler from moving these loads above it, so
    // only the hardware's ordering is tested.
    unsafe {
        let ready = AtomicRef::<u32, S>::from_ptr(ready_storage);
        if wait(ready, order, deadline) {
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
        AtomicRef::<u32, Device>::from_global(&raw mut (*totals).pairs).add(counts.pairs, Relaxed);
        AtomicRef::<u32, Device>::from_global(&raw mut (*totals).stale).add(counts.stale, Relaxed);
        AtomicRef::<u32, Device>::from_global(&raw mut (*totals).timeouts).add(counts.timeouts, Relaxed);
    }
}

// ANCHOR: same_block
/// The same-block protocol, `rounds` times: thread [`PRODUCER`] publishes to
/// thread [`CONSUMER`] through a [`Slot`] in shared memory, its flag an
/// [`AtomicRef`] at scope `S` stored with `store` and loaded with `load`.
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
#[cfg(not(feature = "hopper"))]
#[inline(always)]
pub unsafe fn same_block<S: Scope>(
    store: impl StoreOrdering<u32, S>,
    load: impl LoadOrdering<u32, S>,
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
            unsafe { produce::<S>(slot, &raw mut (*slot).ready, store) };
        } else if tid == CONSUMER {
            // SAFETY: as above.
            let seen = unsafe { consume::<S>(slot, &raw mut (*slot).ready, load, deadline) };
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
/// and the flag that `setup` places (an [`AtomicRef`] at scope `S`, stored
/// with `store` and loaded with `load`), with the preload and delay it asks
/// for. The other threads of each block do nothing.
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
pub unsafe fn across_blocks<S: Scope>(
    store: impl StoreOrdering<u32, S>,
    load: impl LoadOrdering<u32, S>,
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
            unsafe { produce::<S>(slot, flag, store) };
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
        let seen = unsafe { consume::<S>(slot, flag, load, deadline) };
        tally(&mut counts, seen);
        last = seen.unwrap_or(Payload::EMPTY);
    }
    // SAFETY: `observed` has one payload per pair, `totals` one `Counts`.
    unsafe {
        observed.add(pair).write(last);
        report(totals, &counts);
    }
}

/// The cluster rank of the block whose thread 0 produces, in a cluster
/// variant.
#[cfg(feature = "hopper")]
pub const PRODUCER_RANK: u32 = 0;
/// The cluster rank of the block whose thread 0 consumes.
#[cfg(feature = "hopper")]
pub const CONSUMER_RANK: u32 = 1;

/// Byte offsets in a [`Slot`], for addresses in the cluster's shared window
/// (a 32-bit `.shared::cluster` address is no Rust pointer).
#[cfg(feature = "hopper")]
const ID: u32 = core::mem::offset_of!(Slot, payload) as u32 + core::mem::offset_of!(Payload, id) as u32;
#[cfg(feature = "hopper")]
const SCORE: u32 = core::mem::offset_of!(Slot, payload) as u32 + core::mem::offset_of!(Payload, score) as u32;
#[cfg(feature = "hopper")]
const READY: u32 = core::mem::offset_of!(Slot, ready) as u32;

/// Reads the payload of the [`Slot`] at cluster address `slot` with two
/// plain (weak) `ld.shared::cluster` loads.
///
/// # Safety
///
/// `slot` must be the cluster address of a live, aligned [`Slot`].
#[cfg(feature = "hopper")]
#[inline(always)]
unsafe fn read_remote(slot: u32) -> Payload {
    // SAFETY: the caller guarantees a live slot; both fields are 4-byte
    // aligned words in it.
    unsafe {
        Payload {
            id: shared::load_cluster(slot + ID) as i32,
            score: f32::from_bits(shared::load_cluster(slot + SCORE)),
        }
    }
}

/// The distributed-shared-memory protocol, `rounds` times: thread 0 of the
/// block of rank [`PRODUCER_RANK`] writes the record into its *own* shared
/// [`Slot`] with ordinary stores and sets the slot's flag with `store`, as
/// the page's producer does (an [`AtomicRef`] at scope `S`); thread 0 of the
/// block of rank [`CONSUMER_RANK`], in the same cluster, reaches into that
/// block's shared memory (`mapa`), spins on the flag with `load` (a
/// [`DsmemAtomicRef`] at scope `S`) until the deadline, and reads the record
/// with plain `ld.shared::cluster`.
///
/// Each round is framed by cluster barriers, as the same-block protocol's
/// by block barriers: the producer resets the slot, a barrier orders the
/// reset before both roles start, and a barrier after the read keeps the
/// next reset after it. The last barrier also keeps the producer's block,
/// and so its shared memory, alive until the consumer's last read.
///
/// Launch: clusters of two blocks (`cuLaunchKernelEx`), a one-dimensional
/// grid of whole clusters, any block, 16 bytes of dynamic shared memory.
/// Cluster `p` is pair `p`: `observed[p]` receives the last record its
/// consumer read. A cluster's blocks are co-scheduled, so a producer always
/// runs beside its consumer; the deadline still bounds every wait.
///
/// # Safety
///
/// `observed` must hold one payload per cluster and `totals` one
/// [`Counts`], both in global memory; the launch must be in clusters of two
/// and provide 16 bytes of shared memory.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn across_a_cluster<S: Scope>(
    store: impl StoreOrdering<u32, S>,
    load: impl DsmemLoadOrdering<S>,
    rounds: u32,
    budget_ns: u64,
    observed: *mut Payload,
    totals: *mut Counts,
) {
    let slot = shared::dynamic_shared::<Slot>();
    let rank = thread::cluster_block_rank();
    let lead = thread::thread_idx_x() == 0;
    // SAFETY: `slot` is this block's shared memory and the producer's rank is
    // in a cluster of two; computing the address touches no memory.
    let remote = unsafe { shared::cluster_address(slot, PRODUCER_RANK) };
    let deadline = thread::global_timer_ns() + budget_ns;
    let mut counts = Counts::default();
    let mut last = Payload::EMPTY;

    for _ in 0..rounds {
        if lead && rank == PRODUCER_RANK {
            // SAFETY: the launch gives the block a shared slot. Shared memory
            // starts undefined, and each round's record must start empty for
            // a stale read to be recognisable.
            unsafe {
                (*slot).payload = Payload::EMPTY;
                (*slot).ready = 0;
            }
        }
        // SAFETY: every thread of both blocks reaches it, every round. Its
        // release/acquire at `.cluster` orders the reset before both roles.
        unsafe { thread::sync_cluster() };

        if lead && rank == PRODUCER_RANK {
            // SAFETY: `slot` is this block's shared slot; the flag is its own
            // `ready`, stored through a generic address.
            unsafe { produce::<S>(slot, &raw mut (*slot).ready, store) };
        } else if lead && rank == CONSUMER_RANK {
            // SAFETY: `remote` is the producer block's slot, alive until the
            // barrier below. The asm of `load` and of the payload loads keeps
            // the compiler from moving the payload reads above the flag's.
            let seen = unsafe {
                if wait_remote(DsmemAtomicRef::<S>::from_address(remote + READY), load, deadline) {
                    Some(read_remote(remote))
                } else {
                    None
                }
            };
            tally(&mut counts, seen);
            last = seen.unwrap_or(Payload::EMPTY);
        }
        // SAFETY: as above; it keeps the next round's reset after this
        // round's read.
        unsafe { thread::sync_cluster() };
    }

    if lead && rank == CONSUMER_RANK {
        // SAFETY: the caller guarantees one payload per cluster and one
        // `Counts`.
        unsafe {
            observed.add(thread::cluster_idx_x() as usize).write(last);
            report(totals, &counts);
        }
    }
}

/// [`wait`] for a flag in another block's shared memory.
#[cfg(feature = "hopper")]
#[inline(always)]
fn wait_remote<S: Scope>(ready: DsmemAtomicRef<S>, order: impl DsmemLoadOrdering<S>, deadline: u64) -> bool {
    loop {
        if ready.load(order) != 0 {
            return true;
        }
        if thread::global_timer_ns() > deadline {
            return false;
        }
    }
}

/// The cluster barrier as the publication, `rounds` times, with no flag:
/// thread 0 of the block of rank [`PRODUCER_RANK`] writes the record into
/// its own shared [`Slot`] with ordinary stores, every thread of the cluster
/// meets at `barrier.cluster`, and thread 0 of the block of rank
/// [`CONSUMER_RANK`] reads the record with plain `ld.shared::cluster`. The
/// barrier's arrive releases and its wait acquires at `.cluster` scope, so
/// the read must see the record: the cluster's phase boundary, as
/// `bar.sync` is the block's.
///
/// Three barriers a round: after the reset (so the record's stores are not
/// merged with it, and the reset is the round's first value), after the
/// record (the publication), and after the read (so the next reset follows
/// it). There is no wait, so no timeout: `budget_ns` is unused.
///
/// Launch, pairs and `observed` as [`across_a_cluster`].
///
/// # Safety
///
/// As [`across_a_cluster`].
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn barrier_across_a_cluster(rounds: u32, observed: *mut Payload, totals: *mut Counts) {
    let slot = shared::dynamic_shared::<Slot>();
    let rank = thread::cluster_block_rank();
    let lead = thread::thread_idx_x() == 0;
    // SAFETY: as in `across_a_cluster`.
    let remote = unsafe { shared::cluster_address(slot, PRODUCER_RANK) };
    let mut counts = Counts::default();
    let mut last = Payload::EMPTY;

    for _ in 0..rounds {
        if lead && rank == PRODUCER_RANK {
            // SAFETY: the launch gives the block a shared slot.
            unsafe { (*slot).payload = Payload::EMPTY };
        }
        // SAFETY: every thread of both blocks reaches each barrier, every
        // round.
        unsafe { thread::sync_cluster() };
        if lead && rank == PRODUCER_RANK {
            // SAFETY: as above; two plain stores, published by the barrier
            // alone.
            unsafe {
                (*slot).payload.id = Payload::PUBLISHED.id;
                (*slot).payload.score = Payload::PUBLISHED.score;
            }
        }
        // SAFETY: as above. This is the publication.
        unsafe { thread::sync_cluster() };
        if lead && rank == CONSUMER_RANK {
            // SAFETY: `remote` is the producer block's slot, alive until the
            // next barrier.
            let seen = unsafe { read_remote(remote) };
            tally(&mut counts, Some(seen));
            last = seen;
        }
        // SAFETY: as above.
        unsafe { thread::sync_cluster() };
    }

    if lead && rank == CONSUMER_RANK {
        // SAFETY: as in `across_a_cluster`.
        unsafe {
            observed.add(thread::cluster_idx_x() as usize).write(last);
            report(totals, &counts);
        }
    }
}
