//! Z6.3: `W x=1; W y=1 || W y=2; W z=1 || R z; R x`. Weak: `y` ends 2,
//! `r0 = 1` and `r1 = 0`: the third thread sees the second's flag, and
//! the second's `y` lands after the first's, yet `x` is missed.
//!
//! ```text
//! role 0            role 1              role 2
//! W x = 1           W y = 2             r0 = R z (flag)
//! W y = 1 (flag)    W z = 1 (flag)      r1 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from
//! the axioms of ptx.als: role 1's W y=2 after W y=1 is coherence, not an
//! observation, so no release pattern of role 0 is observed by role 1; only
//! fence.sc in all three, totally ordered, carries W x to the last R x.

use crate::litmus::Location::{X, Y, Z};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// Z6.3, as the module docs describe it.
pub const Z6_3: Definition = Definition {
    key: "z6dot3",
    name: "Z6.3",
    // Z6.3's flags are z, released by the second thread and acquired by
    // the third, and y, which the first thread releases but nobody reads.
    roles: &[
        Role::new(&[Store(X, 1), Store(Y, 1)], 0b10, None),
        Role::new(&[Store(Y, 2), Store(Z, 1)], 0b10, None),
        Role::new(&[Load(Z, 0), Load(X, 1)], 0b01, Some(X)),
    ],
    finals: &[Y],
    // r0 = 1 (z), r1 = 0 (x), y ends 2.
    weak: &[1, 0, 2],
    // Role 2 sees both flags; role 1's store to y comes last.
    sequential: &[1, 1, 2],
    ptxas_reorders_weak_loads: true,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: None,
        release_acquire: None,
        sc_fence: Some(Forbidden(
            "the three fence.sc are ordered one way: W y=2 after W y=1 then puts W x before the last R x",
        )),
        fence: None,
        relaxed: Allowed(
            "W y=2 landing after W y=1 is coherence, not observation: nothing synchronizes role 0 with role 1",
        ),
    },
};
