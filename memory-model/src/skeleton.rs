//! What a program fixes before any execution is chosen ([`Skeleton`]: its
//! events and the relations the text determines) and what each candidate
//! execution chooses ([`Candidate`]). The enumeration (`execution.rs`) builds
//! them and the axioms (`axioms.rs`) read them; neither needs the other's
//! code for that.

use crate::program::{Event, Position, Program, Scope, Sem, Value};
use crate::relation::{Rel, Set};

/// What the program text determines: the events, flattened in thread order,
/// and the relations that do not depend on the execution.
pub(crate) struct Skeleton {
    /// The events, thread after thread, each in program order.
    pub events: Vec<Event>,
    /// The thread of each event.
    pub thread: Vec<usize>,
    /// The location of each load and store.
    pub loc: Vec<Option<usize>>,
    /// The loads.
    pub reads: Set,
    /// The stores.
    pub writes: Set,
    /// The stores of each location.
    pub loc_writes: Vec<Set>,
    /// The `fence.sc` events.
    pub sc_fences: Set,
    /// The fences that are release and acquire fences: every `fence.acq_rel`
    /// and `fence.sc` (ptx.als's `FenceRels` and `FenceAcqs`, which have the
    /// same members in this subset).
    pub acq_rel_fences: Set,
    /// The release stores (ptx.als's `Release`).
    pub release_writes: Set,
    /// The acquire loads (ptx.als's `Acquire`).
    pub acquire_reads: Set,
    /// Program order, transitive (ptx.als's `^po`).
    pub po: Rel,
    /// Program order between accesses of one location (ptx.als's `po_loc`).
    pub po_loc: Rel,
    /// Morally strong pairs (ptx.als's `strong_r`): two events of one thread,
    /// or two strong (non-weak) events each of whose scope includes the
    /// other's thread. Symmetric, irreflexive.
    pub strong: Rel,
    /// Data dependencies: from a load to a later store of its thread that
    /// writes the register the load wrote (ptx.als's `dep`, restricted to
    /// what straight-line code has).
    pub dep: Rel,
}

fn scope_of(event: &Event) -> Option<Scope> {
    match *event {
        Event::Load { sem: Sem::Weak, .. } | Event::Store { sem: Sem::Weak, .. } => None,
        Event::Load { scope, .. } | Event::Store { scope, .. } | Event::Fence { scope, .. } => Some(scope),
    }
}

impl Skeleton {
    /// Flattens `program`, which must have no [`Program::problem`].
    pub fn new(program: &Program) -> Skeleton {
        let mut s = Skeleton {
            events: Vec::new(),
            thread: Vec::new(),
            loc: Vec::new(),
            reads: 0,
            writes: 0,
            loc_writes: vec![0; program.initial.len()],
            sc_fences: 0,
            acq_rel_fences: 0,
            release_writes: 0,
            acquire_reads: 0,
            po: Rel::EMPTY,
            po_loc: Rel::EMPTY,
            strong: Rel::EMPTY,
            dep: Rel::EMPTY,
        };
        let mut position: Vec<Position> = Vec::new();
        for (t, thread) in program.threads.iter().enumerate() {
            let first = s.events.len();
            // The load that last wrote each register, for data dependencies.
            let mut writer: Vec<Option<usize>> = vec![None; thread.registers()];
            for event in &thread.events {
                let e = s.events.len();
                let bit = 1 << e;
                for earlier in first..e {
                    s.po.add(earlier, e);
                }
                match *event {
                    Event::Load { loc, reg, sem, .. } => {
                        s.reads |= bit;
                        if sem == Sem::Acquire {
                            s.acquire_reads |= bit;
                        }
                        s.loc.push(Some(loc));
                        writer[reg as usize] = Some(e);
                    }
                    Event::Store { loc, value, sem, .. } => {
                        s.writes |= bit;
                        s.loc_writes[loc] |= bit;
                        if sem == Sem::Release {
                            s.release_writes |= bit;
                        }
                        s.loc.push(Some(loc));
                        if let Value::Reg(r) = value
                            && let Some(load) = writer[r as usize]
                        {
                            s.dep.add(load, e);
                        }
                    }
                    Event::Fence { sc, .. } => {
                        s.acq_rel_fences |= bit;
                        if sc {
                            s.sc_fences |= bit;
                        }
                        s.loc.push(None);
                    }
                }
                s.events.push(*event);
                s.thread.push(t);
                position.push(thread.position);
            }
        }
        let n = s.events.len();
        for a in 0..n {
            for b in 0..n {
                if a == b {
                    continue;
                }
                if s.po.has(a, b) && s.loc[a].is_some() && s.loc[a] == s.loc[b] {
                    s.po_loc.add(a, b);
                }
                let strong = s.thread[a] == s.thread[b]
                    || match (scope_of(&s.events[a]), scope_of(&s.events[b])) {
                        (Some(sa), Some(sb)) => {
                            position[a].includes(sa, position[b]) && position[b].includes(sb, position[a])
                        }
                        _ => false,
                    };
                if strong {
                    s.strong.add(a, b);
                }
            }
        }
        s
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.events.len()
    }
}

/// One candidate execution's choices (the Fence-SC order is chosen later,
/// only for candidates that pass the axioms that do not depend on it).
pub(crate) struct Candidate {
    /// Reads-from, as a relation from stores to loads (the initial value is
    /// no event and has no edge).
    pub rf: Rel,
    /// The coherence order, transitive: a strict partial order on each
    /// location's stores.
    pub co: Rel,
    /// From-reads (ptx.als's `fr`): from a load to every store after its
    /// source in `co`, or to every store of its location if it read the
    /// initial value.
    pub fr: Rel,
}
