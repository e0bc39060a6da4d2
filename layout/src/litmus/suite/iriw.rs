//! IRIW, independent reads of independent writes: `W x || W y || R x; R y || R y; R x`.
//! Weak: the two readers see the two writes in opposite orders.
//!
//! ```text
//! role 0      role 1      role 2        role 3
//! W x = 1     W y = 1     r0 = R x      r2 = R y
//!                         r1 = R y      r3 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from
//! the axioms of ptx.als: only fence.sc between the reads, morally strong with
//! each other, makes the readers agree; acq_rel fences and release/acquire
//! (IRIW has no flag) do not.

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// IRIW, as the module docs describe it.
pub const IRIW: Definition = Definition {
    key: "iriw",
    name: "IRIW",
    roles: &[
        Role::new(&[Store(X, 1)], 0, None),
        Role::new(&[Store(Y, 1)], 0, None),
        Role::new(&[Load(X, 0), Load(Y, 1)], 0, Some(Y)),
        Role::new(&[Load(Y, 2), Load(X, 3)], 0, Some(X)),
    ],
    finals: &[],
    // r0 = 1, r1 = 0; r2 = 1, r3 = 0.
    weak: &[1, 0, 1, 0],
    // The readers run after both stores.
    sequential: &[1, 1, 1, 1],
    ptxas_reorders_weak_loads: true,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: Some("volatile is relaxed at .sys: the two readers may see the two writes in different orders"),
        release_acquire: None,
        sc_fence: Some(Forbidden(
            "the readers' fence.sc are ordered one way: both readers see the writes in that order",
        )),
        fence: Some(Allowed("acq_rel fences do not make independent readers agree on an order: only fence.sc does")),
        relaxed: Allowed("relaxed: the two readers may see the two writes in different orders"),
    },
};
