//! The block's dynamic shared memory, sized by the launch.
//!
//! CUDA C++ writes `extern __shared__ float tile[];` and passes the byte count
//! as the third launch parameter. Rust's nvptx backend spells the same thing
//! `core::intrinsics::gpu::gpu_launch_sized_workgroup_mem`, which the PTX shows
//! as one `.extern .shared .align 16 .b8 ...[]` declaration per module.

/// The start of this block's dynamic shared memory, typed as `T`.
///
/// Emits a `.extern .shared` declaration and a `cvta.shared.u64` to turn its
/// address into a generic pointer, so ordinary loads and stores through it work
/// (`ld`/`st` on generic addresses resolve to shared memory at run time).
///
/// The pointer is the same for every call in a block and is aligned for `T`.
/// How many `T` fit behind it is decided by the host: the launch's
/// shared-memory bytes. Reading past them is undefined.
#[inline(always)]
pub fn dynamic_shared<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}

/// The address of `local`, a pointer into this block's shared memory, in
/// the `.shared` state space: the 32-bit operand of the instructions that
/// take a shared-memory address (`mapa`, `mbarrier`).
///
/// Emits `cvta.to.shared.u64`. A `.shared` address fits in 32 bits: the
/// window is at most the cluster's shared memory.
///
/// # Safety
///
/// `local` must point into this block's shared memory.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn window_address<T>(local: *mut T) -> u32 {
    let window: u64;
    // SAFETY: the caller guarantees a shared-memory pointer; the instruction
    // computes an address and touches no memory.
    unsafe {
        core::arch::asm!(
            "cvta.to.shared.u64 {window}, {local};",
            local = in(reg64) local as u64,
            window = out(reg64) window,
            options(pure, nomem, nostack)
        )
    };
    window as u32
}

/// The address, in the cluster's shared-memory window, of the word that
/// `local` (a pointer into this block's shared memory) names in the shared
/// memory of the cluster's block `rank`: distributed shared memory.
///
/// Emits `cvta.to.shared.u64` ([`window_address`]), then
/// `mapa.shared::cluster.u32`, which maps it to block `rank`'s copy.
/// The result is meant for [`load_cluster`], [`store_async_cluster_f64`]
/// and the `.shared::cluster` accesses of `order`.
///
/// # Safety
///
/// `local` must point into this block's shared memory, and `rank` must be
/// below the cluster's size (`thread::cluster_size`).
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn cluster_address<T>(local: *mut T, rank: u32) -> u32 {
    let remote;
    // SAFETY: the caller guarantees a shared-memory pointer and a rank in the
    // cluster; the instruction computes an address and touches no memory.
    unsafe {
        core::arch::asm!(
            "mapa.shared::cluster.u32 {remote}, {offset}, {rank};",
            offset = in(reg32) window_address(local),
            rank = in(reg32) rank,
            remote = out(reg32) remote,
            options(pure, nomem, nostack)
        );
    }
    remote
}

/// Loads the `u32` at `address` in the cluster's shared-memory window, which
/// may be another block's shared memory, with a weak (plain) load.
///
/// Emits `ld.shared::cluster.u32`.
///
/// # Safety
///
/// `address` must come from [`cluster_address`], be aligned, and the block
/// that owns it must not have exited (see `thread::sync_cluster`).
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn load_cluster(address: u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a live, aligned cluster address.
    unsafe {
        core::arch::asm!("ld.shared::cluster.u32 {v}, [{a}];", v = out(reg32) value, a = in(reg32) address, options(nostack))
    };
    value
}

/// Initialises the `mbarrier` at `barrier` (8 bytes of this block's shared
/// memory) to expect `arrivals` arrivals per phase, then makes the
/// initialisation visible to the cluster: `cuda::barrier`'s `init`, with
/// `cuda::ptx::fence_mbarrier_init` after it.
///
/// Emits `mbarrier.init.shared::cta.b64`, then
/// `fence.mbarrier_init.release.cluster`, a fence for this one purpose
/// (PTX ISA 8.0): a block of the cluster that acquires this thread's later
/// arrival at the cluster barrier (even a relaxed one,
/// [`thread::cluster_arrive_relaxed`](crate::thread::cluster_arrive_relaxed))
/// may then complete transactions on the barrier, as `st.async` does
/// ([`store_async_cluster_f64`]).
///
/// # Safety
///
/// `barrier` must be 8-byte aligned in this block's shared memory, and no
/// thread may use it before this call; `arrivals` is from 1 to 2^20 − 1.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn mbarrier_init(barrier: *mut u64, arrivals: u32) {
    // SAFETY: the caller guarantees an aligned shared-memory word that no
    // thread uses yet.
    unsafe {
        core::arch::asm!(
            "mbarrier.init.shared::cta.b64 [{b}], {count};",
            "fence.mbarrier_init.release.cluster;",
            b = in(reg32) window_address(barrier),
            count = in(reg32) arrivals,
            options(nostack)
        )
    };
}

/// Arrives at the `mbarrier` at `barrier` and raises the bytes its current
/// phase waits for by `bytes`: the phase completes once every expected
/// arrival has come and that many bytes of asynchronous stores
/// ([`store_async_cluster_f64`]) have landed, in whichever order.
///
/// Emits `mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], bytes` (PTX ISA
/// 8.0), with release semantics at `.cta` scope.
///
/// # Safety
///
/// `barrier` was initialised ([`mbarrier_init`]) in this block's shared
/// memory; the phase still expects this arrival.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(barrier: *mut u64, bytes: u32) {
    // SAFETY: the caller guarantees an initialised barrier of this block.
    unsafe {
        core::arch::asm!(
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [{b}], {bytes};",
            b = in(reg32) window_address(barrier),
            bytes = in(reg32) bytes,
            options(nostack)
        )
    };
}

/// Whether the phase of parity `parity` (0 for the first phase) of the
/// `mbarrier` at `barrier` has completed; if it has, this thread sees every
/// store the phase counted, whichever block of the cluster made it. The
/// hardware may hold the thread a while before it answers `false`, so a loop
/// on it does not spin at full speed.
///
/// Emits `mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64` (PTX
/// ISA 8.0) and `selp` to turn its predicate into a value. The scope is the
/// cluster's because the bytes it counts come from other blocks' `st.async`
/// (CCCL's `st.async` example waits the same way); the default, `.cta`, is
/// for stores of this block.
///
/// # Safety
///
/// `barrier` was initialised ([`mbarrier_init`]) in this block's shared
/// memory.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn mbarrier_try_wait_parity(barrier: *mut u64, parity: u32) -> bool {
    let done: u32;
    // SAFETY: the caller guarantees an initialised barrier of this block.
    unsafe {
        // One line: a `}` alone at the start of a line reads as the end of
        // the function to the tests' PTX parser (`entry_body`).
        core::arch::asm!(
            "{{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [{b}], {parity}; selp.u32 {done}, 1, 0, p; }}",
            b = in(reg32) window_address(barrier),
            parity = in(reg32) parity,
            done = out(reg32) done,
            options(nostack)
        )
    };
    done != 0
}

/// Stores the `f64` `value` at `address` in the cluster's shared-memory
/// window (another block's shared memory, or this block's), asynchronously,
/// and counts its 8 bytes on the `mbarrier` at `barrier`, which must be in
/// the same block as `address`: the way one block hands another a value
/// with no fence and no barrier of its own. The owner learns the value has
/// landed when the barrier's phase completes
/// ([`mbarrier_try_wait_parity`]).
///
/// Emits `st.async.shared::cluster.mbarrier::complete_tx::bytes.b64` (PTX
/// ISA 8.1). The store is weak; the completion of its bytes on the
/// barrier is what publishes it.
///
/// # Safety
///
/// `address` and `barrier` come from [`cluster_address`] of one block and
/// are 8-byte aligned; that block has initialised the barrier and this
/// thread has seen the initialisation (the cluster barrier after
/// [`mbarrier_init`]'s fence), and the block does not exit before the
/// barrier's phase completes; no other thread accesses the word
/// concurrently.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn store_async_cluster_f64(address: u32, value: f64, barrier: u32) {
    // SAFETY: the caller guarantees live, aligned cluster addresses of one
    // block and an initialised barrier.
    unsafe {
        core::arch::asm!(
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [{a}], {v}, [{b}];",
            a = in(reg32) address,
            v = in(reg64) value.to_bits(),
            b = in(reg32) barrier,
            options(nostack)
        )
    };
}
