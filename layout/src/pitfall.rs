//! The pitfalls: each mistake of the two pages as a kernel that makes it, run
//! beside the kernel that fixes it.
//!
//! A broken kernel here is written to fail, but never to hang: a barrier it
//! misplaces is one that exited threads release (the PTX ISA's `exit`
//! releases a barrier the exiting threads hold up), a spin is bounded by a
//! deadline on the global timer, as the publication demo's are, and a retry
//! loop by a count.

use crate::entry::{Entry, Family, Param, ParamRole, SharedBytes};

/// Which of the pages' mistakes a kernel makes or fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pitfall {
    /// A block barrier inside a bounds check (page 2, "Barriers coordinate a
    /// known participant group").
    DivergentBarrier,
    /// A warp barrier where the data crosses warps (page 2, "warp scope is
    /// correct only if no dependency crosses the warp").
    WarpScope,
    /// A device-wide phase inside one ordinary launch (page 2, "a device-wide
    /// phase is normally expressed as a separate kernel launch").
    DevicePhase,
    /// Two atomics on two fields of one record (page 2, "one atomic
    /// operation does not make an entire data structure atomic").
    TornRecord,
    /// `volatile` as synchronization (page 2's first common error).
    Volatile,
    /// The r/CUDA histogram without one of its barriers (page 1's opening
    /// question).
    HistogramBarrier,
    /// An accumulator timed in a loop without a reset (page 1's pitfalls).
    UnresetAccumulator,
    /// A golden-value `==` test on a float atomic sum (page 1's pitfalls).
    GoldenEquality,
    /// Page 2's `producer_consumer_demo` with a relaxed flag (page 2's
    /// practice task: "create one relaxed-order variant and document why a
    /// passing relaxed run is not a correctness proof").
    RelaxedFlag,
}

impl Pitfall {
    /// Every pitfall, in the order `host pitfalls` runs them.
    pub const ALL: [Pitfall; 9] = [
        Pitfall::DivergentBarrier,
        Pitfall::WarpScope,
        Pitfall::DevicePhase,
        Pitfall::TornRecord,
        Pitfall::Volatile,
        Pitfall::RelaxedFlag,
        Pitfall::HistogramBarrier,
        Pitfall::UnresetAccumulator,
        Pitfall::GoldenEquality,
    ];

    /// Its name on the command line (`--only`) and in JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Pitfall::DivergentBarrier => "divergent-barrier",
            Pitfall::WarpScope => "warp-scope",
            Pitfall::DevicePhase => "device-phase",
            Pitfall::TornRecord => "torn-record",
            Pitfall::Volatile => "volatile",
            Pitfall::HistogramBarrier => "histogram-barrier",
            Pitfall::UnresetAccumulator => "unreset-accumulator",
            Pitfall::GoldenEquality => "golden-equality",
            Pitfall::RelaxedFlag => "relaxed-flag",
        }
    }
}

pub use crate::args::pitfall::Arg;

param!(INPUT = input: *const u32 => ParamRole::Pitfall(Arg::Input));
param!(N = n: usize => ParamRole::Pitfall(Arg::N));
param!(OUT = out: *mut u32 => ParamRole::Pitfall(Arg::Out));
param!(BINS = bins: *mut u32 => ParamRole::Pitfall(Arg::Out));
param!(SCRATCH = scratch: *mut u32 => ParamRole::Pitfall(Arg::Scratch));
param!(NUM_BINS = num_bins: u32 => ParamRole::Pitfall(Arg::Value));
param!(ROUNDS = rounds: u32 => ParamRole::Pitfall(Arg::Value));
param!(PATTERN = pattern: u32 => ParamRole::Pitfall(Arg::Value));
param!(DEADLINE_NS = deadline_ns: u64 => ParamRole::Pitfall(Arg::DeadlineNs));

params!(
    /// The parameters of a kernel that sums `input[0..n]` into `out`.
    pub SUM_PARAMS = [INPUT, N, OUT]
);
params!(
    /// The parameters of a histogram kernel, as `histogram_privatized`'s.
    pub HISTOGRAM_PARAMS = [INPUT, N, BINS, NUM_BINS]
);
params!(
    /// The parameters of an exchange that counts its own wrong reads.
    pub ROUNDS_PARAMS = [OUT, ROUNDS]
);
params!(
    /// The parameters of a record writer and its readers.
    pub RECORD_PARAMS = [SCRATCH, OUT, ROUNDS]
);
params!(
    /// The parameters of a kernel told only which pattern to run.
    pub PATTERN_PARAMS = [PATTERN]
);
params!(
    /// The parameters of page 2's demo: its `observed` and `error` as one
    /// report ([`PAGE_WORDS`]), and the consumer's deadline.
    pub PAGE_PARAMS = [OUT, DEADLINE_NS]
);
params!(
    /// The parameters of a kernel that sums into `out` through `scratch`
    /// with a deadline: the grid-barrier phase.
    pub GRID_BARRIER_PARAMS = [INPUT, N, OUT, SCRATCH, DEADLINE_NS]
);
params!(
    /// The parameters of a kernel that sums into `out` through `scratch`.
    pub SCRATCH_PARAMS = [INPUT, N, OUT, SCRATCH]
);

/// One pitfall kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// What every kernel records.
    pub entry: Entry,
    /// The mistake it makes or fixes; `None` for the harness's own kernel.
    pub pitfall: Option<Pitfall>,
    /// Dynamic shared memory.
    pub shared: SharedBytes,
}

/// A constructor that keeps the table below one line of facts per kernel.
#[allow(clippy::too_many_arguments)]
const fn kernel(
    pitfall: Option<Pitfall>,
    symbol: &'static str,
    params: &'static [Param],
    shared: SharedBytes,
    ptx_has: &'static [&'static str],
    ptx_lacks: &'static [&'static str],
    sass_has: &'static [&'static str],
    sass_lacks: &'static [&'static str],
) -> Kernel {
    Kernel {
        entry: Entry::new(Family::Pitfall, symbol, params, ptx_has, ptx_lacks, sass_has, sass_lacks),
        pitfall,
        shared,
    }
}

/// Fills the block's dynamic shared memory with a pattern: what a previous
/// kernel may leave there, made likely to be a known value, so a kernel that
/// reads a word it did not write reads the pattern rather than a lucky zero.
pub const FILL_SHARED: Kernel = kernel(
    None,
    "pitfall_fill_shared",
    &PATTERN_PARAMS,
    SharedBytes::Fixed(FILL_BYTES),
    &["st.volatile.shared.b32"],
    &["bar.sync", "atom.", "red.global", "red.shared"],
    // A plain store is not a synchronizing instruction, so the SASS summary
    // has nothing to find; it must have no barrier.
    &[],
    &["BAR"],
);

/// The bytes [`FILL_SHARED`] fills: 48 KiB, a block's default limit.
pub const FILL_BYTES: u32 = 48 * 1024;

/// The block sum whose barrier sits inside the bounds check: the threads past
/// `n` return before it, and the sum reads their slots anyway.
pub const BARRIER_IN_BOUNDS_CHECK: Kernel = kernel(
    Some(Pitfall::DivergentBarrier),
    "pitfall_barrier_in_bounds_check",
    &SUM_PARAMS,
    SharedBytes::PerThread(4),
    &["bar.sync", "ld.shared.b32", "st.shared.b32"],
    &["atom.", "red.global", "red.shared"],
    &["BAR.SYNC"],
    &["ATOM", "RED"],
);

/// The same block sum with every thread at the barrier: a thread past `n`
/// stores a zero and waits with the rest.
pub const BARRIER_EVERY_THREAD: Kernel = kernel(
    Some(Pitfall::DivergentBarrier),
    "pitfall_barrier_every_thread",
    &SUM_PARAMS,
    SharedBytes::PerThread(4),
    &["bar.sync", "ld.shared.b32", "st.shared.b32"],
    &["atom.", "red.global", "red.shared"],
    &["BAR.SYNC"],
    &["ATOM", "RED"],
);

/// One of the four exchange kernels (`pitfall/exchange.rs`): the same body,
/// ordered by the block barrier or by the warp barrier, which ptxas drops
/// where it knows the warp runs converged, leaving no barrier instruction.
const fn exchange(symbol: &'static str, block_barrier: bool) -> Kernel {
    const ACCESSES: [&str; 2] = ["st.volatile.shared.b32", "ld.volatile.shared.b32"];
    if block_barrier {
        kernel(
            Some(Pitfall::WarpScope),
            symbol,
            &ROUNDS_PARAMS,
            SharedBytes::PerThread(4),
            &["bar.sync", ACCESSES[0], ACCESSES[1]],
            &["bar.warp.sync"],
            &["BAR.SYNC"],
            &["WARPSYNC"],
        )
    } else {
        kernel(
            Some(Pitfall::WarpScope),
            symbol,
            &ROUNDS_PARAMS,
            SharedBytes::PerThread(4),
            &["bar.warp.sync", ACCESSES[0], ACCESSES[1]],
            &["bar.sync", "barrier.sync"],
            &[],
            &["BAR.SYNC", "WARPSYNC"],
        )
    }
}

/// A lane exchange through shared memory between lanes of one warp, ordered
/// by the warp barrier: correct.
pub const WARP_SYNC_SAME_WARP: Kernel = exchange("pitfall_warp_sync_same_warp", false);

/// The same exchange with each reader's partner in the next warp, still
/// ordered only by the warp barrier: the dependency crosses the warp.
pub const WARP_SYNC_OTHER_WARP: Kernel = exchange("pitfall_warp_sync_other_warp", false);

/// The exchange across warps ordered by the block barrier: the fix.
pub const BLOCK_SYNC_OTHER_WARP: Kernel = exchange("pitfall_block_sync_other_warp", true);

/// The exchange within a warp ordered by the block barrier: correct, and the
/// price of waiting for warps that take no part.
pub const BLOCK_SYNC_SAME_WARP: Kernel = exchange("pitfall_block_sync_same_warp", true);

/// One block's partial sum per block (`out[block]`): the first of two
/// launches, and with one block, the second.
pub const PHASE_PARTIALS: Kernel = kernel(
    Some(Pitfall::DevicePhase),
    "pitfall_phase_partials",
    &SUM_PARAMS,
    SharedBytes::PerThread(4),
    &["bar.sync"],
    &["atom.", "red.global", "red.shared", "fence."],
    &["BAR.SYNC"],
    &["ATOM", "RED", "MEMBAR"],
);

/// Partial sums, a grid-wide barrier built from a counter, then block 0
/// combines: correct only if every block is resident at once, which a
/// cooperative launch guarantees and an ordinary one does not. The spin
/// gives up at a deadline and counts the block as timed out.
pub const PHASE_GRID_BARRIER: Kernel = kernel(
    Some(Pitfall::DevicePhase),
    "pitfall_phase_grid_barrier",
    &GRID_BARRIER_PARAMS,
    SharedBytes::PerThread(4),
    &["fence.acq_rel.gpu", "red.global.add.u32", "ld.relaxed.gpu.b32", "%globaltimer"],
    &["fence.sc", "atom."],
    &["MEMBAR.ALL.GPU", "REDG.E.ADD.STRONG.GPU"],
    &["ATOMG"],
);

/// Partial sums, then the last block to take a ticket combines them (the
/// deterministic sum's hand-off): one ordinary launch, any grid.
pub const PHASE_TICKET: Kernel = kernel(
    Some(Pitfall::DevicePhase),
    "pitfall_phase_ticket",
    &SCRATCH_PARAMS,
    SharedBytes::PerThread(4),
    &["fence.acq_rel.gpu", "atom.global.add.u32", "ld.relaxed.gpu.b32"],
    &["%globaltimer", "fence.sc"],
    &["MEMBAR.ALL.GPU", "ATOMG.E.ADD.STRONG.GPU"],
    &[],
);

/// A record of two fields, each written by its own atomic exchange and read
/// by its own load: readers can see one field updated and not the other.
/// The fences and the release and acquire are the writer's window
/// (`started`, `done`), never between the two field loads.
pub const RECORD_TWO_ATOMICS: Kernel = kernel(
    Some(Pitfall::TornRecord),
    "pitfall_record_two_atomics",
    &RECORD_PARAMS,
    SharedBytes::Fixed(0),
    &["atom.global.exch.b32", "ld.relaxed.gpu.b32", "st.release.gpu.b32", "ld.acquire.gpu.b32", "%globaltimer"],
    &["ld.relaxed.gpu.b64", "st.relaxed.gpu.b64"],
    &["ATOMG.E.EXCH.STRONG.GPU"],
    &[],
);

/// Both fields in one 64-bit word, written by one store and read by one load.
/// Its fences are the writer's window, as the broken kernel's are.
pub const RECORD_ONE_WORD: Kernel = kernel(
    Some(Pitfall::TornRecord),
    "pitfall_record_one_word",
    &RECORD_PARAMS,
    SharedBytes::Fixed(0),
    &["st.relaxed.gpu.b64", "ld.relaxed.gpu.b64", "%globaltimer"],
    &["atom.global.exch"],
    &[],
    &["ATOMG"],
);

/// Both fields behind a sequence lock: the writer makes the count odd, writes,
/// and makes it even; a reader keeps a read only if the count was the same
/// even number before and after.
pub const RECORD_SEQLOCK: Kernel = kernel(
    Some(Pitfall::TornRecord),
    "pitfall_record_seqlock",
    &RECORD_PARAMS,
    SharedBytes::Fixed(0),
    &["st.release.gpu.b32", "ld.acquire.gpu.b32", "fence.acq_rel.gpu", "st.relaxed.gpu.b32", "ld.relaxed.gpu.b32"],
    &["atom.global.exch"],
    &["MEMBAR.ALL.GPU"],
    &[],
);

/// The r/CUDA histogram without its first barrier: a warp can add into a bin
/// that another warp zeroes after.
pub const HISTOGRAM_NO_ZEROING_BARRIER: Kernel = kernel(
    Some(Pitfall::HistogramBarrier),
    "pitfall_histogram_no_zeroing_barrier",
    &HISTOGRAM_PARAMS,
    SharedBytes::PerBin(4),
    &["red.shared.add.u32", "bar.sync", "red.global.add.u32"],
    &["atom."],
    &["ATOMS.", "BAR.SYNC"],
    &[".CAS"],
);

/// The r/CUDA histogram without the barrier between its atomics, the one
/// the poster asked about: a thread can copy its bin out before the other
/// warps' increments land.
pub const HISTOGRAM_NO_FLUSH_BARRIER: Kernel = kernel(
    Some(Pitfall::HistogramBarrier),
    "pitfall_histogram_no_flush_barrier",
    &HISTOGRAM_PARAMS,
    SharedBytes::PerBin(4),
    &["red.shared.add.u32", "bar.sync", "red.global.add.u32"],
    &["atom."],
    &["ATOMS.", "BAR.SYNC"],
    &[".CAS"],
);

/// Page 2's `producer_consumer_demo`, as the page writes it: the record's
/// plain stores, then `st.release.cta`; `ld.acquire.cta`, then the record's
/// plain loads.
pub const PAGE_DEMO: Kernel = kernel(
    Some(Pitfall::RelaxedFlag),
    "pitfall_page_demo",
    &PAGE_PARAMS,
    SharedBytes::Fixed(PAGE_SHARED_BYTES),
    &["st.release.cta.b32", "ld.acquire.cta.b32", "bar.sync"],
    &["relaxed", "fence."],
    &["BAR.SYNC"],
    &[],
);

/// The practice task's relaxed twin: `st.relaxed.cta`, `ld.relaxed.cta`.
pub const PAGE_DEMO_RELAXED: Kernel = kernel(
    Some(Pitfall::RelaxedFlag),
    "pitfall_page_demo_relaxed",
    &PAGE_PARAMS,
    SharedBytes::Fixed(PAGE_SHARED_BYTES),
    &["st.relaxed.cta.b32", "ld.relaxed.cta.b32", "bar.sync"],
    &["release", "acquire", "fence."],
    &["BAR.SYNC"],
    &["MEMBAR"],
);

/// The relaxed twin with the consumer's record loads before its wait, as
/// the model permits the twin to behave.
pub const PAGE_DEMO_EARLY_READ: Kernel = kernel(
    Some(Pitfall::RelaxedFlag),
    "pitfall_page_demo_early_read",
    &PAGE_PARAMS,
    SharedBytes::Fixed(PAGE_SHARED_BYTES),
    &["st.relaxed.cta.b32", "ld.relaxed.cta.b32", "bar.sync"],
    &["release", "acquire", "fence."],
    &["BAR.SYNC"],
    &["MEMBAR"],
);

/// Every pitfall kernel, the harness's first. The histogram's fix is the
/// lab's own `histogram_privatized`, and the accumulator's and the golden
/// test's kernels are the sums': this table holds only kernels no other
/// family has.
pub const KERNELS: [Kernel; 18] = [
    FILL_SHARED,
    BARRIER_IN_BOUNDS_CHECK,
    BARRIER_EVERY_THREAD,
    WARP_SYNC_SAME_WARP,
    WARP_SYNC_OTHER_WARP,
    BLOCK_SYNC_OTHER_WARP,
    BLOCK_SYNC_SAME_WARP,
    PHASE_PARTIALS,
    PHASE_GRID_BARRIER,
    PHASE_TICKET,
    RECORD_TWO_ATOMICS,
    RECORD_ONE_WORD,
    RECORD_SEQLOCK,
    HISTOGRAM_NO_ZEROING_BARRIER,
    HISTOGRAM_NO_FLUSH_BARRIER,
    PAGE_DEMO,
    PAGE_DEMO_RELAXED,
    PAGE_DEMO_EARLY_READ,
];

/// Words of scratch the device-phase kernels keep before the partial sums:
/// the arrival counter (or ticket), then [`PHASE_TIMEOUTS`].
pub const PHASE_HEADER_WORDS: usize = 2;

/// The word of the device-phase scratch that counts the blocks whose wait at
/// the grid barrier passed its deadline.
pub const PHASE_TIMEOUTS: usize = 1;

/// Where the record kernels keep the record and the words around it, in
/// words of `scratch`: field `a` at 0, field `b` at 1 (together one aligned
/// 64-bit word), then [`RECORD_SEQUENCE`], [`RECORD_STARTED`],
/// [`RECORD_DONE`] and [`RECORD_READY`].
pub const RECORD_WORDS: usize = 6;
/// The sequence lock's count: odd while an update is under way, `2k` after
/// update `k`.
pub const RECORD_SEQUENCE: usize = 2;
/// Set to 1 by the writer before its first update (a relaxed store, then a
/// fence): a reader that loads it after its read and finds 0 read before any
/// update.
pub const RECORD_STARTED: usize = 3;
/// Set to 1 by the writer after its last update (a release store): a reader
/// that acquires it before its read reads the final record.
pub const RECORD_DONE: usize = 4;
/// The readers that have arrived: the writer waits for all of them, up to
/// [`RECORD_WAIT_NS`], so that its updates overlap their reads.
pub const RECORD_READY: usize = 5;

/// How long the record writer waits for its readers to arrive before it
/// starts anyway: a bound, since a reader block that is not resident never
/// arrives.
pub const RECORD_WAIT_NS: u64 = 10_000_000;

/// Attempts the sequence lock's reader makes at one read before it gives up
/// on it: a bound, so that a writer that never pauses cannot make a reader
/// spin for ever.
pub const RECORD_TRIES: u32 = 64;

/// How long the sequence lock's writer pauses after each update, in
/// nanoseconds. A sequence lock is for records read far more often than
/// written: against a writer that never pauses, every attempt of a reader
/// can overlap a write, every read be abandoned, and the fix be tested on no
/// read at all.
pub const SEQLOCK_PAUSE_NS: u64 = 4_000;

/// What a record kernel adds into `out`, by index: reads that saw the two
/// fields disagree, among the reads kept that overlapped the writer's
/// updates ([`RECORD_READS`]); attempts a sequence lock threw away
/// ([`RECORD_RETRIES`]); reads it gave up on after [`RECORD_TRIES`] attempts
/// ([`RECORD_ABANDONED`]); and reads made before the writer's first update,
/// which are not counted as reads ([`RECORD_BEFORE`]). A reader stops when
/// it sees the writer done, so it makes no read after the last update.
pub const RECORD_TORN: usize = 0;
/// See [`RECORD_TORN`].
pub const RECORD_READS: usize = 1;
/// See [`RECORD_TORN`].
pub const RECORD_RETRIES: usize = 2;
/// See [`RECORD_TORN`].
pub const RECORD_ABANDONED: usize = 3;
/// See [`RECORD_TORN`].
pub const RECORD_BEFORE: usize = 4;
/// The counters a record kernel's `out` holds.
pub const RECORD_COUNTERS: usize = 5;

/// Threads of page 2's demo launch: `<<<1, 64>>>`, thread 0 the producer
/// and thread 32, in the second warp, the consumer.
pub const PAGE_THREADS: u32 = 64;
/// The demo's shared memory: the record (8 bytes) and its flag.
pub const PAGE_SHARED_BYTES: u32 = 12;
/// What the demo's consumer writes into `out`, by index: the record it read
/// (`observed`: the id, then the score's bits), the page's `error` (1 if the
/// record was not `{42, 3.5}`), and 1 if its wait reached the deadline.
pub const PAGE_OBSERVED_ID: usize = 0;
/// See [`PAGE_OBSERVED_ID`].
pub const PAGE_OBSERVED_SCORE: usize = 1;
/// See [`PAGE_OBSERVED_ID`].
pub const PAGE_ERROR: usize = 2;
/// See [`PAGE_OBSERVED_ID`].
pub const PAGE_TIMED_OUT: usize = 3;
/// The words of the demo's `out`.
pub const PAGE_WORDS: usize = 4;

/// What an exchange kernel adds into `out`: wrong reads, then reads.
pub const EXCHANGE_WRONG: usize = 0;
/// See [`EXCHANGE_WRONG`].
pub const EXCHANGE_READS: usize = 1;
/// The counters an exchange kernel's `out` holds.
pub const EXCHANGE_COUNTERS: usize = 2;
