//! How a litmus variant writes each access: one inline-PTX instruction per
//! access or fence, which neither rustc nor LLVM may move past another
//! (`asm!` without `pure` is a side effect that touches memory).
//!
//! Every test access uses the `.u32` type, and nothing else in the lab does
//! (the compiler writes `.b32`), so the PTX tests can pick a kernel's test
//! accesses out of its body and check their order and qualifiers. Addresses
//! are in the global window (`Env` converts them once with
//! `cvta.to.global`).
//!
//! `ptxas` may still reorder the *weak* accesses of [`Weak`] against each
//! other: that is part of what the weak variant shows. It keeps the
//! accesses of [`Volatile`] in order, as the ISA requires of volatile
//! instructions; the hardware need not.
//!
//! The `.cluster` variants ([`RelaxedCluster`], [`ReleaseAcquireCluster`],
//! [`FenceAcqRelCluster`], [`FenceScCluster`]) exist only with the `hopper`
//! feature, in the sm_90 module: `.cluster` is a scope of PTX ISA 7.8 for
//! sm_90 and later, which the sm_70 module cannot name.

use core::arch::asm;

/// The accesses and fence of one variant. A role's flag access (the release
/// store or acquire load in a release/acquire variant) goes through
/// [`Access::store_flag`] and [`Access::load_flag`]; every other access
/// through [`Access::store`] and [`Access::load`].
pub trait Access {
    /// Stores `value` at `address`.
    ///
    /// # Safety
    ///
    /// `address` must be a 4-byte aligned word of global memory, in the
    /// global window.
    unsafe fn store(address: *mut u32, value: u32);

    /// Loads the word at `address`.
    ///
    /// # Safety
    ///
    /// As [`Access::store`].
    unsafe fn load(address: *const u32) -> u32;

    /// Stores the flag: a release in a release/acquire variant.
    ///
    /// # Safety
    ///
    /// As [`Access::store`].
    #[inline(always)]
    unsafe fn store_flag(address: *mut u32, value: u32) {
        // SAFETY: forwarded from the caller.
        unsafe { Self::store(address, value) }
    }

    /// Loads the flag: an acquire in a release/acquire variant.
    ///
    /// # Safety
    ///
    /// As [`Access::store`].
    #[inline(always)]
    unsafe fn load_flag(address: *const u32) -> u32 {
        // SAFETY: forwarded from the caller.
        unsafe { Self::load(address) }
    }

    /// The fence between two accesses of one thread, if the variant has one.
    #[inline(always)]
    fn fence() {}
}

macro_rules! store {
    ($(#[$doc:meta])* $name:ident, $ptx:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// `address` must be a 4-byte aligned global word, in the global window.
        #[inline(always)]
        pub unsafe fn $name(address: *mut u32, value: u32) {
            // SAFETY: the caller guarantees a valid, aligned global address.
            unsafe { asm!(concat!($ptx, " [{a}], {v};"), a = in(reg64) address, v = in(reg32) value, options(nostack)) }
        }
    };
}

macro_rules! load {
    ($(#[$doc:meta])* $name:ident, $ptx:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// `address` must be a 4-byte aligned global word, in the global window.
        #[inline(always)]
        pub unsafe fn $name(address: *const u32) -> u32 {
            let value;
            // SAFETY: the caller guarantees a valid, aligned global address.
            unsafe { asm!(concat!($ptx, " {v}, [{a}];"), v = out(reg32) value, a = in(reg64) address, options(nostack)) }
            value
        }
    };
}

macro_rules! fence {
    ($(#[$doc:meta])* $name:ident, $ptx:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name() {
            // SAFETY: a fence has no operands and no preconditions.
            unsafe { asm!(concat!($ptx, ";"), options(nostack)) }
        }
    };
}

store!(
    /// `st.global.u32`: a weak store. Not atomic in the model's sense, and no
    /// other thread's access is ordered against it.
    store_weak, "st.global.u32");
load!(
    /// `ld.global.u32`: a weak load, cached in this SM's L1, which nothing
    /// keeps coherent with other SMs' stores.
    load_weak, "ld.global.u32");
store!(
    /// `st.relaxed.gpu.global.u32`: a strong store, at device scope.
    store_relaxed_gpu, "st.relaxed.gpu.global.u32");
load!(
    /// `ld.relaxed.gpu.global.u32`: a strong load at device scope; it reads
    /// past L1 (SASS `LDG.E.STRONG.GPU`).
    load_relaxed_gpu, "ld.relaxed.gpu.global.u32");
store!(
    /// `st.relaxed.cta.global.u32`: a strong store, but only towards the
    /// threads of this block.
    store_relaxed_cta, "st.relaxed.cta.global.u32");
load!(
    /// `ld.relaxed.cta.global.u32`: a strong load towards this block only; it
    /// may be served from this SM's L1 (SASS `LDG.E.STRONG.SM`).
    load_relaxed_cta, "ld.relaxed.cta.global.u32");
store!(
    /// `st.volatile.global.u32`: a volatile store, which the PTX ISA
    /// (section 8.4.2) makes a relaxed store at system scope, with only
    /// compiler constraints added (SASS `STG.E.STRONG.SYS`).
    store_volatile, "st.volatile.global.u32");
load!(
    /// `ld.volatile.global.u32`: a volatile load, relaxed at system scope; it
    /// reads past L1 (SASS `LDG.E.STRONG.SYS`) and orders nothing.
    load_volatile, "ld.volatile.global.u32");
store!(
    /// `st.release.gpu.global.u32`: the stores before it are visible to any
    /// thread whose device-scope acquire reads this one.
    store_release_gpu, "st.release.gpu.global.u32");
load!(
    /// `ld.acquire.gpu.global.u32`: pairs with a device-scope release.
    load_acquire_gpu, "ld.acquire.gpu.global.u32");
store!(
    /// `st.release.cta.global.u32`: a release towards this block only.
    store_release_cta, "st.release.cta.global.u32");
load!(
    /// `ld.acquire.cta.global.u32`: an acquire towards this block only.
    load_acquire_cta, "ld.acquire.cta.global.u32");
fence!(
    /// `fence.acq_rel.gpu`.
    fence_acq_rel_gpu, "fence.acq_rel.gpu");
fence!(
    /// `fence.acq_rel.cta`.
    fence_acq_rel_cta, "fence.acq_rel.cta");
fence!(
    /// `fence.sc.gpu`.
    fence_sc_gpu, "fence.sc.gpu");
fence!(
    /// `fence.sc.cta`.
    fence_sc_cta, "fence.sc.cta");
#[cfg(feature = "hopper")]
store!(
    /// `st.relaxed.cluster.global.u32`: a strong store towards the threads
    /// of every block of this thread's cluster (SASS `STG.E.STRONG.GPU`:
    /// `ptxas` gives `.cluster` the device scope's machine code on sm_90).
    store_relaxed_cluster, "st.relaxed.cluster.global.u32");
#[cfg(feature = "hopper")]
load!(
    /// `ld.relaxed.cluster.global.u32`: a strong load towards this cluster;
    /// it reads past L1 (SASS `LDG.E.STRONG.GPU`), the cluster's blocks
    /// being on several SMs.
    load_relaxed_cluster, "ld.relaxed.cluster.global.u32");
#[cfg(feature = "hopper")]
store!(
    /// `st.release.cluster.global.u32`: a release towards this cluster's
    /// blocks only.
    store_release_cluster, "st.release.cluster.global.u32");
#[cfg(feature = "hopper")]
load!(
    /// `ld.acquire.cluster.global.u32`: pairs with a cluster-scope release
    /// in a block of this cluster.
    load_acquire_cluster, "ld.acquire.cluster.global.u32");
#[cfg(feature = "hopper")]
fence!(
    /// `fence.acq_rel.cluster`.
    fence_acq_rel_cluster, "fence.acq_rel.cluster");
#[cfg(feature = "hopper")]
fence!(
    /// `fence.sc.cluster`.
    fence_sc_cluster, "fence.sc.cluster");

/// Declares a variant: its type, and the functions its accesses use.
macro_rules! variant {
    ($(#[$doc:meta])* $name:ident, $store:ident, $load:ident $(, flag: $store_flag:ident, $load_flag:ident)? $(, fence: $fence:ident)?) => {
        $(#[$doc])*
        pub struct $name;

        impl Access for $name {
            #[inline(always)]
            unsafe fn store(address: *mut u32, value: u32) {
                // SAFETY: forwarded from the caller.
                unsafe { $store(address, value) }
            }
            #[inline(always)]
            unsafe fn load(address: *const u32) -> u32 {
                // SAFETY: forwarded from the caller.
                unsafe { $load(address) }
            }
            $(
            #[inline(always)]
            unsafe fn store_flag(address: *mut u32, value: u32) {
                // SAFETY: forwarded from the caller.
                unsafe { $store_flag(address, value) }
            }
            #[inline(always)]
            unsafe fn load_flag(address: *const u32) -> u32 {
                // SAFETY: forwarded from the caller.
                unsafe { $load_flag(address) }
            }
            )?
            $(
            #[inline(always)]
            fn fence() {
                $fence()
            }
            )?
        }
    };
}

variant!(
    /// Plain loads and stores.
    Weak, store_weak, load_weak);
variant!(
    /// Every access `.relaxed.gpu`.
    RelaxedGpu, store_relaxed_gpu, load_relaxed_gpu);
variant!(
    /// Every access `.relaxed.cta`.
    RelaxedCta, store_relaxed_cta, load_relaxed_cta);
variant!(
    /// Every access `.volatile`: relaxed at `.sys` to the memory model, so
    /// beside [`RelaxedGpu`] it shows that volatile is no synchronization.
    Volatile, store_volatile, load_volatile);
variant!(
    /// `.relaxed.gpu`, the flag `st.release.gpu` / `ld.acquire.gpu`.
    ReleaseAcquireGpu, store_relaxed_gpu, load_relaxed_gpu, flag: store_release_gpu, load_acquire_gpu);
variant!(
    /// `.relaxed.cta`, the flag `st.release.cta` / `ld.acquire.cta`.
    ReleaseAcquireCta, store_relaxed_cta, load_relaxed_cta, flag: store_release_cta, load_acquire_cta);
variant!(
    /// `.relaxed.gpu` with `fence.acq_rel.gpu` between a thread's accesses.
    FenceAcqRelGpu, store_relaxed_gpu, load_relaxed_gpu, fence: fence_acq_rel_gpu);
variant!(
    /// `.relaxed.gpu` with `fence.acq_rel.cta` between a thread's accesses.
    FenceAcqRelCta, store_relaxed_gpu, load_relaxed_gpu, fence: fence_acq_rel_cta);
variant!(
    /// `.relaxed.gpu` with `fence.sc.gpu` between a thread's accesses.
    FenceScGpu, store_relaxed_gpu, load_relaxed_gpu, fence: fence_sc_gpu);
variant!(
    /// `.relaxed.gpu` with `fence.sc.cta` between a thread's accesses.
    FenceScCta, store_relaxed_gpu, load_relaxed_gpu, fence: fence_sc_cta);
#[cfg(feature = "hopper")]
variant!(
    /// Every access `.relaxed.cluster`.
    RelaxedCluster, store_relaxed_cluster, load_relaxed_cluster);
#[cfg(feature = "hopper")]
variant!(
    /// `.relaxed.cluster`, the flag `st.release.cluster` / `ld.acquire.cluster`.
    ReleaseAcquireCluster, store_relaxed_cluster, load_relaxed_cluster, flag: store_release_cluster, load_acquire_cluster);
#[cfg(feature = "hopper")]
variant!(
    /// `.relaxed.gpu` with `fence.acq_rel.cluster` between a thread's accesses.
    FenceAcqRelCluster, store_relaxed_gpu, load_relaxed_gpu, fence: fence_acq_rel_cluster);
#[cfg(feature = "hopper")]
variant!(
    /// `.relaxed.gpu` with `fence.sc.cluster` between a thread's accesses.
    FenceScCluster, store_relaxed_gpu, load_relaxed_gpu, fence: fence_sc_cluster);
