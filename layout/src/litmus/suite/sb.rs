//! SB, store buffering: `W x; R y || W y; R x`. Weak: both loads miss the other's store.
//!
//! ```text
//! role 0            role 1
//! W x = 1           W y = 1
//! r0 = R y          r1 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from the
//! axioms of ptx.als: no store follows a fence, so acq_rel fences never
//! synchronize; only two morally strong fence.sc, ordered one way by Fence-SC,
//! put one store before the other load.

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

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
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: Some("volatile is relaxed at .sys: each store may stay invisible to the other thread's load"),
        release_acquire: None,
        sc_fence: Some(Forbidden("the two fence.sc are ordered one way: the later thread's load sees the other store")),
        fence: Some(Allowed(
            "acq_rel fences need a write after the first fence to be observed: SB has none, only fence.sc helps",
        )),
        relaxed: Allowed("relaxed: each store may stay invisible to the other thread's load"),
    },
};
