//! 3.2W: `W x=2; W y=1 || W y=2; W z=1 || W z=2; W x=1`. Weak: `x`, `y`
//! and `z` all end 2, a cycle of three threads' stores in coherence
//! order against program order.
//!
//! ```text
//! role 0            role 1            role 2
//! W x = 2           W y = 2           W z = 2
//! W y = 1           W z = 1           W x = 1
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand
//! from the axioms of ptx.als: as 2+2W with three threads, no load, so only
//! fence.sc forbids the cycle.

use crate::litmus::Location::{X, Y, Z};
use crate::litmus::Op::{Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// 3.2W, as the module docs describe it.
pub const THREE_TWO_W: Definition = Definition {
    key: "3dot2w",
    name: "3.2W",
    // No load, so no flag (a flag is a store and the load that reads it):
    // no release/acquire variant, and nothing to gain from a stale line.
    roles: &[
        Role::new(&[Store(X, 2), Store(Y, 1)], 0, None),
        Role::new(&[Store(Y, 2), Store(Z, 1)], 0, None),
        Role::new(&[Store(Z, 2), Store(X, 1)], 0, None),
    ],
    finals: &[X, Y, Z],
    // x, y and z all end 2.
    weak: &[2, 2, 2],
    // Each location's last store is the later role's: x by role 2,
    // y by role 1, z by role 2.
    sequential: &[1, 2, 2],
    ptxas_reorders_weak_loads: false,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: None,
        release_acquire: None,
        sc_fence: Some(Forbidden(
            "the three fence.sc are ordered one way: the stores cannot chain into a cycle against it",
        )),
        fence: Some(Allowed("acq_rel fences synchronize only through a load that observes a store: 3.2W has no load")),
        relaxed: Allowed("relaxed: nothing orders a thread's two stores to different locations"),
    },
};
