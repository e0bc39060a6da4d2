//! Memory order: atomic references and fences at a stated scope, spelled as
//! CUDA's `cuda::atomic_ref` and Rust's `core::sync::atomic` spell them.
//!
//! The page writes
//!
//! ```text
//! cuda::atomic_ref<int, cuda::thread_scope_block> ready(*ready_storage);
//! ready.store(1, cuda::memory_order_release);
//! ```
//!
//! and a kernel here writes
//!
//! ```text
//! let ready = unsafe { AtomicRef::<u32, Block>::from_ptr(ready_storage) };
//! ready.store(1, Release);
//! ```
//!
//! An atomic makes one access indivisible; it says nothing about *other*
//! addresses. A release store and an acquire load that reads its value do:
//! every write the releasing thread made before the store is visible to the
//! acquiring thread after the load. The *scope* names which threads the pair
//! synchronizes: [`Block`] (`.cta`) the threads of one block, `Cluster`
//! (`.cluster`, Hopper module) those of one thread-block cluster, [`Device`]
//! (`.gpu`) every thread of the device, [`System`] (`.sys`) every thread of
//! the program, the host's CPU threads included (the `system` family's
//! flags). A pair whose scope leaves one of the two threads out forms no
//! synchronization at all (the wrong-scope variants in `publish`).
//!
//! Scopes and orderings are types, so each access is one PTX instruction
//! chosen at compile time, and an ordering the instruction cannot express is
//! a compile error rather than a silently stronger instruction: a store is
//! [`Relaxed`] or [`Release`] (`st.relaxed`, `st.release`), a load [`Relaxed`]
//! or [`Acquire`] (`ld.relaxed`, `ld.acquire`), a fence [`AcqRel`] or
//! [`SeqCst`] (`fence.acq_rel`, `fence.sc`). `ready.store(1, Acquire)` does
//! not compile. The traits [`LoadOrdering`], [`StoreOrdering`] and
//! [`FenceOrdering`] list, row by row, the instruction of each pair.
//!
//! [`Volatile`] is here too, as the counterexample: a volatile access is
//! relaxed at system scope (PTX ISA, section 8.4.2), so it is atomic and its
//! scope covers every thread, but it publishes nothing. It is an ordering of
//! [`System`] scope only.
//!
//! An [`AtomicRef`] holds a generic address (the PTX forms carry no state
//! space), so it works on shared and global memory alike. The Hopper
//! module's `DsmemAtomicRef` holds an address in the cluster's
//! shared-memory window (`.shared::cluster`), which is no Rust pointer.

use core::arch::asm;
use core::marker::PhantomData;

mod sealed {
    /// Keeps the scopes and orderings to the ones this module defines: each
    /// pair of them is one PTX instruction listed here.
    pub trait Sealed {}
}
use sealed::Sealed;

/// A thread scope: the set of threads an atomic access or a fence
/// synchronizes with (`cuda::thread_scope_*`, PTX `.scope`).
pub trait Scope: Sealed {}

/// The threads of this thread's block: `cuda::thread_scope_block`, PTX
/// `.cta`.
#[derive(Clone, Copy, Debug)]
pub struct Block;

/// The threads of every block of this thread's thread-block cluster:
/// `cuda::thread_scope_cluster`, PTX `.cluster` (PTX ISA 7.8, `sm_90`, so
/// the Hopper module only).
///
/// The PTX ISA's memory-consistency model (section "Scope", 8.5 in recent
/// editions) lists `.cta`, `.cluster`, `.gpu` and `.sys` as nested thread
/// sets: a `.cluster` release and a `.cluster` acquire are morally strong
/// towards each other when both threads are in one cluster, whichever
/// blocks of it they run in; a `.cta` pair between two blocks is not, so it
/// guarantees nothing there.
#[cfg(feature = "hopper")]
#[derive(Clone, Copy, Debug)]
pub struct Cluster;

/// Every thread of the device, in any block: `cuda::thread_scope_device`,
/// PTX `.gpu`.
#[derive(Clone, Copy, Debug)]
pub struct Device;

/// Every thread of the program, the host's CPU threads included:
/// `cuda::thread_scope_system`, PTX `.sys` (PTX ISA, section 8.5: `.sys`
/// holds "all threads on the host").
#[derive(Clone, Copy, Debug)]
pub struct System;

impl Sealed for Block {}
impl Scope for Block {}
#[cfg(feature = "hopper")]
impl Sealed for Cluster {}
#[cfg(feature = "hopper")]
impl Scope for Cluster {}
impl Sealed for Device {}
impl Scope for Device {}
impl Sealed for System {}
impl Scope for System {}

/// No ordering: the access itself is atomic (never torn, and a relaxed load
/// sees either the old or the new value), but it orders nothing around it.
/// `memory_order_relaxed`, PTX `.relaxed`.
#[derive(Clone, Copy, Debug)]
pub struct Relaxed;

/// A load that, reading a release store's value, makes every write the
/// storing thread made before that store visible to this thread's later
/// reads. `memory_order_acquire`, PTX `.acquire`.
#[derive(Clone, Copy, Debug)]
pub struct Acquire;

/// A store that publishes every write this thread made before it to the
/// threads of its scope whose acquire reads it. `memory_order_release`, PTX
/// `.release`.
#[derive(Clone, Copy, Debug)]
pub struct Release;

/// Acquire and release at once: `memory_order_acq_rel`, PTX `.acq_rel` (the
/// lab uses it for fences).
#[derive(Clone, Copy, Debug)]
pub struct AcqRel;

/// Acquire-release plus one total order of all such operations:
/// `memory_order_seq_cst`, PTX `.sc` (the lab uses it for fences).
#[derive(Clone, Copy, Debug)]
pub struct SeqCst;

/// What CUDA C++ emits for an access through a `volatile` pointer, PTX
/// `.volatile`: no C++ memory order, but the PTX ISA (section 8.4.2) defines
/// it as relaxed at system scope ([`System`], which on one GPU covers every
/// thread of the device), plus two constraints that bind the compiler, not
/// the memory: each volatile instruction is executed, and volatile
/// instructions keep their order among themselves. So the access is atomic
/// and goes past L1 (SASS `.STRONG.SYS`), but like [`Relaxed`] it orders
/// nothing. Volatile is not synchronization.
#[derive(Clone, Copy, Debug)]
pub struct Volatile;

/// A memory ordering: one of the unit types above, passed as a value
/// (`ready.store(1, Release)`). Which orderings an access may have is the
/// business of the per-access traits below and of `crate::atomic`'s.
pub trait Ordering: Sealed + Copy {}

macro_rules! orderings {
    ($($order:ident),+) => {
        $(
            impl Sealed for $order {}
            impl Ordering for $order {}
        )+
    };
}
orderings!(Relaxed, Acquire, Release, AcqRel, SeqCst, Volatile);

/// The orderings a load of a `T` at scope `S` can have: one PTX `ld` each,
/// listed with its instruction where it is implemented below.
#[diagnostic::on_unimplemented(
    message = "PTX has no load of `{T}` with `{Self}` ordering at `{S}` scope",
    note = "a load is `Relaxed` (`ld.relaxed`) or `Acquire` (`ld.acquire`), or `Volatile` (`ld.volatile`) at `System` scope"
)]
pub trait LoadOrdering<T, S>: Sealed + Copy {
    /// The load itself: one PTX `ld`.
    ///
    /// # Safety
    ///
    /// `address` must point to a live, aligned `T`.
    #[doc(hidden)]
    unsafe fn load(address: *const T) -> T;
}

/// The orderings a store of a `T` at scope `S` can have: one PTX `st` each.
#[diagnostic::on_unimplemented(
    message = "PTX has no store of `{T}` with `{Self}` ordering at `{S}` scope",
    note = "a store is `Relaxed` (`st.relaxed`) or `Release` (`st.release`), or `Volatile` (`st.volatile`) at `System` scope"
)]
pub trait StoreOrdering<T, S>: Sealed + Copy {
    /// The store itself: one PTX `st`.
    ///
    /// # Safety
    ///
    /// `address` must point to a live, aligned `T`.
    #[doc(hidden)]
    unsafe fn store(address: *mut T, value: T);
}

/// The orderings a fence at scope `S` can have: one PTX `fence` each.
#[diagnostic::on_unimplemented(
    message = "PTX has no fence with `{Self}` ordering at `{S}` scope",
    note = "a fence is `AcqRel` (`fence.acq_rel`) or `SeqCst` (`fence.sc`)"
)]
pub trait FenceOrdering<S>: Sealed {
    /// The fence itself: one PTX `fence`.
    #[doc(hidden)]
    fn fence();
}

/// The state space an [`AtomicRef`]'s address lies in, as the PTX
/// instruction names it.
///
/// A Rust pointer is a generic address. The `.global` and `.shared` forms of
/// an instruction need an address in that space's own window, so a reference
/// made with [`AtomicRef::from_global`] or [`AtomicRef::from_shared`]
/// converts its address with `cvta.to.global` or `cvta.to.shared` before
/// each instruction, the way nvcc writes an `atomicAdd` whose pointer it
/// knows to be global or shared. Passing a pointer into the other space is
/// undefined behaviour that `ptxas` cannot catch, which is why the space is
/// part of the reference's type and of its constructor's safety contract.
pub trait Space: Sealed {}

/// A generic address, valid in any state space: the instruction carries no
/// space (`ld.acquire.cta.b32 [a]`). The default, made by
/// [`AtomicRef::from_ptr`].
#[derive(Clone, Copy, Debug)]
pub struct Generic;

/// An address in global memory: the instruction's `.global` form, after
/// `cvta.to.global.u64`. Made by [`AtomicRef::from_global`].
#[derive(Clone, Copy, Debug)]
pub struct Global;

/// An address in this block's shared memory: the instruction's `.shared`
/// form, after `cvta.to.shared.u64`. Made by [`AtomicRef::from_shared`].
#[derive(Clone, Copy, Debug)]
pub struct Shared;

impl Sealed for Generic {}
impl Space for Generic {}
impl Sealed for Global {}
impl Space for Global {}
impl Sealed for Shared {}
impl Space for Shared {}

/// An atomic reference to a `T` at scope `S`, its address in state space `M`:
/// the lab's `cuda::atomic_ref<T, S>`, which the page builds over a plain
/// `int`.
///
/// It is as cheap as the pointer: each method is one PTX instruction, chosen
/// at compile time from `T`, `S`, `M` and the ordering passed. Loads and
/// stores (this module) take a generic address, so the word may be in
/// shared, global or mapped host memory; the read-modify-writes (`add`,
/// `fetch_add`, `exchange`, ..., in `crate::atomic`) take a `.global` or
/// `.shared` one, as nvcc's do. Plain (non-atomic) reads and writes of the
/// same word elsewhere, such as a reset before a barrier, are the caller's
/// to order, as with `cuda::atomic_ref`.
pub struct AtomicRef<T, S, M = Generic> {
    pub(crate) address: *mut T,
    scope: PhantomData<(S, M)>,
}

impl<T, S, M> Clone for AtomicRef<T, S, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, S, M> Copy for AtomicRef<T, S, M> {}

impl<T, S: Scope> AtomicRef<T, S> {
    /// An atomic reference to the `T` at the generic `address`:
    /// `cuda::atomic_ref<T, S> r(*address)`, or Rust's
    /// `AtomicU32::from_ptr`. Emits nothing.
    ///
    /// # Safety
    ///
    /// `address` must point to a live, aligned `T` (shared, global or mapped
    /// host memory) for as long as the reference is used.
    #[inline(always)]
    pub const unsafe fn from_ptr(address: *mut T) -> Self {
        Self { address, scope: PhantomData }
    }

    /// An atomic reference to the `T` at `address` in global memory, for
    /// the read-modify-writes' `.global` forms. Emits nothing; each method
    /// converts the address with `cvta.to.global.u64`.
    ///
    /// # Safety
    ///
    /// `address` must point to a live, aligned `T` in global memory for as
    /// long as the reference is used.
    #[inline(always)]
    pub const unsafe fn from_global(address: *mut T) -> AtomicRef<T, S, Global> {
        AtomicRef { address, scope: PhantomData }
    }

    /// An atomic reference to the `T` at `address` in this block's shared
    /// memory, for the read-modify-writes' `.shared` forms. Emits nothing;
    /// each method converts the address with `cvta.to.shared.u64`.
    ///
    /// # Safety
    ///
    /// `address` must be a generic pointer to a live, aligned `T` in this
    /// block's shared memory (for example from `shared::dynamic_shared`)
    /// for as long as the reference is used.
    #[inline(always)]
    pub const unsafe fn from_shared(address: *mut T) -> AtomicRef<T, S, Shared> {
        AtomicRef { address, scope: PhantomData }
    }

    /// Loads the value with ordering `O`: `r.load(order)`.
    ///
    /// Emits `ld.relaxed.{scope}.b{bits}` for [`Relaxed`] and
    /// `ld.acquire.{scope}.b{bits}` for [`Acquire`] (`.cta`, `.cluster`,
    /// `.gpu` or `.sys` after `S`); `ld.volatile.b32` for [`Volatile`] at
    /// [`System`]. A relaxed load of [`Device`] or wider reads past this SM's
    /// L1, so a spin on it sees another block's store eventually. An acquire
    /// that reads a release store's value of a thread in scope makes every
    /// write that thread made before its store visible to this thread's
    /// later reads. Another ordering does not compile.
    #[inline(always)]
    pub fn load<O: LoadOrdering<T, S>>(&self, order: O) -> T {
        let _ = order;
        // SAFETY: `from_ptr`'s contract: a live, aligned `T`.
        unsafe { O::load(self.address) }
    }

    /// Stores `value` with ordering `O`: `r.store(value, order)`.
    ///
    /// Emits `st.relaxed.{scope}.b{bits}` for [`Relaxed`] and
    /// `st.release.{scope}.b{bits}` for [`Release`]; `st.volatile.b32` for
    /// [`Volatile`] at [`System`]. A relaxed (or volatile) store is atomic
    /// but publishes nothing: a thread that reads `value` may still see
    /// older contents of other addresses this thread wrote before it. A
    /// release store makes every write this thread made before it visible to
    /// any thread of `S` whose acquire load (at `S` or wider) reads `value`.
    /// Another ordering does not compile.
    #[inline(always)]
    pub fn store<O: StoreOrdering<T, S>>(&self, value: T, order: O) {
        let _ = order;
        // SAFETY: `from_ptr`'s contract: a live, aligned `T`.
        unsafe { O::store(self.address, value) }
    }
}

/// A fence with ordering `O` at scope `S`: `cuda::atomic_thread_fence(order,
/// scope)`, or Rust's `fence(order)` with a scope.
///
/// Emits `fence.acq_rel.{scope}` for [`AcqRel`] and `fence.sc.{scope}` for
/// [`SeqCst`]. A fence makes no thread wait. It orders this thread's memory
/// operations before it against those after it, as seen by the threads of
/// `S` that synchronize with this one (for example through an atomic they
/// later observe); a fence alone publishes nothing. CUDA's `__threadfence()`
/// is `fence(SeqCst, Device)` (`membar.gl`); a publication needs only
/// `fence(AcqRel, Device)`.
#[inline(always)]
pub fn fence<O: FenceOrdering<S>, S: Scope>(order: O, scope: S) {
    let _ = (order, scope);
    O::fence();
}

/// Implements [`LoadOrdering`] and [`StoreOrdering`] for a word at a scope,
/// one row per instruction: `T(register class) at S: load Ordering =>
/// "ptx", ...; store Ordering => "ptx", ...;`.
macro_rules! access {
    ($ty:ident($reg:ident) at $scope:ident:
        load $($load:ident => $ld:literal),+;
        store $($store:ident => $st:literal),+;
    ) => {
        $(
            impl LoadOrdering<$ty, $scope> for $load {
                #[inline(always)]
                unsafe fn load(address: *const $ty) -> $ty {
                    let value;
                    // SAFETY: the caller guarantees a valid, aligned address.
                    unsafe { asm!(concat!($ld, " {v}, [{a}];"), v = out($reg) value, a = in(reg64) address, options(nostack)) }
                    value
                }
            }
        )+
        $(
            impl StoreOrdering<$ty, $scope> for $store {
                #[inline(always)]
                unsafe fn store(address: *mut $ty, value: $ty) {
                    // SAFETY: the caller guarantees a valid, aligned address.
                    unsafe { asm!(concat!($st, " [{a}], {v};"), a = in(reg64) address, v = in($reg) value, options(nostack)) }
                }
            }
        )+
    };
}

// ANCHOR: block_release_acquire
// `AtomicRef<u32, Block>`, the page's `cuda::atomic_ref<int,
// cuda::thread_scope_block>`: each ordering its loads and stores may have,
// and the one PTX instruction each emits.
access! {
    u32(reg32) at Block:
        load Relaxed => "ld.relaxed.cta.b32", Acquire => "ld.acquire.cta.b32";
        store Relaxed => "st.relaxed.cta.b32", Release => "st.release.cta.b32";
}
// ANCHOR_END: block_release_acquire
access! {
    u32(reg32) at Device:
        load Relaxed => "ld.relaxed.gpu.b32", Acquire => "ld.acquire.gpu.b32";
        store Relaxed => "st.relaxed.gpu.b32", Release => "st.release.gpu.b32";
}
access! {
    u32(reg32) at System:
        load Relaxed => "ld.relaxed.sys.b32", Acquire => "ld.acquire.sys.b32", Volatile => "ld.volatile.b32";
        store Relaxed => "st.relaxed.sys.b32", Release => "st.release.sys.b32", Volatile => "st.volatile.b32";
}
#[cfg(feature = "hopper")]
access! {
    u32(reg32) at Cluster:
        load Relaxed => "ld.relaxed.cluster.b32", Acquire => "ld.acquire.cluster.b32";
        store Relaxed => "st.relaxed.cluster.b32", Release => "st.release.cluster.b32";
}
// A `u64` is read and written whole: its eight bytes against any strong
// access of the same address (single-copy atomicity of morally strong
// accesses), which is what lets a value and its "written" bit travel in one
// word.
access! {
    u64(reg64) at Device:
        load Relaxed => "ld.relaxed.gpu.b64", Acquire => "ld.acquire.gpu.b64";
        store Relaxed => "st.relaxed.gpu.b64", Release => "st.release.gpu.b64";
}

/// Implements [`FenceOrdering`] at a scope: `S: Ordering => "ptx", ...;`.
macro_rules! fences {
    ($($scope:ident: $($order:ident => $ptx:literal),+;)+) => {
        $($(
            impl FenceOrdering<$scope> for $order {
                #[inline(always)]
                fn fence() {
                    // SAFETY: a fence has no operands and no preconditions.
                    unsafe { asm!($ptx, options(nostack)) }
                }
            }
        )+)+
    };
}

fences! {
    Block: AcqRel => "fence.acq_rel.cta;", SeqCst => "fence.sc.cta;";
    Device: AcqRel => "fence.acq_rel.gpu;", SeqCst => "fence.sc.gpu;";
    System: AcqRel => "fence.acq_rel.sys;", SeqCst => "fence.sc.sys;";
}
#[cfg(feature = "hopper")]
fences! {
    Cluster: AcqRel => "fence.acq_rel.cluster;", SeqCst => "fence.sc.cluster;";
}

/// An atomic reference to a `u32` in the cluster's shared-memory window
/// (distributed shared memory) at scope `S`, Hopper module only: the
/// `.shared::cluster` forms of [`AtomicRef`]'s accesses.
///
/// The address comes from `shared::cluster_address` and names a word of this
/// block's or another block's shared memory; it is a 32-bit
/// `.shared::cluster` address, not a generic pointer, so the state space is
/// part of each instruction. Only the forms the lab uses are implemented
/// ([`DsmemLoadOrdering`], [`DsmemStoreOrdering`]).
#[cfg(feature = "hopper")]
#[derive(Clone, Copy)]
pub struct DsmemAtomicRef<S> {
    address: u32,
    scope: PhantomData<S>,
}

/// The orderings a load through [`DsmemAtomicRef`] at scope `S` can have.
#[cfg(feature = "hopper")]
#[diagnostic::on_unimplemented(
    message = "the lab has no `.shared::cluster` load with `{Self}` ordering at `{S}` scope",
    note = "the forms are `Acquire` and `Relaxed` at `Cluster`, and `Acquire` at `Block`"
)]
pub trait DsmemLoadOrdering<S>: Sealed + Copy {
    /// The load itself: one PTX `ld.*.shared::cluster`.
    ///
    /// # Safety
    ///
    /// As [`DsmemAtomicRef::from_address`].
    #[doc(hidden)]
    unsafe fn load(address: u32) -> u32;
}

/// The orderings a store through [`DsmemAtomicRef`] at scope `S` can have.
#[cfg(feature = "hopper")]
#[diagnostic::on_unimplemented(
    message = "the lab has no `.shared::cluster` store with `{Self}` ordering at `{S}` scope",
    note = "the form is `Release` at `Cluster`"
)]
pub trait DsmemStoreOrdering<S>: Sealed + Copy {
    /// The store itself: one PTX `st.*.shared::cluster`.
    ///
    /// # Safety
    ///
    /// As [`DsmemAtomicRef::from_address`].
    #[doc(hidden)]
    unsafe fn store(address: u32, value: u32);
}

#[cfg(feature = "hopper")]
impl<S: Scope> DsmemAtomicRef<S> {
    /// An atomic reference to the word at `address` in the cluster's
    /// shared-memory window. Emits nothing.
    ///
    /// # Safety
    ///
    /// `address` must come from `shared::cluster_address` and be 4-byte
    /// aligned, and the block that owns it must not exit while the reference
    /// is used (see `thread::sync_cluster`).
    #[inline(always)]
    pub const unsafe fn from_address(address: u32) -> Self {
        Self { address, scope: PhantomData }
    }

    /// Loads the word with ordering `O`.
    ///
    /// Emits `ld.acquire.cluster.shared::cluster.b32` for [`Acquire`] at
    /// [`Cluster`]: if it reads the value of a cluster-scope release by a
    /// thread of another block of the cluster, every write that thread made
    /// before its store is visible to this thread's later reads, the plain
    /// `ld.shared::cluster` of that block's record included.
    /// `ld.relaxed.cluster.shared::cluster.b32` for [`Relaxed`] at
    /// [`Cluster`]: a spin on it sees another block's store eventually, but
    /// reading a value makes nothing else visible.
    /// `ld.acquire.cta.shared::cluster.b32` for [`Acquire`] at [`Block`]:
    /// legal, but its scope is this block's threads only, so paired with a
    /// release by a thread of another block it is not morally strong, forms
    /// no synchronization and makes nothing visible (the wrong scope).
    #[inline(always)]
    pub fn load<O: DsmemLoadOrdering<S>>(&self, order: O) -> u32 {
        let _ = order;
        // SAFETY: `from_address`'s contract: a live, aligned cluster address.
        unsafe { O::load(self.address) }
    }

    /// Stores `value` with ordering `O`.
    ///
    /// Emits `st.release.cluster.shared::cluster.u32` for [`Release`] at
    /// [`Cluster`]: every memory write this thread made before the store is
    /// visible to any thread of the same cluster whose cluster-scope (or
    /// wider) acquire load reads `value`; the threads of other clusters get
    /// no guarantee.
    #[inline(always)]
    pub fn store<O: DsmemStoreOrdering<S>>(&self, value: u32, order: O) {
        let _ = order;
        // SAFETY: `from_address`'s contract: a live, aligned cluster address.
        unsafe { O::store(self.address, value) }
    }
}

/// Implements [`DsmemLoadOrdering`]: `S: Ordering => "ptx", ...;`.
#[cfg(feature = "hopper")]
macro_rules! dsmem_loads {
    ($($scope:ident: $($order:ident => $ptx:literal),+;)+) => {
        $($(
            impl DsmemLoadOrdering<$scope> for $order {
                #[inline(always)]
                unsafe fn load(address: u32) -> u32 {
                    let value;
                    // SAFETY: the caller guarantees a live, aligned cluster address.
                    unsafe { asm!(concat!($ptx, " {v}, [{a}];"), v = out(reg32) value, a = in(reg32) address, options(nostack)) }
                    value
                }
            }
        )+)+
    };
}

#[cfg(feature = "hopper")]
dsmem_loads! {
    Cluster: Acquire => "ld.acquire.cluster.shared::cluster.b32", Relaxed => "ld.relaxed.cluster.shared::cluster.b32";
    Block: Acquire => "ld.acquire.cta.shared::cluster.b32";
}

#[cfg(feature = "hopper")]
impl DsmemStoreOrdering<Cluster> for Release {
    #[inline(always)]
    unsafe fn store(address: u32, value: u32) {
        // SAFETY: the caller guarantees a live, aligned cluster address.
        unsafe {
            asm!("st.release.cluster.shared::cluster.u32 [{a}], {v};", a = in(reg32) address, v = in(reg32) value, options(nostack))
        }
    }
}
