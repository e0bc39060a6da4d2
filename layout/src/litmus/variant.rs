//! [`Variant`]: which PTX instruction each access and fence of a test
//! becomes, and the SASS that instruction must (and must not) compile to.

use crate::scope::Scope;

use super::op::Op;

/// The PTX of a litmus test's access or fence, as a string literal, from
/// its words: `litmus_ptx!(st weak)`, `litmus_ptx!(ld volatile)`,
/// `litmus_ptx!(st release gpu)`, `litmus_ptx!(ld relaxed cta)`,
/// `litmus_ptx!(fence acq_rel cluster)`.
///
/// The one spelling of a test access: the kernels' `asm!` templates
/// (`kernels/src/litmus/access.rs`) and [`Variant::ptx`], which the PTX
/// tests and the memory-model checker read, both expand it. Every access is
/// in the `.global` window and of type `.u32`, which nothing else in the lab
/// uses (the compiler and `AtomicRef` write `.b32`), so the PTX tests can pick
/// a kernel's test accesses out of its body ([`test_step`](super::test_step)).
#[macro_export]
macro_rules! litmus_ptx {
    (fence $order:ident $scope:ident) => {
        concat!("fence.", stringify!($order), ".", stringify!($scope))
    };
    ($op:ident weak) => {
        concat!(stringify!($op), ".global.u32")
    };
    ($op:ident volatile) => {
        concat!(stringify!($op), ".volatile.global.u32")
    };
    ($op:ident $order:ident $scope:ident) => {
        concat!(stringify!($op), ".", stringify!($order), ".", stringify!($scope), ".global.u32")
    };
}

/// How a test's accesses are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Plain `ld.global` / `st.global`: not atomic, not morally strong.
    Weak,
    /// Every access `.relaxed.gpu`.
    RelaxedGpu,
    /// Every access `.relaxed.cta`.
    RelaxedCta,
    /// Every access `ld.volatile` / `st.volatile`: what CUDA C++ compiles a
    /// `volatile` access to, the page's "volatile as synchronization"
    /// mistake. The PTX ISA (9.1, section 8.4.2, "volatile Operation"):
    /// "The semantics of volatile operations are equivalent to a relaxed
    /// memory operation with system-scope but with the following extra
    /// implementation-specific constraints": the number of volatile
    /// *instructions* executed is preserved, and volatile instructions are not
    /// reordered around other volatile instructions (though the memory
    /// operations they perform may be). Those constraints bind the compiler,
    /// not the memory model, so the checker models every access as relaxed at
    /// [`Scope::Sys`], which on the lab's one GPU covers what `.gpu` covers:
    /// the verdicts are [`Variant::RelaxedGpu`]'s, placement for placement.
    Volatile,
    /// The flag store `st.release.gpu`, the flag load `ld.acquire.gpu`, every
    /// other access `.relaxed.gpu`.
    ReleaseAcquireGpu,
    /// As [`Variant::ReleaseAcquireGpu`] at `.cta`.
    ReleaseAcquireCta,
    /// Every access `.relaxed.gpu`, with `fence.acq_rel.gpu` between a
    /// thread's two accesses.
    FenceAcqRelGpu,
    /// As [`Variant::FenceAcqRelGpu`] with `fence.acq_rel.cta`.
    FenceAcqRelCta,
    /// Every access `.relaxed.gpu`, with `fence.sc.gpu` between a thread's
    /// two accesses.
    FenceScGpu,
    /// As [`Variant::FenceScGpu`] with `fence.sc.cta`.
    FenceScCta,
    /// Every access `.relaxed.cluster`: strong towards the threads of every
    /// block of this thread's cluster (sm_90; in the Hopper module only).
    RelaxedCluster,
    /// As [`Variant::ReleaseAcquireGpu`] at `.cluster`: the flag
    /// `st.release.cluster` / `ld.acquire.cluster`, the data
    /// `.relaxed.cluster`.
    ReleaseAcquireCluster,
    /// As [`Variant::FenceAcqRelGpu`] with `fence.acq_rel.cluster`.
    FenceAcqRelCluster,
    /// As [`Variant::FenceScGpu`] with `fence.sc.cluster`.
    FenceScCluster,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 14] = [
        Variant::Weak,
        Variant::RelaxedGpu,
        Variant::RelaxedCta,
        Variant::Volatile,
        Variant::ReleaseAcquireGpu,
        Variant::ReleaseAcquireCta,
        Variant::FenceAcqRelGpu,
        Variant::FenceAcqRelCta,
        Variant::FenceScGpu,
        Variant::FenceScCta,
        Variant::RelaxedCluster,
        Variant::ReleaseAcquireCluster,
        Variant::FenceAcqRelCluster,
        Variant::FenceScCluster,
    ];

    /// Its name on the command line.
    pub const fn key(self) -> &'static str {
        self.spec().key
    }

    /// The scope of its ordinary accesses, or `None` for weak ones. A
    /// volatile access names no scope in PTX; the ISA gives it `.sys`'s.
    pub const fn access_scope(self) -> Option<Scope> {
        self.spec().access
    }

    /// Whether the flag accesses are release and acquire.
    pub const fn release_acquire(self) -> bool {
        self.spec().release_acquire
    }

    /// Whether it names the `.cluster` scope, which only sm_90 PTX has: its
    /// kernels are in the Hopper module alone.
    pub const fn needs_hopper(self) -> bool {
        matches!(self.access_scope(), Some(Scope::Cluster)) || matches!(self.fence(), Some((_, Scope::Cluster)))
    }

    /// Its fence, as `(sc, scope)`: `fence.sc` if `sc`, else `fence.acq_rel`.
    pub const fn fence(self) -> Option<(bool, Scope)> {
        self.spec().fence
    }

    /// The PTX of the fence, if any.
    pub const fn fence_ptx(self) -> Option<&'static str> {
        match self.fence() {
            Some((false, Scope::Cta)) => Some(litmus_ptx!(fence acq_rel cta)),
            Some((false, Scope::Cluster)) => Some(litmus_ptx!(fence acq_rel cluster)),
            Some((false, Scope::Gpu)) => Some(litmus_ptx!(fence acq_rel gpu)),
            Some((false, Scope::Sys)) => Some(litmus_ptx!(fence acq_rel sys)),
            Some((true, Scope::Cta)) => Some(litmus_ptx!(fence sc cta)),
            Some((true, Scope::Cluster)) => Some(litmus_ptx!(fence sc cluster)),
            Some((true, Scope::Gpu)) => Some(litmus_ptx!(fence sc gpu)),
            Some((true, Scope::Sys)) => Some(litmus_ptx!(fence sc sys)),
            None => None,
        }
    }

    /// The PTX instruction (without operands) of `op`, which is the flag
    /// access of its role when `flag`, spelled by [`litmus_ptx!`] as the
    /// kernels spell it. A volatile access is written `.volatile`, not
    /// `.relaxed.sys`: the lab runs the instruction CUDA C++ emits for
    /// `volatile`, whose memory semantics the ISA defines as `.relaxed.sys`'s
    /// (no variant writes `.relaxed.sys` itself; its arms are here for
    /// completeness).
    pub const fn ptx(self, op: Op, flag: bool) -> &'static str {
        let store = matches!(op, Op::Store(..));
        if let Variant::Volatile = self {
            return if store { litmus_ptx!(st volatile) } else { litmus_ptx!(ld volatile) };
        }
        match (self.access_scope(), self.release_acquire() && flag, store) {
            (None, _, true) => litmus_ptx!(st weak),
            (None, _, false) => litmus_ptx!(ld weak),
            (Some(Scope::Cta), false, true) => litmus_ptx!(st relaxed cta),
            (Some(Scope::Cta), false, false) => litmus_ptx!(ld relaxed cta),
            (Some(Scope::Cta), true, true) => litmus_ptx!(st release cta),
            (Some(Scope::Cta), true, false) => litmus_ptx!(ld acquire cta),
            (Some(Scope::Cluster), false, true) => litmus_ptx!(st relaxed cluster),
            (Some(Scope::Cluster), false, false) => litmus_ptx!(ld relaxed cluster),
            (Some(Scope::Cluster), true, true) => litmus_ptx!(st release cluster),
            (Some(Scope::Cluster), true, false) => litmus_ptx!(ld acquire cluster),
            (Some(Scope::Gpu), false, true) => litmus_ptx!(st relaxed gpu),
            (Some(Scope::Gpu), false, false) => litmus_ptx!(ld relaxed gpu),
            (Some(Scope::Gpu), true, true) => litmus_ptx!(st release gpu),
            (Some(Scope::Gpu), true, false) => litmus_ptx!(ld acquire gpu),
            (Some(Scope::Sys), false, true) => litmus_ptx!(st relaxed sys),
            (Some(Scope::Sys), false, false) => litmus_ptx!(ld relaxed sys),
            (Some(Scope::Sys), true, true) => litmus_ptx!(st release sys),
            (Some(Scope::Sys), true, false) => litmus_ptx!(ld acquire sys),
        }
    }

    /// SASS the kernel must contain on sm_90: the barriers each ordering
    /// becomes. A relaxed access becomes a plain load or store with a
    /// `.STRONG.GPU` or `.STRONG.SM` qualifier and no barrier at all, and a
    /// volatile one the same with `.STRONG.SYS`; a device-scope fence or
    /// acquire also invalidates L1 (`CCTL.IVALL`). `ptxas` 13 compiles
    /// `.cluster` on sm_90 exactly as `.gpu` ([`sass_of`](super::sass_of)),
    /// so a cluster variant promises its device-scope twin's SASS.
    pub const fn sass_has(self) -> &'static [&'static str] {
        self.spec().sass_has
    }

    /// SASS the kernel must not contain on sm_90.
    pub const fn sass_lacks(self) -> &'static [&'static str] {
        self.spec().sass_lacks
    }

    /// What it is, as data: one row per variant.
    const fn spec(self) -> Spec {
        use Scope::{Cluster, Cta, Gpu, Sys};
        // A relaxed access is a plain load or store with no barrier at all;
        // a device-scope release, acquire or fence is a device-scope barrier
        // and invalidates L1; a block-scope one is a block-scope barrier only.
        const NONE: &[&str] = &[];
        const NO_BARRIER: &[&str] = &["MEMBAR", "CCTL", "ERRBAR"];
        const ACQ_REL_GPU: &[&str] = &["MEMBAR.ALL.GPU", "CCTL.IVALL"];
        const NOT_ACQ_REL_GPU: &[&str] = &["MEMBAR.SC", "MEMBAR.ALL.CTA"];
        const ACQ_REL_CTA: &[&str] = &["MEMBAR.ALL.CTA"];
        const NOT_ACQ_REL_CTA: &[&str] = &["MEMBAR.ALL.GPU", "MEMBAR.SC", "CCTL"];
        const SC_GPU: &[&str] = &["MEMBAR.SC.GPU", "CCTL.IVALL"];
        const NOT_SC_GPU: &[&str] = &["MEMBAR.ALL", "MEMBAR.SC.CTA"];
        const SC_CTA: &[&str] = &["MEMBAR.SC.CTA"];
        const NOT_SC_CTA: &[&str] = &["MEMBAR.SC.GPU", "MEMBAR.ALL", "CCTL"];
        const fn row(
            key: &'static str,
            access: Option<Scope>,
            release_acquire: bool,
            fence: Option<(bool, Scope)>,
            sass_has: &'static [&'static str],
            sass_lacks: &'static [&'static str],
        ) -> Spec {
            Spec { key, access, release_acquire, fence, sass_has, sass_lacks }
        }
        match self {
            Variant::Weak => row("weak", None, false, None, NONE, NO_BARRIER),
            Variant::RelaxedGpu => row("relaxed-gpu", Some(Gpu), false, None, NONE, NO_BARRIER),
            Variant::RelaxedCta => row("relaxed-cta", Some(Cta), false, None, NONE, NO_BARRIER),
            Variant::Volatile => row("volatile", Some(Sys), false, None, NONE, NO_BARRIER),
            Variant::ReleaseAcquireGpu => row("rel-acq-gpu", Some(Gpu), true, None, ACQ_REL_GPU, NOT_ACQ_REL_GPU),
            Variant::ReleaseAcquireCta => row("rel-acq-cta", Some(Cta), true, None, ACQ_REL_CTA, NOT_ACQ_REL_CTA),
            Variant::FenceAcqRelGpu => {
                row("fence-acq-rel-gpu", Some(Gpu), false, Some((false, Gpu)), ACQ_REL_GPU, NOT_ACQ_REL_GPU)
            }
            Variant::FenceAcqRelCta => {
                row("fence-acq-rel-cta", Some(Gpu), false, Some((false, Cta)), ACQ_REL_CTA, NOT_ACQ_REL_CTA)
            }
            Variant::FenceScGpu => row("fence-sc-gpu", Some(Gpu), false, Some((true, Gpu)), SC_GPU, NOT_SC_GPU),
            Variant::FenceScCta => row("fence-sc-cta", Some(Gpu), false, Some((true, Cta)), SC_CTA, NOT_SC_CTA),
            // `ptxas` 13 compiles `.cluster` on sm_90 exactly as `.gpu`
            // (`sass_of`): each promises its twin's SASS.
            Variant::RelaxedCluster => row("relaxed-cluster", Some(Cluster), false, None, NONE, NO_BARRIER),
            Variant::ReleaseAcquireCluster => {
                row("rel-acq-cluster", Some(Cluster), true, None, ACQ_REL_GPU, NOT_ACQ_REL_GPU)
            }
            Variant::FenceAcqRelCluster => {
                row("fence-acq-rel-cluster", Some(Gpu), false, Some((false, Cluster)), ACQ_REL_GPU, NOT_ACQ_REL_GPU)
            }
            Variant::FenceScCluster => {
                row("fence-sc-cluster", Some(Gpu), false, Some((true, Cluster)), SC_GPU, NOT_SC_GPU)
            }
        }
    }
}

/// A [`Variant`] as data ([`Variant::spec`]).
#[derive(Clone, Copy)]
struct Spec {
    /// [`Variant::key`].
    key: &'static str,
    /// [`Variant::access_scope`].
    access: Option<Scope>,
    /// [`Variant::release_acquire`].
    release_acquire: bool,
    /// [`Variant::fence`].
    fence: Option<(bool, Scope)>,
    /// [`Variant::sass_has`].
    sass_has: &'static [&'static str],
    /// [`Variant::sass_lacks`].
    sass_lacks: &'static [&'static str],
}
