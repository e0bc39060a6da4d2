//! A litmus test as the checker sees it: threads, each placed in the thread
//! hierarchy and holding a straight-line list of memory events, and the
//! outcomes and conditions that are asked about it.

/// The most events a program may have: one bit per event in a `u32`.
pub const MAX_EVENTS: usize = crate::relation::MAX;

/// The scope of a strong operation: the set of threads, counted from the
/// thread that executes it, whose operations it synchronizes with.
///
/// The order is inclusion: every scope contains the ones before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// `.cta`: the threads of the executing thread's CTA (block).
    Cta,
    /// `.cluster`: the threads of the executing thread's cluster. A CTA
    /// launched without clusters is a cluster of its own, so this scope is
    /// then the same as [`Scope::Cta`].
    Cluster,
    /// `.gpu`: the threads of the executing thread's device.
    Gpu,
    /// `.sys`: every thread of the program, on every device and the host.
    Sys,
}

/// The memory-ordering semantics of a load or a store.
///
/// `ld.volatile` and `st.volatile` have no variant of their own: the PTX ISA
/// (section 8.4.2, "volatile Operation", and the `ld` and `st` instruction
/// pages) makes a volatile operation equivalent to a relaxed one at system
/// scope, with extra constraints on the implementation only, and
/// ptx.als has no volatile at all, so a caller writes
/// `Sem::Relaxed` with `Scope::Sys` for them (the litmus parser does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sem {
    /// `.weak` (or no qualifier): not atomic. In ptx.als a weak access is an
    /// event whose scope is its own thread, so it is morally strong only
    /// with accesses of that same thread.
    Weak,
    /// `.relaxed`: atomic within its scope, with no ordering of its own.
    Relaxed,
    /// `.acquire`, on a load: the tail of an acquire pattern.
    Acquire,
    /// `.release`, on a store: the head of a release pattern.
    Release,
}

/// Where a thread runs: the CTA, cluster and device it belongs to.
///
/// Two threads share a CTA when all three numbers are equal, a cluster when
/// `cluster` and `gpu` are, and a device when `gpu` is: the numbers of an
/// inner level only mean something inside the outer one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    /// The CTA (block) index.
    pub cta: u32,
    /// The cluster index; a CTA launched without clusters is its own cluster.
    pub cluster: u32,
    /// The device index.
    pub gpu: u32,
}

impl Position {
    /// Whether a thread at `other` lies inside `scope` as seen from a thread
    /// at `self`. A thread is always inside every scope of its own.
    pub fn includes(self, scope: Scope, other: Position) -> bool {
        match scope {
            Scope::Sys => true,
            Scope::Gpu => self.gpu == other.gpu,
            Scope::Cluster => self.gpu == other.gpu && self.cluster == other.cluster,
            Scope::Cta => self == other,
        }
    }
}

/// The value a store writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A constant.
    Const(u32),
    /// The current value of one of the thread's registers: a data dependency
    /// on the load that last wrote it, if any (ptx.als's `dep`).
    Reg(u8),
}

/// One memory event of a thread's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A load of location `loc` into register `reg`. `sem` is
    /// [`Sem::Weak`], [`Sem::Relaxed`] or [`Sem::Acquire`]; `scope` is
    /// ignored when it is weak.
    Load {
        /// The location's index in [`Program::initial`].
        loc: usize,
        /// The register it writes.
        reg: u8,
        /// Its semantics.
        sem: Sem,
        /// Its scope (ignored for a weak load).
        scope: Scope,
    },
    /// A store of `value` to location `loc`. `sem` is [`Sem::Weak`],
    /// [`Sem::Relaxed`] or [`Sem::Release`]; `scope` is ignored when it is
    /// weak.
    Store {
        /// The location's index in [`Program::initial`].
        loc: usize,
        /// What it writes.
        value: Value,
        /// Its semantics.
        sem: Sem,
        /// Its scope (ignored for a weak store).
        scope: Scope,
    },
    /// `fence.sc` when `sc`, else `fence.acq_rel` (which ptx.als's
    /// `FenceRels` and `FenceAcqs` both contain; `fence.sc` is an acq_rel
    /// fence too, and also takes part in the Fence-SC order).
    Fence {
        /// Whether it is `fence.sc`.
        sc: bool,
        /// Its scope.
        scope: Scope,
    },
}

/// One thread: where it runs and what it does, in program order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thread {
    /// Its place in the thread hierarchy.
    pub position: Position,
    /// Its events, in program order.
    pub events: Vec<Event>,
    /// Registers with an initial value other than 0, as `(register, value)`.
    /// Every other register starts at 0.
    pub initial: Vec<(u8, u32)>,
}

impl Thread {
    /// How many registers the thread's outcome reports: one more than the
    /// highest register it loads, stores from or initialises.
    pub fn registers(&self) -> usize {
        let events = self.events.iter().filter_map(|e| match *e {
            Event::Load { reg, .. } | Event::Store { value: Value::Reg(reg), .. } => Some(reg),
            _ => None,
        });
        events.chain(self.initial.iter().map(|&(r, _)| r)).map(|r| r as usize + 1).max().unwrap_or(0)
    }
}

/// A litmus test's program: the locations' initial values and the threads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// The initial value of each location; a location is its index here.
    pub initial: Vec<u32>,
    /// The threads.
    pub threads: Vec<Thread>,
}

impl Program {
    /// Why the program cannot be checked, if it cannot: a location out of
    /// range, an acquire store or a release load (PTX has neither), or more
    /// events than the checker's bit sets hold.
    pub fn problem(&self) -> Option<String> {
        let events: usize = self.threads.iter().map(|t| t.events.len()).sum();
        if events > MAX_EVENTS {
            return Some(format!("{events} events: at most {} are supported", MAX_EVENTS));
        }
        for (t, thread) in self.threads.iter().enumerate() {
            for (i, e) in thread.events.iter().enumerate() {
                let bad = match *e {
                    Event::Load { loc, sem, .. } => (loc >= self.initial.len())
                        .then_some("location out of range")
                        .or((sem == Sem::Release).then_some("a load cannot be a release")),
                    Event::Store { loc, sem, .. } => (loc >= self.initial.len())
                        .then_some("location out of range")
                        .or((sem == Sem::Acquire).then_some("a store cannot be an acquire")),
                    Event::Fence { .. } => None,
                };
                if let Some(bad) = bad {
                    return Some(format!("thread {t}, event {i}: {bad}"));
                }
            }
        }
        None
    }
}

/// One outcome of a program: the final value of every register of every
/// thread, and the final value of every location.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Outcome {
    /// `registers[t][r]`: thread `t`'s register `r` at the end
    /// ([`Thread::registers`] of them per thread).
    pub registers: Vec<Vec<u32>>,
    /// `memory[l]`: location `l`'s final value.
    pub memory: Vec<u32>,
}

/// A condition on an outcome, as a litmus test's `exists` clause states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// Always true.
    True,
    /// Thread `thread`'s register `reg` holds `value` (a register the
    /// outcome does not report holds 0, its initial value).
    Register {
        /// The thread.
        thread: usize,
        /// The register.
        reg: u8,
        /// The value.
        value: u32,
    },
    /// Location `loc` ends with `value`.
    Memory {
        /// The location.
        loc: usize,
        /// The value.
        value: u32,
    },
    /// The negation.
    Not(Box<Condition>),
    /// Every one holds.
    And(Vec<Condition>),
    /// Some one holds.
    Or(Vec<Condition>),
}

impl Condition {
    /// Whether `outcome` satisfies the condition.
    pub fn holds(&self, outcome: &Outcome) -> bool {
        match self {
            Condition::True => true,
            Condition::Register { thread, reg, value } => {
                let actual = outcome.registers.get(*thread).and_then(|r| r.get(*reg as usize)).copied();
                actual.unwrap_or(0) == *value
            }
            Condition::Memory { loc, value } => outcome.memory.get(*loc) == Some(value),
            Condition::Not(c) => !c.holds(outcome),
            Condition::And(cs) => cs.iter().all(|c| c.holds(outcome)),
            Condition::Or(cs) => cs.iter().any(|c| c.holds(outcome)),
        }
    }
}
