//! The lab's litmus tests ([`layout::litmus`]) as programs for the checker,
//! and the model's verdict on each test's weak outcome.
//!
//! Everything is read from the test's description, so a new test, with more
//! roles or another location, needs nothing here: each [`Role`] becomes a
//! thread, each [`Op`] an event (every store writes 1, every location starts
//! at 0), with the variant's semantics and scope, and the variant's fence,
//! if it has one, between each consecutive pair of a role's accesses, as
//! `Variant::ptx` and `Kernel::program` emit them.
//!
//! [`Role`]: layout::litmus::Role

use layout::litmus::{Op, Test, Variant};
use layout::{Placement, Scope as LabScope};

use crate::execution::allows;
use crate::program::{Condition, Event, Position, Program, Scope, Sem, Thread, Value};

fn scope(scope: LabScope) -> Scope {
    match scope {
        LabScope::Cta => Scope::Cta,
        LabScope::Gpu => Scope::Gpu,
    }
}

/// The index of a location of the lab's tests: its place in
/// [`layout::litmus::Location`]'s declaration.
fn location(op: Op) -> usize {
    match op {
        Op::Store(loc) | Op::Load(loc, _) => loc as usize,
    }
}

/// The program of `test` in `variant`, with role `r` running in block
/// `blocks[r]` of one device. The lab launches no clusters, so each block is
/// a cluster of its own.
///
/// A weak variant's accesses are [`Sem::Weak`]; every other variant's are
/// relaxed at [`Variant::access_scope`], except that a release/acquire
/// variant makes each role's flag store a release and its flag load an
/// acquire. Register `r` of the lab's instance is register `r` of the thread
/// that loads it.
///
/// # Panics
/// If `blocks` has fewer entries than the test has roles.
pub fn program(test: Test, variant: Variant, blocks: &[u32]) -> Program {
    let roles = test.roles();
    assert!(blocks.len() >= roles.len(), "{} roles, {} blocks", roles.len(), blocks.len());
    let locations = roles.iter().flat_map(|r| r.ops.iter()).map(|&op| location(op) + 1).max().unwrap_or(0);
    let threads = roles
        .iter()
        .zip(blocks)
        .map(|(role, &block)| {
            let mut events = Vec::new();
            for (i, &op) in role.ops.iter().enumerate() {
                if i > 0
                    && let Some((sc, s)) = variant.fence()
                {
                    events.push(Event::Fence { sc, scope: scope(s) });
                }
                let flag = variant.release_acquire() && role.flag == Some(i);
                let (sem, s) = match variant.access_scope() {
                    None => (Sem::Weak, Scope::Sys),
                    Some(s) => (Sem::Relaxed, scope(s)),
                };
                events.push(match op {
                    Op::Store(_) => Event::Store {
                        loc: location(op),
                        value: Value::Const(1),
                        sem: if flag { Sem::Release } else { sem },
                        scope: s,
                    },
                    Op::Load(_, reg) => {
                        Event::Load { loc: location(op), reg, sem: if flag { Sem::Acquire } else { sem }, scope: s }
                    }
                });
            }
            Thread { position: Position { cta: block, cluster: block, gpu: 0 }, events, initial: Vec::new() }
        })
        .collect();
    Program { initial: vec![0; locations], threads }
}

/// The blocks of `test`'s roles in `placement`: all in block 0 within one
/// block, role `r` in block `r` across blocks.
pub fn placement_blocks(test: Test, placement: Placement) -> Vec<u32> {
    match placement {
        Placement::IntraBlock => vec![0; test.roles().len()],
        Placement::InterBlock => (0..test.roles().len() as u32).collect(),
    }
}

/// The condition that an outcome is the histogram bin `bin`: every register
/// `r` that some role loads holds bit `r` of `bin`.
pub fn bin_condition(test: Test, bin: u32) -> Condition {
    let mut all = Vec::new();
    for (thread, role) in test.roles().iter().enumerate() {
        for &op in role.ops {
            if let Op::Load(_, reg) = op {
                all.push(Condition::Register { thread, reg, value: bin >> reg & 1 });
            }
        }
    }
    Condition::And(all)
}

/// Whether the PTX memory model allows `test`'s weak outcome
/// ([`Test::weak`]) in `variant`, with role `r` in block `blocks[r]`.
pub fn weak_allowed(test: Test, variant: Variant, blocks: &[u32]) -> bool {
    allows(&program(test, variant, blocks), &bin_condition(test, test.weak()))
}
