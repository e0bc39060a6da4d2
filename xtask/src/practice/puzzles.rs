//! The puzzles, in the order of the lessons: what each checks, its hints,
//! and the wrong answers each check must catch.

use layout::practice;

use super::Check::{
    Around, AtLeast, BarrierForAll, Column, Counts, FlagScope, Has, Invariant, Lacks, Publication, Solved,
    StoreBuffering,
};
use super::{BUILDS, Between, Expect, Promises, Puzzle, Wrong};

/// The sums' last step: thread 0 adds the block's sum to the global total,
/// once a block.
const ONE_GLOBAL_ADD_PER_BLOCK: super::Check = Has {
    name: "one global add per block",
    instruction: "red.global.add.f32",
    missing: "the block's sum never reaches the global total",
};

/// Every barrier puzzle's control-flow check.
const EVERY_THREAD_AT_THE_BARRIER: super::Check = BarrierForAll { name: "every thread at the barrier" };

/// The page's sums on a GPU: `host exercise`, every sum at blocks of 64, 256
/// and 1024 compared with the CPU's bit for bit, at one element, one past a
/// block of 4,096 and one past 2^20.
const SUMS_ON_GPU: &[&str] = &["exercise", "--sizes", "1,4097,1048577", "--runs", "1", "--warmup", "0"];

/// Page 2's demo on a GPU: its pitfall's stress loop of launches, which
/// counts the records a consumer saw stale.
const PAGE_DEMO_ON_GPU: &[&str] = &["pitfalls", "--only", "relaxed-flag"];

/// The histograms on a GPU: `host histogram`, every bin compared with the
/// CPU's count, one past a block and one past 2^20 values.
const HISTOGRAM_ON_GPU: &[&str] = &["histogram", "--sizes", "4097,1048577", "--bins", "256"];

/// A publication between two blocks on a GPU: `publish`'s cross-block
/// stress, with the consumer's stale copy of the payload in L1 made likely.
const GRID_PUBLICATION_ON_GPU: &[&str] =
    &["publish", "--variant", "grid-release-acquire", "--preload", "--delay-ns", "2000"];

/// A publication between the two blocks of one cluster on a GPU: the
/// cluster variant of `publish`'s cross-block stress, with the consumer's
/// stale copy made likely as in [`GRID_PUBLICATION_ON_GPU`].
const CLUSTER_PUBLICATION_ON_GPU: &[&str] =
    &["publish", "--variant", "cluster-global-release-acquire", "--preload", "--delay-ns", "2000"];

/// The puzzles whose evidence `check KEY --evidence DIR` keeps beside
/// `key`'s: page 2's practice task asks for the demo and its relaxed
/// variant together.
pub fn evidence_with(key: &str) -> &'static [&'static str] {
    match key {
        "producer-consumer" => &["relaxed-twin"],
        "relaxed-twin" => &["producer-consumer"],
        _ => &[],
    }
}

/// Lesson 1's puzzles, then Lesson 2's.
pub const PUZZLES: [Puzzle; 19] = [
    Puzzle {
        kernel: &practice::PUZZLES[0],
        solution: "kernels/src/sum/global_atomic.rs",
        title: "one atomic add per element",
        lesson: "Lesson 1",
        on_gpu: SUMS_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Has {
                name: "atomic add",
                instruction: "red.global.add.f32",
                missing: "a plain `+=` is a load, an add and a store, and two threads that load the same old \
                          total lose one of their adds",
            },
            Lacks {
                name: "no unused result",
                instruction: "atom.global.add.f32",
                present: "the add fetches the old total and nobody reads it; `add` (PTX `red`) is the add whose \
                          result is not returned",
            },
        ],
        hints: &[
            "`AtomicRef` is the lab's `cuda::atomic_ref`: make one over `total` with \
             `unsafe { AtomicRef::<f32, Device>::from_global(total) }`.",
            "`atomicAdd` is relaxed at device scope: every thread of the grid adds to the one word, so the \
             scope is `Device`, and the ordering `Relaxed`.",
            "`total.add(value, Relaxed)` returns nothing and emits `red.global.add.f32`; read `input[i]` with \
             `unsafe { *input.add(i) }`.",
        ],
        wrong: &[
            Wrong { name: "plain-add", caught_by: "atomic add" },
            Wrong { name: "block-scope", caught_by: BUILDS },
            Wrong { name: "length-as-u32", caught_by: BUILDS },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[1],
        solution: "kernels/src/sum/shared_atomic.rs",
        title: "a private accumulator per block, between two barriers",
        lesson: "Lesson 1",
        on_gpu: SUMS_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Has {
                name: "shared accumulator",
                instruction: "shared.add.f32",
                missing: "no atomic add in shared memory: the block's elements must meet in its own \
                          accumulator, so the global total sees one add per block",
            },
            Has {
                name: "the accumulator reset",
                instruction: "st.shared",
                missing: "nothing stores 0 to the block's accumulator before the adds. Shared memory is not \
                          zeroed when a block starts: it holds what the SM's last block left there, so every block \
                          must reset its accumulator, as a timing loop must reset its total before every launch",
            },
            AtLeast {
                name: "two barriers",
                instruction: "bar.sync",
                count: 2,
                fewer: "without the first, an add can land before thread 0's zero; without the second, thread 0 \
                        can read the block's sum before the other threads' adds land. An atomic makes no thread \
                        wait; a barrier does",
            },
            EVERY_THREAD_AT_THE_BARRIER,
            ONE_GLOBAL_ADD_PER_BLOCK,
        ],
        hints: &[
            "Three phases: thread 0 zeroes `*block_sum`; every thread adds its element to it; thread 0 adds \
             `*block_sum` to `*total`. A barrier between each phase and the next.",
            "The accumulator is in shared memory and only this block's threads add to it: \
             `AtomicRef::<f32, Block>::from_shared(block_sum)` (`atomicAdd_block`), or `Device` as the page's \
             `atomicAdd` is.",
            "`thread::sync_threads()` is `__syncthreads()`: call it where every thread of the block reaches it, \
             never inside `if i < n`.",
        ],
        wrong: &[
            Wrong { name: "one-barrier", caught_by: "two barriers" },
            Wrong { name: "global-per-element", caught_by: "shared accumulator" },
            Wrong { name: "no-zero", caught_by: "the accumulator reset" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[2],
        solution: "kernels/src/sum/tree_atomic.rs",
        title: "a tree in shared memory, a barrier every step",
        lesson: "Lesson 1",
        on_gpu: SUMS_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Lacks {
                name: "no atomic in the block",
                instruction: "shared.add",
                present: "the tree needs no atomic in the block: each step's additions go to distinct slots, in an \
                          order the algorithm fixes",
            },
            AtLeast {
                name: "a barrier per step",
                instruction: "bar.sync",
                count: 2,
                fewer: "one barrier after the tile is written and one at the end of every step, outside the `if`: \
                        with fewer, a step can read a slot another thread has not written yet",
            },
            EVERY_THREAD_AT_THE_BARRIER,
            ONE_GLOBAL_ADD_PER_BLOCK,
        ],
        hints: &[
            "First every thread writes one slot: `tile.add(tid).write(...)`, 0.0 past the end of the input, then \
             a barrier.",
            "`let mut half = thread::block_dim_x() as usize / 2; while half > 0 { ...; half /= 2; }`, and in the \
             loop `if tid < half { tile[tid] += tile[tid + half] }`.",
            "The barrier of each step goes after the `if`, inside the loop: every thread reaches it, even those \
             with nothing to add.",
        ],
        wrong: &[
            Wrong { name: "no-barrier-per-step", caught_by: "a barrier per step" },
            Wrong { name: "barrier-inside-if", caught_by: "every thread at the barrier" },
            Wrong { name: "shared-atomic-per-element", caught_by: "no atomic in the block" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[3],
        solution: "practice/solutions/block_size.rs",
        title: "the block-size exercise: which column barely moves, and why",
        lesson: "Lesson 1",
        // The page's exercise as it ships: your three sums at blocks of 64,
        // 256 and 1024, the nine ratios at the largest size, every sum
        // checked bit for bit.
        on_gpu: &["exercise"],
        sass: Promises::Lab,
        checks: &[
            Counts { name: "your counts" },
            Column { name: "the column that barely moves" },
            Solved { name: "your three sums" },
        ],
        hints: &[
            "Count the atomic adds each kernel sends to `*total` in one launch, as a function of `n` and the \
             block size `block`. Two of the three counts change when the block does. One does not.",
            "`sum_global_atomic` adds every element to `*total`; the other two add once per block, and a launch \
             has `n / block` blocks (rounded up).",
            "The column whose count has no `block` in it barely moves: its time is set by the adds that meet at \
             one address, and changing the block size changes neither their number nor where they meet.",
        ],
        wrong: &[
            Wrong { name: "per-thread-count", caught_by: "your counts" },
            Wrong { name: "names-the-tree", caught_by: "the column that barely moves" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[4],
        solution: "practice/solutions/sum_warp_shuffle.rs",
        title: "a block's sum in registers, warp by warp",
        lesson: "Lesson 1",
        on_gpu: &["sweep", "--sizes", "1,4097,1048577", "--runs", "1", "--warmup", "0", "--determinism-runs", "0"],
        sass: Promises::Lab,
        checks: &[
            Has {
                name: "warp shuffles",
                instruction: "shfl.sync.bfly",
                missing: "no butterfly shuffle: the lanes of a warp trade their values through registers, five \
                          `shfl.sync.bfly` steps to the warp's sum",
            },
            Lacks {
                name: "no atomic in the block",
                instruction: "shared.add",
                present: "the warp sums meet in a shared accumulator by atomic adds: correct, but in the \
                          hardware's order; warp 0 can add them with the same shuffles, in a fixed order",
            },
            AtLeast {
                name: "a barrier between the warps",
                instruction: "bar.sync",
                count: 1,
                fewer: "warp 0 reads the sums the other warps' lane 0 wrote to shared memory: without a block \
                        barrier between, it can read them before they are written",
            },
            EVERY_THREAD_AT_THE_BARRIER,
            ONE_GLOBAL_ADD_PER_BLOCK,
        ],
        hints: &[
            "A warp's sum: `let mut mask = 16; while mask > 0 { value += unsafe { warp::shfl_xor_f32(value, \
             mask) }; mask /= 2; }`. Every lane ends with the same sum.",
            "Lane 0 of each warp writes `warp_sums[warp_id]`; then `thread::sync_threads()`, outside every `if`.",
            "Warp 0 loads `warp_sums[lane]` (0.0 for `lane >= block / 32`), shuffles again, and its lane 0 adds \
             to `*total` with `AtomicRef::<f32, Device>::from_global(total).add(sum, Relaxed)`.",
        ],
        wrong: &[
            Wrong { name: "no-barrier", caught_by: "a barrier between the warps" },
            Wrong { name: "shared-atomic-per-warp", caught_by: "no atomic in the block" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[5],
        solution: "practice/solutions/deterministic_sum.rs",
        title: "the same bits every run: a golden == test that holds",
        lesson: "Lesson 1",
        on_gpu: &["pitfalls", "--only", "golden-equality"],
        sass: Promises::Own { has: &["SHFL.BFLY", "MEMBAR.ALL.GPU", "ATOMG.E.ADD"], lacks: &["REDG.E.ADD.F32"] },
        checks: &[
            Lacks {
                name: "no float atomic",
                instruction: "red.global.add.f32",
                present: "a float atomic adds in the order the warps arrive, which changes from run to run; float \
                          addition is not associative, so the last bits change with it",
            },
            Has {
                name: "a ticket a chunk",
                instruction: "atom.global.add.u32",
                missing: "no ticket: `fetch_add` (PTX `atom`) returns the count before this chunk's, which is how a \
                          lane learns it holds the last chunk and may add the partials",
            },
            Around {
                name: "a fence on each side",
                fence: "fence.acq_rel.gpu",
                access: "atom.global.add.u32",
                missing: "the ticket is atomic and orders nothing else. A fence before it keeps the partial's store \
                          ahead of the ticket; a fence after it, in the last lane, keeps the partials' loads behind \
                          its ticket",
            },
            Has {
                name: "the ticket put back",
                instruction: "st.relaxed.gpu.b32",
                missing: "the ticket is never put back to 0, so the next launch counts on from where this one \
                          stopped and no lane of it draws the last ticket",
            },
        ],
        hints: &[
            "Lane 0 of the warp writes `partials[chunk] = sum`, then takes a ticket: \
             `AtomicRef::<u32, Device>::from_global(&raw mut (*handoff).ticket).fetch_add(1, Relaxed)`.",
            "The lane whose ticket is `chunks - 1` adds `partials[0]`, `partials[1]`, ... in that order, writes \
             `*total`, and stores 0 into the ticket (`AtomicRef::from_ptr(...).store(0, Relaxed)`).",
            "`fence(AcqRel, Device)` before `fetch_add`, and again inside the `if`, before the loads: puzzle 11's \
             pattern, one chunk a ticket.",
        ],
        wrong: &[
            Wrong { name: "atomic-total", caught_by: "no float atomic" },
            Wrong { name: "no-fences", caught_by: "a fence on each side" },
            Wrong { name: "no-reset", caught_by: "the ticket put back" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[6],
        solution: "practice/solutions/histogram_global_atomic.rs",
        title: "a histogram, one global atomic a value",
        lesson: "Lesson 2",
        on_gpu: HISTOGRAM_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Lacks {
                name: "no unused result",
                instruction: "atom.global.add.u32",
                present: "the increment fetches the old count and nobody reads it; `add` (PTX `red`) is the \
                          increment whose result is not returned",
            },
            Has {
                name: "atomic increment",
                instruction: "red.global.add.u32",
                missing: "`+= 1` is a load, an add and a store: two threads counting one value both load the old \
                          count, and one increment is lost",
            },
        ],
        hints: &[
            "Puzzle 1 again, on `u32` bins: `AtomicRef::<u32, Device>::from_global(bins.add(value as usize))`.",
            "Read the value first, inside `if i < n`: `let value = unsafe { *input.add(i) };`.",
            "`.add(1, Relaxed)`: PTX `red.global.add.u32`, CUDA's `atomicAdd` with its result unused.",
        ],
        wrong: &[
            Wrong { name: "plain-increment", caught_by: "atomic increment" },
            Wrong { name: "fetch-add", caught_by: "no unused result" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[7],
        solution: "kernels/src/histogram/privatized.rs",
        title: "a private histogram per block, between two barriers",
        lesson: "Lesson 2",
        on_gpu: HISTOGRAM_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Has {
                name: "shared bins",
                instruction: "shared.add.u32",
                missing: "no atomic increment in shared memory: each block must count into its own bins, so the \
                          global histogram sees one add per bin per block",
            },
            AtLeast {
                name: "two barriers",
                instruction: "bar.sync",
                count: 2,
                fewer: "without the first, a thread can increment a bin another thread has not zeroed yet; \
                        without the second, a bin can be copied out before the other threads' increments land. \
                        The increments are atomic, and atomicity makes no thread wait",
            },
            EVERY_THREAD_AT_THE_BARRIER,
            Has {
                name: "one global add per bin",
                instruction: "red.global.add.u32",
                missing: "the block's bins never reach the global histogram",
            },
        ],
        hints: &[
            "Three phases, each over the bins or the values: zero `local`, count the values into it, add it to \
             `bins`. A loop `let mut b = thread::thread_idx_x(); while b < num_bins { ...; b += \
             thread::block_dim_x(); }` shares the bins among the block's threads.",
            "A bin in shared memory: `AtomicRef::<u32, Block>::from_shared(local.add(value as usize))` and \
             `.add(1, Relaxed)`; a bin of the global histogram: `AtomicRef::<u32, Device>::from_global(...)`.",
            "`thread::sync_threads()` after the zeroing loop and after the counting, both where every thread of \
             the block reaches them.",
        ],
        wrong: &[
            Wrong { name: "no-flush-barrier", caught_by: "two barriers" },
            Wrong { name: "global-per-value", caught_by: "shared bins" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[8],
        solution: "practice/solutions/barrier_every_thread.rs",
        title: "a block barrier every thread reaches",
        lesson: "Lesson 2",
        on_gpu: &["pitfalls", "--only", "divergent-barrier"],
        sass: Promises::Lab,
        checks: &[EVERY_THREAD_AT_THE_BARRIER],
        hints: &[
            "`__syncthreads()` waits for every thread of the block. Which threads never get to the first one?",
            "A thread past `n` has no input, but it still has a slot in the tile: what value can it write there \
             that leaves the block's sum unchanged?",
            "Guard only the load: `let value = if i < n { unsafe { *input.add(i) } } else { 0 };`, write it to \
             the tile, and call `thread::sync_threads()` outside every `if`.",
        ],
        wrong: &[
            Wrong { name: "barrier-inside-if", caught_by: "every thread at the barrier" },
            Wrong { name: "zero-but-return", caught_by: "every thread at the barrier" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[9],
        solution: "practice/solutions/block_barrier.rs",
        title: "a block barrier where the data crosses warps",
        lesson: "Lesson 2",
        on_gpu: &["pitfalls", "--only", "warp-scope"],
        sass: Promises::Lab,
        checks: &[
            Lacks {
                name: "no warp barrier",
                instruction: "bar.warp.sync",
                present: "a warp barrier orders the 32 lanes of one warp, and each thread here reads a slot another \
                          warp writes: the warp barrier does not wait for that warp",
            },
            AtLeast {
                name: "two barriers a round",
                instruction: "bar.sync",
                count: 2,
                fewer: "one after the write, so the partner's value is there to read, and one after the read, so \
                        the partner's warp does not overwrite it for the next round first",
            },
            EVERY_THREAD_AT_THE_BARRIER,
        ],
        hints: &[
            "Whose write does each thread read? Thread `t` reads slot `t + 32`, written by a thread of the next warp.",
            "`warp::sync()` is `__syncwarp()`: its participants are one warp's lanes. `thread::sync_threads()` is \
             `__syncthreads()`: every thread of the block.",
            "Both waits need the block barrier: the second keeps the next round's write after this round's read \
             (a write-after-read hazard).",
        ],
        wrong: &[
            Wrong { name: "warp-barrier-first", caught_by: "no warp barrier" },
            Wrong { name: "one-barrier", caught_by: "two barriers a round" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[10],
        solution: "practice/solutions/last_block.rs",
        title: "a sum in one launch: the last block combines",
        lesson: "Lesson 2",
        on_gpu: &["pitfalls", "--only", "device-phase"],
        sass: Promises::Lab,
        checks: &[
            Has {
                name: "a ticket a block",
                instruction: "atom.global.add.u32",
                missing: "no ticket: `fetch_add` (PTX `atom`) returns the count before this block's add, which is how \
                          a block learns it is the last; `add` (PTX `red`) returns nothing",
            },
            Around {
                name: "a fence on each side",
                fence: "fence.acq_rel.gpu",
                access: "atom.global.add.u32",
                missing: "the ticket is atomic and orders nothing else. A fence before it keeps the partial's store \
                          ahead of the ticket (release); a fence after it, in the last block, keeps the partials' \
                          loads behind its ticket (acquire)",
            },
        ],
        hints: &[
            "`partials.add(block).write(partial)`, then the ticket: `AtomicRef::<u32, Device>::from_global(scratch)\
             .fetch_add(1, Relaxed)`, then `if ticket + 1 == grid { ... }`.",
            "The last block's loads of the partials must not be satisfied before its ticket, and the other blocks' \
             partial stores must not be seen after theirs. Which instruction orders plain accesses around a \
             relaxed atomic?",
            "`fence(AcqRel, Device)` before `fetch_add` and again inside the `if`, before the loads: PTX \
             `fence.acq_rel.gpu`, the fence-fence synchronization of the PTX model.",
        ],
        wrong: &[
            Wrong { name: "no-fences", caught_by: "a fence on each side" },
            Wrong { name: "fence-after-ticket", caught_by: "a fence on each side" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[11],
        solution: "practice/solutions/producer_consumer.rs",
        title: "the page's producer_consumer_demo<<<1, 64>>>",
        lesson: "Lesson 2, part 2",
        on_gpu: PAGE_DEMO_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Publication { name: "the model's verdict", expect: Expect::Correct, between: Between::Warps },
            FlagScope { name: "narrowest scope", between: Between::Warps },
            Invariant { name: "written invariant" },
        ],
        hints: &[
            "The flag is one `u32` in shared memory: `AtomicRef::<u32, SCOPE>::from_ptr(ready_storage)`. Both \
             threads are in one block: which scope holds exactly them?",
            "The producer writes the record with ordinary stores, then `ready.store(1, ORDERING)`: which ordering \
             makes the stores before it visible to a thread that reads the 1?",
            "The consumer waits with `while ready.load(ORDERING) == 0`, and reads the record only after the \
             loop: `Release` on the store, `Acquire` on the load, both at `Block`.",
        ],
        wrong: &[
            Wrong { name: "relaxed-flag", caught_by: "the model's verdict" },
            Wrong { name: "read-before-flag", caught_by: "the model's verdict" },
            Wrong { name: "device-scope", caught_by: "narrowest scope" },
            Wrong { name: "invariant-says-device", caught_by: "written invariant" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[12],
        solution: "practice/solutions/relaxed_twin.rs",
        title: "the relaxed twin: a passing run is not a proof",
        lesson: "Lesson 2, part 2",
        on_gpu: PAGE_DEMO_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Publication { name: "the model's verdict", expect: Expect::StalePermitted, between: Between::Warps },
            FlagScope { name: "narrowest scope", between: Between::Warps },
        ],
        hints: &[
            "This is puzzle 12 with one change on each side: the flag stays an `AtomicRef<u32, Block>`.",
            "`Relaxed` on the store and on the load: the flag is still atomic, and the consumer still sees the 1 \
             eventually.",
            "Once it compiles, read the model's verdict: the execution it permits is the page's reason why a \
             passing relaxed run is not a correctness proof.",
        ],
        wrong: &[Wrong { name: "release-acquire", caught_by: "the model's verdict" }],
    },
    Puzzle {
        kernel: &practice::PUZZLES[13],
        solution: "practice/solutions/record_one_word.rs",
        title: "a two-field record that no reader sees torn",
        lesson: "Lesson 2, part 2",
        on_gpu: &["pitfalls", "--only", "torn-record"],
        sass: Promises::Lab,
        checks: &[
            Has {
                name: "one store a version",
                instruction: "st.relaxed.gpu.b64",
                missing: "no 64-bit atomic store: two stores, one a field, are each atomic and the pair is not, \
                          so a reader can load `a` of one version and `b` of the next",
            },
            Has {
                name: "one load a read",
                instruction: "ld.relaxed.gpu.b64",
                missing: "no 64-bit atomic load: read as two loads, the record can change between them, whatever \
                          the writer did",
            },
        ],
        hints: &[
            "Both fields are `u32`, and together they are 8 aligned bytes: one `u64`.",
            "`AtomicRef::<u64, Device>::from_ptr(record.cast::<u64>())`, with `a` in the low half: `(u64::from(k) \
             << 32) | u64::from(k)`.",
            "`.store(word, Relaxed)` and `.load(Relaxed)`: PTX `st.relaxed.gpu.b64` and `ld.relaxed.gpu.b64`, \
             single-copy atomic on an aligned 8-byte word. The order of other memory is not the question here.",
        ],
        wrong: &[
            Wrong { name: "two-atomics", caught_by: "one store a version" },
            Wrong { name: "two-loads", caught_by: "one load a read" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[14],
        solution: "practice/solutions/publish_across_blocks.rs",
        title: "a publication across blocks, at the narrowest scope",
        lesson: "Lesson 2, part 2",
        on_gpu: GRID_PUBLICATION_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Publication { name: "the model's verdict", expect: Expect::Correct, between: Between::Blocks },
            FlagScope { name: "narrowest scope", between: Between::Blocks },
        ],
        hints: &[
            "Start from puzzle 12's two functions: the protocol is the same, only the threads moved.",
            "A scope is the set of threads an operation synchronizes with. `Block` holds one block's threads; \
             which scope holds two blocks of one grid, and nothing wider?",
            "`AtomicRef::<u32, Device>::from_ptr(ready_storage)`, `Release` on the store and `Acquire` on the \
             load: PTX `st.release.gpu` and `ld.acquire.gpu`.",
        ],
        wrong: &[
            Wrong { name: "block-scope", caught_by: "the model's verdict" },
            Wrong { name: "relaxed-flag", caught_by: "the model's verdict" },
            Wrong { name: "system-scope", caught_by: "narrowest scope" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[15],
        solution: "practice/solutions/fence_across_blocks.rs",
        title: "a relaxed flag between the weakest fences",
        lesson: "Lesson 2, part 2",
        on_gpu: GRID_PUBLICATION_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Publication { name: "the model's verdict", expect: Expect::Correct, between: Between::Blocks },
            Lacks {
                name: "the weakest fence",
                instruction: "fence.sc",
                present: "`fence.sc` (`__threadfence()`) is sequentially consistent, more than message passing \
                          needs: `fence.acq_rel` on each side forbids its stale read. Store buffering is where \
                          only `fence.sc` will do",
            },
            FlagScope { name: "narrowest scope", between: Between::Blocks },
        ],
        hints: &[
            "Puzzle 15's two functions with `Relaxed` on the flag, and one fence on each side: where must each \
             fence stand for the record to be ordered against the flag?",
            "The producer's fence goes between its record stores and its flag store; the consumer's between the \
             flag load that read 1 and its record loads.",
            "`fence(AcqRel, Device)`: PTX `fence.acq_rel.gpu`. A fence at `Block` orders nothing for the other \
             block's thread.",
        ],
        wrong: &[
            Wrong { name: "block-fence", caught_by: "the model's verdict" },
            Wrong { name: "producer-fence-only", caught_by: "the model's verdict" },
            Wrong { name: "fence-sc", caught_by: "the weakest fence" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[16],
        solution: "practice/solutions/store_buffering.rs",
        title: "two flags, where only fence.sc will do",
        lesson: "Lesson 2, part 2",
        on_gpu: &[],
        sass: Promises::Lab,
        checks: &[StoreBuffering { name: "the model's verdict" }],
        hints: &[
            "Each thread's store of its own flag must be ordered before its own load of the other's flag, as the \
             other thread sees them. Which of release, acquire, an `AcqRel` fence and a `SeqCst` fence orders a \
             store before a later load?",
            "A release orders the accesses before it; an acquire those after it. Neither orders a store before a \
             later load, and `fence.acq_rel` is a release and an acquire at once.",
            "`mine.store(1, Relaxed); fence(SeqCst, Device); theirs.load(Relaxed) == 0`: PTX `fence.sc.gpu`, \
             `__threadfence()`, at the scope that holds both blocks.",
        ],
        wrong: &[
            Wrong { name: "acq-rel-fence", caught_by: "the model's verdict" },
            Wrong { name: "block-fence", caught_by: "the model's verdict" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[17],
        solution: "practice/solutions/publish_to_host.rs",
        title: "a publication to a CPU thread, at system scope",
        lesson: "Lesson 2, part 2",
        on_gpu: &["publish-sys", "--variant", "gpu-cpu-release-sys", "--launches", "20"],
        sass: Promises::Lab,
        checks: &[Publication { name: "the model's verdict", expect: Expect::Correct, between: Between::Host }],
        hints: &[
            "The record first, with an ordinary store: `*records.add(i) = Record::expected(round, i as u32)`.",
            "Then the flag, atomically, with an ordering that publishes the stores before it: `Release`.",
            "The host's thread is in no block and on no GPU: only `System` (`.sys`) holds it. \
             `AtomicRef::<u32, System>::from_ptr(flags.add(i)).store(round, Release)`.",
        ],
        wrong: &[
            Wrong { name: "device-scope", caught_by: "the model's verdict" },
            Wrong { name: "relaxed-flag", caught_by: "the model's verdict" },
        ],
    },
    Puzzle {
        kernel: &practice::PUZZLES[18],
        solution: "practice/solutions/publish_in_cluster.rs",
        title: "a publication between two blocks of one cluster (Hopper)",
        lesson: "Lesson 2, part 2",
        on_gpu: CLUSTER_PUBLICATION_ON_GPU,
        sass: Promises::Lab,
        checks: &[
            Publication { name: "the model's verdict", expect: Expect::Correct, between: Between::Cluster },
            FlagScope { name: "narrowest scope", between: Between::Cluster },
        ],
        hints: &[
            "Puzzle 15's two functions are a correct answer here, at a scope wider than it needs: which scope \
             lies between `Block` and `Device`?",
            "`Cluster` (PTX `.cluster`) holds every thread of every block of one cluster. Placed in one cluster, \
             the two blocks need no more; across clusters it would leave the producer out.",
            "`AtomicRef::<u32, Cluster>::from_ptr(ready_storage)`, `Release` on the store and `Acquire` on the \
             load: PTX `st.release.cluster` and `ld.acquire.cluster`.",
        ],
        wrong: &[
            Wrong { name: "block-scope", caught_by: "the model's verdict" },
            Wrong { name: "relaxed-flag", caught_by: "the model's verdict" },
            Wrong { name: "device-scope", caught_by: "narrowest scope" },
        ],
    },
];
