//! The litmus suite: sixteen classic tests of memory order, each in the
//! variants that teach something, and the parallel testing environment that
//! runs many instances of one test per launch.
//!
//! A litmus test is a few threads, each doing one or two accesses to two
//! locations `x` and `y`, or three with `z` (all 0 at the start, every store
//! writes 1, except that a test with two stores to one location writes 1 with
//! one and 2 with the other), and an
//! *outcome*: the values the loads returned, and for the tests about the
//! order of stores ([`Test::finals`]) the values the locations end with. Every test has one *weak*
//! outcome, the one no interleaving of the threads' instructions can produce.
//! Whether the PTX memory model allows it depends on the accesses' ordering
//! and scope and on where the threads run; whether the H200 ever shows it is
//! a separate question, which `host litmus` counts.
//!
//! This module is the contract between the kernels and the host:
//! - [`Test`] and its [`Role`]s: each thread's program, the weak outcome, and
//!   the outcome a sequential run must give. The PTX tests check each kernel
//!   against it.
//! - [`Variant`]: which PTX instruction each access and fence becomes.
//! - [`Params`]: the testing environment, one `#[repr(C)]` block the host
//!   writes and every kernel reads, with the maps from a thread to the
//!   instance it works on ([`Params::instance`]) and from an instance to its
//!   locations ([`Params::x`], [`Params::y`], [`Params::z`]), which kernels
//!   and host share.
//! - [`outcome_bin`] and [`final_outcome_bin`]: how one instance's registers
//!   (and final values) become a histogram bin, on the GPU and in the host's
//!   tests alike.
//! - [`KERNELS`]: one registry entry per (test, variant), and [`CLASSIFY`].

use crate::registry::{Entry, Family, Param, ParamRole, Type, WARP_SIZE};
use crate::scope::{Placement, Scope};

/// A location of a litmus test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The first location (the data, in message passing).
    X,
    /// The second location (the flag, in message passing).
    Y,
    /// The third location (ISA2's second flag).
    Z,
}

/// One access of a role's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Store the value (1, or 2 where a test has two stores to one location
    /// and its outcome tells them apart) to the location.
    Store(Location, u32),
    /// Load the location into register `r` (0 to 3) of the instance.
    Load(Location, u8),
}

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

/// The sixteen tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Test {
    /// Message passing: `W x; W y || R y; R x`. Weak: the flag seen, the data not.
    Mp,
    /// Store buffering: `W x; R y || W y; R x`. Weak: both loads miss the other's store.
    Sb,
    /// Load buffering: `R x; W y || R y; W x`. Weak: each load sees the other's later store.
    Lb,
    /// Coherence of two reads: `W x || R x; R x`. Weak: the second read older than the first.
    Corr,
    /// Write-to-read causality: `W x || R x; W y || R y; R x`. Weak: the third thread
    /// sees `y` but not the `x` that caused it.
    Wrc,
    /// Independent reads of independent writes: `W x || W y || R x; R y || R y; R x`.
    /// Weak: the two readers see the two writes in opposite orders.
    Iriw,
    /// Read-to-write causality: `W x || R x; R y || W y; R x`. Weak: the second
    /// thread sees `x` and then misses `y`, while the third writes `y` and then
    /// misses `x`.
    Rwc,
    /// ISA2, causality through a chain of two flags: `W x; W y || R y; W z || R z; R x`.
    /// Weak: the third thread sees the second flag `z` but not the data `x`.
    Isa2,
    /// Coherence of two writes by one thread: `W x=1; W x=2`. Weak: `x` ends 1,
    /// the later store ordered before the earlier one.
    Coww,
    /// Coherence of a write and a read: `W x=1; R x || W x=2` (herd's and
    /// GPUHarbor's CoWR). Weak: `r0 = 2` and `x` ends 1: the read sees the
    /// other store, which coherence then places before the thread's own
    /// earlier store.
    Cowr,
    /// Coherence of a read and a write, GPUHarbor's two-thread CoRW2:
    /// `R x; W x=1 || W x=2`. Weak: `r0 = 2` and `x` ends 2: the read sees
    /// the other store, yet the thread's later store is ordered before it.
    Corw2,
    /// 2+2W: `W x=1; W y=2 || W y=1; W x=2`. Weak: `x` and `y` both end 1,
    /// each thread's second store ordered before the other's first.
    TwoPlusTwoW,
    /// S: `W x=2; W y=1 || R y; W x=1`. Weak: `r0 = 1` and `x` ends 2: the
    /// second thread sees the flag, yet its store to `x` is ordered before
    /// the first thread's.
    S,
    /// R: `W x=1; W y=1 || W y=2; R x`. Weak: `y` ends 2 and `r0 = 0`: the
    /// second thread's store to `y` comes after the first's, yet its load
    /// misses `x`.
    R,
    /// Z6.3: `W x=1; W y=1 || W y=2; W z=1 || R z; R x`. Weak: `y` ends 2,
    /// `r0 = 1` and `r1 = 0`: the third thread sees the second's flag, and
    /// the second's `y` lands after the first's, yet `x` is missed.
    Z6_3,
    /// 3.2W: `W x=2; W y=1 || W y=2; W z=1 || W z=2; W x=1`. Weak: `x`, `y`
    /// and `z` all end 2, a cycle of three threads' stores in coherence
    /// order against program order.
    ThreeTwoW,
}

impl Role {
    /// Whether `ops[i]` is a flag access ([`Role::flags`]).
    pub const fn is_flag(&self, i: usize) -> bool {
        i < 8 && self.flags & (1 << i) != 0
    }
}

use Location::{X, Y, Z};
use Op::{Load, Store};

impl Test {
    /// Every test, in the README's order.
    pub const ALL: [Test; 16] = [
        Test::Mp,
        Test::Sb,
        Test::Lb,
        Test::Corr,
        Test::Wrc,
        Test::Iriw,
        Test::Rwc,
        Test::Isa2,
        Test::Coww,
        Test::Cowr,
        Test::Corw2,
        Test::TwoPlusTwoW,
        Test::S,
        Test::R,
        Test::Z6_3,
        Test::ThreeTwoW,
    ];

    /// Its name on the command line and in symbols.
    pub const fn key(self) -> &'static str {
        match self {
            Test::Mp => "mp",
            Test::Sb => "sb",
            Test::Lb => "lb",
            Test::Corr => "corr",
            Test::Wrc => "wrc",
            Test::Iriw => "iriw",
            Test::Rwc => "rwc",
            Test::Isa2 => "isa2",
            Test::Coww => "coww",
            Test::Cowr => "cowr",
            Test::Corw2 => "corw2",
            Test::TwoPlusTwoW => "2plus2w",
            Test::S => "s",
            Test::R => "r",
            Test::Z6_3 => "z6dot3",
            Test::ThreeTwoW => "3dot2w",
        }
    }

    /// Its name in tables.
    pub const fn name(self) -> &'static str {
        match self {
            Test::Mp => "MP",
            Test::Sb => "SB",
            Test::Lb => "LB",
            Test::Corr => "CoRR",
            Test::Wrc => "WRC",
            Test::Iriw => "IRIW",
            Test::Rwc => "RWC",
            Test::Isa2 => "ISA2",
            Test::Coww => "CoWW",
            Test::Cowr => "CoWR",
            Test::Corw2 => "CoRW2",
            Test::TwoPlusTwoW => "2+2W",
            Test::S => "S",
            Test::R => "R",
            Test::Z6_3 => "Z6.3",
            Test::ThreeTwoW => "3.2W",
        }
    }

    /// The threads' programs, role by role.
    pub const fn roles(self) -> &'static [Role] {
        const fn role(ops: &'static [Op], flags: u8, stale: Option<Location>) -> Role {
            Role { ops, flags, stale }
        }
        const MP: [Role; 2] =
            [role(&[Store(X, 1), Store(Y, 1)], 0b10, None), role(&[Load(Y, 0), Load(X, 1)], 0b01, Some(X))];
        const SB: [Role; 2] =
            [role(&[Store(X, 1), Load(Y, 0)], 0, Some(Y)), role(&[Store(Y, 1), Load(X, 1)], 0, Some(X))];
        const LB: [Role; 2] = [role(&[Load(X, 0), Store(Y, 1)], 0, None), role(&[Load(Y, 1), Store(X, 1)], 0, None)];
        const CORR: [Role; 2] = [role(&[Store(X, 1)], 0, None), role(&[Load(X, 0), Load(X, 1)], 0, Some(X))];
        const WRC: [Role; 3] = [
            role(&[Store(X, 1)], 0, None),
            role(&[Load(X, 0), Store(Y, 1)], 0b10, None),
            role(&[Load(Y, 1), Load(X, 2)], 0b01, Some(X)),
        ];
        const IRIW: [Role; 4] = [
            role(&[Store(X, 1)], 0, None),
            role(&[Store(Y, 1)], 0, None),
            role(&[Load(X, 0), Load(Y, 1)], 0, Some(Y)),
            role(&[Load(Y, 2), Load(X, 3)], 0, Some(X)),
        ];
        const RWC: [Role; 3] = [
            role(&[Store(X, 1)], 0, None),
            role(&[Load(X, 0), Load(Y, 1)], 0, Some(Y)),
            role(&[Store(Y, 1), Load(X, 2)], 0, Some(X)),
        ];
        const ISA2: [Role; 3] = [
            role(&[Store(X, 1), Store(Y, 1)], 0b10, None),
            role(&[Load(Y, 0), Store(Z, 1)], 0b11, None),
            role(&[Load(Z, 1), Load(X, 2)], 0b01, Some(X)),
        ];
        // The tests whose outcome includes final values. A second access to
        // one location by one thread never has a flag: these roles have no
        // release/acquire variants. No load of theirs gains from a stale line
        // except R's, which must miss `x`.
        const COWW: [Role; 1] = [role(&[Store(X, 1), Store(X, 2)], 0, None)];
        const COWR: [Role; 2] = [role(&[Store(X, 1), Load(X, 0)], 0, None), role(&[Store(X, 2)], 0, None)];
        const CORW2: [Role; 2] = [role(&[Load(X, 0), Store(X, 1)], 0, None), role(&[Store(X, 2)], 0, None)];
        const TWO_PLUS_TWO_W: [Role; 2] =
            [role(&[Store(X, 1), Store(Y, 2)], 0, None), role(&[Store(Y, 1), Store(X, 2)], 0, None)];
        // S is message passing whose reader writes instead of reading: `y` is
        // the flag, released by the writer and acquired by the reader.
        const S: [Role; 2] =
            [role(&[Store(X, 2), Store(Y, 1)], 0b10, None), role(&[Load(Y, 0), Store(X, 1)], 0b01, None)];
        const R: [Role; 2] = [role(&[Store(X, 1), Store(Y, 1)], 0, None), role(&[Store(Y, 2), Load(X, 0)], 0, Some(X))];
        // Z6.3's flags are z, released by the second thread and acquired by
        // the third, and y, which the first thread releases but nobody reads.
        const Z6_3: [Role; 3] = [
            role(&[Store(X, 1), Store(Y, 1)], 0b10, None),
            role(&[Store(Y, 2), Store(Z, 1)], 0b10, None),
            role(&[Load(Z, 0), Load(X, 1)], 0b01, Some(X)),
        ];
        const THREE_TWO_W: [Role; 3] = [
            role(&[Store(X, 2), Store(Y, 1)], 0, None),
            role(&[Store(Y, 2), Store(Z, 1)], 0, None),
            role(&[Store(Z, 2), Store(X, 1)], 0, None),
        ];
        match self {
            Test::Mp => &MP,
            Test::Sb => &SB,
            Test::Lb => &LB,
            Test::Corr => &CORR,
            Test::Wrc => &WRC,
            Test::Iriw => &IRIW,
            Test::Rwc => &RWC,
            Test::Isa2 => &ISA2,
            Test::Coww => &COWW,
            Test::Cowr => &COWR,
            Test::Corw2 => &CORW2,
            Test::TwoPlusTwoW => &TWO_PLUS_TWO_W,
            Test::S => &S,
            Test::R => &R,
            Test::Z6_3 => &Z6_3,
            Test::ThreeTwoW => &THREE_TWO_W,
        }
    }

    /// Threads per instance.
    pub const fn threads(self) -> u32 {
        self.roles().len() as u32
    }

    /// Registers per instance: the loads.
    pub const fn registers(self) -> u32 {
        match self {
            Test::Mp | Test::Sb | Test::Lb | Test::Corr | Test::Z6_3 => 2,
            Test::Wrc | Test::Rwc | Test::Isa2 => 3,
            Test::Iriw => 4,
            Test::Cowr | Test::Corw2 | Test::S | Test::R => 1,
            Test::Coww | Test::TwoPlusTwoW | Test::ThreeTwoW => 0,
        }
    }

    /// The locations whose final values are part of the outcome, in
    /// [`Location`]'s order: empty for the tests about loads, whose outcome is
    /// their registers alone; the locations stored twice for the tests about
    /// the order of stores.
    pub const fn finals(self) -> &'static [Location] {
        match self {
            Test::Mp | Test::Sb | Test::Lb | Test::Corr | Test::Wrc | Test::Iriw | Test::Rwc | Test::Isa2 => &[],
            Test::Coww | Test::Cowr | Test::Corw2 | Test::S => &[X],
            Test::TwoPlusTwoW => &[X, Y],
            Test::R | Test::Z6_3 => &[Y],
            Test::ThreeTwoW => &[X, Y, Z],
        }
    }

    /// [`Test::finals`] as a bit set, bit `l` for location `l` (`x` = 0).
    pub const fn finals_mask(self) -> u32 {
        let finals = self.finals();
        let mut mask = 0;
        let mut k = 0;
        while k < finals.len() {
            mask |= 1 << finals[k] as u32;
            k += 1;
        }
        mask
    }

    /// Histogram bins this test's outcomes can fall in: the first
    /// [`OTHER_BIN`]` + 1` for a test whose outcome is its registers (so its
    /// recorded histograms keep their 17 bins), all [`BINS`] for one with
    /// final values.
    pub const fn bins(self) -> usize {
        if self.finals().is_empty() { OTHER_BIN + 1 } else { BINS }
    }

    /// The weak outcome, as a histogram bin: register `r`'s value in bit `r`,
    /// or for a test with final values ([`Test::finals`]) the
    /// [`final_bin`] of its registers and final values.
    pub const fn weak(self) -> u32 {
        match self {
            // r0 = 1 (the flag), r1 = 0 (the data).
            Test::Mp => 0b01,
            // r0 = 0, r1 = 0.
            Test::Sb => 0b00,
            // r0 = 1, r1 = 1.
            Test::Lb => 0b11,
            // r0 = 1, then r1 = 0.
            Test::Corr => 0b01,
            // r0 = 1, r1 = 1, r2 = 0.
            Test::Wrc => 0b011,
            // r0 = 1, r1 = 0; r2 = 1, r3 = 0.
            Test::Iriw => 0b0101,
            // r0 = 1, r1 = 0, r2 = 0.
            Test::Rwc => 0b001,
            // r0 = 1 (y), r1 = 1 (z), r2 = 0 (x).
            Test::Isa2 => 0b011,
            // x ends 1.
            Test::Coww => final_bin(&[1]),
            // r0 = 2, x ends 1.
            Test::Cowr => final_bin(&[2, 1]),
            // r0 = 2, x ends 2.
            Test::Corw2 => final_bin(&[2, 2]),
            // x ends 1, y ends 1.
            Test::TwoPlusTwoW => final_bin(&[1, 1]),
            // r0 = 1, x ends 2.
            Test::S => final_bin(&[1, 2]),
            // r0 = 0, y ends 2.
            Test::R => final_bin(&[0, 2]),
            // r0 = 1 (z), r1 = 0 (x), y ends 2.
            Test::Z6_3 => final_bin(&[1, 0, 2]),
            // x, y and z all end 2.
            Test::ThreeTwoW => final_bin(&[2, 2, 2]),
        }
    }

    /// The one outcome a sequential run gives: every role of an instance runs
    /// to its end, in role order, before the next role starts.
    pub const fn sequential(self) -> u32 {
        match self {
            // The reader runs after both stores.
            Test::Mp | Test::Corr => 0b11,
            // Role 0 loads y before role 1 stores it; role 1 then sees x.
            Test::Sb => 0b10,
            // Role 0 loads x before role 1 stores it; role 1 then sees y.
            Test::Lb => 0b10,
            Test::Wrc => 0b111,
            Test::Iriw => 0b1111,
            // Role 1 sees x and loads y before role 2 stores it; role 2 then sees x.
            Test::Rwc => 0b101,
            // Each role runs after the stores it reads.
            Test::Isa2 => 0b111,
            // The second store is the last.
            Test::Coww => final_bin(&[2]),
            // Role 0 reads its own store; role 1's store comes last.
            Test::Cowr => final_bin(&[1, 2]),
            // Role 0 reads the initial 0; role 1's store comes last.
            Test::Corw2 => final_bin(&[0, 2]),
            // Role 1's stores come last.
            Test::TwoPlusTwoW => final_bin(&[2, 1]),
            // Role 1 sees the flag, and its store to x comes last.
            Test::S => final_bin(&[1, 1]),
            // Role 1 sees x, and its store to y comes last.
            Test::R => final_bin(&[1, 2]),
            // Role 2 sees both flags; role 1's store to y comes last.
            Test::Z6_3 => final_bin(&[1, 1, 2]),
            // Each location's last store is the later role's: x by role 2,
            // y by role 1, z by role 2.
            Test::ThreeTwoW => final_bin(&[1, 2, 2]),
        }
    }

    /// Whether the test uses `y` at all (CoRR and the three coherence tests of
    /// stores do not).
    pub const fn uses_y(self) -> bool {
        !matches!(self, Test::Corr | Test::Coww | Test::Cowr | Test::Corw2)
    }

    /// Whether the test uses `z` at all (ISA2, Z6.3 and 3.2W do).
    pub const fn uses_z(self) -> bool {
        matches!(self, Test::Isa2 | Test::Z6_3 | Test::ThreeTwoW)
    }
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
        match self {
            Variant::Weak => "weak",
            Variant::RelaxedGpu => "relaxed-gpu",
            Variant::RelaxedCta => "relaxed-cta",
            Variant::Volatile => "volatile",
            Variant::ReleaseAcquireGpu => "rel-acq-gpu",
            Variant::ReleaseAcquireCta => "rel-acq-cta",
            Variant::FenceAcqRelGpu => "fence-acq-rel-gpu",
            Variant::FenceAcqRelCta => "fence-acq-rel-cta",
            Variant::FenceScGpu => "fence-sc-gpu",
            Variant::FenceScCta => "fence-sc-cta",
            Variant::RelaxedCluster => "relaxed-cluster",
            Variant::ReleaseAcquireCluster => "rel-acq-cluster",
            Variant::FenceAcqRelCluster => "fence-acq-rel-cluster",
            Variant::FenceScCluster => "fence-sc-cluster",
        }
    }

    /// The scope of its ordinary accesses, or `None` for weak ones. A
    /// volatile access names no scope in PTX; the ISA gives it `.sys`'s.
    pub const fn access_scope(self) -> Option<Scope> {
        match self {
            Variant::Weak => None,
            Variant::RelaxedCta | Variant::ReleaseAcquireCta => Some(Scope::Cta),
            Variant::RelaxedCluster | Variant::ReleaseAcquireCluster => Some(Scope::Cluster),
            Variant::Volatile => Some(Scope::Sys),
            _ => Some(Scope::Gpu),
        }
    }

    /// Whether the flag accesses are release and acquire.
    pub const fn release_acquire(self) -> bool {
        matches!(self, Variant::ReleaseAcquireGpu | Variant::ReleaseAcquireCta | Variant::ReleaseAcquireCluster)
    }

    /// Whether it names the `.cluster` scope, which only sm_90 PTX has: its
    /// kernels are in the Hopper module alone.
    pub const fn needs_hopper(self) -> bool {
        matches!(self.access_scope(), Some(Scope::Cluster)) || matches!(self.fence(), Some((_, Scope::Cluster)))
    }

    /// Its fence, as `(sc, scope)`: `fence.sc` if `sc`, else `fence.acq_rel`.
    pub const fn fence(self) -> Option<(bool, Scope)> {
        match self {
            Variant::FenceAcqRelGpu => Some((false, Scope::Gpu)),
            Variant::FenceAcqRelCta => Some((false, Scope::Cta)),
            Variant::FenceScGpu => Some((true, Scope::Gpu)),
            Variant::FenceScCta => Some((true, Scope::Cta)),
            Variant::FenceAcqRelCluster => Some((false, Scope::Cluster)),
            Variant::FenceScCluster => Some((true, Scope::Cluster)),
            _ => None,
        }
    }

    /// The PTX of the fence, if any.
    pub const fn fence_ptx(self) -> Option<&'static str> {
        match self.fence() {
            Some((false, Scope::Gpu)) => Some("fence.acq_rel.gpu"),
            Some((false, Scope::Cta)) => Some("fence.acq_rel.cta"),
            Some((true, Scope::Gpu)) => Some("fence.sc.gpu"),
            Some((true, Scope::Cta)) => Some("fence.sc.cta"),
            Some((false, Scope::Cluster)) => Some("fence.acq_rel.cluster"),
            Some((true, Scope::Cluster)) => Some("fence.sc.cluster"),
            Some((false, Scope::Sys)) => Some("fence.acq_rel.sys"),
            Some((true, Scope::Sys)) => Some("fence.sc.sys"),
            None => None,
        }
    }

    /// The PTX instruction (without operands) of `op`, which is the flag
    /// access of its role when `flag`. Test accesses, and only they, use the
    /// `.u32` type: the compiler writes `.b32` for everything else. A
    /// volatile access is written `.volatile`, not `.relaxed.sys`: the lab
    /// runs the instruction CUDA C++ emits for `volatile`, whose memory
    /// semantics the ISA defines as `.relaxed.sys`'s (no variant writes
    /// `.relaxed.sys` itself; its arms are here for completeness).
    pub const fn ptx(self, op: Op, flag: bool) -> &'static str {
        let store = matches!(op, Op::Store(..));
        if let Variant::Volatile = self {
            return if store { "st.volatile.global.u32" } else { "ld.volatile.global.u32" };
        }
        match (self.access_scope(), self.release_acquire() && flag, store) {
            (None, _, true) => "st.global.u32",
            (None, _, false) => "ld.global.u32",
            (Some(Scope::Sys), false, true) => "st.relaxed.sys.global.u32",
            (Some(Scope::Sys), false, false) => "ld.relaxed.sys.global.u32",
            (Some(Scope::Sys), true, true) => "st.release.sys.global.u32",
            (Some(Scope::Sys), true, false) => "ld.acquire.sys.global.u32",
            (Some(Scope::Gpu), false, true) => "st.relaxed.gpu.global.u32",
            (Some(Scope::Gpu), false, false) => "ld.relaxed.gpu.global.u32",
            (Some(Scope::Cta), false, true) => "st.relaxed.cta.global.u32",
            (Some(Scope::Cta), false, false) => "ld.relaxed.cta.global.u32",
            (Some(Scope::Gpu), true, true) => "st.release.gpu.global.u32",
            (Some(Scope::Gpu), true, false) => "ld.acquire.gpu.global.u32",
            (Some(Scope::Cta), true, true) => "st.release.cta.global.u32",
            (Some(Scope::Cta), true, false) => "ld.acquire.cta.global.u32",
            (Some(Scope::Cluster), false, true) => "st.relaxed.cluster.global.u32",
            (Some(Scope::Cluster), false, false) => "ld.relaxed.cluster.global.u32",
            (Some(Scope::Cluster), true, true) => "st.release.cluster.global.u32",
            (Some(Scope::Cluster), true, false) => "ld.acquire.cluster.global.u32",
        }
    }

    /// SASS the kernel must contain on sm_90: the barriers each ordering
    /// becomes. A relaxed access becomes a plain load or store with a
    /// `.STRONG.GPU` or `.STRONG.SM` qualifier and no barrier at all, and a
    /// volatile one the same with `.STRONG.SYS`; a device-scope fence or
    /// acquire also invalidates L1 (`CCTL.IVALL`). `ptxas` 13 compiles
    /// `.cluster` on sm_90 exactly as `.gpu` ([`sass_of`]), so a cluster
    /// variant promises its device-scope twin's SASS.
    pub const fn sass_has(self) -> &'static [&'static str] {
        match self {
            Variant::Weak | Variant::RelaxedGpu | Variant::RelaxedCta | Variant::Volatile | Variant::RelaxedCluster => {
                &[]
            }
            Variant::ReleaseAcquireGpu
            | Variant::FenceAcqRelGpu
            | Variant::ReleaseAcquireCluster
            | Variant::FenceAcqRelCluster => &["MEMBAR.ALL.GPU", "CCTL.IVALL"],
            Variant::ReleaseAcquireCta | Variant::FenceAcqRelCta => &["MEMBAR.ALL.CTA"],
            Variant::FenceScGpu | Variant::FenceScCluster => &["MEMBAR.SC.GPU", "CCTL.IVALL"],
            Variant::FenceScCta => &["MEMBAR.SC.CTA"],
        }
    }

    /// SASS the kernel must not contain on sm_90.
    pub const fn sass_lacks(self) -> &'static [&'static str] {
        match self {
            Variant::Weak | Variant::RelaxedGpu | Variant::RelaxedCta | Variant::Volatile | Variant::RelaxedCluster => {
                &["MEMBAR", "CCTL", "ERRBAR"]
            }
            Variant::ReleaseAcquireGpu
            | Variant::FenceAcqRelGpu
            | Variant::ReleaseAcquireCluster
            | Variant::FenceAcqRelCluster => &["MEMBAR.SC", "MEMBAR.ALL.CTA"],
            Variant::ReleaseAcquireCta | Variant::FenceAcqRelCta => &["MEMBAR.ALL.GPU", "MEMBAR.SC", "CCTL"],
            Variant::FenceScGpu | Variant::FenceScCluster => &["MEMBAR.ALL", "MEMBAR.SC.CTA"],
            Variant::FenceScCta => &["MEMBAR.SC.GPU", "MEMBAR.ALL", "CCTL"],
        }
    }
}

/// One split of a test's roles over blocks that is neither all together nor
/// all apart: the roles of one part share a block (in different warps), and
/// each part has a block of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockSplit {
    /// Its name: `blocks-` and the parts, separated by `-`, each part its
    /// roles' digits in increasing order, the parts ordered by their first
    /// role (cuda-litmus's `TB_01_2` is `blocks-01-2`).
    pub key: &'static str,
    /// The roles of the tests it applies to.
    pub roles: u32,
    /// Role `r`'s part in bits `4r` to `4r + 3`; parts are numbered in the
    /// order of their first role, so role 0 is always in part 0.
    pub parts: u32,
}

/// Every [`BlockSplit`] of three and of four roles: the set partitions of
/// the roles with more than one part and fewer parts than roles (two roles
/// have none, their only partitions being the intra- and inter-block
/// placements). A unit test holds this table to the enumeration.
pub const BLOCK_SPLITS: [BlockSplit; 16] = [
    BlockSplit { key: "blocks-01-2", roles: 3, parts: 0x0100 },
    BlockSplit { key: "blocks-02-1", roles: 3, parts: 0x0010 },
    BlockSplit { key: "blocks-0-12", roles: 3, parts: 0x0110 },
    BlockSplit { key: "blocks-012-3", roles: 4, parts: 0x1000 },
    BlockSplit { key: "blocks-013-2", roles: 4, parts: 0x0100 },
    BlockSplit { key: "blocks-01-23", roles: 4, parts: 0x1100 },
    BlockSplit { key: "blocks-01-2-3", roles: 4, parts: 0x2100 },
    BlockSplit { key: "blocks-023-1", roles: 4, parts: 0x0010 },
    BlockSplit { key: "blocks-02-13", roles: 4, parts: 0x1010 },
    BlockSplit { key: "blocks-02-1-3", roles: 4, parts: 0x2010 },
    BlockSplit { key: "blocks-03-12", roles: 4, parts: 0x0110 },
    BlockSplit { key: "blocks-0-123", roles: 4, parts: 0x1110 },
    BlockSplit { key: "blocks-0-12-3", roles: 4, parts: 0x2110 },
    BlockSplit { key: "blocks-03-1-2", roles: 4, parts: 0x0210 },
    BlockSplit { key: "blocks-0-13-2", roles: 4, parts: 0x1210 },
    BlockSplit { key: "blocks-0-1-23", roles: 4, parts: 0x2210 },
];

/// Where the threads of one litmus instance run: the litmus suite's
/// placement, richer than [`Placement`] (which the publication demo shares),
/// after cuda-litmus, which runs a test's threads in every split over blocks,
/// and with one more, every role in one warp, and two that need a cluster
/// launch (sm_90): every role in a block of its own, the blocks in one
/// thread-block cluster or each in another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    /// Distinct lanes of one warp.
    Warp,
    /// Different warps of one block: [`Placement::IntraBlock`].
    IntraBlock,
    /// The roles split over blocks as `BLOCK_SPLITS[i]` says.
    Blocks(u8),
    /// Every role in a block of its own: [`Placement::InterBlock`].
    InterBlock,
    /// Every role in a block of its own, all the blocks in one cluster of a
    /// cluster launch: [`Placement::IntraCluster`].
    IntraCluster,
    /// Every role in a block of its own, each block in another cluster of a
    /// cluster launch: [`Placement::InterCluster`].
    InterCluster,
}

/// [`Params::placement`] of [`Split::Warp`].
pub const PLACEMENT_WARP: u32 = 2;
/// [`Params::placement`] of [`Split::Blocks`]; [`Params::parts`] says which.
pub const PLACEMENT_BLOCKS: u32 = 3;
/// [`Params::placement`] of [`Split::IntraCluster`].
pub const PLACEMENT_INTRA_CLUSTER: u32 = Placement::IntraCluster as u32;
/// [`Params::placement`] of [`Split::InterCluster`].
pub const PLACEMENT_INTER_CLUSTER: u32 = Placement::InterCluster as u32;

const _: () = assert!(PLACEMENT_INTRA_CLUSTER > PLACEMENT_BLOCKS && PLACEMENT_INTER_CLUSTER > PLACEMENT_BLOCKS);

/// Every [`Split`]: from the most together to the most apart, then the two
/// cluster placements.
const fn all_splits() -> [Split; 21] {
    let mut all = [Split::Warp; 21];
    all[1] = Split::IntraBlock;
    let mut i = 0;
    while i < BLOCK_SPLITS.len() {
        all[2 + i] = Split::Blocks(i as u8);
        i += 1;
    }
    all[18] = Split::InterBlock;
    all[19] = Split::IntraCluster;
    all[20] = Split::InterCluster;
    all
}

impl Split {
    /// Every placement: from the most together to the most apart, then the
    /// two that need a cluster launch ([`Split::needs_clusters`]); the
    /// [`Split::Blocks`] ones apply to the tests with their number of roles
    /// only ([`Split::fits`]).
    pub const ALL: [Split; 21] = all_splits();

    /// The placements that need a cluster launch, and so sm_90.
    pub const CLUSTER: [Split; 2] = [Split::IntraCluster, Split::InterCluster];

    /// The placements `host litmus` runs by default: today's two.
    pub const DEFAULT: [Split; 2] = [Split::IntraBlock, Split::InterBlock];

    /// Its name on the command line and in JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Split::Warp => "warp",
            Split::IntraBlock => Placement::IntraBlock.key(),
            Split::InterBlock => Placement::InterBlock.key(),
            Split::IntraCluster => Placement::IntraCluster.key(),
            Split::InterCluster => Placement::InterCluster.key(),
            Split::Blocks(i) => BLOCK_SPLITS[i as usize].key,
        }
    }

    /// Whether it needs a cluster launch (compute capability 9.0 and the
    /// Hopper module).
    pub const fn needs_clusters(self) -> bool {
        matches!(self, Split::IntraCluster | Split::InterCluster)
    }

    /// Blocks per cluster of its launch for a test of `roles` roles, or
    /// `None` for a launch without clusters: the roles rounded up to a power
    /// of two, at least 2 (so 2 for MP, SB and LB, 4 for WRC and IRIW),
    /// the same for both cluster placements so that the two launch alike
    /// and differ only in where each role's partner sits. Within one
    /// cluster every role then has a block of its own.
    pub const fn cluster_blocks(self, roles: u32) -> Option<u32> {
        match self {
            Split::IntraCluster | Split::InterCluster => Some(if roles <= 2 { 2 } else { roles.next_power_of_two() }),
            _ => None,
        }
    }

    /// The fewest testing blocks an instance of `roles` roles can run on in
    /// this placement: one block per part (a block per role across blocks),
    /// or in the cluster placements one whole cluster (intra-cluster) or a
    /// cluster per role (inter-cluster).
    pub const fn min_testing_blocks(self, roles: u32) -> u32 {
        match (self, self.cluster_blocks(roles)) {
            (Split::IntraCluster, Some(size)) => size,
            (Split::InterCluster, Some(size)) => size * roles,
            _ => self.blocks_for(roles),
        }
    }

    /// The cluster (0, 1, ...) that `role` runs in, relative to role 0's,
    /// as the memory model sees it: a block launched without clusters is a
    /// cluster of its own, so outside the cluster placements this is
    /// [`Split::block_of`].
    pub const fn cluster_of(self, role: u32) -> u32 {
        match self {
            Split::IntraCluster => 0,
            _ => self.block_of(role),
        }
    }

    /// Whether it applies to `test`: every placement but a block split,
    /// which applies to the tests with its number of roles.
    pub const fn fits(self, test: Test) -> bool {
        match self {
            Split::Blocks(i) => BLOCK_SPLITS[i as usize].roles == test.threads(),
            _ => true,
        }
    }

    /// The roles of the tests it applies to, for a block split; `None` for
    /// the placements that fit every test.
    pub const fn roles(self) -> Option<u32> {
        match self {
            Split::Blocks(i) => Some(BLOCK_SPLITS[i as usize].roles),
            _ => None,
        }
    }

    /// The block (0, 1, ...) that `role` runs in, relative to role 0's.
    pub const fn block_of(self, role: u32) -> u32 {
        match self {
            Split::Warp | Split::IntraBlock => 0,
            Split::InterBlock | Split::IntraCluster | Split::InterCluster => role,
            Split::Blocks(i) => (BLOCK_SPLITS[i as usize].parts >> (4 * (role & 7))) & 0xF,
        }
    }

    /// Whether roles `a` and `b` run in one block.
    pub const fn same_block(self, a: u32, b: u32) -> bool {
        self.block_of(a) == self.block_of(b)
    }

    /// Distinct blocks an instance of `test` spans.
    pub const fn blocks(self, test: Test) -> u32 {
        self.blocks_for(test.threads())
    }

    /// Distinct blocks an instance of `roles` roles spans.
    pub const fn blocks_for(self, roles: u32) -> u32 {
        let mut most = 0;
        let mut r = 0;
        while r < roles {
            if self.block_of(r) > most {
                most = self.block_of(r);
            }
            r += 1;
        }
        most + 1
    }

    /// [`Params::placement`] for it.
    pub const fn code(self) -> u32 {
        match self {
            Split::Warp => PLACEMENT_WARP,
            Split::IntraBlock => Placement::IntraBlock as u32,
            Split::InterBlock => Placement::InterBlock as u32,
            Split::Blocks(_) => PLACEMENT_BLOCKS,
            Split::IntraCluster => PLACEMENT_INTRA_CLUSTER,
            Split::InterCluster => PLACEMENT_INTER_CLUSTER,
        }
    }

    /// [`Params::parts`] for it: the block split's parts, else 0.
    pub const fn parts(self) -> u32 {
        match self {
            Split::Blocks(i) => BLOCK_SPLITS[i as usize].parts,
            _ => 0,
        }
    }
}

impl From<Placement> for Split {
    fn from(placement: Placement) -> Split {
        match placement {
            Placement::IntraBlock => Split::IntraBlock,
            Placement::InterBlock => Split::InterBlock,
            Placement::IntraCluster => Split::IntraCluster,
            Placement::InterCluster => Split::InterCluster,
        }
    }
}

/// What the testing threads read before the test starts, to leave a stale
/// copy of a location in an SM's L1 (which weak and `.cta` loads may hit,
/// and which no other SM's store updates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Preload {
    /// Nothing.
    None = 0,
    /// Each thread reads the [`Role::stale`] location of the instance it is
    /// about to observe.
    Observer = 1,
    /// Each thread reads the one its partner in the other half of the block
    /// (thread index xor half the block) is about to observe: the copy sits
    /// in the observer's L1 without the observer having touched it.
    Neighbour = 2,
}

impl Preload {
    /// Every choice.
    pub const ALL: [Preload; 3] = [Preload::None, Preload::Observer, Preload::Neighbour];

    /// Its name on the command line.
    pub const fn key(self) -> &'static str {
        match self {
            Preload::None => "none",
            Preload::Observer => "observer",
            Preload::Neighbour => "neighbour",
        }
    }
}

/// What each stressing thread does per iteration, to its line of the stress
/// buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum StressPattern {
    /// Two stores.
    StoreStore = 0,
    /// A store, then a load.
    StoreLoad = 1,
    /// A load, then a store.
    LoadStore = 2,
    /// Two loads.
    LoadLoad = 3,
}

impl StressPattern {
    /// Every pattern.
    pub const ALL: [StressPattern; 4] =
        [StressPattern::StoreStore, StressPattern::StoreLoad, StressPattern::LoadStore, StressPattern::LoadLoad];

    /// Its name on the command line.
    pub const fn key(self) -> &'static str {
        match self {
            StressPattern::StoreStore => "store-store",
            StressPattern::StoreLoad => "store-load",
            StressPattern::LoadStore => "load-store",
            StressPattern::LoadLoad => "load-load",
        }
    }
}

/// Words between the starts of two lines of the stress buffer: 1 KiB, so two
/// lines never share a 128-byte cache line.
pub const STRESS_LINE_STRIDE: u32 = 256;

/// Registers stored per instance (the most any test has).
pub const REGISTERS: usize = 4;

/// Histogram bins: one per combination of four 0/1 registers, [`OTHER_BIN`]
/// for a register that holds anything else, and after it, from
/// [`FIRST_FINAL_BIN`], one per outcome of a test with final values
/// ([`final_outcome_bin`]).
pub const BINS: usize = FIRST_FINAL_BIN + FINAL_CODES;

/// The first bin of the tests whose outcome includes final values
/// ([`Test::finals`]): the bins below it are the register-only tests'
/// (and [`OTHER_BIN`], which every test shares).
pub const FIRST_FINAL_BIN: usize = OTHER_BIN + 1;

/// The most values (registers, then final values) an outcome with final
/// values may have: each is 0, 1 or 2, a digit of a base-3 code.
pub const FINAL_DIGITS: usize = 3;

/// Codes of [`FINAL_DIGITS`] base-3 digits.
pub const FINAL_CODES: usize = 27;

const _: () = assert!(FINAL_CODES == 3usize.pow(FINAL_DIGITS as u32));

/// The bin of an outcome with final values: `digits` are its registers
/// `r0, r1, ...` and then the final values of [`Test::finals`] in order, each
/// 0, 1 or 2, and the bin is [`FIRST_FINAL_BIN`] plus their base-3 code,
/// digit `k` weighing `3^k`. A digit above 2, or more than [`FINAL_DIGITS`]
/// of them, gives [`OTHER_BIN`].
pub const fn final_bin(digits: &[u32]) -> u32 {
    if digits.len() > FINAL_DIGITS {
        return OTHER_BIN as u32;
    }
    let mut code = 0;
    let mut weight = 1;
    let mut k = 0;
    while k < digits.len() {
        if digits[k] > 2 {
            return OTHER_BIN as u32;
        }
        code += digits[k] * weight;
        weight *= 3;
        k += 1;
    }
    FIRST_FINAL_BIN as u32 + code
}

/// The digits of an outcome with final values ([`final_bin`]) back from its
/// bin: `None` for a bin below [`FIRST_FINAL_BIN`] or past [`BINS`].
pub const fn final_digits(bin: usize) -> Option<[u32; FINAL_DIGITS]> {
    if bin < FIRST_FINAL_BIN || bin >= BINS {
        return None;
    }
    let mut code = (bin - FIRST_FINAL_BIN) as u32;
    let mut digits = [0; FINAL_DIGITS];
    let mut k = 0;
    while k < FINAL_DIGITS {
        digits[k] = code % 3;
        code /= 3;
        k += 1;
    }
    Some(digits)
}

/// The bin of an instance with a register that is neither 0 nor 1: a value
/// no thread wrote. It can only mean a bug in the lab.
pub const OTHER_BIN: usize = 16;

/// The histogram bin of one instance's registers, for a test whose outcome is
/// its registers alone: register `r`'s value in bit `r`, or [`OTHER_BIN`].
/// Registers a test does not use stay 0.
pub const fn outcome_bin(registers: [u32; REGISTERS]) -> usize {
    let mut bin = 0;
    let mut r = 0;
    while r < REGISTERS {
        if registers[r] > 1 {
            return OTHER_BIN;
        }
        bin |= (registers[r] as usize) << r;
        r += 1;
    }
    bin
}

/// The histogram bin of one instance of a test with final values
/// ([`Test::finals`]): its first `used` registers, then the final values of
/// the locations in `finals_mask` (bit `l` for location `l`, `x`, `y`, `z`
/// in that order) among `finals`, as [`final_bin`]'s digits. A register past
/// `used` that is not 0 (no load wrote it), a value above 2 (no thread
/// stored it), or more digits than [`FINAL_DIGITS`] gives [`OTHER_BIN`].
/// With an empty `finals_mask` it is [`outcome_bin`], so the classifier can
/// call it for every test.
pub const fn final_outcome_bin(registers: [u32; REGISTERS], used: u32, finals: [u32; 3], finals_mask: u32) -> usize {
    if finals_mask == 0 {
        return outcome_bin(registers);
    }
    let mut code = 0;
    let mut weight = 1;
    let mut digits = 0;
    let mut r = 0;
    while r < REGISTERS {
        if (r as u32) < used {
            if registers[r] > 2 {
                return OTHER_BIN;
            }
            code += registers[r] as usize * weight;
            weight *= 3;
            digits += 1;
        } else if registers[r] != 0 {
            return OTHER_BIN;
        }
        r += 1;
    }
    let mut l = 0;
    while l < 3 {
        if finals_mask & (1 << l) != 0 {
            if finals[l] > 2 {
                return OTHER_BIN;
            }
            code += finals[l] as usize * weight;
            weight *= 3;
            digits += 1;
        }
        l += 1;
    }
    if digits > FINAL_DIGITS {
        return OTHER_BIN;
    }
    FIRST_FINAL_BIN + code
}

/// The testing environment of one launch: what the host writes into global
/// memory once per configuration and every litmus kernel reads. Every field
/// is a `u32` so that the layout is the same on both sides with no padding.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// [`Split::code`]: [`Placement`] as a `u32` for the intra- and
    /// inter-block placements, [`PLACEMENT_WARP`] or [`PLACEMENT_BLOCKS`].
    pub placement: u32,
    /// Blocks that run the test; the grid's other blocks stress memory.
    pub testing_blocks: u32,
    /// Threads per block: a power of two, at least four warps.
    pub threads: u32,
    /// Odd: a thread's partner in role `r` is at lane `lane * multiplier^r`
    /// (mod the warp, intra-block; mod the block, inter-block).
    pub lane_multiplier: u32,
    /// Inter-block: role `r`'s partner block is `r * block_step` blocks
    /// further on, mod the testing blocks.
    pub block_step: u32,
    /// Coprime with `testing_blocks`: the hardware's block `b` plays logical
    /// block `(b * block_multiplier + shift) mod testing_blocks`, `shift`
    /// changing every launch.
    pub block_multiplier: u32,
    /// Words from one instance's `x` to the next instance's.
    pub location_stride: u32,
    /// Words from the start of an instance slot to its `y`: below 32 shares
    /// `x`'s 128-byte line. A slot's `z` is `location_stride / 4` words
    /// further on ([`Params::z`]).
    pub location_offset: u32,
    /// Coprime with the instance count: instance `i`'s `y` sits in the slot
    /// of instance `i * location_multiplier` (1: its own slot), its `z` in
    /// the slot of instance `i * location_multiplier^2` ([`Params::z`]).
    pub location_multiplier: u32,
    /// [`StressPattern`] as a `u32`.
    pub stress_pattern: u32,
    /// Iterations of the pattern by each stressing thread.
    pub stress_iterations: u32,
    /// Words of each stress line the threads touch (1 to 32).
    pub stress_line_words: u32,
    /// Distinct stress lines, spread over the stressing warps.
    pub stress_lines: u32,
    /// Iterations of the stress pattern by each testing thread before its test.
    pub pre_stress_iterations: u32,
    /// The synchronised start: each testing thread counts itself in and
    /// waits for all of them, for at most this many polls (0: no wait).
    pub sync_polls: u32,
    /// [`Preload`] as a `u32`.
    pub preload: u32,
    /// 1: the sequential control (one block or one warp only): a barrier between
    /// roles, so each role of every instance finishes before the next starts.
    pub sequential: u32,
    /// Always 0: an offset the kernels add to the address of a second access
    /// to one location, which `ptxas` cannot see through, so that it keeps
    /// both accesses (it merges two weak loads of one address it can prove
    /// equal).
    pub zero: u32,
    /// The test's [`Test::registers`], for the classifier of a test with
    /// final values ([`final_outcome_bin`]'s `used`).
    pub outcome_registers: u32,
    /// The test's [`Test::finals_mask`]: 0 for a test whose outcome is its
    /// registers alone, which the classifier then bins as it always has.
    pub outcome_finals: u32,
    /// The test's roles (threads per instance): one warp's lanes are split
    /// among them ([`Params::instance`], [`PLACEMENT_WARP`]).
    pub roles: u32,
    /// [`Split::parts`]: with [`PLACEMENT_BLOCKS`], role `r`'s part in bits
    /// `4r` to `4r + 3`; otherwise 0.
    pub parts: u32,
    /// Blocks per cluster of the launch ([`Split::cluster_blocks`]) in the
    /// cluster placements, which launch with that cluster size and whose
    /// testing blocks are whole clusters; 1 otherwise (a block launched
    /// without clusters is a cluster of its own).
    pub cluster_blocks: u32,
}

const _: () = assert!(size_of::<Params>() == 23 * 4);

/// `a mod b`, or 0 when `b` is 0. Every remainder in the litmus kernels goes
/// through this: a host that passed a zero would get wrong instances, never
/// a trap, and the PTX keeps no panic path.
pub const fn rem(a: u64, b: u64) -> u64 {
    if b == 0 { 0 } else { a % b }
}

impl Params {
    /// Instances per launch: one per testing thread.
    pub const fn instances(&self) -> u32 {
        self.testing_blocks * self.threads
    }

    /// The instance that thread `thread` of logical block `block` works on in
    /// `role`. For each role this is a bijection on the instances (every
    /// instance gets exactly one thread per role), and the threads of one
    /// instance sit where [`Params::placement`] says:
    ///
    /// - Intra-block: in different warps of one block, given at least as many
    ///   warps as roles. Role `r` takes the warp `r` further on and lane
    ///   `lane * multiplier^r` of it.
    /// - Inter-block: in different blocks, given `r * block_step` is never a
    ///   multiple of the testing blocks for `0 < r < roles`. Role `r` takes
    ///   the block `r * block_step` further on and thread
    ///   `thread * multiplier^r` of it.
    /// - One warp ([`PLACEMENT_WARP`]): in distinct lanes of one warp. Role
    ///   `r` keeps its warp, and takes lane `((lane + r * s) * multiplier) mod
    ///   32`, with `s = 32 / roles`. Each role's map permutes the lanes (a
    ///   rotation, then a multiplication by an odd number modulo 32), so it is
    ///   a bijection. The thread of role `r` for an instance at lane `L` is at
    ///   lane `(L * multiplier^-1 - r * s) mod 32` (an odd number is
    ///   invertible modulo 32), and two roles `r != r'` below `roles` differ by
    ///   `(r - r') * s`, between `s` and `(roles - 1) * s <= 32 - s` in size:
    ///   never a multiple of 32, so their lanes differ.
    /// - A block split ([`PLACEMENT_BLOCKS`]): role `r` of part `p` takes the
    ///   block `p * block_step` further on and, in it, what intra-block takes.
    ///   Each of the three steps (block, warp, lane) is a bijection, so the
    ///   whole is. Two roles of one part share their block and sit in warps
    ///   `r` and `r'` back, distinct given at least as many warps as roles;
    ///   two roles of different parts `p != p'` sit in blocks `(p - p') *
    ///   block_step` apart, never a multiple of the testing blocks, since
    ///   `0 < |p - p'| < roles`.
    ///
    /// - The cluster placements ([`PLACEMENT_INTRA_CLUSTER`],
    ///   [`PLACEMENT_INTER_CLUSTER`]): logical block `b` is rank `b mod C`
    ///   of cluster `b / C`, `C` = [`Params::cluster_blocks`] (the testing
    ///   blocks are whole clusters, and [`Params::logical_block`] keeps each
    ///   hardware cluster's blocks together). Role `r` takes thread
    ///   `thread * multiplier^r` of the block `r` ranks further on in the
    ///   same cluster (intra-cluster), or of the block of the same rank
    ///   `r * block_step` clusters further on (inter-cluster). Each step
    ///   adds a constant modulo its range, so it is a bijection. Two roles
    ///   `r != r'` sit `(r - r') mod C` ranks apart in one cluster, never 0
    ///   since `0 < |r - r'| < roles <= C`; or `(r - r') * block_step`
    ///   clusters apart, never a multiple of the clusters given the step the
    ///   host picks.
    ///
    /// The intra- and inter-block maps are the ones the reference results
    /// were measured with, unchanged.
    pub const fn instance(&self, role: u32, block: u32, thread: u32) -> u32 {
        let mut multiplier = 1u32;
        let mut r = 0;
        while r < role {
            multiplier = multiplier.wrapping_mul(self.lane_multiplier);
            r += 1;
        }
        if self.placement == Placement::IntraBlock as u32 {
            let warps = self.threads / WARP_SIZE;
            let warp = rem((thread / WARP_SIZE + role) as u64, warps as u64) as u32;
            let lane = (thread % WARP_SIZE).wrapping_mul(multiplier) % WARP_SIZE;
            block * self.threads + warp * WARP_SIZE + lane
        } else if self.placement == Placement::InterBlock as u32 {
            let partner_block =
                rem(block as u64 + role as u64 * self.block_step as u64, self.testing_blocks as u64) as u32;
            let lane = thread.wrapping_mul(multiplier) & (self.threads - 1);
            partner_block * self.threads + lane
        } else if self.placement == PLACEMENT_WARP {
            // The same warp of the same block: only the lane moves, and the
            // rotation by `role * stride` keeps the roles' lanes apart.
            let stride = match WARP_SIZE.checked_div(self.roles) {
                Some(stride) => stride,
                None => 0,
            };
            let rotated = (thread % WARP_SIZE).wrapping_add(role.wrapping_mul(stride)) % WARP_SIZE;
            let lane = rotated.wrapping_mul(self.lane_multiplier) % WARP_SIZE;
            block * self.threads + (thread / WARP_SIZE) * WARP_SIZE + lane
        } else if self.placement == PLACEMENT_INTRA_CLUSTER || self.placement == PLACEMENT_INTER_CLUSTER {
            // The partner's cluster and rank, then any thread of its block:
            // the roles are in different blocks, so the lanes need not differ.
            let size = self.cluster_size();
            let clusters = self.testing_blocks / size;
            let (cluster, rank) = (block / size, block % size);
            let (cluster_step, rank_step) =
                if self.placement == PLACEMENT_INTRA_CLUSTER { (0, 1) } else { (self.block_step, 0) };
            let partner_cluster = rem(cluster as u64 + role as u64 * cluster_step as u64, clusters as u64) as u32;
            let partner_rank = rem(rank as u64 + role as u64 * rank_step as u64, size as u64) as u32;
            let lane = thread.wrapping_mul(multiplier) & (self.threads - 1);
            (partner_cluster * size + partner_rank) * self.threads + lane
        } else {
            // The part's block, then the intra-block map inside it.
            let part = self.parts.wrapping_shr(4 * role) & 0xF;
            let partner_block =
                rem(block as u64 + part as u64 * self.block_step as u64, self.testing_blocks as u64) as u32;
            let warps = self.threads / WARP_SIZE;
            let warp = rem((thread / WARP_SIZE + role) as u64, warps as u64) as u32;
            let lane = (thread % WARP_SIZE).wrapping_mul(multiplier) % WARP_SIZE;
            partner_block * self.threads + warp * WARP_SIZE + lane
        }
    }

    /// [`Params::cluster_blocks`], never 0: a host that wrote 0 gets
    /// clusters of one block, never a division by zero.
    pub const fn cluster_size(&self) -> u32 {
        if self.cluster_blocks == 0 { 1 } else { self.cluster_blocks }
    }

    /// The logical block that hardware block `hardware` (below
    /// `testing_blocks`) plays in a launch rotated by `shift`: `(hardware *
    /// block_multiplier + shift) mod testing_blocks`; in the cluster
    /// placements the same shuffle of whole clusters, each block keeping its
    /// rank (`hardware mod C`), so that the blocks of one hardware cluster
    /// stay one logical cluster. A 1-D cluster launch makes blocks `kC` to
    /// `kC + C - 1` cluster `k` (the CUDA programming guide's cluster
    /// index is the block index divided by the cluster's dimension). Either
    /// way a bijection on the testing blocks, given `block_multiplier`
    /// coprime with their number (of clusters, in the cluster placements).
    pub const fn logical_block(&self, hardware: u32, shift: u32) -> u32 {
        let size = self.cluster_size();
        if size == 1 {
            return rem(hardware as u64 * self.block_multiplier as u64 + shift as u64, self.testing_blocks as u64)
                as u32;
        }
        let clusters = self.testing_blocks / size;
        let cluster =
            rem((hardware / size) as u64 * self.block_multiplier as u64 + shift as u64, clusters as u64) as u32;
        cluster * size + hardware % size
    }

    /// The word index of instance `i`'s `x`.
    pub const fn x(&self, i: u32) -> usize {
        i as usize * self.location_stride as usize
    }

    /// The word index of instance `i`'s `y`.
    pub const fn y(&self, i: u32) -> usize {
        let slot = rem(i as u64 * self.location_multiplier as u64, self.instances() as u64);
        slot as usize * self.location_stride as usize + self.location_offset as usize
    }

    /// The word index of instance `i`'s `z`: in the slot of instance
    /// `i * location_multiplier^2` (its own slot when the multiplier is 1),
    /// `location_stride / 4` words after where `y` sits in a slot. So `z` keeps
    /// `y`'s relation to `x`: on `x`'s line when `y` is (the same-line
    /// distance puts `x`, `y` and `z` at words 0, 1 and 17 of one slot), on
    /// the other line of the slot when `y` is (words 0, 32 and 48). Like `x`
    /// and `y`, it is a bijection from instances to slots, and its word in a
    /// slot is neither `x`'s (0) nor `y`'s (`location_offset`), given
    /// `0 < location_offset` and `location_offset + location_stride / 4 <
    /// location_stride`: no two locations of any instances share a word.
    pub const fn z(&self, i: u32) -> usize {
        let n = self.instances() as u64;
        let m = self.location_multiplier as u64;
        let slot = rem(rem(i as u64 * m, n) * m, n);
        slot as usize * self.location_stride as usize
            + self.location_offset as usize
            + self.location_stride as usize / 4
    }

    /// The word index of `location` of instance `i`.
    pub const fn word(&self, location: Location, i: u32) -> usize {
        match location {
            Location::X => self.x(i),
            Location::Y => self.y(i),
            Location::Z => self.z(i),
        }
    }

    /// Words the location buffer needs: one slot of `location_stride` words
    /// per instance, which holds an `x`, a `y` and a `z` (of three instances,
    /// in general).
    pub const fn location_words(&self) -> usize {
        self.instances() as usize * self.location_stride as usize
    }

    /// Words the stress buffer needs.
    pub const fn stress_words(&self) -> usize {
        self.stress_lines as usize * STRESS_LINE_STRIDE as usize
    }
}

/// What each argument of a litmus kernel is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// The testing environment: one [`Params`] in global memory.
    Params,
    /// The launch's block rotation.
    Shift,
    /// The locations, [`Params::location_words`] words, zero before each
    /// launch.
    Locations,
    /// [`REGISTERS`] words per instance, zero before each launch.
    Results,
    /// The stress buffer, [`Params::stress_words`] words.
    Stress,
    /// The synchronised start's counter, one word, zero before each launch.
    Control,
    /// [`BINS`] `u64` counters the classifier adds into.
    Histogram,
}

const PARAMS: Param = Param::new("params", Type::ConstPtr("Params"), ParamRole::Litmus(Arg::Params));
const SHIFT: Param = Param::new("shift", Type::U32, ParamRole::Litmus(Arg::Shift));
const LOCATIONS: Param = Param::new("locations", Type::MutPtr("u32"), ParamRole::Litmus(Arg::Locations));
const RESULTS: Param = Param::new("results", Type::MutPtr("u32"), ParamRole::Litmus(Arg::Results));
const STRESS: Param = Param::new("stress", Type::MutPtr("u32"), ParamRole::Litmus(Arg::Stress));
const CONTROL: Param = Param::new("control", Type::MutPtr("u32"), ParamRole::Litmus(Arg::Control));
const HISTOGRAM: Param = Param::new("histogram", Type::MutPtr("u64"), ParamRole::Litmus(Arg::Histogram));

/// Every test kernel's parameters.
pub const TEST_PARAMS: [Param; 6] = [PARAMS, SHIFT, LOCATIONS, RESULTS, STRESS, CONTROL];

/// [`CLASSIFY`]'s parameters: the test kernel's buffers, and the histogram.
pub const CLASSIFY_PARAMS: [Param; 5] = [PARAMS, LOCATIONS, RESULTS, CONTROL, HISTOGRAM];

/// One litmus kernel: a test in one variant. Its parameters are
/// [`TEST_PARAMS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// What every kernel records.
    pub entry: Entry,
    /// The test.
    pub test: Test,
    /// The variant.
    pub variant: Variant,
}

/// The registry entry of `test` in `variant`: in the Hopper module for a
/// `.cluster` variant ([`Variant::needs_hopper`]), in the base module for
/// every other.
const fn kernel(test: Test, variant: Variant, symbol: &'static str) -> Kernel {
    let entry = Entry::new(Family::Litmus, symbol, &TEST_PARAMS, &[], &[], variant.sass_has(), variant.sass_lacks());
    Kernel { entry: if variant.needs_hopper() { entry.hopper() } else { entry }, test, variant }
}

/// The kernel that turns each instance's registers into a histogram bin and
/// resets the instance for the next launch: [`CLASSIFY_PARAMS`], any grid,
/// [`BINS`] `u32`s of shared memory.
pub const CLASSIFY: Entry = Entry::new(
    Family::Litmus,
    "litmus_classify",
    &CLASSIFY_PARAMS,
    &["red.shared.add.u32", "red.global.add.u64", "bar.sync"],
    &[".global.u32", "fence", ".acquire", ".release"],
    &["ATOMS", "REDG.E.ADD.64"],
    &["MEMBAR"],
);

/// The litmus grid, written once: every (test, variant) kernel, test by test
/// in [`Test::ALL`]'s order, each test's variants in the order tables list
/// them, with its `.entry` symbol. `litmus_grid!(callback)` invokes
/// `callback! { Test { symbol => Variant, ... } ... }` with the bare
/// names of [`Test`] and [`Variant`]; [`KERNELS`] and [`Test::variants`] are
/// generated from it here, and the kernels crate exports one kernel per
/// symbol from it (`kernels/src/litmus/mod.rs`).
///
/// A test has the variants that teach something for it: release/acquire
/// only where the test has a flag, fences only where a thread has two
/// accesses to separate, volatile beside relaxed in the tests that show what
/// it does not do (MP, SB, LB, WRC and IRIW, allowed) and the one it does
/// (CoRR: a strong access keeps coherence), and `.cluster` beside `.cta`
/// and `.gpu` in the tests where the scope decides the verdict (MP, SB,
/// LB, WRC and IRIW, and CoRR's relaxed coherence); those are in the
/// Hopper module only ([`Variant::needs_hopper`]). A symbol is
/// `litmus_<test key>_<variant key>`, with underscores for dashes (a test
/// below checks it).
#[macro_export]
macro_rules! litmus_grid {
    ($($callback:tt)*) => {
        $($callback)*! {
            Mp {
                litmus_mp_weak => Weak,
                litmus_mp_relaxed_gpu => RelaxedGpu,
                litmus_mp_relaxed_cta => RelaxedCta,
                litmus_mp_volatile => Volatile,
                litmus_mp_rel_acq_gpu => ReleaseAcquireGpu,
                litmus_mp_rel_acq_cta => ReleaseAcquireCta,
                litmus_mp_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_mp_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_mp_fence_sc_gpu => FenceScGpu,
                litmus_mp_fence_sc_cta => FenceScCta,
                litmus_mp_relaxed_cluster => RelaxedCluster,
                litmus_mp_rel_acq_cluster => ReleaseAcquireCluster,
                litmus_mp_fence_acq_rel_cluster => FenceAcqRelCluster,
                litmus_mp_fence_sc_cluster => FenceScCluster,
            }
            Sb {
                litmus_sb_weak => Weak,
                litmus_sb_relaxed_gpu => RelaxedGpu,
                litmus_sb_relaxed_cta => RelaxedCta,
                litmus_sb_volatile => Volatile,
                litmus_sb_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_sb_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_sb_fence_sc_gpu => FenceScGpu,
                litmus_sb_fence_sc_cta => FenceScCta,
                litmus_sb_relaxed_cluster => RelaxedCluster,
                litmus_sb_fence_acq_rel_cluster => FenceAcqRelCluster,
                litmus_sb_fence_sc_cluster => FenceScCluster,
            }
            Lb {
                litmus_lb_weak => Weak,
                litmus_lb_relaxed_gpu => RelaxedGpu,
                litmus_lb_relaxed_cta => RelaxedCta,
                litmus_lb_volatile => Volatile,
                litmus_lb_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_lb_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_lb_fence_sc_gpu => FenceScGpu,
                litmus_lb_fence_sc_cta => FenceScCta,
                litmus_lb_relaxed_cluster => RelaxedCluster,
                litmus_lb_fence_acq_rel_cluster => FenceAcqRelCluster,
                litmus_lb_fence_sc_cluster => FenceScCluster,
            }
            Corr {
                litmus_corr_weak => Weak,
                litmus_corr_relaxed_gpu => RelaxedGpu,
                litmus_corr_relaxed_cta => RelaxedCta,
                litmus_corr_volatile => Volatile,
                litmus_corr_relaxed_cluster => RelaxedCluster,
            }
            Wrc {
                litmus_wrc_weak => Weak,
                litmus_wrc_relaxed_gpu => RelaxedGpu,
                litmus_wrc_relaxed_cta => RelaxedCta,
                litmus_wrc_volatile => Volatile,
                litmus_wrc_rel_acq_gpu => ReleaseAcquireGpu,
                litmus_wrc_rel_acq_cta => ReleaseAcquireCta,
                litmus_wrc_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_wrc_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_wrc_fence_sc_gpu => FenceScGpu,
                litmus_wrc_fence_sc_cta => FenceScCta,
                litmus_wrc_relaxed_cluster => RelaxedCluster,
                litmus_wrc_rel_acq_cluster => ReleaseAcquireCluster,
                litmus_wrc_fence_acq_rel_cluster => FenceAcqRelCluster,
                litmus_wrc_fence_sc_cluster => FenceScCluster,
            }
            Iriw {
                litmus_iriw_weak => Weak,
                litmus_iriw_relaxed_gpu => RelaxedGpu,
                litmus_iriw_relaxed_cta => RelaxedCta,
                litmus_iriw_volatile => Volatile,
                litmus_iriw_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_iriw_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_iriw_fence_sc_gpu => FenceScGpu,
                litmus_iriw_fence_sc_cta => FenceScCta,
                litmus_iriw_relaxed_cluster => RelaxedCluster,
                litmus_iriw_fence_acq_rel_cluster => FenceAcqRelCluster,
                litmus_iriw_fence_sc_cluster => FenceScCluster,
            }
            Rwc {
                litmus_rwc_weak => Weak,
                litmus_rwc_relaxed_gpu => RelaxedGpu,
                litmus_rwc_relaxed_cta => RelaxedCta,
                litmus_rwc_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_rwc_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_rwc_fence_sc_gpu => FenceScGpu,
                litmus_rwc_fence_sc_cta => FenceScCta,
            }
            Isa2 {
                litmus_isa2_weak => Weak,
                litmus_isa2_relaxed_gpu => RelaxedGpu,
                litmus_isa2_relaxed_cta => RelaxedCta,
                litmus_isa2_rel_acq_gpu => ReleaseAcquireGpu,
                litmus_isa2_rel_acq_cta => ReleaseAcquireCta,
                litmus_isa2_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_isa2_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_isa2_fence_sc_gpu => FenceScGpu,
                litmus_isa2_fence_sc_cta => FenceScCta,
            }
            Coww {
                litmus_coww_weak => Weak,
                litmus_coww_relaxed_gpu => RelaxedGpu,
                litmus_coww_relaxed_cta => RelaxedCta,
            }
            Cowr {
                litmus_cowr_weak => Weak,
                litmus_cowr_relaxed_gpu => RelaxedGpu,
                litmus_cowr_relaxed_cta => RelaxedCta,
            }
            Corw2 {
                litmus_corw2_weak => Weak,
                litmus_corw2_relaxed_gpu => RelaxedGpu,
                litmus_corw2_relaxed_cta => RelaxedCta,
            }
            TwoPlusTwoW {
                litmus_2plus2w_weak => Weak,
                litmus_2plus2w_relaxed_gpu => RelaxedGpu,
                litmus_2plus2w_relaxed_cta => RelaxedCta,
                litmus_2plus2w_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_2plus2w_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_2plus2w_fence_sc_gpu => FenceScGpu,
                litmus_2plus2w_fence_sc_cta => FenceScCta,
            }
            S {
                litmus_s_weak => Weak,
                litmus_s_relaxed_gpu => RelaxedGpu,
                litmus_s_relaxed_cta => RelaxedCta,
                litmus_s_rel_acq_gpu => ReleaseAcquireGpu,
                litmus_s_rel_acq_cta => ReleaseAcquireCta,
                litmus_s_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_s_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_s_fence_sc_gpu => FenceScGpu,
                litmus_s_fence_sc_cta => FenceScCta,
            }
            R {
                litmus_r_weak => Weak,
                litmus_r_relaxed_gpu => RelaxedGpu,
                litmus_r_relaxed_cta => RelaxedCta,
                litmus_r_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_r_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_r_fence_sc_gpu => FenceScGpu,
                litmus_r_fence_sc_cta => FenceScCta,
            }
            Z6_3 {
                litmus_z6dot3_weak => Weak,
                litmus_z6dot3_relaxed_gpu => RelaxedGpu,
                litmus_z6dot3_relaxed_cta => RelaxedCta,
                litmus_z6dot3_rel_acq_gpu => ReleaseAcquireGpu,
                litmus_z6dot3_rel_acq_cta => ReleaseAcquireCta,
                litmus_z6dot3_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_z6dot3_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_z6dot3_fence_sc_gpu => FenceScGpu,
                litmus_z6dot3_fence_sc_cta => FenceScCta,
            }
            ThreeTwoW {
                litmus_3dot2w_weak => Weak,
                litmus_3dot2w_relaxed_gpu => RelaxedGpu,
                litmus_3dot2w_relaxed_cta => RelaxedCta,
                litmus_3dot2w_fence_acq_rel_gpu => FenceAcqRelGpu,
                litmus_3dot2w_fence_acq_rel_cta => FenceAcqRelCta,
                litmus_3dot2w_fence_sc_gpu => FenceScGpu,
                litmus_3dot2w_fence_sc_cta => FenceScCta,
            }
        }
    };
}

/// Defines [`KERNELS`] and [`Test::variants`] from the grid.
macro_rules! registry {
    ($($test:ident { $($symbol:ident => $variant:ident),* $(,)? })*) => {
        /// Every litmus kernel, test by test in [`Test::ALL`]'s order, each
        /// test's variants in [`Test::variants`]' order: the grid
        /// ([`litmus_grid!`](crate::litmus_grid)).
        pub const KERNELS: [Kernel; [$($(stringify!($symbol),)*)*].len()] =
            [$($(kernel(Test::$test, Variant::$variant, stringify!($symbol)),)*)*];

        impl Test {
            /// The variants that teach something for this test, in the
            /// grid's order ([`litmus_grid!`](crate::litmus_grid)).
            pub const fn variants(self) -> &'static [Variant] {
                match self {
                    $(Test::$test => &[$(Variant::$variant),*],)*
                }
            }
        }
    };
}

litmus_grid!(registry);

impl Kernel {
    /// The test accesses and fences of this kernel's PTX, in program order:
    /// each role's accesses, with the variant's fence between two accesses of
    /// one role. The PTX test finds exactly this sequence in the kernel body.
    pub fn program(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.test.roles().iter().flat_map(move |role| {
            role.ops.iter().enumerate().flat_map(move |(i, &op)| {
                let fence = if i > 0 { self.variant.fence_ptx() } else { None };
                fence.into_iter().chain(core::iter::once(self.variant.ptx(op, role.is_flag(i))))
            })
        })
    }
}

/// The instruction of a line of a litmus kernel's PTX body (such as
/// `st.release.gpu.global.u32`), if the line is one of the test's steps: a
/// fence, or a `.u32` load or store, the type only test accesses use. The
/// steps of a kernel's body, in order, are exactly [`Kernel::program`]; the
/// PTX tests hold them to it, and mutants are made by editing them.
pub fn test_step(line: &str) -> Option<&str> {
    let l = line.trim_start();
    let step = l.starts_with("fence.") || ((l.starts_with("ld.") || l.starts_with("st.")) && l.contains(".u32 "));
    if step { l.split([' ', '\t', ';']).next() } else { None }
}

/// What one test access or fence of [`Kernel::program`] becomes in sm_90
/// SASS, as `ptxas` 13 writes it: a relaxed access is a load or store with
/// its scope's `.STRONG` qualifier (`.GPU`, or `.SM` for `.cta`, whose point
/// of coherence is the SM's L1) and nothing else; a volatile access is the
/// same with `.STRONG.SYS`, exactly what `ptxas` makes of `.relaxed.sys`
/// (no barrier, no invalidation: volatile orders nothing); a release is a memory
/// barrier of its scope before the store; a device-scope acquire invalidates
/// L1 after the load (`CCTL.IVALL`), a block-scope one need not, L1 being
/// the block's point of coherence; a fence is the memory barrier of its kind
/// and scope, and at device scope the invalidation too.
pub fn sass_of(ptx: &str) -> &'static [&'static str] {
    match ptx {
        "st.global.u32" => &["STG.E"],
        "ld.global.u32" => &["LDG.E"],
        "st.relaxed.gpu.global.u32" => &["STG.E.STRONG.GPU"],
        "ld.relaxed.gpu.global.u32" => &["LDG.E.STRONG.GPU"],
        "st.relaxed.cta.global.u32" => &["STG.E.STRONG.SM"],
        "ld.relaxed.cta.global.u32" => &["LDG.E.STRONG.SM"],
        "st.release.gpu.global.u32" => &["MEMBAR.ALL.GPU", "STG.E.STRONG.GPU"],
        "ld.acquire.gpu.global.u32" => &["LDG.E.STRONG.GPU", "CCTL.IVALL"],
        "st.release.cta.global.u32" => &["MEMBAR.ALL.CTA", "STG.E.STRONG.SM"],
        "ld.acquire.cta.global.u32" => &["LDG.E.STRONG.SM"],
        "st.volatile.global.u32" => &["STG.E.STRONG.SYS"],
        "ld.volatile.global.u32" => &["LDG.E.STRONG.SYS"],
        "fence.acq_rel.gpu" => &["MEMBAR.ALL.GPU", "CCTL.IVALL"],
        "fence.acq_rel.cta" => &["MEMBAR.ALL.CTA"],
        "fence.sc.gpu" => &["MEMBAR.SC.GPU", "CCTL.IVALL"],
        "fence.sc.cta" => &["MEMBAR.SC.CTA"],
        // `ptxas` 13 gives `.cluster` on sm_90 the SASS of `.gpu`, barrier
        // for barrier: the cluster's blocks may sit on different SMs, whose
        // common point of coherence is L2, as it is for the whole device.
        "st.relaxed.cluster.global.u32" => &["STG.E.STRONG.GPU"],
        "ld.relaxed.cluster.global.u32" => &["LDG.E.STRONG.GPU"],
        "st.release.cluster.global.u32" => &["MEMBAR.ALL.GPU", "STG.E.STRONG.GPU"],
        "ld.acquire.cluster.global.u32" => &["LDG.E.STRONG.GPU", "CCTL.IVALL"],
        "fence.acq_rel.cluster" => &["MEMBAR.ALL.GPU", "CCTL.IVALL"],
        "fence.sc.cluster" => &["MEMBAR.SC.GPU", "CCTL.IVALL"],
        _ => &["(no SASS known for this PTX)"],
    }
}

impl Kernel {
    /// [`Kernel::program`] as sm_90 SASS ([`sass_of`]): the test's accesses
    /// and the barriers they become, in program order. The SASS test finds
    /// exactly this after the synchronised start.
    pub fn sass_program(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.program().flat_map(|ptx| sass_of(ptx).iter().copied())
    }

    /// Whether `ptxas` issues this kernel's test loads in another order than
    /// the program's, as the SASS test finds on sm_90 (and holds to this
    /// list, so a new `ptxas` that changes it is noticed). Only weak loads
    /// may be reordered: the compiler owes weak accesses no order, and for
    /// these kernels a weak outcome counted on the GPU may be the
    /// compiler's reordering as much as the hardware's.
    pub const fn loads_reordered_by_ptxas(&self) -> bool {
        matches!(
            (self.test, self.variant),
            (Test::Mp | Test::Wrc | Test::Iriw | Test::Isa2 | Test::Z6_3, Variant::Weak)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(placement: impl Into<Split>, testing_blocks: u32, threads: u32) -> Params {
        let split = placement.into();
        Params {
            placement: split.code(),
            testing_blocks,
            threads,
            lane_multiplier: 5,
            block_step: 3,
            block_multiplier: 1,
            location_stride: 64,
            location_offset: 32,
            location_multiplier: 7,
            stress_pattern: 0,
            stress_iterations: 0,
            stress_line_words: 1,
            stress_lines: 1,
            pre_stress_iterations: 0,
            sync_polls: 0,
            preload: 0,
            sequential: 0,
            zero: 0,
            outcome_registers: 0,
            outcome_finals: 0,
            roles: 4,
            parts: split.parts(),
            cluster_blocks: split.cluster_blocks(4).unwrap_or(1),
        }
    }

    #[test]
    fn the_registry_has_every_variant_of_every_test_once_in_order() {
        let mut k = KERNELS.iter();
        for test in Test::ALL {
            for &variant in test.variants() {
                let kernel = k.next().unwrap();
                assert_eq!((kernel.test, kernel.variant), (test, variant));
                let mut expected = [0u8; 64];
                let mut len = 0;
                for part in ["litmus_", test.key(), "_", variant.key()] {
                    for &b in part.as_bytes() {
                        expected[len] = if b == b'-' { b'_' } else { b };
                        len += 1;
                    }
                }
                assert_eq!(kernel.entry.symbol.as_bytes(), &expected[..len]);
            }
        }
        assert!(k.next().is_none());
    }

    #[test]
    fn every_role_has_at_least_one_access_and_flags_point_at_them() {
        for test in Test::ALL {
            let mut loads = 0;
            for role in test.roles() {
                assert!(!role.ops.is_empty() && role.ops.len() <= 2);
                assert!(u32::from(role.flags) >> role.ops.len() == 0);
                loads += role.ops.iter().filter(|op| matches!(op, Op::Load(..))).count();
            }
            assert_eq!(loads as u32, test.registers(), "{}", test.name());
        }
    }

    #[test]
    fn the_program_of_mp_with_sc_fences() {
        let k = KERNELS.iter().find(|k| k.entry.symbol == "litmus_mp_fence_sc_gpu").unwrap();
        let mut p = k.program();
        for expected in [
            "st.relaxed.gpu.global.u32",
            "fence.sc.gpu",
            "st.relaxed.gpu.global.u32",
            "ld.relaxed.gpu.global.u32",
            "fence.sc.gpu",
            "ld.relaxed.gpu.global.u32",
        ] {
            assert_eq!(p.next(), Some(expected));
        }
        assert_eq!(p.next(), None);
        let k = KERNELS.iter().find(|k| k.entry.symbol == "litmus_wrc_rel_acq_cta").unwrap();
        let mut p = k.program().skip(2);
        assert_eq!(p.next(), Some("st.release.cta.global.u32"));
        assert_eq!(p.next(), Some("ld.acquire.cta.global.u32"));
    }

    #[test]
    fn bins_are_register_bits_and_anything_else_is_other() {
        assert_eq!(outcome_bin([1, 0, 0, 0]), 0b01);
        assert_eq!(outcome_bin([1, 0, 1, 0]), 0b0101);
        assert_eq!(outcome_bin([1, 1, 1, 1]), 15);
        assert_eq!(outcome_bin([0, 2, 0, 0]), OTHER_BIN);
        assert_eq!(outcome_bin([u32::MAX, 0, 0, 0]), OTHER_BIN);
    }

    #[test]
    fn final_bins_follow_the_register_bins_and_anything_else_is_other() {
        let none = [0; 3];
        // A register-only test bins as it always has.
        assert_eq!(final_outcome_bin([1, 0, 0, 0], 2, none, 0), 0b01);
        // CoWR: r0, then x's final value.
        assert_eq!(final_outcome_bin([2, 0, 0, 0], 1, [1, 0, 0], 0b001), Test::Cowr.weak() as usize);
        assert_eq!(final_outcome_bin([1, 0, 0, 0], 1, [2, 0, 0], 0b001), Test::Cowr.sequential() as usize);
        // 2+2W: x, then y.
        assert_eq!(final_outcome_bin([0; 4], 0, [1, 1, 0], 0b011), Test::TwoPlusTwoW.weak() as usize);
        // R: r0, then y (x is not part of it, whatever it holds).
        assert_eq!(final_outcome_bin([0, 0, 0, 0], 1, [1, 2, 0], 0b010), Test::R.weak() as usize);
        // A value no thread stored, or a register no load wrote.
        assert_eq!(final_outcome_bin([3, 0, 0, 0], 1, [1, 0, 0], 0b001), OTHER_BIN);
        assert_eq!(final_outcome_bin([0, 0, 0, 0], 1, [7, 0, 0], 0b001), OTHER_BIN);
        assert_eq!(final_outcome_bin([0, 1, 0, 0], 1, [1, 0, 0], 0b001), OTHER_BIN);
        for test in Test::ALL {
            let (weak, sequential) = (test.weak() as usize, test.sequential() as usize);
            assert!(weak < test.bins() && sequential < test.bins() && weak != sequential, "{}", test.name());
            assert!(weak != OTHER_BIN && sequential != OTHER_BIN);
            assert_eq!(test.finals().is_empty(), weak < FIRST_FINAL_BIN, "{}", test.name());
            if !test.finals().is_empty() {
                assert!(test.registers() as usize + test.finals().len() <= FINAL_DIGITS);
                assert_eq!(final_bin(&final_digits(weak).unwrap()), weak as u32, "round trip");
            }
        }
    }

    #[test]
    fn every_store_writes_1_or_2_and_2_only_where_an_outcome_can_tell() {
        for test in Test::ALL {
            for role in test.roles() {
                for op in role.ops {
                    if let Op::Store(location, value) = *op {
                        assert!(value == 1 || (value == 2 && test.finals().contains(&location)));
                    }
                }
            }
        }
    }

    #[test]
    fn each_role_is_a_bijection_and_an_instance_spans_distinct_warps_or_blocks() {
        // Every placement, with every number of roles it applies to, on 3
        // and on 5 testing blocks (block step 3 suits 5; with 3 blocks only
        // the placements in one block can run, inter-block needing step 1).
        for split in Split::ALL {
            for roles in 2..=4u32 {
                if let Split::Blocks(i) = split
                    && BLOCK_SPLITS[i as usize].roles != roles
                {
                    continue;
                }
                if let Some(size) = split.cluster_blocks(roles) {
                    // Whole clusters: one (intra-cluster), or at least one per
                    // role, `block_step` clusters apart (3 suits 5 clusters).
                    for clusters in [1, 5] {
                        if split == Split::InterCluster && clusters == 1 {
                            continue;
                        }
                        let mut p = params(split, clusters * size, 128);
                        (p.roles, p.cluster_blocks) = (roles, size);
                        check_instances(split, &p, roles);
                    }
                    continue;
                }
                let one_block = split.blocks_for(roles) == 1;
                for blocks in [3, 5] {
                    if !one_block && blocks == 3 {
                        continue;
                    }
                    let mut p = params(split, blocks, 128);
                    p.roles = roles;
                    check_instances(split, &p, roles);
                }
            }
        }
    }

    /// Each of `roles` roles maps the threads onto the instances one to one,
    /// and the roles of each instance sit where `split` says: in one warp at
    /// distinct lanes, in one block in distinct warps, or in distinct blocks
    /// (of one cluster, or of distinct clusters, in the cluster placements).
    fn check_instances(split: Split, p: &Params, roles: u32) {
        let n = p.instances() as usize;
        // owner[role][instance] = (block, thread)
        let mut owner = [[(u32::MAX, 0u32); 2560]; 4];
        for role in 0..roles {
            for block in 0..p.testing_blocks {
                for thread in 0..p.threads {
                    let i = p.instance(role, block, thread) as usize;
                    assert!(i < n);
                    assert_eq!(owner[role as usize][i].0, u32::MAX, "{split:?}: role {role} maps two threads to {i}");
                    owner[role as usize][i] = (block, thread);
                }
            }
        }
        for i in 0..n {
            let threads = owner.map(|role| role[i]);
            for a in 0..roles {
                for b in 0..a {
                    let (x, y) = (threads[a as usize], threads[b as usize]);
                    let cluster = |block: u32| block / p.cluster_size();
                    let placed = if split == Split::IntraCluster {
                        x.0 != y.0 && cluster(x.0) == cluster(y.0)
                    } else if split == Split::InterCluster {
                        cluster(x.0) != cluster(y.0)
                    } else if !split.same_block(a, b) {
                        x.0 != y.0
                    } else if split == Split::Warp {
                        x.0 == y.0 && x.1 / 32 == y.1 / 32 && x.1 != y.1
                    } else {
                        x.0 == y.0 && x.1 / 32 != y.1 / 32
                    };
                    assert!(placed, "{split:?} with {roles} roles, instance {i}, roles {a} and {b}: {x:?} {y:?}");
                }
            }
        }
    }

    /// The intra- and inter-block maps are the ones the reference results
    /// were measured with: the formulas as they were before the other
    /// placements, written out again here.
    #[test]
    fn the_two_original_placements_keep_their_map() {
        for (placement, blocks) in [(Placement::IntraBlock, 3), (Placement::InterBlock, 5)] {
            let p = params(placement, blocks, 128);
            for role in 0..4u32 {
                let multiplier = 5u32.pow(role);
                for block in 0..blocks {
                    for thread in 0..128 {
                        let expected = if placement == Placement::IntraBlock {
                            block * 128 + (thread / 32 + role) % 4 * 32 + (thread % 32) * multiplier % 32
                        } else {
                            (block + role * 3) % blocks * 128 + thread * multiplier % 128
                        };
                        assert_eq!(p.instance(role, block, thread), expected);
                    }
                }
            }
        }
    }

    /// The table of block splits is every set partition of three and four
    /// roles but the two with one part or one role per part, each once,
    /// canonical (parts numbered by their first role), named by its parts.
    #[test]
    fn the_block_splits_are_the_set_partitions() {
        for roles in [3u32, 4] {
            // Restricted growth strings: part[r] <= max(part[..r]) + 1.
            let mut count = 0;
            for code in 0..(1u32 << (4 * roles)) {
                let part = |r: u32| (code >> (4 * r)) & 0xF;
                let mut most = 0;
                let mut canonical = part(0) == 0;
                for r in 1..roles {
                    canonical &= part(r) <= most + 1;
                    most = most.max(part(r));
                }
                if !canonical || most == 0 || most == roles - 1 {
                    continue;
                }
                count += 1;
                let mut found = BLOCK_SPLITS.iter().filter(|s| s.roles == roles && s.parts == code);
                let split = found.next().expect("every split is in the table");
                assert!(found.next().is_none(), "{roles} roles, parts {code:#x} twice");
                let mut key = [0u8; 16];
                key[..6].copy_from_slice(b"blocks");
                let mut len = 6;
                for p in 0..=most {
                    key[len] = b'-';
                    len += 1;
                    for r in (0..roles).filter(|&r| part(r) == p) {
                        key[len] = b'0' + r as u8;
                        len += 1;
                    }
                }
                assert_eq!(split.key.as_bytes(), &key[..len]);
            }
            assert_eq!(count, BLOCK_SPLITS.iter().filter(|s| s.roles == roles).count());
        }
        assert_eq!(BLOCK_SPLITS.iter().filter(|s| s.roles == 3).count(), 3);
        assert_eq!(BLOCK_SPLITS.iter().filter(|s| s.roles == 4).count(), 13);
    }

    #[test]
    fn placements_have_distinct_keys_and_fit_their_tests() {
        for (i, a) in Split::ALL.iter().enumerate() {
            for b in &Split::ALL[..i] {
                assert_ne!(a.key(), b.key());
            }
        }
        assert_eq!(Split::from(Placement::IntraBlock).key(), "intra-block");
        assert_eq!(Split::from(Placement::InterBlock).key(), "inter-block");
        assert_eq!(Split::from(Placement::InterBlock).code(), Placement::InterBlock as u32);
        for test in Test::ALL {
            let fitting = Split::ALL.iter().filter(|s| s.fits(test)).count();
            assert_eq!(fitting, [0, 5, 5, 8, 18][test.threads() as usize], "{}", test.name());
        }
        let wrc = Split::ALL.iter().find(|s| s.key() == "blocks-0-12").unwrap();
        assert_eq!([0, 1, 2].map(|r| wrc.block_of(r)), [0, 1, 1]);
        assert_eq!(wrc.blocks(Test::Wrc), 2);
        assert_eq!(Split::InterBlock.blocks(Test::Iriw), 4);
        assert_eq!(Split::Warp.blocks(Test::Iriw), 1);
        assert_eq!(Split::from(Placement::IntraCluster).key(), "intra-cluster");
        assert_eq!(Split::from(Placement::InterCluster).key(), "inter-cluster");
        assert_eq!(Split::ALL.iter().filter(|s| s.needs_clusters()).count(), 2);
        // Clusters of 2 for two roles, of 4 for three and four.
        assert_eq!(
            [Test::Mp, Test::Wrc, Test::Iriw].map(|t| Split::IntraCluster.cluster_blocks(t.threads())),
            [Some(2), Some(4), Some(4)]
        );
        assert_eq!(Split::InterBlock.cluster_blocks(2), None);
        assert_eq!([0, 1, 2, 3].map(|r| Split::IntraCluster.cluster_of(r)), [0, 0, 0, 0]);
        assert_eq!([0, 1, 2, 3].map(|r| Split::InterCluster.cluster_of(r)), [0, 1, 2, 3]);
    }

    /// The logical block is a bijection on the testing blocks for every
    /// shift, and in the cluster placements it keeps each hardware
    /// cluster's blocks in one logical cluster, at their own ranks; without
    /// clusters it is the shuffle the reference results ran with.
    #[test]
    fn the_block_shuffle_keeps_clusters_whole() {
        for split in [Split::InterBlock, Split::IntraCluster, Split::InterCluster] {
            let size = split.cluster_blocks(2).unwrap_or(1);
            let mut p = params(split, 6 * size, 128);
            (p.block_multiplier, p.cluster_blocks) = (5, size);
            for shift in 0..7 {
                let mut seen = [false; 12];
                for hardware in 0..p.testing_blocks {
                    let logical = p.logical_block(hardware, shift);
                    assert!(!seen[logical as usize], "{split:?} shift {shift}: {logical} twice");
                    seen[logical as usize] = true;
                    assert_eq!(logical % size, hardware % size);
                    if size == 1 {
                        assert_eq!(logical, (hardware * 5 + shift) % p.testing_blocks);
                    }
                    // The cluster's first block decides where the rest go.
                    let first = p.logical_block(hardware - hardware % size, shift);
                    assert_eq!(logical / size, first / size);
                }
            }
        }
    }

    #[test]
    fn the_cluster_variants_name_cluster_scope_and_need_the_hopper_module() {
        for variant in Variant::ALL {
            let cluster = variant.key().ends_with("-cluster");
            assert_eq!(variant.needs_hopper(), cluster, "{variant:?}");
        }
        for k in &KERNELS {
            let module = if k.variant.needs_hopper() { crate::Module::Hopper } else { crate::Module::Base };
            assert_eq!(k.entry.module, module, "{}", k.entry.symbol);
        }
        assert_eq!(CLASSIFY.module, crate::Module::Base);
        let k = KERNELS.iter().find(|k| k.entry.symbol == "litmus_mp_rel_acq_cluster").unwrap();
        let mut program = k.program();
        for expected in [
            "st.relaxed.cluster.global.u32",
            "st.release.cluster.global.u32",
            "ld.acquire.cluster.global.u32",
            "ld.relaxed.cluster.global.u32",
        ] {
            assert_eq!(program.next(), Some(expected));
        }
        assert_eq!(program.next(), None);
        let k = KERNELS.iter().find(|k| k.entry.symbol == "litmus_sb_fence_sc_cluster").unwrap();
        assert_eq!(k.program().nth(1), Some("fence.sc.cluster"));
        // Every step of every kernel has its SASS in the table.
        for k in &KERNELS {
            assert!(k.sass_program().all(|sass| !sass.starts_with('(')), "{}", k.entry.symbol);
        }
    }

    #[test]
    fn locations_never_collide() {
        let p = params(Placement::InterBlock, 5, 128);
        let mut used = [false; 640 * 64];
        for i in 0..p.instances() {
            for w in [p.x(i), p.y(i), p.z(i)] {
                assert!(w < p.location_words() && !used[w]);
                used[w] = true;
            }
        }
    }
}
