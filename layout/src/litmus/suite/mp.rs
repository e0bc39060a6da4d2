//! MP, message passing: `W x; W y || R y; R x`. Weak: the flag seen, the data not.
//!
//! ```text
//! role 0            role 1
//! W x = 1           r0 = R y
//! W y = 1 (flag)    r1 = R x
//! ```
//!
//! The model's verdicts (its lines in `memory-model/tests/lab-verdicts.txt`), reasoned out by hand from the
//! axioms of ptx.als: forbidden only when a release pattern (release store, or
//! fence then store) is observed by a morally strong acquire pattern: the
//! acquire's thread then has W x in causality order before R x. A .cta release
//! or fence leaves out the other block.

use crate::litmus::Location::{X, Y};
use crate::litmus::Op::{Load, Store};
use crate::litmus::definition::Reason::{Allowed, Forbidden};
use crate::litmus::definition::{Definition, Reasons, Role};

/// MP, as the module docs describe it.
pub const MP: Definition = Definition {
    key: "mp",
    name: "MP",
    roles: &[
        Role::new(&[Store(X, 1), Store(Y, 1)], 0b10, None),
        Role::new(&[Load(Y, 0), Load(X, 1)], 0b01, Some(X)),
    ],
    finals: &[],
    // r0 = 1 (the flag), r1 = 0 (the data).
    weak: &[1, 0],
    // The reader runs after both stores.
    sequential: &[1, 1],
    ptxas_reorders_weak_loads: true,
    reasons: Reasons {
        always: None,
        coherence: None,
        volatile: Some("volatile is relaxed at .sys: it keeps the accesses, but nothing orders W x before W y"),
        release_acquire: Some(Forbidden(
            "the acquire that reads the release's flag makes W x visible: causality forbids r1 = 0",
        )),
        sc_fence: None,
        fence: Some(Forbidden(
            "fence → W y observed by R y → fence synchronizes: W x is in causality order before R x",
        )),
        relaxed: Allowed("relaxed: nothing orders W x before W y, or R y before R x"),
    },
};
