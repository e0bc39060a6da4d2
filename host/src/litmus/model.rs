//! What the PTX memory model says about each test's weak outcome, per
//! variant and placement: the verdicts `host litmus` holds the GPU to.
//!
//! Derived from the axioms of the PTX ISA's memory consistency model as the
//! formal model of Lustig et al. (ASPLOS 2019, NVlabs' `ptx.als`) states
//! them: *coherence* (`location_sc`: strong communication and program order
//! per location are acyclic), and *causality* (no read may see a write that
//! its own causality order places after it, nor miss one placed before it).
//! Causality order starts only at synchronization: a release pattern
//! observed by an acquire pattern (release/acquire accesses, or
//! `fence.acq_rel`/`fence.sc` around relaxed ones), or two `fence.sc` (which
//! are totally ordered). Everything counts only between *morally strong*
//! operations: both atomic (relaxed or stronger) with a scope that includes
//! the other thread. A weak access, or a `.cta` operation seen from another
//! block, takes part in no synchronization and in no coherence order the
//! model promises, so its weak outcome is allowed.
//!
//! Whether the weak outcome is allowed is computed, not written: the
//! `memory-model` crate enumerates every candidate execution of the test's
//! program and checks each against those axioms (and it agrees with the
//! expected result of every Dat3M PTX litmus file it vendors). The rules below
//! are the explanation: the general ones (weak accesses, a scope that leaves a
//! thread out) are here, and each test's own sentences, what forbids its weak
//! outcome and why nothing else does, are in its definition
//! ([`layout::litmus::Reasons`]). A unit test holds them to the checker for
//! every test, variant and placement, so a reason can never say "allowed" where
//! the model says forbidden.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use layout::Scope;
use layout::litmus::{Reason, Split, Test, Variant};

/// The model's answer for one (test, variant, placement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the weak outcome is allowed.
    pub allowed: bool,
    /// Why, in one line.
    pub reason: &'static str,
}

/// Whether an operation of `scope` includes every one of `roles` of an
/// instance in `placement`: `.gpu` and `.sys` always (the lab runs on one
/// GPU), `.cluster` when they all run in one cluster (a block launched
/// without clusters being a cluster of its own), `.cta` only when they all
/// run in one block (one warp is one block here: PTX has no warp scope).
pub fn covers(scope: Scope, placement: Split, mut roles: impl Iterator<Item = u32>) -> bool {
    let first = roles.next();
    match scope {
        Scope::Gpu | Scope::Sys => true,
        Scope::Cluster => roles.all(|r| first.is_none_or(|f| placement.cluster_of(f) == placement.cluster_of(r))),
        Scope::Cta => roles.all(|r| first.is_none_or(|f| placement.same_block(f, r))),
    }
}

/// Why a `scope` that does not cover some roles in `placement` leaves them
/// out, for the fences (`fences`) or the accesses.
fn left_out(scope: Option<Scope>, placement: Split, fences: bool) -> &'static str {
    let split = matches!(placement, Split::Blocks(_));
    match (scope, placement, fences) {
        (Some(Scope::Cluster), Split::InterCluster, true) => {
            "the fences' .cluster scope leaves out the other clusters: they synchronize nothing"
        }
        (Some(Scope::Cluster), Split::InterCluster, false) => {
            "the accesses' .cluster scope leaves out the other clusters: not morally strong"
        }
        (Some(Scope::Cluster), _, true) => {
            "launched without clusters each block is a cluster of its own: .cluster fences leave out the other block"
        }
        (Some(Scope::Cluster), _, false) => {
            "launched without clusters each block is a cluster of its own: .cluster accesses are not morally strong"
        }
        (_, Split::IntraCluster | Split::InterCluster, true) => {
            "the fences' .cta scope leaves out the cluster's other blocks: they synchronize nothing"
        }
        (_, Split::IntraCluster | Split::InterCluster, false) => {
            "the accesses' .cta scope leaves out the cluster's other blocks: not morally strong"
        }
        (_, _, true) if split => "the fenced threads run in different blocks: .cta fences cannot order them all",
        (_, _, true) => "the fences' .cta scope leaves out the other block: they synchronize nothing",
        (_, _, false) if split => {
            "some threads run in different blocks: .cta accesses between them are not morally strong"
        }
        (_, _, false) => "the accesses' .cta scope leaves out the other block: not morally strong",
    }
}

/// The roles of `test` with a fence, in a fence variant: those with two
/// accesses. They are the threads whose fences must order one another.
fn fenced_roles(test: Test) -> impl Iterator<Item = u32> {
    test.roles().iter().enumerate().filter(|(_, r)| r.ops.len() > 1).map(|(i, _)| i as u32)
}

/// The verdict on `test`'s weak outcome in `variant` and `placement`: the
/// model checker's answer, with the rule that explains it.
pub fn verdict(test: Test, variant: Variant, placement: impl Into<Split>) -> Verdict {
    let placement = placement.into();
    let positions = memory_model::lab::placement_positions(test, placement);
    let allowed = memory_model::lab::weak_allowed(test, variant, &positions);
    Verdict { allowed, reason: explain(test, variant, placement).reason }
}

/// The model's verdict on every histogram bin of `test` in `variant` and
/// `placement`: element `b` is whether the checker finds a consistent
/// execution that ends in bin `b`'s outcome
/// ([`memory_model::lab::allowed_bins`]), for every bin below
/// [`Test::bins`]. The weak bin's element is [`verdict`]'s `allowed`; the
/// others have no hand-written rule, only the checker's answer. Each answer
/// is computed once per process: a tuning search asks for the same ones
/// thousands of times.
pub fn allowed_bins(test: Test, variant: Variant, placement: impl Into<Split>) -> Vec<bool> {
    type Key = (Test, Variant, Split);
    static CACHE: OnceLock<Mutex<HashMap<Key, Vec<bool>>>> = OnceLock::new();
    let placement = placement.into();
    let cache = CACHE.get_or_init(Mutex::default);
    // A poisoned lock means a thread panicked while the checker computed an
    // answer, before it was inserted: the map holds only complete answers,
    // so it is used as it is.
    let mut map = cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    map.entry((test, variant, placement))
        .or_insert_with(|| {
            let positions = memory_model::lab::placement_positions(test, placement);
            memory_model::lab::allowed_bins(test, variant, &positions)
        })
        .clone()
}

/// The hand-written rule for `test` in `variant` and `placement`: what
/// forbids the weak outcome, or why nothing does.
fn explain(test: Test, variant: Variant, placement: Split) -> Verdict {
    let allow = |reason| Verdict { allowed: true, reason };
    let forbid = |reason| Verdict { allowed: false, reason };
    // The accesses are morally strong: atomic, at a scope that covers every
    // thread of the instance (every thread accesses a location another
    // thread accesses, so a `.cta` access of any role in another block, or a
    // `.cluster` one in another cluster, breaks some pair).
    let strong = variant.access_scope().is_some_and(|s| covers(s, placement, 0..test.threads()));
    // Release/acquire on the flag synchronizes (the data accesses share its scope).
    let release_acquire = variant.release_acquire() && strong;
    // The fences synchronize: every fence variant uses `.relaxed.gpu`
    // accesses, so only the fenced threads need to share the fence's scope
    // (in a block split, a one-access role may sit in a block of its own).
    let fence = variant.fence().filter(|&(_, scope)| covers(scope, placement, fenced_roles(test)));
    let sc_fence = fence.is_some_and(|(sc, _)| sc);

    let reasons = test.definition().reasons;
    if let Some(reason) = reasons.always {
        return forbid(reason);
    }
    if variant == Variant::Weak {
        let reordered = layout::litmus::KERNELS
            .iter()
            .any(|k| k.test == test && k.variant == variant && k.loads_reordered_by_ptxas());
        return allow(if reordered {
            "weak accesses are not morally strong: no axiom orders them, and ptxas issues these loads out of order"
        } else {
            "weak accesses are not morally strong: no axiom orders them"
        });
    }
    if strong && let Some(reason) = reasons.coherence {
        return forbid(reason);
    }
    if variant == Variant::Volatile {
        // The PTX ISA (section 8.4.2): a volatile operation is a relaxed one
        // at system scope, plus constraints on the compiler. Strong and in
        // scope everywhere on one GPU, so only coherence (above) holds.
        return allow(
            reasons
                .volatile
                .unwrap_or("volatile is relaxed at .sys: strong and in scope, but it orders nothing, as relaxed"),
        );
    }
    if variant.fence().is_some() && fence.is_none() {
        return allow(left_out(variant.fence().map(|(_, s)| s), placement, true));
    }
    if !strong {
        return allow(left_out(variant.access_scope(), placement, false));
    }
    // The test's own rule for the synchronization it has, in the order of
    // its `Reasons`' fields.
    let rule =
        [(release_acquire, reasons.release_acquire), (sc_fence, reasons.sc_fence), (fence.is_some(), reasons.fence)]
            .into_iter()
            .find_map(|(applies, reason)| reason.filter(|_| applies))
            .unwrap_or(reasons.relaxed);
    match rule {
        Reason::Allowed(reason) => allow(reason),
        Reason::Forbidden(reason) => forbid(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout::litmus::KERNELS;

    fn allowed(test: Test, variant: Variant, placement: impl Into<Split>) -> bool {
        verdict(test, variant, placement).allowed
    }

    fn split(key: &str) -> Split {
        Split::ALL.into_iter().find(|s| s.key() == key).unwrap()
    }

    #[test]
    fn every_kernel_and_placement_has_a_verdict_with_a_reason() {
        for k in &KERNELS {
            for p in Split::ALL.into_iter().filter(|s| s.fits(k.test)) {
                let v = verdict(k.test, k.variant, p);
                assert!(!v.reason.is_empty() && !v.reason.contains('\n'));
            }
        }
    }

    // The textbook answers (MP needs synchronization, SB and IRIW need
    // fence.sc, causality is cumulative, ...) are pinned once, on the checker
    // itself: `memory_model::lab`'s `the_textbook_cases`. Here the rules are
    // held to the checker everywhere, below.

    /// The new placements: one warp is one block to the model; in a block
    /// split, `.cta` fences order the fenced threads when those share a
    /// block, while `.cta` accesses need every thread in one block.
    #[test]
    fn warps_and_block_splits() {
        use Test::*;
        use Variant::*;
        assert!(!allowed(Mp, ReleaseAcquireCta, Split::Warp));
        assert!(!allowed(Iriw, FenceScCta, Split::Warp));
        // WRC's fenced threads are roles 1 and 2; its writer may be elsewhere,
        // its accesses being .relaxed.gpu.
        assert!(!allowed(Wrc, FenceAcqRelCta, split("blocks-0-12")));
        assert!(allowed(Wrc, FenceAcqRelCta, split("blocks-01-2")));
        // With .cta accesses the writer's W x is not morally strong to the reader in the other block.
        assert!(allowed(Wrc, ReleaseAcquireCta, split("blocks-0-12")));
        // IRIW's fence.sc.cta needs only the two readers together.
        assert!(!allowed(Iriw, FenceScCta, split("blocks-0-1-23")));
        assert!(allowed(Iriw, FenceScCta, split("blocks-02-13")));
        // RWC's fenced threads are roles 1 and 2.
        assert!(!allowed(Rwc, FenceScCta, split("blocks-0-12")));
        // ISA2 chains three fenced threads: any split breaks a link.
        assert!(allowed(Isa2, FenceScCta, split("blocks-0-12")));
        // Device scope does not care where the threads run.
        assert!(!allowed(Isa2, ReleaseAcquireGpu, split("blocks-02-1")));
    }

    /// The cluster placements: `.cluster` covers the blocks of one cluster
    /// and no other, `.cta` none of the other blocks, and each reason names
    /// the scope that leaves the other threads out.
    #[test]
    fn clusters() {
        use Test::*;
        use Variant::*;
        let v = verdict(Mp, ReleaseAcquireCluster, Split::IntraCluster);
        assert!(!v.allowed && v.reason.contains("acquire"));
        let v = verdict(Mp, ReleaseAcquireCluster, Split::InterCluster);
        assert!(v.allowed && v.reason.contains(".cluster scope leaves out the other clusters"), "{}", v.reason);
        let v = verdict(Mp, ReleaseAcquireCta, Split::IntraCluster);
        assert!(v.allowed && v.reason.contains(".cta scope leaves out the cluster's other blocks"), "{}", v.reason);
        let v = verdict(Mp, FenceAcqRelCluster, Split::InterBlock);
        assert!(v.allowed && v.reason.contains("cluster of its own"), "{}", v.reason);
        assert!(!allowed(Sb, FenceScCluster, Split::IntraCluster));
        assert!(!allowed(Iriw, FenceScCluster, Split::IntraCluster));
        assert!(allowed(Iriw, FenceScCluster, Split::InterCluster));
        assert!(covers(Scope::Cluster, Split::IntraCluster, 0..4));
        assert!(!covers(Scope::Cluster, Split::InterCluster, 0..2));
        assert!(!covers(Scope::Cta, Split::IntraCluster, 0..2));
        assert!(covers(Scope::Cluster, Split::IntraBlock, 0..4));
    }

    /// Every rule's answer is the checker's, for every test, variant and
    /// placement (not only the kernels that exist).
    #[test]
    fn the_rules_agree_with_the_model_checker_everywhere() {
        let mut disagree = Vec::new();
        for test in Test::ALL {
            for variant in Variant::ALL {
                for placement in Split::ALL.into_iter().filter(|s| s.fits(test)) {
                    let rule = explain(test, variant, placement);
                    let positions = memory_model::lab::placement_positions(test, placement);
                    if rule.allowed != memory_model::lab::weak_allowed(test, variant, &positions) {
                        disagree.push(format!("{test:?} {variant:?} {placement:?}: rule says {}", rule.reason));
                    }
                }
            }
        }
        assert!(disagree.is_empty(), "{}", disagree.join("\n"));
    }

    /// Every bin's verdict is the checker's, and the weak bin's is the
    /// row's verdict, for every kernel and placement; asking twice gives the
    /// cached answer.
    #[test]
    fn every_bin_of_every_kernel_is_judged_and_the_weak_one_agrees() {
        for k in &KERNELS {
            for p in Split::ALL.into_iter().filter(|s| s.fits(k.test)) {
                let bins = allowed_bins(k.test, k.variant, p);
                assert_eq!(bins.len(), k.test.bins());
                assert_eq!(bins[k.test.weak() as usize], verdict(k.test, k.variant, p).allowed, "{}", k.entry.symbol);
                assert_eq!(bins, allowed_bins(k.test, k.variant, p));
            }
        }
    }

    /// Except in CoWW, whose accesses are all one thread's: the PTX model
    /// counts those morally strong relative to each other, weak or not.
    #[test]
    fn weak_accesses_are_never_forbidden_anything() {
        assert!(!allowed(Test::Coww, Variant::Weak, Split::IntraBlock));
        for test in Test::ALL.into_iter().filter(|&t| t != Test::Coww) {
            for p in Split::ALL.into_iter().filter(|s| s.fits(test)) {
                assert!(allowed(test, Variant::Weak, p));
            }
        }
    }
}
