//! The lab's litmus tests ([`layout::litmus`]) as programs for the checker,
//! and the model's verdict on each test's weak outcome.
//!
//! Everything is read from the test's description, so a new test, with more
//! roles or another location, needs nothing here: each [`Role`] becomes a
//! thread, each [`Op`] an event (each store writes its value, 1 or 2, every
//! location starts at 0), with the variant's semantics and scope, and the variant's fence,
//! if it has one, between each consecutive pair of a role's accesses, as
//! `Variant::ptx` and `Kernel::program` emit them.
//!
//! This module is the checker's one door to the lab: the rest of the crate
//! knows nothing of `layout`. The verdicts the lab expects, reasoned out by
//! hand, are not here either: they are one file, `tests/lab-verdicts.txt`,
//! and the tests below hold the checker to it.
//!
//! [`Role`]: layout::litmus::Role

use layout::Scope as LabScope;
use layout::litmus::{Op, Split, Test, Variant};

use crate::execution::allows;
use crate::program::{Condition, Event, Position, Program, Scope, Sem, Thread, Value};

fn scope(scope: LabScope) -> Scope {
    match scope {
        LabScope::Cta => Scope::Cta,
        LabScope::Cluster => Scope::Cluster,
        LabScope::Gpu => Scope::Gpu,
        LabScope::Sys => Scope::Sys,
    }
}

/// The index of a location of the lab's tests: its place in
/// [`layout::litmus::Location`]'s declaration.
fn location(op: Op) -> usize {
    match op {
        Op::Store(loc, _) | Op::Load(loc, _) => loc as usize,
    }
}

/// The program of `test` in `variant`, with role `r` running at
/// `positions[r]` ([`placement_positions`]: its block and cluster, on one
/// device).
///
/// A weak variant's accesses are [`Sem::Weak`]; every other variant's are
/// relaxed at [`Variant::access_scope`] (the volatile variant's at
/// [`Scope::Sys`], as the PTX ISA defines volatile), except that a release/acquire
/// variant makes each role's flag store a release and its flag load an
/// acquire. Register `r` of the lab's instance is register `r` of the thread
/// that loads it.
///
/// # Panics
/// If `positions` has fewer entries than the test has roles.
pub fn program(test: Test, variant: Variant, positions: &[Position]) -> Program {
    let roles = test.roles();
    assert!(positions.len() >= roles.len(), "{} roles, {} positions", roles.len(), positions.len());
    let locations = roles.iter().flat_map(|r| r.ops.iter()).map(|&op| location(op) + 1).max().unwrap_or(0);
    let threads = roles
        .iter()
        .zip(positions)
        .map(|(role, &position)| {
            let mut events = Vec::new();
            for (i, &op) in role.ops.iter().enumerate() {
                if i > 0
                    && let Some((sc, s)) = variant.fence()
                {
                    events.push(Event::Fence { sc, scope: scope(s) });
                }
                let flag = variant.release_acquire() && role.is_flag(i);
                let (sem, s) = match variant.access_scope() {
                    None => (Sem::Weak, Scope::Sys),
                    Some(s) => (Sem::Relaxed, scope(s)),
                };
                events.push(match op {
                    Op::Store(_, value) => Event::Store {
                        loc: location(op),
                        value: Value::Const(value),
                        sem: if flag { Sem::Release } else { sem },
                        scope: s,
                    },
                    Op::Load(_, reg) => {
                        Event::Load { loc: location(op), reg, sem: if flag { Sem::Acquire } else { sem }, scope: s }
                    }
                });
            }
            Thread { position, events, initial: Vec::new() }
        })
        .collect();
    Program { initial: vec![0; locations], threads }
}

/// One step of a role's program, as the PTX instruction that performs it:
/// one of the test's accesses, or a fence. A kernel's program is
/// [`layout::litmus::Kernel::program`]; a mutant of it is the same list with
/// one step changed, dropped or moved, which is why the checker can take it
/// in this form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// An access of the test (which location, which register) and the
    /// instruction it is, such as `ld.acquire.gpu.global.u32`.
    Access(Op, &'a str),
    /// A fence, such as `fence.sc.cta`.
    Fence(&'a str),
}

/// The scope an instruction names (`.cta`, `.cluster`, `.gpu` or `.sys`),
/// if any.
fn scope_of(ptx: &str) -> Option<Scope> {
    let parts: Vec<&str> = ptx.split('.').collect();
    if parts.contains(&"cta") {
        Some(Scope::Cta)
    } else if parts.contains(&"cluster") {
        Some(Scope::Cluster)
    } else if parts.contains(&"gpu") {
        Some(Scope::Gpu)
    } else if parts.contains(&"sys") {
        Some(Scope::Sys)
    } else {
        None
    }
}

/// The event one step is: its semantics and scope read off the instruction.
fn event_of(step: Step<'_>) -> Result<Event, String> {
    match step {
        Step::Fence(ptx) => {
            let sc = ptx.starts_with("fence.sc.");
            if !sc && !ptx.starts_with("fence.acq_rel.") {
                return Err(format!("`{ptx}` is no fence the checker knows"));
            }
            let scope = scope_of(ptx).ok_or_else(|| format!("`{ptx}` names no scope"))?;
            Ok(Event::Fence { sc, scope })
        }
        Step::Access(op, ptx) => {
            let parts: Vec<&str> = ptx.split('.').collect();
            // The PTX ISA (section 8.4.2): a volatile operation is a relaxed
            // operation at system scope; its extra constraints bind the
            // compiler only. `.volatile` names no scope of its own.
            let (sem, scope) = if parts.contains(&"volatile") {
                (Sem::Relaxed, Some(Scope::Sys))
            } else {
                (access_sem(&parts), scope_of(ptx))
            };
            let scope = match (sem, scope) {
                (Sem::Weak, _) => Scope::Sys,
                (_, Some(scope)) => scope,
                (_, None) => return Err(format!("`{ptx}` is strong but names no scope")),
            };
            match (op, ptx.starts_with("st."), ptx.starts_with("ld.")) {
                (Op::Store(_, value), true, _) => {
                    Ok(Event::Store { loc: location(op), value: Value::Const(value), sem, scope })
                }
                (Op::Load(_, reg), _, true) => Ok(Event::Load { loc: location(op), reg, sem, scope }),
                _ => Err(format!("`{ptx}` does not perform {op:?}")),
            }
        }
    }
}

/// The semantics an access's qualifiers (`ptx` split at its dots) name:
/// release, acquire, relaxed, or weak when it names none.
fn access_sem(parts: &[&str]) -> Sem {
    if parts.contains(&"release") {
        Sem::Release
    } else if parts.contains(&"acquire") {
        Sem::Acquire
    } else if parts.contains(&"relaxed") {
        Sem::Relaxed
    } else {
        Sem::Weak
    }
}

/// The program of `test` with each role's steps given as PTX (`roles[r]`,
/// in program order), role `r` at `positions[r]`: how the checker judges
/// a kernel's mutant. For a kernel's own steps it is [`program`].
pub fn program_of(test: Test, roles: &[Vec<Step<'_>>], positions: &[Position]) -> Result<Program, String> {
    if roles.len() != test.roles().len() || positions.len() < roles.len() {
        return Err(format!("{} roles, {} given, {} positions", test.roles().len(), roles.len(), positions.len()));
    }
    let locations = test.roles().iter().flat_map(|r| r.ops.iter()).map(|&op| location(op) + 1).max().unwrap_or(0);
    let threads = roles
        .iter()
        .zip(positions)
        .map(|(steps, &position)| {
            let events = steps.iter().map(|&s| event_of(s)).collect::<Result<Vec<_>, _>>()?;
            Ok(Thread { position, events, initial: Vec::new() })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Program { initial: vec![0; locations], threads })
}

/// Whether the model allows `test`'s weak outcome for the program `roles`
/// (as [`program_of`] reads it), role `r` at `positions[r]`.
pub fn weak_allowed_for(test: Test, roles: &[Vec<Step<'_>>], positions: &[Position]) -> Result<bool, String> {
    Ok(allows(&program_of(test, roles, positions)?, &bin_condition(test, test.weak())))
}

/// A kernel's own program as steps: each role's accesses with its variant's
/// instructions, and the variant's fence between two of them, as
/// [`layout::litmus::Kernel::program`] lists them.
pub fn kernel_steps(kernel: &layout::litmus::Kernel) -> Vec<Vec<Step<'static>>> {
    kernel
        .test
        .roles()
        .iter()
        .map(|role| {
            let mut steps = Vec::new();
            for (i, &op) in role.ops.iter().enumerate() {
                if i > 0
                    && let Some(fence) = kernel.variant.fence_ptx()
                {
                    steps.push(Step::Fence(fence));
                }
                steps.push(Step::Access(op, kernel.variant.ptx(op, role.is_flag(i))));
            }
            steps
        })
        .collect()
}

/// Where `test`'s roles run in `placement`, on device 0: all in block 0
/// within one block, and within one warp (the PTX model has no warp scope,
/// so a warp is one block to it), role `r` in block `r` across blocks, and
/// in a block split each role in its part's block ([`Split::block_of`]).
/// A block launched without clusters is a cluster of its own (the PTX ISA
/// makes such a CTA an implicit cluster of one), so there a role's cluster
/// is its block; intra-cluster every role has a block of its own in cluster
/// 0, inter-cluster role `r` is alone in cluster `r` ([`Split::cluster_of`]).
pub fn placement_positions(test: Test, placement: impl Into<Split>) -> Vec<Position> {
    let split = placement.into();
    (0..test.threads()).map(|r| Position { cta: split.block_of(r), cluster: split.cluster_of(r), gpu: 0 }).collect()
}

/// The condition that an outcome is the histogram bin `bin`: for a test
/// whose outcome is its registers, every register `r` that some role loads
/// holds bit `r` of `bin`; for a test with final values
/// ([`Test::finals`]), register `r` holds digit `r` of the bin's code and
/// each final location the digit after the registers' in its order
/// ([`layout::litmus::final_bin`]), a [`Condition::Memory`]. A bin that is
/// no outcome of the test (such as [`layout::litmus::OTHER_BIN`]) is a
/// condition nothing satisfies.
pub fn bin_condition(test: Test, bin: u32) -> Condition {
    let digits = if test.finals().is_empty() { None } else { layout::litmus::final_digits(bin as usize) };
    if !test.finals().is_empty() && digits.is_none() {
        return Condition::Not(Box::new(Condition::True));
    }
    let register = |reg: u8| match digits {
        Some(d) => d[reg as usize],
        None => bin >> reg & 1,
    };
    let mut all = Vec::new();
    for (thread, role) in test.roles().iter().enumerate() {
        for &op in role.ops {
            if let Op::Load(_, reg) = op {
                all.push(Condition::Register { thread, reg, value: register(reg) });
            }
        }
    }
    if let Some(d) = digits {
        let registers = test.registers() as usize;
        for (k, &loc) in test.finals().iter().enumerate() {
            all.push(Condition::Memory { loc: loc as usize, value: d[registers + k] });
        }
    }
    Condition::And(all)
}

/// Whether the PTX memory model allows `test`'s weak outcome
/// ([`Test::weak`]) in `variant`, with role `r` at `positions[r]`.
pub fn weak_allowed(test: Test, variant: Variant, positions: &[Position]) -> bool {
    allows(&program(test, variant, positions), &bin_condition(test, test.weak()))
}

/// Whether histogram bin `bin` is an outcome `test` can report at all: for a
/// test whose outcome is its registers, a bin below
/// [`layout::litmus::OTHER_BIN`] with no bit set past its registers (a
/// register the test does not load stays 0); for a test with final values,
/// a bin whose digits past its registers and final values are 0. Such a bin
/// may still be one the model forbids; any other bin (such as
/// [`layout::litmus::OTHER_BIN`]) is no outcome of the test. Since
/// [`bin_condition`] ignores the digits a test does not use,
/// [`allowed_bins_for`] asks this first.
pub fn is_outcome(test: Test, bin: u32) -> bool {
    if test.finals().is_empty() {
        return (bin as usize) < layout::litmus::OTHER_BIN && bin >> test.registers() == 0;
    }
    let used = test.registers() as usize + test.finals().len();
    layout::litmus::final_digits(bin as usize).is_some_and(|digits| digits.iter().skip(used).all(|&d| d == 0))
}

/// The model's verdict on every histogram bin of `test` for `program` (the
/// test's program, or a mutant of it): element `b` of the result is whether
/// some consistent execution ends in bin `b`'s outcome ([`is_outcome`] and
/// [`bin_condition`]), for `b` below [`Test::bins`]. The weak outcome's
/// element is [`weak_allowed`]'s answer; every other outcome gets one of its
/// own, so that an outcome no named rule is about (a load that misses its
/// own thread's earlier store, say) is judged too.
///
/// # Panics
/// If the program has a [`Program::problem`].
pub fn allowed_bins_for(test: Test, program: &Program) -> Vec<bool> {
    let outcomes = crate::outcomes(program);
    (0..test.bins() as u32)
        .map(|bin| {
            let condition = bin_condition(test, bin);
            is_outcome(test, bin) && outcomes.iter().any(|o| condition.holds(o))
        })
        .collect()
}

/// [`allowed_bins_for`] the program of `test` in `variant`, role `r` at
/// `positions[r]`: the verdict `host litmus` holds every bin of a row to.
pub fn allowed_bins(test: Test, variant: Variant, positions: &[Position]) -> Vec<bool> {
    allowed_bins_for(test, &program(test, variant, positions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout::Placement;
    use layout::litmus::KERNELS;

    fn allowed(test: Test, variant: Variant, placement: Placement) -> bool {
        weak_allowed(test, variant, &placement_positions(test, placement))
    }

    /// The classic answers, the same list as `host/src/litmus/model.rs`'s
    /// `the_textbook_cases`.
    #[test]
    fn the_textbook_cases() {
        use Placement::{InterBlock as Inter, IntraBlock as Intra};
        use Test::*;
        use Variant::*;
        // Message passing needs synchronization; either kind at a covering scope suffices.
        assert!(allowed(Mp, RelaxedGpu, Inter));
        // Volatile is no synchronization: relaxed at .sys, it covers both
        // threads and orders nothing, within a block or across blocks.
        assert!(allowed(Mp, Volatile, Intra));
        assert!(allowed(Mp, Volatile, Inter));
        assert!(!allowed(Mp, ReleaseAcquireGpu, Inter));
        assert!(!allowed(Mp, ReleaseAcquireCta, Intra));
        assert!(allowed(Mp, ReleaseAcquireCta, Inter), "the page's wrong-scope variant");
        assert!(!allowed(Mp, FenceAcqRelGpu, Inter));
        assert!(allowed(Mp, FenceAcqRelCta, Inter));
        // Store buffering and IRIW need fence.sc.
        assert!(allowed(Sb, FenceAcqRelGpu, Inter));
        assert!(!allowed(Sb, FenceScGpu, Inter));
        assert!(allowed(Iriw, FenceAcqRelGpu, Intra));
        assert!(!allowed(Iriw, FenceScGpu, Inter));
        assert!(allowed(Iriw, FenceScCta, Inter));
        assert!(!allowed(Iriw, FenceScCta, Intra));
        // Load buffering: allowed relaxed, forbidden with fences.
        assert!(allowed(Lb, RelaxedGpu, Intra));
        assert!(!allowed(Lb, FenceAcqRelGpu, Inter));
        // Coherence holds for strong accesses in scope, and only for them.
        assert!(!allowed(Corr, RelaxedGpu, Inter));
        assert!(!allowed(Corr, RelaxedCta, Intra));
        assert!(allowed(Corr, RelaxedCta, Inter));
        assert!(allowed(Corr, Weak, Intra));
        // Volatile accesses are strong, so they keep coherence where weak ones do not.
        assert!(!allowed(Corr, Volatile, Inter));
        // Causality is cumulative in PTX.
        assert!(!allowed(Wrc, ReleaseAcquireGpu, Inter));
        assert!(allowed(Wrc, ReleaseAcquireCta, Inter));
        assert!(allowed(Wrc, RelaxedGpu, Inter));
        // Coherence of stores, and the tests with final values.
        assert!(!allowed(Coww, Weak, Inter));
        assert!(!allowed(Cowr, RelaxedGpu, Inter));
        assert!(allowed(Cowr, RelaxedCta, Inter));
        assert!(!allowed(Corw2, RelaxedCta, Intra));
        assert!(!allowed(TwoPlusTwoW, FenceScGpu, Inter));
        assert!(allowed(TwoPlusTwoW, FenceAcqRelGpu, Inter));
        assert!(!allowed(S, ReleaseAcquireGpu, Inter));
        assert!(allowed(R, FenceAcqRelGpu, Inter));
    }

    /// The three sentences, on the checker: release/acquire at
    /// `.cluster` forbids weak MP between blocks of one cluster and allows
    /// it between clusters; at `.cta` it allows it between blocks of one
    /// cluster; at `.gpu` it forbids it everywhere. And the scope-sensitive
    /// tests that need `fence.sc` (SB, IRIW) or fences (LB) or cumulativity
    /// (WRC) say the same of their fences.
    #[test]
    fn cluster_scope_covers_the_blocks_of_one_cluster_and_no_other() {
        use Placement::{InterBlock, InterCluster, IntraBlock, IntraCluster};
        use Test::*;
        use Variant::*;
        assert!(!allowed(Mp, ReleaseAcquireCluster, IntraCluster));
        assert!(allowed(Mp, ReleaseAcquireCluster, InterCluster));
        assert!(allowed(Mp, ReleaseAcquireCta, IntraCluster), "the wrong-scope variant of the cluster rung");
        assert!(!allowed(Mp, ReleaseAcquireGpu, InterCluster));
        // Within one block a block's cluster holds it; across blocks launched
        // without clusters each block is a cluster of its own.
        assert!(!allowed(Mp, ReleaseAcquireCluster, IntraBlock));
        assert!(allowed(Mp, ReleaseAcquireCluster, InterBlock));
        assert!(!allowed(Mp, FenceAcqRelCluster, IntraCluster));
        assert!(allowed(Mp, FenceAcqRelCluster, InterCluster));
        assert!(!allowed(Sb, FenceScCluster, IntraCluster));
        assert!(allowed(Sb, FenceScCluster, InterCluster));
        assert!(allowed(Sb, FenceAcqRelCluster, IntraCluster));
        assert!(!allowed(Lb, FenceAcqRelCluster, IntraCluster));
        assert!(allowed(Lb, FenceAcqRelCluster, InterCluster));
        assert!(!allowed(Wrc, ReleaseAcquireCluster, IntraCluster));
        assert!(allowed(Wrc, ReleaseAcquireCluster, InterCluster));
        assert!(!allowed(Iriw, FenceScCluster, IntraCluster));
        assert!(allowed(Iriw, FenceScCluster, InterCluster));
        assert!(allowed(Iriw, FenceScCta, IntraCluster));
        // Coherence needs morally strong accesses: .relaxed.cluster is, within
        // a cluster, and is not between clusters.
        assert!(!allowed(Corr, RelaxedCluster, IntraCluster));
        assert!(allowed(Corr, RelaxedCluster, InterCluster));
        assert!(!allowed(Corr, RelaxedGpu, InterCluster));
        // The positions: one cluster, blocks apart; or a cluster each.
        let p = placement_positions(Iriw, IntraCluster);
        assert!(p.iter().all(|q| q.cluster == 0) && p[3].cta == 3);
        let p = placement_positions(Iriw, InterCluster);
        assert!(p.iter().enumerate().all(|(r, q)| q.cluster == r as u32 && q.cta == r as u32));
    }

    /// The scope inclusion `.cta` ⊂ `.cluster` ⊂ `.gpu` decides every
    /// verdict of the cluster placements, for every test and variant (not
    /// only those with kernels): inter-cluster is inter-block (to every
    /// scope but `.gpu` and `.sys` the other roles are outside, as across
    /// blocks launched without clusters), and intra-cluster is inter-block
    /// for a variant that names `.cta` (it leaves out the other blocks) and
    /// intra-block for every other (`.cluster`, `.gpu`, `.sys` and weak
    /// accesses do not tell a block from its cluster).
    #[test]
    fn the_cluster_placements_follow_the_scope_inclusion() {
        for test in Test::ALL {
            for variant in Variant::ALL {
                let (intra, inter) =
                    (allowed(test, variant, Placement::IntraBlock), allowed(test, variant, Placement::InterBlock));
                let names_cta = variant.access_scope() == Some(LabScope::Cta)
                    || variant.fence().is_some_and(|(_, s)| s == LabScope::Cta);
                assert_eq!(allowed(test, variant, Placement::InterCluster), inter, "{test:?} {variant:?}");
                let expected = if names_cta { inter } else { intra };
                assert_eq!(allowed(test, variant, Placement::IntraCluster), expected, "{test:?} {variant:?}");
            }
        }
    }

    /// A kernel read from its PTX steps is the program built from its
    /// variant, for every kernel and placement.
    #[test]
    fn a_kernel_read_from_its_ptx_is_its_program() {
        for k in &KERNELS {
            let steps = kernel_steps(k);
            let flat: Vec<&str> = steps
                .iter()
                .flatten()
                .map(|s| match *s {
                    Step::Access(_, p) | Step::Fence(p) => p,
                })
                .collect();
            assert_eq!(flat, k.program().collect::<Vec<_>>(), "{}", k.entry.symbol);
            for placement in Placement::ALL.into_iter().chain(Placement::CLUSTER) {
                let positions = placement_positions(k.test, placement);
                assert_eq!(program_of(k.test, &steps, &positions).unwrap(), program(k.test, k.variant, &positions));
            }
        }
        let bad = vec![vec![Step::Fence("fence.proxy.alias")], vec![]];
        let positions = placement_positions(Test::Mp, Placement::InterBlock);
        assert!(program_of(Test::Mp, &bad, &positions).unwrap_err().contains("no fence"));
    }

    /// The weak outcome's verdict for every test and variant, within one
    /// block and across blocks, and for each `.cluster` kernel and its `.cta`
    /// twin within one cluster and across clusters, as ptx.als gives it:
    /// `tests/lab-verdicts.txt` holds them, each reasoned out by hand from
    /// the axioms (each test's file in `layout/src/litmus/suite/` says how). Variants a test
    /// has no kernel for are there too: the model answers for them all the
    /// same. Volatile is relaxed at `.sys` (PTX ISA section 8.4.2), a scope
    /// that covers every thread of the lab's one GPU, so each test's volatile
    /// row is its relaxed-gpu row: morally strong everywhere, ordering
    /// nothing. The four `.cluster` rows follow from the scope alone: within
    /// one block `.cluster` covers what `.gpu` covers (the block is in its
    /// cluster), and across blocks launched without clusters what `.cta`
    /// covers (each block is a cluster of its own), so each is its `-gpu`
    /// twin's verdict within one block and its `-cta` twin's across blocks.
    #[test]
    fn every_test_variant_and_placement_matches_the_expected_verdicts() {
        let expected = expected_verdicts();
        // A line per variant within one block and across blocks, and per
        // `.cluster` kernel and its `.cta` twin in the cluster placements.
        for test in Test::ALL {
            for variant in Variant::ALL {
                for placement in [Placement::IntraBlock, Placement::InterBlock] {
                    assert!(expected.contains_key(&(test, variant, placement)), "{} {}", test.key(), variant.key());
                }
            }
        }
        for k in KERNELS.iter().filter(|k| k.variant.needs_hopper()) {
            let twin =
                Variant::ALL.into_iter().find(|v| v.key() == k.variant.key().replace("-cluster", "-cta")).unwrap();
            for variant in [k.variant, twin] {
                for placement in [Placement::IntraCluster, Placement::InterCluster] {
                    assert!(
                        expected.contains_key(&(k.test, variant, placement)),
                        "{} {}",
                        k.entry.symbol,
                        variant.key()
                    );
                }
            }
        }
        let wrong: Vec<String> = expected
            .iter()
            .filter(|&(&(test, variant, placement), &allowed_by_hand)| {
                allowed(test, variant, placement) != allowed_by_hand
            })
            .map(|((test, variant, placement), _)| format!("{} {} {}", test.key(), variant.key(), placement.key()))
            .collect();
        assert!(wrong.is_empty(), "the checker disagrees with tests/lab-verdicts.txt on: {wrong:?}");
    }

    /// `tests/lab-verdicts.txt`: each line's test, variant and placement,
    /// and whether the weak outcome is allowed there.
    fn expected_verdicts() -> std::collections::BTreeMap<(Test, Variant, Placement), bool> {
        let by_key = |key: &str| Test::ALL.into_iter().find(|t| t.key() == key);
        let variant = |key: &str| Variant::ALL.into_iter().find(|v| v.key() == key);
        let placement = |key: &str| {
            [Placement::IntraBlock, Placement::InterBlock, Placement::IntraCluster, Placement::InterCluster]
                .into_iter()
                .find(|p| p.key() == key)
        };
        include_str!("../tests/lab-verdicts.txt")
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                [t, v, p, verdict @ ("allowed" | "forbidden")] => (
                    (
                        by_key(t).unwrap_or_else(|| panic!("no test {t}")),
                        variant(v).unwrap_or_else(|| panic!("no variant {v}")),
                        placement(p).unwrap_or_else(|| panic!("no placement {p}")),
                    ),
                    verdict == "allowed",
                ),
                _ => panic!("tests/lab-verdicts.txt: a line is test, variant, placement, verdict: {line}"),
            })
            .collect()
    }

    #[test]
    fn the_program_of_a_kernel_is_what_its_ptx_says() {
        // Every kernel's PTX sequence, read back from the program the checker
        // builds: the same accesses, fences, semantics and scopes.
        for kernel in &KERNELS {
            let program =
                program(kernel.test, kernel.variant, &placement_positions(kernel.test, Placement::InterBlock));
            let mut ptx = kernel.program();
            for thread in &program.threads {
                for event in &thread.events {
                    let text = match *event {
                        Event::Fence { sc, scope } => {
                            format!("fence.{}.{}", if sc { "sc" } else { "acq_rel" }, name(scope))
                        }
                        Event::Load { sem: Sem::Weak, .. } => "ld.global.u32".into(),
                        Event::Store { sem: Sem::Weak, .. } => "st.global.u32".into(),
                        // The one variant whose accesses are relaxed at
                        // `.sys` is volatile, which the ISA defines so.
                        Event::Load { sem: Sem::Relaxed, scope: Scope::Sys, .. } => "ld.volatile.global.u32".into(),
                        Event::Store { sem: Sem::Relaxed, scope: Scope::Sys, .. } => "st.volatile.global.u32".into(),
                        Event::Load { sem, scope, .. } => format!("ld.{}.{}.global.u32", sem_name(sem), name(scope)),
                        Event::Store { sem, scope, .. } => format!("st.{}.{}.global.u32", sem_name(sem), name(scope)),
                    };
                    assert_eq!(ptx.next(), Some(text.as_str()), "{}", kernel.entry.symbol);
                }
            }
            assert_eq!(ptx.next(), None);
        }
        fn name(scope: Scope) -> &'static str {
            match scope {
                Scope::Cta => "cta",
                Scope::Cluster => "cluster",
                Scope::Gpu => "gpu",
                Scope::Sys => "sys",
            }
        }
        fn sem_name(sem: Sem) -> &'static str {
            match sem {
                Sem::Weak => "weak",
                Sem::Relaxed => "relaxed",
                Sem::Acquire => "acquire",
                Sem::Release => "release",
            }
        }
    }

    /// The PTX ISA (section 8.4.2) defines a volatile operation as a relaxed
    /// one at system scope, and on one GPU system scope covers what device
    /// scope covers: volatile and relaxed-gpu get the same verdict for every
    /// test and placement, which is the page's point (volatile is not
    /// synchronization), and a volatile step reads as `.relaxed.sys`.
    #[test]
    fn volatile_is_relaxed_at_system_scope_and_so_relaxed_gpu_on_one_gpu() {
        for test in Test::ALL {
            for split in Split::ALL.into_iter().filter(|s| s.fits(test)) {
                let blocks = placement_positions(test, split);
                assert_eq!(
                    weak_allowed(test, Variant::Volatile, &blocks),
                    weak_allowed(test, Variant::RelaxedGpu, &blocks),
                    "{test:?} {split:?}"
                );
            }
        }
        let load = Op::Load(layout::litmus::Location::X, 0);
        let (volatile, relaxed_sys) =
            (Step::Access(load, "ld.volatile.global.u32"), Step::Access(load, "ld.relaxed.sys.global.u32"));
        assert_eq!(event_of(volatile), event_of(relaxed_sys));
        assert_eq!(event_of(volatile).unwrap(), Event::Load { loc: 0, reg: 0, sem: Sem::Relaxed, scope: Scope::Sys });
    }

    /// Every bin's verdict agrees with the weak outcome's where the two
    /// meet, the sequential outcome is always allowed, and nothing that is
    /// no outcome of the test is, for every test, variant and placement.
    #[test]
    fn every_bin_has_a_verdict_that_agrees_with_the_weak_one() {
        for test in Test::ALL {
            for variant in Variant::ALL {
                for split in Split::ALL.into_iter().filter(|s| s.fits(test)) {
                    let positions = placement_positions(test, split);
                    let bins = allowed_bins(test, variant, &positions);
                    assert_eq!(bins.len(), test.bins());
                    let at = |bin: u32| bins[bin as usize];
                    assert_eq!(
                        at(test.weak()),
                        weak_allowed(test, variant, &positions),
                        "{test:?} {variant:?} {split:?}"
                    );
                    assert!(at(test.sequential()), "{test:?} {variant:?} {split:?}");
                    assert!(!at(layout::litmus::OTHER_BIN as u32));
                    for (bin, &allowed) in bins.iter().enumerate() {
                        assert!(!allowed || is_outcome(test, bin as u32), "{test:?} {variant:?} bin {bin}");
                    }
                }
            }
        }
    }

    /// The outcomes no test names as its weak one, which a run must fail on
    /// all the same: a load that misses its own thread's earlier store
    /// (CoWR, `r0=0`), a load that sees its own thread's later store (CoRW2,
    /// `r0=1`), in every variant, weak accesses included (two accesses of one
    /// thread are morally strong relative to each other); and what the model
    /// allows beside them.
    #[test]
    fn a_thread_never_misses_its_own_store_nor_sees_its_later_one() {
        use layout::litmus::final_bin;
        for variant in [Variant::Weak, Variant::RelaxedGpu, Variant::RelaxedCta] {
            for placement in [Placement::IntraBlock, Placement::InterBlock] {
                let cowr = allowed_bins(Test::Cowr, variant, &placement_positions(Test::Cowr, placement));
                // CoWR's outcome is r0, then x's final value.
                for x in [1, 2] {
                    assert!(!cowr[final_bin(&[0, x]) as usize], "CoWR {variant:?} {placement:?}: r0=0 x={x}");
                }
                assert!(cowr[final_bin(&[1, 2]) as usize] && cowr[final_bin(&[1, 1]) as usize]);
                let corw2 = allowed_bins(Test::Corw2, variant, &placement_positions(Test::Corw2, placement));
                for x in [1, 2] {
                    assert!(!corw2[final_bin(&[1, x]) as usize], "CoRW2 {variant:?} {placement:?}: r0=1 x={x}");
                }
                assert!(corw2[final_bin(&[0, 1]) as usize] && corw2[final_bin(&[0, 2]) as usize]);
            }
        }
        // A bin with a digit past the test's, or a register the test does
        // not load, is no outcome of it.
        assert!(!is_outcome(Test::Cowr, final_bin(&[1, 2, 1])));
        assert!(is_outcome(Test::Cowr, final_bin(&[1, 2, 0])));
        assert!(!is_outcome(Test::Mp, 0b100));
        assert!(is_outcome(Test::Iriw, 0b1111));
    }

    #[test]
    fn the_sequential_outcome_is_always_allowed() {
        // A sequential run is one interleaving, so every model allows it.
        for test in Test::ALL {
            for variant in Variant::ALL {
                for placement in Split::ALL.into_iter().filter(|s| s.fits(test)) {
                    let program = program(test, variant, &placement_positions(test, placement));
                    assert!(crate::allows(&program, &bin_condition(test, test.sequential())), "{test:?} {variant:?}");
                }
            }
        }
    }

    /// One warp is one block to the model, and a block split lies between
    /// the two: what `.cta` forbids in one block it may allow split, never
    /// the other way, and `.gpu` variants do not care where the roles run.
    #[test]
    fn the_new_placements_lie_between_intra_and_inter_block() {
        for test in Test::ALL {
            for variant in Variant::ALL {
                let intra = allowed(test, variant, Placement::IntraBlock);
                let inter = allowed(test, variant, Placement::InterBlock);
                assert_eq!(weak_allowed(test, variant, &placement_positions(test, Split::Warp)), intra);
                for split in Split::ALL.into_iter().filter(|s| s.fits(test)) {
                    let got = weak_allowed(test, variant, &placement_positions(test, split));
                    println!(
                        "{} {} {}: {}",
                        test.name(),
                        variant.key(),
                        split.key(),
                        if got { "allowed" } else { "forbidden" }
                    );
                    assert!(intra <= got && got <= inter, "{test:?} {variant:?} {split:?}");
                    let device_wide = |s: LabScope| matches!(s, LabScope::Gpu | LabScope::Sys);
                    if variant.access_scope().is_none_or(device_wide)
                        && variant.fence().is_none_or(|(_, s)| device_wide(s))
                    {
                        assert_eq!(got, inter, "{test:?} {variant:?} {split:?}");
                    }
                }
            }
        }
    }
}
