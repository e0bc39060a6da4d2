//! RWC, read-to-write causality: `W x || R x; R y || W y; R x`. Weak: the second
//! thread sees `x` and then misses `y`, while the third writes `y` and then
//! misses `x`.
//!
//! ```text
//! role 0      role 1              role 2
//! W x = 1     r0 = R x            W y = 1
//!             r1 = R y            r2 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from the
//! axioms of ptx.als: as SB, no write after a fence is read by anyone, so
//! acq_rel fences never synchronize; two morally strong fence.sc, ordered
//! either way, forbid it.

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// RWC, as the module docs describe it.
pub const RWC: Definition = Definition {
    key: "rwc",
    name: "RWC",
    roles: &[
        Role::new(&[Store(X, 1)], 0, None),
        Role::new(&[Load(X, 0), Load(Y, 1)], 0, Some(Y)),
        Role::new(&[Store(Y, 1), Load(X, 2)], 0, Some(X)),
    ],
    finals: &[],
    // r0 = 1, r1 = 0, r2 = 0.
    weak: &[1, 0, 0],
    // Role 1 sees x and loads y before role 2 stores it; role 2 then sees x.
    sequential: &[1, 0, 1],
    ptxas_reorders_weak_loads: false,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: None,
        release_acquire: None,
        sc_fence: Some(Forbidden(
            "the two fence.sc are ordered one way: either W x (seen by R x) reaches the last R x, or W y the R y",
        )),
        fence: Some(Allowed(
            "acq_rel fences need a write after the first fence to be observed: RWC's is not, only fence.sc helps",
        )),
        relaxed: Allowed("relaxed: W y may stay invisible to R y while W x, already read, stays invisible to R x"),
    },
};
