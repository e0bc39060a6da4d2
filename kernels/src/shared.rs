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

/// The address, in the cluster's shared-memory window, of the word that
/// `local` (a pointer into this block's shared memory) names in the shared
/// memory of the cluster's block `rank`: distributed shared memory.
///
/// Emits `cvta.to.shared.u64` (the generic pointer to a `.shared` address),
/// then `mapa.shared::cluster.u32`, which maps it to block `rank`'s copy.
/// The result is meant for [`load_cluster`] and the `.shared::cluster`
/// accesses of `order`.
///
/// # Safety
///
/// `local` must point into this block's shared memory, and `rank` must be
/// below the cluster's size (`thread::cluster_size`).
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn cluster_address<T>(local: *mut T, rank: u32) -> u32 {
    let window: u64;
    let remote;
    // SAFETY: the caller guarantees a shared-memory pointer and a rank in the
    // cluster; the instructions compute an address and touch no memory.
    unsafe {
        core::arch::asm!(
            "cvta.to.shared.u64 {window}, {local};",
            local = in(reg64) local as u64,
            window = out(reg64) window,
            options(pure, nomem, nostack)
        );
        // A `.shared` address fits in 32 bits: the window is at most the
        // cluster's shared memory.
        core::arch::asm!(
            "mapa.shared::cluster.u32 {remote}, {offset}, {rank};",
            offset = in(reg32) window as u32,
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
