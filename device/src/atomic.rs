//! Read-modify-write operations on one address: the methods of
//! [`AtomicRef`] that CUDA's `atomicAdd` family and `cuda::atomic_ref`'s
//! `fetch_add` and `exchange` spell.
//!
//! The page writes `atomicAdd(total, in[i])`, and a kernel here writes
//!
//! ```text
//! let total = unsafe { AtomicRef::<f32, Device>::from_global(total) };
//! total.add(value, Relaxed);
//! ```
//!
//! What an atomic promises is narrow, and every doc here says it:
//!
//! * **Atomicity**: concurrent updates of the *same address* are not lost.
//! * **No ordering**: CUDA's `atomicAdd` is relaxed, and so is every row of
//!   the table below; an instruction with no `.sem` qualifier is `.relaxed`
//!   to PTX. It publishes no other store, and orders nothing around it.
//! * **No waiting**: no thread waits for any other; that is a barrier's job
//!   (`thread::sync_threads`).
//!
//! CUDA's `atomicAdd` is device scope, and so is a PTX `red` or `atom` with
//! no `.scope` qualifier: the rows at [`Device`] are what nvcc emits for the
//! page's kernels, on global and shared memory alike. `atomicAdd_block`
//! narrows a shared accumulator to its block: the rows at [`Block`].
//!
//! Two methods add. [`AtomicRef::add`] returns nothing and emits PTX's
//! `red` ("reduction"), what nvcc emits for an `atomicAdd` whose result is
//! unused; [`AtomicRef::fetch_add`] returns the value it replaced and emits
//! `atom`. As in CUDA, the instruction is chosen at compile time from the
//! word's type, its scope, its state space and the ordering passed, one row
//! of the table at the end of this file each; a combination with no row is
//! a compile error that names it, never a silently different instruction.

use core::arch::asm;

use crate::order::{AtomicRef, Block, Device, Global, Relaxed, Scope, Shared, Space};

mod sealed {
    /// Keeps the operations to the ones this module defines.
    pub trait Sealed {}
}

/// A kind of read-modify-write: what it does to the word, and what it gives
/// back (`()` for PTX's `red`, the replaced value for its `atom`).
pub trait Operation<T>: sealed::Sealed {
    /// What the method returns.
    type Output;
}

/// `red.add`: adds the operand, returns nothing.
#[derive(Clone, Copy, Debug)]
pub struct Add;
/// `red.or`: ORs the operand in, returns nothing.
#[derive(Clone, Copy, Debug)]
pub struct Or;
/// `atom.add`: adds the operand, returns the value it replaced.
#[derive(Clone, Copy, Debug)]
pub struct FetchAdd;
/// `atom.inc`: increments, wrapping to 0 past the operand (the limit), and
/// returns the value it replaced.
#[derive(Clone, Copy, Debug)]
pub struct FetchInc;
/// `atom.exch`: writes the operand, returns the value it replaced.
#[derive(Clone, Copy, Debug)]
pub struct Exchange;

impl sealed::Sealed for Add {}
impl sealed::Sealed for Or {}
impl sealed::Sealed for FetchAdd {}
impl sealed::Sealed for FetchInc {}
impl sealed::Sealed for Exchange {}
impl<T> Operation<T> for Add {
    type Output = ();
}
impl<T> Operation<T> for Or {
    type Output = ();
}
impl<T> Operation<T> for FetchAdd {
    type Output = T;
}
impl<T> Operation<T> for FetchInc {
    type Output = T;
}
impl<T> Operation<T> for Exchange {
    type Output = T;
}

/// The orderings a read-modify-write `P` of a `T` at scope `S` in state
/// space `M` can have: one PTX `red` or `atom` each, listed with its
/// instruction in the table at the end of this file.
#[diagnostic::on_unimplemented(
    message = "the lab has no `{P}` of `{T}` with `{Self}` ordering at `{S}` scope in `{M}` memory",
    note = "the rows are in `device/src/atomic.rs`: `Relaxed` at `Device` (CUDA's `atomicAdd`) on `Global` and `Shared` words, and at `Block` (`atomicAdd_block`) on `Shared` ones"
)]
pub trait RmwOrdering<T, S, M, P: Operation<T>>: crate::order::Ordering {
    /// The operation itself: `cvta` into the space, then one PTX `red` or
    /// `atom`.
    ///
    /// # Safety
    ///
    /// `address` must point to a live, aligned `T` in state space `M`.
    #[doc(hidden)]
    unsafe fn apply(address: *mut T, operand: T) -> P::Output;
}

impl<T, S: Scope, M: Space> AtomicRef<T, S, M> {
    /// Adds `value` and returns nothing: `atomicAdd` whose result is unused,
    /// or `r.fetch_add(value, order)` whose result is dropped.
    ///
    /// Emits `cvta.to.{space}.u64` then `red.{space}.add.{type}` at
    /// [`Device`] (`red.relaxed.cta.shared.add.{type}` at [`Block`]).
    /// Concurrent adds to one address are all applied, in an order the
    /// hardware picks, so a float total can differ in its last bits from run
    /// to run; an integer total cannot.
    #[inline(always)]
    pub fn add<O: RmwOrdering<T, S, M, Add>>(&self, value: T, order: O) {
        let _ = order;
        // SAFETY: the constructor's contract: a live, aligned `T` in `M`.
        unsafe { O::apply(self.address, value) }
    }

    /// ORs `value` into the word and returns nothing: `atomicOr` whose
    /// result is unused.
    ///
    /// Emits `cvta.to.{space}.u64` then `red.{space}.or.b32`.
    #[inline(always)]
    pub fn or<O: RmwOrdering<T, S, M, Or>>(&self, value: T, order: O) {
        let _ = order;
        // SAFETY: the constructor's contract: a live, aligned `T` in `M`.
        unsafe { O::apply(self.address, value) }
    }

    /// Adds `value` and returns the value it replaced: `atomicAdd` whose
    /// result is used, `r.fetch_add(value, order)`.
    ///
    /// Emits `cvta.to.{space}.u64` then `atom.{space}.add.{type}`. Each
    /// caller gets a distinct old value, which is how the deterministic
    /// sum's blocks take tickets to find the last one.
    #[inline(always)]
    #[must_use = "`add` emits `red`, which returns nothing, where the old value is not needed"]
    pub fn fetch_add<O: RmwOrdering<T, S, M, FetchAdd>>(&self, value: T, order: O) -> T {
        let _ = order;
        // SAFETY: the constructor's contract: a live, aligned `T` in `M`.
        unsafe { O::apply(self.address, value) }
    }

    /// Increments the word, wrapping to 0 past `limit`, and returns the
    /// value it replaced: `atomicInc(address, limit)`.
    ///
    /// Emits `cvta.to.global.u64` then `atom.global.inc.u32`; the new value
    /// is `old >= limit ? 0 : old + 1`. An add of a constant is different in
    /// the machine code: `ptxas` turns it into a warp-aggregated atomic
    /// whose result one lane shuffles to the others at once (`SHFL.IDX`
    /// right behind the `ATOMG`, so the warp waits out the atomic's round
    /// trip there), and it does the same to an `inc` whose limit is
    /// `u32::MAX`, which is an add of 1. With a limit it cannot know, `inc`
    /// stays one `ATOMG.E.INC` whose result is waited for only where it is
    /// read.
    #[inline(always)]
    #[must_use]
    pub fn fetch_inc<O: RmwOrdering<T, S, M, FetchInc>>(&self, limit: T, order: O) -> T {
        let _ = order;
        // SAFETY: the constructor's contract: a live, aligned `T` in `M`.
        unsafe { O::apply(self.address, limit) }
    }

    /// Writes `value` and returns the value it replaced: `atomicExch`,
    /// `r.exchange(value, order)`.
    ///
    /// Emits `cvta.to.global.u64` then `atom.global.exch.b{bits}`,
    /// performed at the point of coherence, so it reads the latest value of
    /// the word whatever this SM's L1 holds.
    #[inline(always)]
    pub fn exchange<O: RmwOrdering<T, S, M, Exchange>>(&self, value: T, order: O) -> T {
        let _ = order;
        // SAFETY: the constructor's contract: a live, aligned `T` in `M`.
        unsafe { O::apply(self.address, value) }
    }
}

/// Implements [`RmwOrdering`], one row per instruction: `T(register class)
/// at S in M ("cvta into M"): Operation Ordering => "ptx", ...;`. A `red`
/// (an operation whose output is `()`) and an `atom` differ only in the
/// returned register.
macro_rules! rmw {
    ($($ty:ident($reg:ident) at $scope:ident in $space:ident($cvta:literal):
        $($op:ident $order:ident => $ptx:literal),+;)+
    ) => {
        $($(
            rmw!(@row $op, $ty, $reg, $scope, $space, $cvta, $order, $ptx);
        )+)+
    };
    (@row Add, $($row:tt)*) => { rmw!(@red Add, $($row)*); };
    (@row Or, $($row:tt)*) => { rmw!(@red Or, $($row)*); };
    (@row $op:ident, $($row:tt)*) => { rmw!(@atom $op, $($row)*); };
    (@red $op:ident, $ty:ident, $reg:ident, $scope:ident, $space:ident, $cvta:literal, $order:ident, $ptx:literal) => {
        impl RmwOrdering<$ty, $scope, $space, $op> for $order {
            #[inline(always)]
            unsafe fn apply(address: *mut $ty, operand: $ty) {
                // SAFETY: the caller guarantees a valid, aligned address in
                // this state space.
                unsafe {
                    asm!(
                        $cvta,
                        concat!($ptx, " [{a}], {v};"),
                        a = inout(reg64) address => _,
                        v = in($reg) operand,
                        options(nostack),
                    );
                }
            }
        }
    };
    (@atom $op:ident, $ty:ident, $reg:ident, $scope:ident, $space:ident, $cvta:literal, $order:ident, $ptx:literal) => {
        impl RmwOrdering<$ty, $scope, $space, $op> for $order {
            #[inline(always)]
            unsafe fn apply(address: *mut $ty, operand: $ty) -> $ty {
                let old;
                // SAFETY: the caller guarantees a valid, aligned address in
                // this state space.
                unsafe {
                    asm!(
                        $cvta,
                        concat!($ptx, " {old}, [{a}], {v};"),
                        a = inout(reg64) address => _,
                        old = out($reg) old,
                        v = in($reg) operand,
                        options(nostack),
                    );
                }
                old
            }
        }
    };
}

// Each read-modify-write the lab's kernels use, and the one PTX instruction
// it emits. With no `.sem` and no `.scope` an instruction is relaxed at
// `.gpu`: CUDA's `atomicAdd`.
rmw! {
    // ANCHOR: f32_rows
    f32(reg32) at Device in Global("cvta.to.global.u64 {a}, {a};"):
        Add Relaxed => "red.global.add.f32";
    f32(reg32) at Device in Shared("cvta.to.shared.u64 {a}, {a};"):
        Add Relaxed => "red.shared.add.f32";
    f32(reg32) at Block in Shared("cvta.to.shared.u64 {a}, {a};"):
        Add Relaxed => "red.relaxed.cta.shared.add.f32";
    // ANCHOR_END: f32_rows
    u32(reg32) at Device in Global("cvta.to.global.u64 {a}, {a};"):
        Add Relaxed => "red.global.add.u32",
        Or Relaxed => "red.global.or.b32",
        FetchAdd Relaxed => "atom.global.add.u32",
        FetchInc Relaxed => "atom.global.inc.u32",
        Exchange Relaxed => "atom.global.exch.b32";
    u32(reg32) at Device in Shared("cvta.to.shared.u64 {a}, {a};"):
        Add Relaxed => "red.shared.add.u32";
    u32(reg32) at Block in Shared("cvta.to.shared.u64 {a}, {a};"):
        Add Relaxed => "red.relaxed.cta.shared.add.u32";
    // Two's-complement addition is the same operation for signed and
    // unsigned words, so `.u64` adds signed limbs exactly as long as the true
    // total fits in 64 bits, whatever the order the adds land in.
    i64(reg64) at Device in Global("cvta.to.global.u64 {a}, {a};"):
        Add Relaxed => "red.global.add.u64",
        Exchange Relaxed => "atom.global.exch.b64";
}
