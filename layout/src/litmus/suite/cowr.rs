//! CoWR, coherence of a write and a read: `W x=1; R x || W x=2` (herd's and
//! GPUHarbor's CoWR). Weak: `r0 = 2` and `x` ends 1: the read sees the
//! other store, which coherence then places before the thread's own
//! earlier store.
//!
//! ```text
//! role 0            role 1
//! W x = 1           W x = 2
//! r0 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from
//! the axioms of ptx.als: as CoRR, forbidden when the other thread's W x=2 is
//! morally strong with the first thread's accesses: W x=2 coherence-before W
//! x=1, program-order-before the read of W x=2, is a cycle in SC-per-Location.
//! Weak stores, or .cta ones across blocks (rel-acq-cta's accesses are
//! .relaxed.cta), leave W x=2 unordered, a data race.

use crate::litmus::Location::{X};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// CoWR, as the module docs describe it.
pub const COWR: Definition = Definition {
    key: "cowr",
    name: "CoWR",
    // Every access is to `x`, and a second access to one location by one
    // thread is never a flag: no release/acquire variant, and no load that
    // gains from a stale line.
    roles: &[
        Role::new(&[Store(X, 1), Load(X, 0)], 0, None),
        Role::new(&[Store(X, 2)], 0, None),
    ],
    finals: &[X],
    // r0 = 2, x ends 1.
    weak: &[2, 1],
    // Role 0 reads its own store; role 1's store comes last.
    sequential: &[1, 2],
    ptxas_reorders_weak_loads: false,
    reasons: Reasons {
        always: None,
        coherence: Some("coherence: R x cannot read a W x=2 that coherence puts before its own thread's earlier W x=1"),
        volatile: None,
        release_acquire: None,
        sc_fence: None,
        fence: None,
        relaxed: Forbidden("coherence: strong accesses to one location follow a single coherence order"),
    },
};
