//! The litmus suite: tests of memory order (the table below), one file
//! each, every test in the variants of
//! [`layout::litmus::Variant`], and the kernel that counts their outcomes.
//!
//! A test is written once, as a generic function over [`access::Access`];
//! each variant is that function with one set of PTX instructions, exported
//! as its own kernel (`litmus_<test>_<variant>`) from the one list of
//! kernels, `layout`'s grid ([`layout::litmus_grid!`]). Around the test's handful
//! of accesses, [`env::Env`] runs the parallel testing environment: one
//! instance per thread, roles assigned by permutation, stressing blocks, a
//! synchronised start, an optional stale line in L1. After each launch,
//! [`litmus_classify`] turns every instance's registers into a histogram bin
//! (with the locations' final values, for the tests whose outcome includes
//! them) on the device and zeroes the instance for the next launch, so the
//! host copies a few dozen counters per run, not a register per instance.
//!
//! | test | threads | weak outcome |
//! |---|---|---|
//! | MP | `W x; W y` ‖ `R y; R x` | `r0 = 1, r1 = 0` |
//! | SB | `W x; R y` ‖ `W y; R x` | `r0 = 0, r1 = 0` |
//! | LB | `R x; W y` ‖ `R y; W x` | `r0 = 1, r1 = 1` |
//! | CoRR | `W x` ‖ `R x; R x` | `r0 = 1, r1 = 0` |
//! | WRC | `W x` ‖ `R x; W y` ‖ `R y; R x` | `r0 = 1, r1 = 1, r2 = 0` |
//! | IRIW | `W x` ‖ `W y` ‖ `R x; R y` ‖ `R y; R x` | `r0 = 1, r1 = 0, r2 = 1, r3 = 0` |
//! | RWC | `W x` ‖ `R x; R y` ‖ `W y; R x` | `r0 = 1, r1 = 0, r2 = 0` |
//! | ISA2 | `W x; W y` ‖ `R y; W z` ‖ `R z; R x` | `r0 = 1, r1 = 1, r2 = 0` |
//! | CoWW | `W x=1; W x=2` | `x = 1` |
//! | CoWR | `W x=1; R x` ‖ `W x=2` | `r0 = 2, x = 1` |
//! | CoRW2 | `R x; W x=1` ‖ `W x=2` | `r0 = 2, x = 2` |
//! | 2+2W | `W x=1; W y=2` ‖ `W y=1; W x=2` | `x = 1, y = 1` |
//! | S | `W x=2; W y` ‖ `R y; W x=1` | `r0 = 1, x = 2` |
//! | R | `W x; W y=1` ‖ `W y=2; R x` | `y = 2, r0 = 0` |
//! | Z6.3 | `W x; W y` ‖ `W y=2; W z` ‖ `R z; R x` | `y = 2, r0 = 1, r1 = 0` |
//! | 3.2W | `W x=2; W y` ‖ `W y=2; W z` ‖ `W z=2; W x` | `x = y = z = 2` |
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
// there the other tests' bodies, the other variants' accesses and the
// classifier's helpers are compiled but unused.
#![cfg_attr(feature = "hopper", allow(dead_code))]

pub mod access;
#[cfg(not(feature = "hopper"))]
mod classify;
pub mod env;

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

/// Declares each test's module (its file, named in the grid) and exports
/// one kernel per (test, variant) of the grid ([`layout::litmus_grid!`]):
/// the test's generic body, its module's `run`, with the variant's
/// [`access`] type, inside the testing environment.
macro_rules! export {
    ($($test:ident = $file:ident { $($symbol:ident => $variant:ident),* $(,)? })*) => {
        $(mod $file;)*
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
                    unsafe { $file::run::<access::$variant>(&env) }
                }
            }
        })*)*
    };
}

layout::litmus_grid!(export);
