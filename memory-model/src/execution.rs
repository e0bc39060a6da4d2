//! The candidate executions of a program, by brute force, and the outcomes of
//! the consistent ones.
//!
//! A candidate execution fixes what the program text leaves open:
//! - `rf`, for every load, the store it reads from, or the initial value;
//! - `co`, for every location, a coherence order of its stores. In ptx.als
//!   `co` is a *partial* order: only morally strong stores (and stores that
//!   causality orders, by the Coherence axiom) must be ordered. Dat3M's PTX
//!   model agrees (`Arch.coIsTotal(PTX)` is false), and its expectations
//!   depend on it (`Co-Total-4-threads`: two weak stores, two readers that
//!   see them in opposite orders, allowed). So every strict partial order is
//!   a candidate, and the initial value is before every store of its
//!   location (ptx.als's `fr` relates a load of the initial value to every
//!   store of the location);
//! - `sc`, the Fence-SC order: a relation on `fence.sc` events, total on
//!   every morally strong pair and acyclic (ptx.als's `wf_sc`). Every such
//!   relation is the restriction of a total order of the fences to the
//!   morally strong pairs, so the candidates are the permutations of the
//!   fences, restricted.
//!
//! From `rf` and the program the values follow: a load returns its source's
//! value, a store writes a constant or a register. A store's value can depend
//! on a load (a data dependency), and a cycle of such dependencies through
//! `rf` is exactly what the No-Thin-Air axiom forbids, so values are computed
//! only for candidates that pass it.
//!
//! A candidate is consistent when it satisfies every axiom of
//! [`crate::axioms`] for some `sc`. Its outcome is the registers at the end
//! and, for every location, the value of a store that is last in `co` (with
//! a partial `co` several can be; each gives an outcome, as in Dat3M) or the
//! initial value if the location is never stored to.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use crate::axioms;
use crate::program::{Event, MAX_EVENTS, Outcome, Program, Value};
use crate::relation::{Rel, Set, members};
use crate::skeleton::{Candidate, Skeleton};

/// Every strict partial order on the stores `set` whose morally strong pairs
/// are all ordered (ptx.als's `co_per_scope`, [`axioms::co_per_scope`]).
fn coherence_orders(skeleton: &Skeleton, set: Set) -> Vec<Rel> {
    let writes: Vec<usize> = members(set).collect();
    let pairs: Vec<(usize, usize)> =
        (0..writes.len()).flat_map(|j| (0..j).map(move |i| (i, j))).map(|(i, j)| (writes[i], writes[j])).collect();
    let mut orders = Vec::new();
    let mut choice = vec![0u8; pairs.len()];
    loop {
        let mut co = Rel::EMPTY;
        for (&(a, b), &c) in pairs.iter().zip(&choice) {
            match c {
                1 => co.add(a, b),
                2 => co.add(b, a),
                _ => {}
            }
        }
        if co.closure() == co && co.irreflexive() && axioms::co_per_scope(skeleton, set, &co) {
            orders.push(co);
        }
        // The next choice, as an odometer in base 3.
        let Some(i) = choice.iter().position(|&c| c < 2) else { break };
        choice[i] += 1;
        choice[..i].fill(0);
    }
    orders
}

/// Every candidate Fence-SC order: the permutations of the `fence.sc`
/// events, each restricted to its morally strong pairs, without repeats.
fn fence_sc_orders(skeleton: &Skeleton) -> Vec<Rel> {
    fn permute(rest: &mut Vec<usize>, done: &mut Vec<usize>, strong: &Rel, out: &mut BTreeSet<[u32; MAX_EVENTS]>) {
        if rest.is_empty() {
            let mut sc = [0u32; MAX_EVENTS];
            for (i, &a) in done.iter().enumerate() {
                for &b in &done[i + 1..] {
                    if strong.has(a, b) {
                        sc[a] |= 1 << b;
                    }
                }
            }
            out.insert(sc);
            return;
        }
        for i in 0..rest.len() {
            let f = rest.remove(i);
            done.push(f);
            permute(rest, done, strong, out);
            done.pop();
            rest.insert(i, f);
        }
    }
    let mut out = BTreeSet::new();
    permute(&mut members(skeleton.sc_fences).collect(), &mut Vec::new(), &skeleton.strong, &mut out);
    out.into_iter()
        .map(|rows| {
            let mut r = Rel::EMPTY;
            for (a, row) in rows.iter().enumerate() {
                for b in members(*row) {
                    r.add(a, b);
                }
            }
            r
        })
        .collect()
}

/// The value of every event (a load's result, a store's value) and the
/// final registers, given the sources of the loads. The caller has checked
/// No-Thin-Air, so every value is determined and a fixpoint is reached in
/// at most one pass per event.
fn values(program: &Program, skeleton: &Skeleton, source: &[Option<usize>]) -> (Vec<u32>, Vec<Vec<u32>>) {
    let n = skeleton.len();
    let mut value: Vec<Option<u32>> = vec![None; n];
    let mut registers = Vec::new();
    for _ in 0..=n {
        registers.clear();
        let mut e = 0;
        for thread in &program.threads {
            let mut regs: Vec<Option<u32>> = vec![Some(0); thread.registers()];
            for &(r, v) in &thread.initial {
                regs[r as usize] = Some(v);
            }
            for event in &thread.events {
                match *event {
                    Event::Load { loc, reg, .. } => {
                        let v = match source[e] {
                            None => Some(program.initial[loc]),
                            Some(w) => value[w],
                        };
                        value[e] = v;
                        regs[reg as usize] = v;
                    }
                    Event::Store { value: Value::Const(c), .. } => value[e] = Some(c),
                    Event::Store { value: Value::Reg(r), .. } => value[e] = regs[r as usize],
                    Event::Fence { .. } => value[e] = Some(0),
                }
                e += 1;
            }
            registers.push(regs);
        }
        if value.iter().all(Option::is_some) {
            break;
        }
    }
    let registers = registers.into_iter().map(|regs| regs.into_iter().map(|v| v.unwrap_or(0)).collect()).collect();
    (value.into_iter().map(|v| v.unwrap_or(0)).collect(), registers)
}

/// Calls `visit` with the outcome of every consistent candidate execution
/// (an outcome may come more than once), until it breaks.
pub(crate) fn consistent_outcomes(program: &Program, mut visit: impl FnMut(&Outcome) -> ControlFlow<()>) {
    if let Some(problem) = program.problem() {
        panic!("the program cannot be checked: {problem}");
    }
    let skeleton = Skeleton::new(program);
    let n = skeleton.len();
    let reads: Vec<usize> = members(skeleton.reads).collect();
    // Each load's candidate sources: the initial value, or any store of its
    // location (a later store of its own thread included: SC-per-Location
    // rejects that one).
    let sources: Vec<Vec<Option<usize>>> = reads
        .iter()
        .map(|&r| {
            let loc = skeleton.loc[r].expect("a load has a location");
            core::iter::once(None).chain(members(skeleton.loc_writes[loc]).map(Some)).collect()
        })
        .collect();
    let orders: Vec<Vec<Rel>> = skeleton.loc_writes.iter().map(|&set| coherence_orders(&skeleton, set)).collect();
    let fence_orders = fence_sc_orders(&skeleton);

    let mut rf_choice = vec![0usize; reads.len()];
    loop {
        let mut source = vec![None; n];
        let mut rf = Rel::EMPTY;
        for (i, &r) in reads.iter().enumerate() {
            source[r] = sources[i][rf_choice[i]];
            if let Some(w) = source[r] {
                rf.add(w, r);
            }
        }
        if axioms::no_thin_air(&skeleton, &rf) {
            let (value, registers) = values(program, &skeleton, &source);
            let mut co_choice = vec![0usize; orders.len()];
            loop {
                let co = co_choice.iter().zip(&orders).fold(Rel::EMPTY, |co, (&c, o)| co.or(&o[c]));
                let candidate = Candidate { fr: axioms::from_reads(&skeleton, &source, &co), rf, co };
                if axioms::consistent(&skeleton, &candidate, &fence_orders)
                    && final_memories(program, &skeleton, &candidate, &value, &registers, &mut visit).is_break()
                {
                    return;
                }
                if !next(&mut co_choice, |i| orders[i].len()) {
                    break;
                }
            }
        }
        if !next(&mut rf_choice, |i| sources[i].len()) {
            break;
        }
    }
}

/// Advances an odometer whose digit `i` counts to `base(i)`; false when it
/// wraps around to all zeros.
fn next(digits: &mut [usize], base: impl Fn(usize) -> usize) -> bool {
    for (i, d) in digits.iter_mut().enumerate() {
        *d += 1;
        if *d < base(i) {
            return true;
        }
        *d = 0;
    }
    false
}

/// Visits the outcomes of one consistent candidate: its registers with every
/// combination of final values, one per location from the stores last in
/// `co` (or the initial value for a location never stored to).
fn final_memories(
    program: &Program,
    skeleton: &Skeleton,
    candidate: &Candidate,
    value: &[u32],
    registers: &[Vec<u32>],
    visit: &mut impl FnMut(&Outcome) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let finals: Vec<Vec<u32>> = skeleton
        .loc_writes
        .iter()
        .enumerate()
        .map(|(loc, &set)| {
            let mut last: Vec<u32> = members(set)
                .filter(|&w| candidate.co.row(w) == 0)
                .map(|w| value[w])
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            if last.is_empty() {
                last.push(program.initial[loc]);
            }
            last
        })
        .collect();
    let mut choice = vec![0usize; finals.len()];
    loop {
        let outcome =
            Outcome { registers: registers.to_vec(), memory: choice.iter().zip(&finals).map(|(&c, f)| f[c]).collect() };
        visit(&outcome)?;
        if !next(&mut choice, |i| finals[i].len()) {
            return ControlFlow::Continue(());
        }
    }
}

/// Every outcome the PTX memory model allows for `program`, sorted, without
/// repeats.
///
/// # Panics
/// If the program has a [`Program::problem`].
pub fn outcomes(program: &Program) -> Vec<Outcome> {
    let mut all = BTreeSet::new();
    consistent_outcomes(program, |o| {
        all.insert(o.clone());
        ControlFlow::Continue(())
    });
    all.into_iter().collect()
}

/// Whether the PTX memory model allows some outcome of `program` that
/// satisfies `condition`: the verdict on a litmus test's `exists` clause.
/// It stops at the first such outcome.
///
/// # Panics
/// If the program has a [`Program::problem`].
pub fn allows(program: &Program, condition: &crate::program::Condition) -> bool {
    let mut found = false;
    consistent_outcomes(program, |o| {
        if condition.holds(o) {
            found = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Condition, Position, Scope, Sem, Thread};

    /// Store buffering, `W x; F; R y || W y; F; R x`, relaxed at `.gpu`, one
    /// thread per CTA, with `fence` between (or none).
    fn sb(fence: Option<bool>) -> Program {
        let thread = |cta: u32, store: usize, load: usize| {
            let mut events =
                vec![Event::Store { loc: store, value: Value::Const(1), sem: Sem::Relaxed, scope: Scope::Gpu }];
            events.extend(fence.map(|sc| Event::Fence { sc, scope: Scope::Gpu }));
            events.push(Event::Load { loc: load, reg: 0, sem: Sem::Relaxed, scope: Scope::Gpu });
            Thread { position: Position { cta, cluster: cta, gpu: 0 }, events, initial: Vec::new() }
        };
        Program { initial: vec![0, 0], threads: vec![thread(0, 0, 1), thread(1, 1, 0)] }
    }

    #[test]
    fn store_buffering_has_four_outcomes_and_three_with_sc_fences() {
        let registers = |o: &Outcome| (o.registers[0][0], o.registers[1][0]);
        let relaxed: Vec<_> = outcomes(&sb(None)).iter().map(registers).collect();
        assert_eq!(relaxed, [(0, 0), (0, 1), (1, 0), (1, 1)]);
        assert!(outcomes(&sb(None)).iter().all(|o| o.memory == [1, 1]));
        let fenced: Vec<_> = outcomes(&sb(Some(true))).iter().map(registers).collect();
        assert_eq!(fenced, [(0, 1), (1, 0), (1, 1)]);
        let both_zero = Condition::And(vec![
            Condition::Register { thread: 0, reg: 0, value: 0 },
            Condition::Register { thread: 1, reg: 0, value: 0 },
        ]);
        assert!(allows(&sb(Some(false)), &both_zero) && !allows(&sb(Some(true)), &both_zero));
    }

    #[test]
    fn coherence_orders_are_the_strict_partial_orders_with_strong_pairs_ordered() {
        // Three weak stores of one thread each: nothing must be ordered, so
        // every strict partial order on three elements (19) is a candidate.
        let weak = |cta| Thread {
            position: Position { cta, cluster: cta, gpu: 0 },
            events: vec![Event::Store { loc: 0, value: Value::Const(cta + 1), sem: Sem::Weak, scope: Scope::Sys }],
            initial: Vec::new(),
        };
        let program = Program { initial: vec![0], threads: vec![weak(0), weak(1), weak(2)] };
        let skeleton = Skeleton::new(&program);
        assert_eq!(coherence_orders(&skeleton, skeleton.loc_writes[0]).len(), 19);
        // The final value is any store's: with no order each is last.
        assert_eq!(outcomes(&program).len(), 3);
    }

    #[test]
    #[should_panic(expected = "a store cannot be an acquire")]
    fn an_acquire_store_is_refused() {
        let mut program = sb(None);
        program.threads[0].events[0] =
            Event::Store { loc: 0, value: Value::Const(1), sem: Sem::Acquire, scope: Scope::Gpu };
        outcomes(&program);
    }
}
