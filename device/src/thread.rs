//! Where a thread is in the launch, and the block barrier.
//!
//! The names follow `cuda_std::thread`. Every read is of a PTX special
//! register (`%tid`, `%ctaid`, `%ntid`, `%nctaid`) and is free of side effects.

use core::arch::nvptx;

/// This thread's index within its block along x (`threadIdx.x`).
///
/// Emits `mov.u32 %r, %tid.x`.
#[inline(always)]
pub fn thread_idx_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_thread_idx_x() }
}

/// This block's index within the grid along x (`blockIdx.x`).
///
/// Emits `mov.u32 %r, %ctaid.x`.
#[inline(always)]
pub fn block_idx_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_block_idx_x() }
}

/// The number of threads in a block along x (`blockDim.x`).
///
/// Emits `mov.u32 %r, %ntid.x`.
#[inline(always)]
pub fn block_dim_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_block_dim_x() }
}

/// The number of blocks in the grid along x (`gridDim.x`).
///
/// Emits `mov.u32 %r, %nctaid.x`.
#[inline(always)]
pub fn grid_dim_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_grid_dim_x() }
}

/// This thread's index in a one-dimensional grid,
/// `blockIdx.x * blockDim.x + threadIdx.x`, computed in 64 bits.
///
/// The product is widened before it is formed, as the page's
/// `static_cast<size_t>(blockDim.x)` does, so grids of more than 2^32 threads
/// index correctly.
#[inline(always)]
pub fn index_1d() -> usize {
    block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize
}

// ANCHOR: sync_threads
/// The block barrier, `__syncthreads()`.
///
/// Emits `barrier.sync 0` (`bar.sync 0`). Every thread of the block waits
/// here until all of them have arrived, and shared- and global-memory writes
/// made by the block's threads before the barrier are visible to the block's
/// threads after it. It orders nothing for other blocks.
///
/// # Safety
///
/// Every thread of the block must reach this call, the same number of times:
/// a barrier in a branch that some threads skip deadlocks or is undefined.
#[inline(always)]
pub unsafe fn sync_threads() {
    // SAFETY: the caller guarantees the barrier is reached by the whole block.
    unsafe { nvptx::_syncthreads() }
}
// ANCHOR_END: sync_threads

/// The block barrier that also ORs a predicate over the block,
/// `__syncthreads_or(predicate)`.
///
/// Emits `bar.red.or.pred`. It is [`sync_threads`] (same waiting, same
/// visibility within the block), and every thread leaves it with `true` if
/// any thread of the block entered with `true`: one thread's verdict reaches
/// the whole block without a shared-memory word and a second barrier.
///
/// # Safety
///
/// As for [`sync_threads`]: every thread of the block must reach it.
#[inline(always)]
pub unsafe fn sync_threads_or(predicate: bool) -> bool {
    let any: u32;
    // SAFETY: the caller guarantees the barrier is reached by the whole block.
    unsafe {
        core::arch::asm!(
            // The braces scope the two predicates to this block; they open
            // and close mid-line, so no line of the PTX is a lone brace.
            "{{ .reg .pred p, q;",
            "setp.ne.u32 p, {x}, 0;",
            "bar.red.or.pred q, 0, p;",
            "selp.u32 {any}, 1, 0, q; }}",
            x = in(reg32) u32::from(predicate),
            any = out(reg32) any,
            options(nostack),
        );
    }
    any != 0
}

/// The GPU's global nanosecond timer (`%globaltimer`).
///
/// Emits `mov.u64 %rd, %globaltimer`. It is shared by every SM, so two
/// threads anywhere on the device can compare readings; its resolution is
/// coarse (about a microsecond on recent GPUs). The `publish` kernels use it
/// to bound a spin by time, not by a count of loads.
#[inline(always)]
pub fn global_timer_ns() -> u64 {
    let t: u64;
    // SAFETY: reading a special register has no preconditions.
    unsafe { core::arch::asm!("mov.u64 {t}, %globaltimer;", t = out(reg64) t, options(nomem, nostack)) };
    t
}

/// This block's rank within its thread-block cluster, from 0 to
/// [`cluster_size`] − 1 (`cluster.block_rank()` in CUDA C++).
///
/// Emits `mov.u32 %r, %cluster_ctarank` (PTX ISA 7.8, `sm_90`).
#[cfg(feature = "hopper")]
#[inline(always)]
pub fn cluster_block_rank() -> u32 {
    let rank;
    // SAFETY: reading a special register has no preconditions.
    unsafe { core::arch::asm!("mov.u32 {r}, %cluster_ctarank;", r = out(reg32) rank, options(nomem, nostack)) };
    rank
}

/// The number of blocks in this block's cluster (`cluster.num_blocks()`):
/// 1 for a launch without clusters.
///
/// Emits `mov.u32 %r, %cluster_nctarank`.
#[cfg(feature = "hopper")]
#[inline(always)]
pub fn cluster_size() -> u32 {
    let size;
    // SAFETY: reading a special register has no preconditions.
    unsafe { core::arch::asm!("mov.u32 {r}, %cluster_nctarank;", r = out(reg32) size, options(nomem, nostack)) };
    size
}

/// This block's cluster's index in the grid along x (`clusterIdx.x`).
///
/// Emits `mov.u32 %r, %clusterid.x`.
#[cfg(feature = "hopper")]
#[inline(always)]
pub fn cluster_idx_x() -> u32 {
    let index;
    // SAFETY: reading a special register has no preconditions.
    unsafe { core::arch::asm!("mov.u32 {r}, %clusterid.x;", r = out(reg32) index, options(nomem, nostack)) };
    index
}

/// The cluster barrier, `cluster.sync()`: the cluster's phase boundary, as
/// [`sync_threads`] is the block's.
///
/// Emits `barrier.cluster.arrive.aligned` then `barrier.cluster.wait.aligned`,
/// through LLVM's NVVM intrinsics rather than inline assembly: like the block
/// barrier's, they are marked convergent, so the optimizer never copies the
/// barrier into the arms of a branch, which `.aligned` (every thread of a warp
/// executes the same barrier instruction) forbids. Every thread of every
/// block of the cluster waits until all of them have arrived. Without a
/// qualifier the arrive has release and the wait acquire semantics, at
/// `.cluster` scope, so memory operations a thread of the cluster made before
/// the barrier (to its own or another block's shared memory, or to global
/// memory) are visible to every thread of the cluster after it. It orders
/// nothing for other clusters.
///
/// It is also what keeps distributed shared memory alive: a block's shared
/// memory is released when the block exits, so a block whose shared memory
/// others read must not exit before they are done, which a barrier after the
/// last remote access ensures.
///
/// # Safety
///
/// Every thread of every block of the cluster must reach this call, the same
/// number of times, in convergence: a barrier some threads skip deadlocks the
/// cluster.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn sync_cluster() {
    unsafe extern "C" {
        #[link_name = "llvm.nvvm.barrier.cluster.arrive.aligned"]
        fn barrier_cluster_arrive_aligned();
        #[link_name = "llvm.nvvm.barrier.cluster.wait.aligned"]
        fn barrier_cluster_wait_aligned();
    }
    // SAFETY: the caller guarantees every thread of the cluster reaches it,
    // converged.
    unsafe {
        barrier_cluster_arrive_aligned();
        barrier_cluster_wait_aligned();
    }
}

/// The cluster barrier's first half, with no memory ordering: this thread
/// has arrived, and publishes none of its memory operations by it.
///
/// Emits `barrier.cluster.arrive.relaxed.aligned` (PTX ISA 8.0), through
/// LLVM's convergent NVVM intrinsic (see [`sync_cluster`] for why not inline
/// assembly). An arrive at a kernel's entry, with its [`cluster_wait`] just
/// before the first access to another block's shared memory, is how a block
/// learns that every block of its cluster has started (which distributed
/// shared memory requires) without waiting for it: the phase completes while
/// the block does its own work. The release form would put a
/// `MEMBAR.ALL.GPU` on the way to the first load, and at the entry there is
/// nothing to release; what must be published (an `mbarrier`'s
/// initialisation) is published by its own fence,
/// [`shared::mbarrier_init`](crate::shared::mbarrier_init)'s.
///
/// # Safety
///
/// Every thread of the warp executes the same call (`.aligned`); every
/// thread of the cluster arrives once per phase, and a thread that arrived
/// calls [`cluster_wait`] before it arrives again.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn cluster_arrive_relaxed() {
    unsafe extern "C" {
        #[link_name = "llvm.nvvm.barrier.cluster.arrive.relaxed.aligned"]
        fn barrier_cluster_arrive_relaxed_aligned();
    }
    // SAFETY: the caller keeps the barrier's rules.
    unsafe { barrier_cluster_arrive_relaxed_aligned() }
}

/// The cluster barrier's second half, with acquire semantics at `.cluster`
/// scope: waits until every non-exited thread of the cluster has arrived at
/// this phase, then sees what each releasing arrival (or fence before a
/// relaxed one) ordered before it.
///
/// Emits `barrier.cluster.wait.aligned` (acquire is the default), through
/// LLVM's convergent NVVM intrinsic.
///
/// # Safety
///
/// Every thread of the warp executes the same call (`.aligned`), and this
/// thread arrived at the phase it waits for.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn cluster_wait() {
    unsafe extern "C" {
        #[link_name = "llvm.nvvm.barrier.cluster.wait.aligned"]
        fn barrier_cluster_wait_aligned();
    }
    // SAFETY: the caller keeps the barrier's rules.
    unsafe { barrier_cluster_wait_aligned() }
}

/// Aborts the kernel on purpose: a wait on another thread passed its
/// deadline, which in a correct launch it never does. The driver reports it
/// to the host as the launch's error (`CUDA_ERROR_ILLEGAL_INSTRUCTION`, on
/// the next synchronising call), so a broken launch ends with a message, not
/// a hang and not a wrong value.
///
/// Emits `trap;` with the comment `// give up: a wait passed its deadline`
/// after it, which tells it from the panic handler's unmarked `trap` in the
/// PTX.
#[inline(always)]
pub fn give_up() -> ! {
    // SAFETY: `trap` aborts the kernel; it has no preconditions.
    unsafe { core::arch::asm!("trap; // give up: a wait passed its deadline", options(noreturn, nomem, nostack)) }
}

/// The index of the SM this thread runs on (`%smid`).
///
/// Emits `mov.u32 %r, %smid`. The PTX ISA warns that the value may change
/// during a thread's life (a preempted block can resume elsewhere) and need
/// not be contiguous; the ladder reads it once to report which SMs its two
/// agents ran on.
#[inline(always)]
pub fn sm_id() -> u32 {
    let sm;
    // SAFETY: reading a special register has no preconditions.
    unsafe { core::arch::asm!("mov.u32 {r}, %smid;", r = out(reg32) sm, options(nomem, nostack)) };
    sm
}
