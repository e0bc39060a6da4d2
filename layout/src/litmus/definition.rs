//! What a litmus test is, as data: the vocabulary each file of
//! [`suite`](super::suite) writes its test in.

use super::op::{Location, Op};

/// One thread's part in a test: its accesses in program order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Role {
    /// The accesses, in program order. A fence variant puts its fence
    /// between each consecutive pair.
    pub ops: &'static [Op],
    /// The flag accesses of this role, bit `i` for `ops[i]`: a
    /// release/acquire variant makes each flag store a release and each flag
    /// load an acquire, and every other access stays relaxed. Most roles have
    /// at most one; ISA2's middle role has two (it acquires one flag and
    /// releases the next).
    pub flags: u8,
    /// The location whose stale copy in this thread's L1 would let the weak
    /// outcome through: what `--preload` reads before the test starts.
    pub stale: Option<Location>,
}

impl Role {
    /// A role of `ops`, with `flags` and `stale` as [`Role`] documents them.
    pub const fn new(ops: &'static [Op], flags: u8, stale: Option<Location>) -> Role {
        Role { ops, flags, stale }
    }

    /// Whether `ops[i]` is a flag access ([`Role::flags`]).
    pub const fn is_flag(&self, i: usize) -> bool {
        i < 8 && self.flags & (1 << i) != 0
    }
}

/// One litmus test, written once: everything the kernels, the host and the
/// memory-model checker know of it that is not its kernel's code. Each test
/// is one file of [`suite`](super::suite) holding one `const` of this type;
/// [`Test`](super::Test) reads every answer from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Definition {
    /// Its name on the command line and in symbols (`mp`, `2plus2w`).
    pub key: &'static str,
    /// Its name in tables (`MP`, `2+2W`).
    pub name: &'static str,
    /// The threads' programs, role by role.
    pub roles: &'static [Role],
    /// The locations whose final values are part of the outcome, in
    /// [`Location`]'s order: empty for the tests about loads, whose outcome
    /// is their registers alone; the locations stored twice for the tests
    /// about the order of stores.
    pub finals: &'static [Location],
    /// The weak outcome: the registers `r0, r1, ...`, then the final values
    /// of [`Definition::finals`] in order.
    pub weak: &'static [u32],
    /// The one outcome a sequential run gives (every role of an instance runs
    /// to its end, in role order, before the next role starts), written as
    /// [`Definition::weak`] is.
    pub sequential: &'static [u32],
    /// Whether `ptxas` issues the weak variant's test loads in another order
    /// than the program's, as the SASS test finds on sm_90 (and holds to this
    /// field, so a new `ptxas` that changes it is noticed).
    pub ptxas_reorders_weak_loads: bool,
    /// The sentences `host litmus` gives for its verdicts on this test, where
    /// the general rules (weak accesses, a scope that leaves a thread out) do
    /// not decide them.
    pub reasons: Reasons,
}

/// A verdict on the weak outcome and why, in one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The model allows it, because of the sentence.
    Allowed(&'static str),
    /// The model forbids it, because of the sentence.
    Forbidden(&'static str),
}

/// A test's own reasons for the model's verdicts, one per kind of
/// synchronization. The host's explanation takes the first that applies,
/// in the order of the fields: after `always` and `coherence`, weak accesses,
/// volatile ones, and a scope that leaves a thread out have reasons common
/// to every test; the last three fields apply only where the accesses are
/// morally strong. A unit test of the host holds every reason's verdict to
/// the checker's, for every test, variant and placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reasons {
    /// Why the weak outcome is forbidden whatever the variant and placement
    /// (CoWW: one thread's two stores are always morally strong relative to
    /// each other).
    pub always: Option<&'static str>,
    /// Why it is forbidden whenever the accesses are morally strong: the
    /// coherence tests.
    pub coherence: Option<&'static str>,
    /// Why volatile accesses (relaxed at `.sys`: strong, in scope, ordering
    /// nothing) allow it; `None` for the common sentence.
    pub volatile: Option<&'static str>,
    /// The verdict when release/acquire on the flag covers every thread.
    pub release_acquire: Option<Reason>,
    /// The verdict when `fence.sc` covers the fenced threads.
    pub sc_fence: Option<Reason>,
    /// The verdict when any fence covers the fenced threads (`fence.acq_rel`,
    /// and `fence.sc` where `sc_fence` is `None`).
    pub fence: Option<Reason>,
    /// The verdict with strong accesses and nothing above.
    pub relaxed: Reason,
}
