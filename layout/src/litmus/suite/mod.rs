//! The suite: one file per test, each a `const` [`Definition`], and the one
//! list below that names them and their kernels.
//!
//! Adding a test takes its file here (roles, outcomes and the model's
//! verdicts, as data), one block in the list (its [`Test`] variant, its file
//! and the variants that get a kernel), its kernels' fingerprints and its
//! words in the book (`ARCHITECTURE.md` walks it). Everything else, from
//! [`Test::ALL`] and [`KERNELS`](super::KERNELS) (`kernels.rs` reads the
//! list through the grid) to the kernels themselves (the kernels crate
//! exports one body, which plays the definition, per kernel of the grid,
//! [`litmus_grid!`](macro@crate::litmus_grid)) and the checker's program of
//! it, is read from these two places.

use super::definition::Definition;
use super::variant::Variant;

/// Declares the suite from its list: a module per test file, [`Test`], its
/// [`Definition`] lookup and kernel variants, and the exported
/// `litmus_grid!` the kernels crate expands.
macro_rules! suite {
    ($($test:ident = $file:ident::$definition:ident { $($symbol:ident => $variant:ident),* $(,)? })*) => {
        $(pub mod $file;)*

        /// A test of the litmus suite: its name in the kernels' symbols and
        /// the key to its [`Definition`], from which every answer about it
        /// is read ([`Test::definition`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Test {
            $(
                #[doc = concat!("The test of [`", stringify!($file), "`](", stringify!($file), "), defined by [`",
                    stringify!($file), "::", stringify!($definition), "`].")]
                $test,
            )*
        }

        impl Test {
            /// Every test, in the list's order (the README's).
            pub const ALL: [Test; [$(stringify!($test)),*].len()] = [$(Test::$test),*];

            /// The test as data: its roles, outcomes and the model's verdicts.
            ///
            /// Always inlined, as [`Test::roles`] is: a kernel asks with a
            /// constant test, and inlined the match folds to that test's
            /// constant data. Left to LLVM, a long enough match (17 tests,
            /// when a walk-through added one) becomes a lookup table in global
            /// memory that every litmus kernel's preload then reads.
            #[inline(always)]
            pub const fn definition(self) -> &'static Definition {
                match self {
                    $(Test::$test => &$file::$definition,)*
                }
            }

            /// The variants that teach something for this test, in the list's
            /// order: the ones it has a kernel in.
            pub const fn variants(self) -> &'static [Variant] {
                match self {
                    $(Test::$test => &[$(Variant::$variant),*],)*
                }
            }
        }

        grid! { ($) $($test = $file { $($symbol => $variant,)* })* }
    };
}

/// Exports the list's kernels as `litmus_grid!`, without the files: `$d` is
/// a `$`, which a macro cannot write into the macro it defines otherwise.
macro_rules! grid {
    (($d:tt) $($grid:tt)*) => {
        /// The litmus grid, written once in `layout/src/litmus/suite/mod.rs`:
        /// every (test, variant) kernel, test by test in
        /// [`Test::ALL`](crate::litmus::Test::ALL)'s order, with its `.entry`
        /// symbol. `litmus_grid!(callback)` invokes `callback! { Test = file {
        /// symbol => Variant, ... } ... }` with the bare names of
        /// [`Test`](crate::litmus::Test), the test's file and
        /// [`Variant`](crate::litmus::Variant); the kernels crate exports one
        /// kernel per symbol, its one litmus body played with the test's
        /// definition and the variant's accesses (`kernels/src/litmus/mod.rs`).
        #[macro_export]
        macro_rules! litmus_grid {
            ($d($d callback:tt)*) => {
                $d($d callback)*! { $($grid)* }
            };
        }
    };
}

// The list. A test has the variants that teach something for it:
// release/acquire only where the test has a flag, fences only where a thread
// has two accesses to separate, volatile beside relaxed in the tests that
// show what it does not do (MP, SB, LB, WRC and IRIW, allowed) and the one it
// does (CoRR: a strong access keeps coherence), and `.cluster` beside `.cta`
// and `.gpu` in the tests where the scope decides the verdict (MP, SB, LB,
// WRC and IRIW, and CoRR's relaxed coherence); those are in the Hopper module
// only (`Variant::needs_hopper`). A symbol is `litmus_<test key>_<variant
// key>`, with underscores for dashes (a test checks it).
suite! {
    Mp = mp::MP {
        litmus_mp_weak => Weak,
        litmus_mp_relaxed_gpu => RelaxedGpu,
        litmus_mp_relaxed_cta => RelaxedCta,
        litmus_mp_volatile => Volatile,
        litmus_mp_rel_acq_gpu => ReleaseAcquireGpu,
        litmus_mp_rel_acq_cta => ReleaseAcquireCta,
        litmus_mp_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_mp_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_mp_fence_sc_gpu => FenceScGpu,
        litmus_mp_fence_sc_cta => FenceScCta,
        litmus_mp_relaxed_cluster => RelaxedCluster,
        litmus_mp_rel_acq_cluster => ReleaseAcquireCluster,
        litmus_mp_fence_acq_rel_cluster => FenceAcqRelCluster,
        litmus_mp_fence_sc_cluster => FenceScCluster,
    }
    Sb = sb::SB {
        litmus_sb_weak => Weak,
        litmus_sb_relaxed_gpu => RelaxedGpu,
        litmus_sb_relaxed_cta => RelaxedCta,
        litmus_sb_volatile => Volatile,
        litmus_sb_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_sb_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_sb_fence_sc_gpu => FenceScGpu,
        litmus_sb_fence_sc_cta => FenceScCta,
        litmus_sb_relaxed_cluster => RelaxedCluster,
        litmus_sb_fence_acq_rel_cluster => FenceAcqRelCluster,
        litmus_sb_fence_sc_cluster => FenceScCluster,
    }
    Lb = lb::LB {
        litmus_lb_weak => Weak,
        litmus_lb_relaxed_gpu => RelaxedGpu,
        litmus_lb_relaxed_cta => RelaxedCta,
        litmus_lb_volatile => Volatile,
        litmus_lb_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_lb_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_lb_fence_sc_gpu => FenceScGpu,
        litmus_lb_fence_sc_cta => FenceScCta,
        litmus_lb_relaxed_cluster => RelaxedCluster,
        litmus_lb_fence_acq_rel_cluster => FenceAcqRelCluster,
        litmus_lb_fence_sc_cluster => FenceScCluster,
    }
    Corr = corr::CORR {
        litmus_corr_weak => Weak,
        litmus_corr_relaxed_gpu => RelaxedGpu,
        litmus_corr_relaxed_cta => RelaxedCta,
        litmus_corr_volatile => Volatile,
        litmus_corr_relaxed_cluster => RelaxedCluster,
    }
    Wrc = wrc::WRC {
        litmus_wrc_weak => Weak,
        litmus_wrc_relaxed_gpu => RelaxedGpu,
        litmus_wrc_relaxed_cta => RelaxedCta,
        litmus_wrc_volatile => Volatile,
        litmus_wrc_rel_acq_gpu => ReleaseAcquireGpu,
        litmus_wrc_rel_acq_cta => ReleaseAcquireCta,
        litmus_wrc_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_wrc_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_wrc_fence_sc_gpu => FenceScGpu,
        litmus_wrc_fence_sc_cta => FenceScCta,
        litmus_wrc_relaxed_cluster => RelaxedCluster,
        litmus_wrc_rel_acq_cluster => ReleaseAcquireCluster,
        litmus_wrc_fence_acq_rel_cluster => FenceAcqRelCluster,
        litmus_wrc_fence_sc_cluster => FenceScCluster,
    }
    Iriw = iriw::IRIW {
        litmus_iriw_weak => Weak,
        litmus_iriw_relaxed_gpu => RelaxedGpu,
        litmus_iriw_relaxed_cta => RelaxedCta,
        litmus_iriw_volatile => Volatile,
        litmus_iriw_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_iriw_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_iriw_fence_sc_gpu => FenceScGpu,
        litmus_iriw_fence_sc_cta => FenceScCta,
        litmus_iriw_relaxed_cluster => RelaxedCluster,
        litmus_iriw_fence_acq_rel_cluster => FenceAcqRelCluster,
        litmus_iriw_fence_sc_cluster => FenceScCluster,
    }
    Rwc = rwc::RWC {
        litmus_rwc_weak => Weak,
        litmus_rwc_relaxed_gpu => RelaxedGpu,
        litmus_rwc_relaxed_cta => RelaxedCta,
        litmus_rwc_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_rwc_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_rwc_fence_sc_gpu => FenceScGpu,
        litmus_rwc_fence_sc_cta => FenceScCta,
    }
    Isa2 = isa2::ISA2 {
        litmus_isa2_weak => Weak,
        litmus_isa2_relaxed_gpu => RelaxedGpu,
        litmus_isa2_relaxed_cta => RelaxedCta,
        litmus_isa2_rel_acq_gpu => ReleaseAcquireGpu,
        litmus_isa2_rel_acq_cta => ReleaseAcquireCta,
        litmus_isa2_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_isa2_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_isa2_fence_sc_gpu => FenceScGpu,
        litmus_isa2_fence_sc_cta => FenceScCta,
    }
    Coww = coww::COWW {
        litmus_coww_weak => Weak,
        litmus_coww_relaxed_gpu => RelaxedGpu,
        litmus_coww_relaxed_cta => RelaxedCta,
    }
    Cowr = cowr::COWR {
        litmus_cowr_weak => Weak,
        litmus_cowr_relaxed_gpu => RelaxedGpu,
        litmus_cowr_relaxed_cta => RelaxedCta,
    }
    Corw2 = corw2::CORW2 {
        litmus_corw2_weak => Weak,
        litmus_corw2_relaxed_gpu => RelaxedGpu,
        litmus_corw2_relaxed_cta => RelaxedCta,
    }
    TwoPlusTwoW = two_plus_two_w::TWO_PLUS_TWO_W {
        litmus_2plus2w_weak => Weak,
        litmus_2plus2w_relaxed_gpu => RelaxedGpu,
        litmus_2plus2w_relaxed_cta => RelaxedCta,
        litmus_2plus2w_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_2plus2w_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_2plus2w_fence_sc_gpu => FenceScGpu,
        litmus_2plus2w_fence_sc_cta => FenceScCta,
    }
    S = s::S {
        litmus_s_weak => Weak,
        litmus_s_relaxed_gpu => RelaxedGpu,
        litmus_s_relaxed_cta => RelaxedCta,
        litmus_s_rel_acq_gpu => ReleaseAcquireGpu,
        litmus_s_rel_acq_cta => ReleaseAcquireCta,
        litmus_s_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_s_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_s_fence_sc_gpu => FenceScGpu,
        litmus_s_fence_sc_cta => FenceScCta,
    }
    R = r::R {
        litmus_r_weak => Weak,
        litmus_r_relaxed_gpu => RelaxedGpu,
        litmus_r_relaxed_cta => RelaxedCta,
        litmus_r_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_r_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_r_fence_sc_gpu => FenceScGpu,
        litmus_r_fence_sc_cta => FenceScCta,
    }
    Z6_3 = z6_3::Z6_3 {
        litmus_z6dot3_weak => Weak,
        litmus_z6dot3_relaxed_gpu => RelaxedGpu,
        litmus_z6dot3_relaxed_cta => RelaxedCta,
        litmus_z6dot3_rel_acq_gpu => ReleaseAcquireGpu,
        litmus_z6dot3_rel_acq_cta => ReleaseAcquireCta,
        litmus_z6dot3_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_z6dot3_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_z6dot3_fence_sc_gpu => FenceScGpu,
        litmus_z6dot3_fence_sc_cta => FenceScCta,
    }
    ThreeTwoW = three_two_w::THREE_TWO_W {
        litmus_3dot2w_weak => Weak,
        litmus_3dot2w_relaxed_gpu => RelaxedGpu,
        litmus_3dot2w_relaxed_cta => RelaxedCta,
        litmus_3dot2w_fence_acq_rel_gpu => FenceAcqRelGpu,
        litmus_3dot2w_fence_acq_rel_cta => FenceAcqRelCta,
        litmus_3dot2w_fence_sc_gpu => FenceScGpu,
        litmus_3dot2w_fence_sc_cta => FenceScCta,
    }
}
