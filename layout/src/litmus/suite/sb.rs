//! SB, store buffering: `W x; R y || W y; R x`. Weak: both loads miss the other's store.
//!
//! The model's verdicts, reasoned out by hand from the axioms of ptx.als:
//! no store follows a fence, so acq_rel fences never synchronize; only two morally strong fence.sc,
//! ordered one way by Fence-SC, put one store before the other load.

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Load, Store};
use crate::litmus::Variant::*;
use crate::litmus::definition::{A, Definition, F, Role};

/// SB, as the module docs describe it.
pub const SB: Definition = Definition {
    key: "sb",
    name: "SB",
    roles: &[
        Role::new(&[Store(X, 1), Load(Y, 0)], 0, Some(Y)),
        Role::new(&[Store(Y, 1), Load(X, 1)], 0, Some(X)),
    ],
    finals: &[],
    // r0 = 0, r1 = 0.
    weak: &[0, 0],
    // Role 0 loads y before role 1 stores it; role 1 then sees x.
    sequential: &[0, 1],
    ptxas_reorders_weak_loads: false,
    // Within one block, across blocks.
    model: [
        (Weak, A, A),
        (RelaxedGpu, A, A),
        (RelaxedCta, A, A),
        (Volatile, A, A),
        (ReleaseAcquireGpu, A, A),
        (ReleaseAcquireCta, A, A),
        (FenceAcqRelGpu, A, A),
        (FenceAcqRelCta, A, A),
        (FenceScGpu, F, F),
        (FenceScCta, F, A),
        (RelaxedCluster, A, A),
        (ReleaseAcquireCluster, A, A),
        (FenceAcqRelCluster, A, A),
        (FenceScCluster, F, A),
    ],
    // Within one cluster, across clusters.
    cluster_model: &[
        (RelaxedCta, A, A),
        (RelaxedCluster, A, A),
        (FenceAcqRelCta, A, A),
        (FenceAcqRelCluster, A, A),
        (FenceScCta, A, A),
        (FenceScCluster, F, A),
    ],
};
