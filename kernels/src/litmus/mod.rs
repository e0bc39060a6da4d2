//! The litmus suite's kernels: every test of
//! [`layout::litmus::suite`] (one file of data each: its roles and their
//! accesses) in each of its variants ([`layout::litmus::Variant`]), and the
//! kernel that counts their outcomes.
//!
//! No test has code of its own here. [`program`]'s one generic body reads
//! the test's definition and issues its accesses with one variant's PTX
//! instructions ([`access::Access`]); the definition is a constant in each
//! kernel, so the body compiles to that test's straight line of accesses.
//! Each (test, variant) is exported as its own kernel
//! (`litmus_<test>_<variant>`) from the one list of kernels, `layout`'s grid
//! ([`layout::litmus_grid!`]). Around the test's handful of accesses,
//! [`env::Env`] runs the parallel testing environment: one instance per
//! thread, roles assigned by permutation, stressing blocks, a synchronised
//! start, an optional stale line in L1. After each launch,
//! [`litmus_classify`] turns every instance's registers into a histogram bin
//! (with the locations' final values, for the tests whose outcome includes
//! them) on the device and zeroes the instance for the next launch, so the
//! host copies a few dozen counters per run, not a register per instance.
//!
//! Every litmus kernel's launch:
//!
//! # Launch
//!
//! Grid: at least `params.testing_blocks` blocks, every block resident at
//! once (the host sizes the grid from the occupancy query); blocks past the
//! testing ones stress memory. Block: `params.threads` threads, a power of
//! two, at least four warps. No shared memory.
//!
//! # Thread mapping
//!
//! Thread `t` of logical block `b` plays role `r` of instance
//! `params.instance(r, b, t)`; the instance's locations are words
//! `params.x(i)`, `params.y(i)` and `params.z(i)` of `locations`, and its registers words
//! `4i..4i + 4` of `results`.
//!
//! # Safety
//!
//! `params` must point to a [`layout::litmus::Params`] in global memory;
//! `locations` must hold `params.location_words()` zeroed words, `results`
//! four zeroed words per instance, `stress` `params.stress_words()` words and
//! `control` one zeroed word, all in global memory.

// The Hopper module exports only the `.cluster` variants of a few tests, so
// there the other variants' accesses and the classifier's helpers are
// compiled but unused.
#![cfg_attr(feature = "hopper", allow(dead_code))]

pub mod access;
#[cfg(not(feature = "hopper"))]
mod classify;
pub mod env;
pub mod program;

#[cfg(not(feature = "hopper"))]
pub use classify::litmus_classify;

/// `$item`, in the module its variant's kernels belong to: a `.cluster`
/// variant's ([`layout::litmus::Variant::needs_hopper`]) only with the
/// `hopper` feature, in the sm_90 module; every other only without it, in
/// the base module. The registry's entry says the same (`layout::litmus`),
/// and the PTX tests hold each module to the entries it should have.
macro_rules! in_module {
    (RelaxedCluster, $item:item) => {
        #[cfg(feature = "hopper")]
        $item
    };
    (ReleaseAcquireCluster, $item:item) => {
        #[cfg(feature = "hopper")]
        $item
    };
    (FenceAcqRelCluster, $item:item) => {
        #[cfg(feature = "hopper")]
        $item
    };
    (FenceScCluster, $item:item) => {
        #[cfg(feature = "hopper")]
        $item
    };
    ($variant:ident, $item:item) => {
        #[cfg(not(feature = "hopper"))]
        $item
    };
}

/// Exports one kernel per (test, variant) of the grid
/// ([`layout::litmus_grid!`]): the one body, [`program::run`], with the
/// test's definition and the variant's [`access`] type, inside the testing
/// environment. The grid's file names are `layout`'s; nothing here reads
/// them.
macro_rules! export {
    ($($test:ident = $file:ident { $($symbol:ident => $variant:ident),* $(,)? })*) => {
        $($(in_module! { $variant,
            #[doc = concat!("The ", stringify!($test), " test with the [`", stringify!($variant),
                "`](crate::litmus::access::", stringify!($variant), ") accesses. See the module docs of [`crate::litmus`] for its launch.")]
            ///
            /// # Safety
            ///
            /// The litmus kernels' contract: see [`crate::litmus`].
            #[kernel(layout::litmus::TEST_PARAMS)]
            pub unsafe fn $symbol(
                params: *const layout::litmus::Params,
                shift: u32,
                locations: *mut u32,
                results: *mut u32,
                stress: *mut u32,
                control: *mut u32,
            ) {
                let args = env::Args { params, shift, locations, results, stress, control };
                // SAFETY: forwarded from this kernel's contract.
                if let Some(env) = unsafe { env::Env::enter(layout::litmus::Test::$test, args) } {
                    // SAFETY: `enter` checked nothing the test relies on
                    // beyond this kernel's contract.
                    unsafe { program::run::<access::$variant>(&env, layout::litmus::Test::$test) }
                }
            }
        })*)*
    };
}

layout::litmus_grid!(export);
