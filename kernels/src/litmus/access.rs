//! How a litmus variant writes each access: one inline-PTX instruction per
//! access or fence, which neither rustc nor LLVM may move past another
//! (`asm!` without `pure` is a side effect that touches memory).
//!
//! Each instruction is spelled by `layout`'s [`layout::litmus_ptx!`], the
//! one spelling that [`layout::litmus::Variant::ptx`] (read by the PTX tests
//! and the memory-model checker) expands too. Every test access uses the
//! `.u32` type, and nothing else in the lab does (the compiler and
//! `AtomicRef` write `.b32`), so the PTX tests can pick a kernel's test
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

/// Declares a variant: its type, and the instruction of each of its
/// accesses, in [`layout::litmus_ptx!`]'s words (`[st relaxed gpu]`): the
/// store and load every variant has, the flag's store and load of a
/// release/acquire variant, the fence of a fenced one.
macro_rules! variant {
    ($(#[$doc:meta])* $name:ident, store [$($store:tt)*], load [$($load:tt)*]
        $(, flag: store [$($store_flag:tt)*], load [$($load_flag:tt)*])?
        $(, fence: [$($fence:tt)*])?
    ) => {
        $(#[$doc])*
        pub struct $name;

        impl Access for $name {
            #[inline(always)]
            unsafe fn store(address: *mut u32, value: u32) {
                // SAFETY: forwarded from the caller.
                unsafe { store!(layout::litmus_ptx!($($store)*), address, value) }
            }
            #[inline(always)]
            unsafe fn load(address: *const u32) -> u32 {
                // SAFETY: forwarded from the caller.
                unsafe { load!(layout::litmus_ptx!($($load)*), address) }
            }
            $(
            #[inline(always)]
            unsafe fn store_flag(address: *mut u32, value: u32) {
                // SAFETY: forwarded from the caller.
                unsafe { store!(layout::litmus_ptx!($($store_flag)*), address, value) }
            }
            #[inline(always)]
            unsafe fn load_flag(address: *const u32) -> u32 {
                // SAFETY: forwarded from the caller.
                unsafe { load!(layout::litmus_ptx!($($load_flag)*), address) }
            }
            )?
            $(
            #[inline(always)]
            fn fence() {
                // SAFETY: a fence has no operands and no preconditions.
                unsafe { asm!(concat!(layout::litmus_ptx!($($fence)*), ";"), options(nostack)) }
            }
            )?
        }
    };
}

/// One store instruction `$ptx` of `value` to the global-window `address`.
/// An `asm!` without `pure`: neither rustc nor LLVM moves it past another.
macro_rules! store {
    ($ptx:expr, $address:expr, $value:expr) => {
        asm!(concat!($ptx, " [{a}], {v};"), a = in(reg64) $address, v = in(reg32) $value, options(nostack))
    };
}

/// One load instruction `$ptx` from the global-window `address`, its value.
macro_rules! load {
    ($ptx:expr, $address:expr) => {{
        let value: u32;
        asm!(concat!($ptx, " {v}, [{a}];"), v = out(reg32) value, a = in(reg64) $address, options(nostack));
        value
    }};
}

variant!(
    /// Plain loads and stores: `st.global.u32` and `ld.global.u32`, weak.
    /// Not atomic in the model's sense, and no other thread's access is
    /// ordered against them; the load may be served from this SM's L1, which
    /// nothing keeps coherent with other SMs' stores.
    Weak, store [st weak], load [ld weak]);
variant!(
    /// Every access `.relaxed.gpu`: strong, at device scope; the load reads
    /// past L1 (SASS `LDG.E.STRONG.GPU`).
    RelaxedGpu, store [st relaxed gpu], load [ld relaxed gpu]);
variant!(
    /// Every access `.relaxed.cta`: strong, but only towards the threads of
    /// this block; the load may be served from this SM's L1 (SASS
    /// `LDG.E.STRONG.SM`).
    RelaxedCta, store [st relaxed cta], load [ld relaxed cta]);
variant!(
    /// Every access `.volatile`, which the PTX ISA (section 8.4.2) makes a
    /// relaxed access at system scope, with only compiler constraints added
    /// (SASS `STG.E.STRONG.SYS`, `LDG.E.STRONG.SYS`): beside [`RelaxedGpu`]
    /// it shows that volatile is no synchronization.
    Volatile, store [st volatile], load [ld volatile]);
variant!(
    /// `.relaxed.gpu`, the flag `st.release.gpu` / `ld.acquire.gpu`: the
    /// stores before the release are visible to any thread whose
    /// device-scope acquire reads it.
    ReleaseAcquireGpu, store [st relaxed gpu], load [ld relaxed gpu],
    flag: store [st release gpu], load [ld acquire gpu]);
variant!(
    /// `.relaxed.cta`, the flag `st.release.cta` / `ld.acquire.cta`: a
    /// release and acquire towards this block only.
    ReleaseAcquireCta, store [st relaxed cta], load [ld relaxed cta],
    flag: store [st release cta], load [ld acquire cta]);
variant!(
    /// `.relaxed.gpu` with `fence.acq_rel.gpu` between a thread's accesses.
    FenceAcqRelGpu, store [st relaxed gpu], load [ld relaxed gpu], fence: [fence acq_rel gpu]);
variant!(
    /// `.relaxed.gpu` with `fence.acq_rel.cta` between a thread's accesses.
    FenceAcqRelCta, store [st relaxed gpu], load [ld relaxed gpu], fence: [fence acq_rel cta]);
variant!(
    /// `.relaxed.gpu` with `fence.sc.gpu` between a thread's accesses.
    FenceScGpu, store [st relaxed gpu], load [ld relaxed gpu], fence: [fence sc gpu]);
variant!(
    /// `.relaxed.gpu` with `fence.sc.cta` between a thread's accesses.
    FenceScCta, store [st relaxed gpu], load [ld relaxed gpu], fence: [fence sc cta]);
#[cfg(feature = "hopper")]
variant!(
    /// Every access `.relaxed.cluster`: strong towards the threads of every
    /// block of this thread's cluster. SASS `STG.E.STRONG.GPU` and
    /// `LDG.E.STRONG.GPU`: `ptxas` gives `.cluster` the device scope's
    /// machine code on sm_90, the cluster's blocks being on several SMs.
    RelaxedCluster, store [st relaxed cluster], load [ld relaxed cluster]);
#[cfg(feature = "hopper")]
variant!(
    /// `.relaxed.cluster`, the flag `st.release.cluster` /
    /// `ld.acquire.cluster`: a release and acquire towards this cluster's
    /// blocks only.
    ReleaseAcquireCluster, store [st relaxed cluster], load [ld relaxed cluster],
    flag: store [st release cluster], load [ld acquire cluster]);
#[cfg(feature = "hopper")]
variant!(
    /// `.relaxed.gpu` with `fence.acq_rel.cluster` between a thread's accesses.
    FenceAcqRelCluster, store [st relaxed gpu], load [ld relaxed gpu], fence: [fence acq_rel cluster]);
#[cfg(feature = "hopper")]
variant!(
    /// `.relaxed.gpu` with `fence.sc.cluster` between a thread's accesses.
    FenceScCluster, store [st relaxed gpu], load [ld relaxed gpu], fence: [fence sc cluster]);
