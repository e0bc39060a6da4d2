//! CoRW2, coherence of a read and a write, GPUHarbor's two-thread CoRW2:
//! `R x; W x=1 || W x=2`. Weak: `r0 = 2` and `x` ends 2: the read sees
//! the other store, yet the thread's later store is ordered before it.
//!
//! ```text
//! role 0            role 1
//! r0 = R x          W x = 2
//! W x = 1
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from
//! the axioms of ptx.als: the same, with the cycle R x reads W x=2, R x
//! program-order-before W x=1, W x=1 coherence-before W x=2.

use crate::litmus::Location::{X};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// CoRW2, as the module docs describe it.
pub const CORW2: Definition = Definition {
    key: "corw2",
    name: "CoRW2",
    // Every access is to `x`, and a second access to one location by one
    // thread is never a flag: no release/acquire variant, and no load that
    // gains from a stale line.
    roles: &[
        Role::new(&[Load(X, 0), Store(X, 1)], 0, None),
        Role::new(&[Store(X, 2)], 0, None),
    ],
    finals: &[X],
    // r0 = 2, x ends 2.
    weak: &[2, 2],
    // Role 0 reads the initial 0; role 1's store comes last.
    sequential: &[0, 2],
    ptxas_reorders_weak_loads: false,
    reasons: Reasons {
        always: None,
        coherence: Some("coherence: R x read W x=2, so its thread's later W x=1 must follow W x=2 and be final"),
        volatile: None,
        release_acquire: None,
        sc_fence: None,
        fence: None,
        relaxed: Forbidden("coherence: strong accesses to one location follow a single coherence order"),
    },
};
