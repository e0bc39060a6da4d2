//! Memory order: the loads and stores that publish other memory, at a stated
//! scope.
//!
//! An atomic makes one access indivisible; it says nothing about *other*
//! addresses. A release store and an acquire load that reads its value do:
//! every write the releasing thread made before the store is visible to the
//! acquiring thread after the load. The *scope* names which threads the pair
//! synchronizes: `.cta` the threads of one block, `.gpu` every thread of the
//! device, `.sys` every thread of the program, the host's CPU threads
//! included (the `system` family's flags). A pair whose scope leaves one of the two threads out forms no
//! synchronization at all (the wrong-scope variant in `publish`).
//!
//! The volatile load and store are here too, as the counterexample: a
//! volatile access is relaxed at system scope (PTX ISA, section 8.4.2), so
//! it is atomic and its scope covers every thread, but it publishes nothing.
//!
//! All functions here take generic addresses (the PTX forms carry no state
//! space), so they work on shared and global memory alike.

use core::arch::asm;

// ANCHOR: block_release_acquire
/// Stores `value` at `address` with release semantics at block scope.
///
/// Emits `st.release.cta.b32`. Every memory write this thread made before the
/// store is visible to any thread *of the same block* whose acquire load at
/// block scope (or wider) reads `value`. Threads of other blocks get no
/// guarantee.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` (shared or global).
#[inline(always)]
pub unsafe fn store_release_cta(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.release.cta.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

/// Loads the `u32` at `address` with acquire semantics at block scope.
///
/// Emits `ld.acquire.cta.b32`. If it reads a value written by a release store
/// of a thread in the same block, every write that thread made before its
/// store is visible to this thread's later reads.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` (shared or global).
#[inline(always)]
pub unsafe fn load_acquire_cta(address: *const u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("ld.acquire.cta.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg64) address, options(nostack)) }
    value
}
// ANCHOR_END: block_release_acquire

/// Stores `value` at `address` with release semantics at device scope.
///
/// Emits `st.release.gpu.b32`: as [`store_release_cta`], but the guarantee
/// extends to every thread of the device, in any block.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` in global memory (or
/// shared memory, where device scope is merely wider than needed).
#[inline(always)]
pub unsafe fn store_release_gpu(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.release.gpu.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

/// Loads the `u32` at `address` with acquire semantics at device scope.
///
/// Emits `ld.acquire.gpu.b32`: pairs with a [`store_release_gpu`] from any
/// block of the device.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32`.
#[inline(always)]
pub unsafe fn load_acquire_gpu(address: *const u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("ld.acquire.gpu.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg64) address, options(nostack)) }
    value
}

/// Stores `value` at `address` atomically but with no ordering, at block
/// scope.
///
/// Emits `st.relaxed.cta.b32`. The store itself is atomic (never torn, and a
/// relaxed load sees either the old or the new value) but it orders nothing:
/// a thread that reads `value` may still see older contents of *other*
/// addresses this thread wrote before the store.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32`.
#[inline(always)]
pub unsafe fn store_relaxed_cta(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.relaxed.cta.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

/// Loads the `u32` at `address` atomically but with no ordering, at block
/// scope.
///
/// Emits `ld.relaxed.cta.b32`. Reading a value a relaxed store wrote makes
/// nothing else visible.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32`.
#[inline(always)]
pub unsafe fn load_relaxed_cta(address: *const u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("ld.relaxed.cta.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg64) address, options(nostack)) }
    value
}

/// Loads the `u32` at `address` atomically but with no ordering, at device
/// scope.
///
/// Emits `ld.relaxed.gpu.b32`. It reads the value at the device's point of
/// coherence (past this SM's L1), so a spin on it sees another block's store
/// eventually; it publishes nothing else.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32`.
#[inline(always)]
pub unsafe fn load_relaxed_gpu(address: *const u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("ld.relaxed.gpu.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg64) address, options(nostack)) }
    value
}

/// Stores `value` at `address` atomically but with no ordering, at device
/// scope.
///
/// Emits `st.relaxed.gpu.b32`. The store reaches the device's point of
/// coherence, so a device-scope relaxed load anywhere sees it eventually; it
/// publishes no other store.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32`.
#[inline(always)]
pub unsafe fn store_relaxed_gpu(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.relaxed.gpu.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

/// Stores `value` at `address` as a volatile store: what CUDA C++ emits for
/// a store through a `volatile` pointer.
///
/// Emits `st.volatile.b32`. The PTX ISA (section 8.4.2) defines a volatile
/// operation as a relaxed one at system scope (`.sys`, which on one GPU
/// covers every thread of the device), plus two constraints that bind the
/// compiler, not the memory: each volatile instruction is executed, and
/// volatile instructions keep their order among themselves. So the store is
/// atomic and goes past L1 (SASS `ST.E.STRONG.SYS`, the code of
/// `st.relaxed.sys`) but, like [`store_relaxed_gpu`], it orders nothing: a
/// thread that reads `value` may still see older contents of other
/// addresses this thread wrote before it. Volatile is not synchronization.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` (shared or global).
#[inline(always)]
pub unsafe fn store_volatile(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.volatile.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

/// Loads the `u32` at `address` as a volatile load: what CUDA C++ emits for
/// a load through a `volatile` pointer.
///
/// Emits `ld.volatile.b32`: relaxed at system scope (PTX ISA, section
/// 8.4.2), so it reads past L1 (SASS `LD.E.STRONG.SYS`) and a spin on it
/// sees another block's store eventually, but reading a value makes nothing
/// else visible, exactly as with [`load_relaxed_gpu`].
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` (shared or global).
#[inline(always)]
pub unsafe fn load_volatile(address: *const u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("ld.volatile.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg64) address, options(nostack)) }
    value
}

/// A device-scope acquire-release fence. Weaker than CUDA's `__threadfence()`,
/// which is sequentially consistent (`fence.sc.gpu`, `membar.gl`): this one
/// orders as a release and an acquire at device scope, which is all a
/// publication needs.
///
/// Emits `fence.acq_rel.gpu`. It makes no thread wait. It orders this
/// thread's memory operations before the fence against those after it, as seen
/// by any thread of the device that synchronizes with it (for example through
/// an atomic it later observes). A fence alone publishes nothing: it needs a
/// flag or counter that the other thread reads.
#[inline(always)]
pub fn fence_acq_rel_gpu() {
    // SAFETY: a fence has no operands and no preconditions.
    unsafe { asm!("fence.acq_rel.gpu;", options(nostack)) }
}

/// Loads the `u64` at `address` atomically but with no ordering, at device
/// scope.
///
/// Emits `ld.relaxed.gpu.b64`. Like [`load_relaxed_gpu`], it reads past this
/// SM's L1. Its eight bytes are read whole against any `st.relaxed.gpu.b64`
/// of the same address (single-copy atomicity of morally strong accesses):
/// a reader never sees half of one store and half of another, which is what
/// lets a value and its "written" bit travel in one word.
///
/// # Safety
///
/// `address` must point to a live, 8-byte aligned `u64`.
#[inline(always)]
pub unsafe fn load_relaxed_gpu_u64(address: *const u64) -> u64 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("ld.relaxed.gpu.b64 {v}, [{a}];", v = out(reg64) value, a = in(reg64) address, options(nostack)) }
    value
}

/// Stores `value` at `address` atomically but with no ordering, at device
/// scope.
///
/// Emits `st.relaxed.gpu.b64`: the other half of [`load_relaxed_gpu_u64`]'s
/// single-copy atomicity. It publishes no other store.
///
/// # Safety
///
/// `address` must point to a live, 8-byte aligned `u64`.
#[inline(always)]
pub unsafe fn store_relaxed_gpu_u64(address: *mut u64, value: u64) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.relaxed.gpu.b64 [{a}], {v};", a = in(reg64) address, v = in(reg64) value, options(nostack)) }
}

/// Stores `value` at `address` with release semantics at system scope.
///
/// Emits `st.release.sys.b32`: as [`store_release_gpu`], but the guarantee
/// extends to every thread of the program, the host's CPU threads included
/// (PTX ISA, section 8.5: `.sys` holds "all threads on the host"). It is the
/// flag store a GPU producer needs when its consumer is a CPU thread reading
/// mapped host memory.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` (global memory,
/// mapped host memory included).
#[inline(always)]
pub unsafe fn store_release_sys(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.release.sys.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

/// Loads the `u32` at `address` with acquire semantics at system scope.
///
/// Emits `ld.acquire.sys.b32`: pairs with a release store of any thread of
/// the program, a host thread's `Release` store among them, so a GPU
/// consumer of a CPU producer's record needs this one.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` (global memory,
/// mapped host memory included).
#[inline(always)]
pub unsafe fn load_acquire_sys(address: *const u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("ld.acquire.sys.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg64) address, options(nostack)) }
    value
}

/// Stores `value` at `address` atomically but with no ordering, at system
/// scope.
///
/// Emits `st.relaxed.sys.b32`. A host thread is in its scope, so the store
/// reaches host memory whole and a CPU load sees it eventually, but it
/// publishes no other store.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32`.
#[inline(always)]
pub unsafe fn store_relaxed_sys(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.relaxed.sys.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

/// Loads the `u32` at `address` atomically but with no ordering, at system
/// scope.
///
/// Emits `ld.relaxed.sys.b32`. It reads past the GPU's caches, so a spin on
/// it sees a host thread's store eventually; reading a value makes nothing
/// else visible.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32`.
#[inline(always)]
pub unsafe fn load_relaxed_sys(address: *const u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("ld.relaxed.sys.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg64) address, options(nostack)) }
    value
}

/// Declares a fence wrapper: its doc, name and the one PTX instruction it
/// emits. A fence has no operands, makes no thread wait, and orders this
/// thread's memory operations before it against those after it, as seen by
/// the threads of its scope that synchronize with this one.
macro_rules! fence {
    ($(#[$attr:meta])* $name:ident, $ptx:literal) => {
        $(#[$attr])*
        ///
        #[doc = concat!("Emits `", $ptx, "`.")]
        #[inline(always)]
        pub fn $name() {
            // SAFETY: a fence has no operands and no preconditions.
            unsafe { asm!($ptx, options(nostack)) }
        }
    };
}

fence!(
    /// A block-scope acquire-release fence: orders for the threads of one
    /// block only.
    fence_acq_rel_cta, "fence.acq_rel.cta;"
);
fence!(
    /// A system-scope acquire-release fence: orders for every thread of the
    /// program, the host's included.
    fence_acq_rel_sys, "fence.acq_rel.sys;"
);
fence!(
    /// A block-scope sequentially consistent fence (`fence.sc` adds a
    /// single total order of all such fences to acquire-release).
    fence_sc_cta, "fence.sc.cta;"
);
fence!(
    /// A device-scope sequentially consistent fence: CUDA's
    /// `__threadfence()` (`membar.gl`).
    fence_sc_gpu, "fence.sc.gpu;"
);
fence!(
    /// A system-scope sequentially consistent fence: CUDA's
    /// `__threadfence_system()` (`membar.sys`).
    fence_sc_sys, "fence.sc.sys;"
);
fence!(
    /// A cluster-scope acquire-release fence (Hopper module): orders for the
    /// threads of every block of this block's cluster.
    #[cfg(feature = "hopper")]
    fence_acq_rel_cluster, "fence.acq_rel.cluster;"
);
fence!(
    /// A cluster-scope sequentially consistent fence (Hopper module).
    #[cfg(feature = "hopper")]
    fence_sc_cluster, "fence.sc.cluster;"
);

/// Stores `value` at `address`, a word of the cluster's shared-memory window
/// (this block's or another block's shared memory, from
/// `shared::cluster_address`), with release semantics at cluster scope.
///
/// Emits `st.release.cluster.shared::cluster.u32`. Every memory write this
/// thread made before the store is visible to any thread of the same
/// cluster whose cluster-scope (or wider) acquire load reads `value`; the
/// threads of other clusters get no guarantee.
///
/// # Safety
///
/// `address` must come from `shared::cluster_address`, be 4-byte aligned,
/// and the block that owns it must not have exited.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn store_release_cluster_shared(address: u32, value: u32) {
    // SAFETY: the caller guarantees a live, aligned cluster address.
    unsafe {
        asm!("st.release.cluster.shared::cluster.u32 [{a}], {v};", a = in(reg32) address, v = in(reg32) value, options(nostack))
    }
}

// The `.cluster` scope (PTX ISA 7.8, `sm_90`): the threads of every block of
// one thread-block cluster. The PTX ISA's memory-consistency model (section
// "Scope", 8.5 in recent editions) lists `.cta`, `.cluster`, `.gpu` and
// `.sys` as nested thread sets: a `.cluster` release and a `.cluster`
// acquire are morally strong towards each other when both threads are in
// one cluster, whichever blocks of it they run in; a `.cta` pair between
// two blocks is not, so it guarantees nothing there.

/// Stores `value` at `address` with release semantics at cluster scope.
///
/// Emits `st.release.cluster.b32` (generic address). Every memory write this
/// thread made before the store, to its own block's shared memory, another
/// block's through distributed shared memory, or global memory, is visible to
/// any thread *of the same cluster* whose acquire at cluster scope (or wider)
/// reads `value`. Threads of other clusters get no guarantee.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` (shared or global).
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn store_release_cluster(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.release.cluster.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

/// Loads the `u32` at `address` with acquire semantics at cluster scope.
///
/// Emits `ld.acquire.cluster.b32` (generic address): pairs with a
/// [`store_release_cluster`] from any block of this block's cluster.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` (shared or global).
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn load_acquire_cluster(address: *const u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("ld.acquire.cluster.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg64) address, options(nostack)) }
    value
}

/// Stores `value` at `address` atomically but with no ordering, at cluster
/// scope.
///
/// Emits `st.relaxed.cluster.b32` (generic address): atomic, and in scope for
/// every thread of the cluster, but it publishes no other store.
///
/// # Safety
///
/// `address` must point to a live, 4-byte aligned `u32` (shared or global).
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn store_relaxed_cluster(address: *mut u32, value: u32) {
    // SAFETY: the caller guarantees a valid, aligned address.
    unsafe { asm!("st.relaxed.cluster.b32 [{a}], {v};", a = in(reg64) address, v = in(reg32) value, options(nostack)) }
}

/// Loads the `u32` at `address` in the cluster's shared-memory window
/// (usually another block's shared memory) with acquire semantics at
/// cluster scope.
///
/// Emits `ld.acquire.cluster.shared::cluster.b32`: the distributed
/// shared-memory form of [`load_acquire_cluster`]. If it reads the value of a
/// [`store_release_cluster`] or [`store_release_cluster_shared`] by a thread of another block of the cluster,
/// every write that thread made before its store is visible to this thread's
/// later reads, the plain `ld.shared::cluster` of that block's record
/// included.
///
/// # Safety
///
/// `address` must come from `shared::cluster_address`, be 4-byte aligned,
/// and the block that owns it must not have exited.
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn load_acquire_cluster_dsmem(address: u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a live, aligned cluster address.
    unsafe {
        asm!("ld.acquire.cluster.shared::cluster.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg32) address, options(nostack))
    }
    value
}

/// Loads the `u32` at `address` in the cluster's shared-memory window with
/// acquire semantics at *block* scope: the wrong scope for a flag another
/// block of the cluster stores.
///
/// Emits `ld.acquire.cta.shared::cluster.b32`. The load is legal, but its
/// scope is this block's threads only: paired with a release by a thread of
/// another block it is not morally strong, so it forms no synchronization and
/// makes nothing visible.
///
/// # Safety
///
/// As [`load_acquire_cluster_dsmem`].
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn load_acquire_cta_dsmem(address: u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a live, aligned cluster address.
    unsafe {
        asm!("ld.acquire.cta.shared::cluster.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg32) address, options(nostack))
    }
    value
}

/// Loads the `u32` at `address` in the cluster's shared-memory window
/// atomically but with no ordering, at cluster scope.
///
/// Emits `ld.relaxed.cluster.shared::cluster.b32`: a spin on it sees another
/// block's store eventually, but reading a value makes nothing else visible.
///
/// # Safety
///
/// As [`load_acquire_cluster_dsmem`].
#[cfg(feature = "hopper")]
#[inline(always)]
pub unsafe fn load_relaxed_cluster_dsmem(address: u32) -> u32 {
    let value;
    // SAFETY: the caller guarantees a live, aligned cluster address.
    unsafe {
        asm!("ld.relaxed.cluster.shared::cluster.b32 {v}, [{a}];", v = out(reg32) value, a = in(reg32) address, options(nostack))
    }
    value
}
