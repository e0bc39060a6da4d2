//! A publication read out of a learner's PTX and judged by the model.
//!
//! The puzzle's kernel publishes a record in shared memory from one thread
//! to another of its block: a barrier after the zeroing, then the producer's
//! record stores and its flag store, and the consumer's flag load (a wait)
//! and its record loads. That is message passing, MP (`W x; W y || R y;
//! R x`), and the checker sees it the way the memory model does: which
//! accesses are atomic and with what ordering and scope, which fences stand
//! between them, and in which order each thread performs them. Those are
//! read off the kernel's PTX after its first barrier, in text order, which
//! is each thread's program order in the straight-line code the puzzles
//! compile to:
//!
//! - a *flag store* is a strong store (`st.relaxed`, `st.release`,
//!   `st.volatile`), a *flag load* a strong load;
//! - a *record access* is a weak `ld` or `st` of shared or generic memory
//!   (the report's stores to the global `out` are not);
//! - a fence is `fence.*` or `membar.*`.
//!
//! Where the two threads run is the puzzle's ([`Between`]): two warps of
//! one block, two blocks of one grid or of one cluster, or a GPU thread and
//! a CPU thread. A puzzle across blocks is read from its probe kernel, the page's
//! straight-line shape around the same two functions, since the stress
//! loops of the kernel that runs would hide their order; a puzzle that
//! publishes to the host is its kernel's producer, and the consumer is the
//! host's `Acquire` load, written as the PTX it stands for.
//!
//! The program goes to [`memory_model::lab::weak_allowed_for`], which
//! enumerates every candidate execution under the PTX model's axioms:
//! whether the consumer may see the flag set and the record still zero is
//! then the model's answer, not the GPU's.

use layout::litmus::{Op, Test};
use memory_model::Position;
use memory_model::lab::{Step, weak_allowed_for};

/// Where a publication's producer and consumer run, which decides the
/// scopes that hold both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Between {
    /// Two warps of one block: the puzzle's kernel has the page's shape.
    Warps,
    /// Thread 0 of two blocks of one grid: the checker reads the puzzle's
    /// probe kernel, `<symbol>_probe`.
    Blocks,
    /// Thread 0 of the two blocks of one thread-block cluster (Hopper): the
    /// probe kernel again.
    Cluster,
    /// A GPU thread and a CPU thread of the host: the kernel is the
    /// producer, and the consumer is the host's `Acquire` load of the flag
    /// and its plain reads of the record.
    Host,
}

impl Between {
    /// The kernel whose PTX holds the publication, for a puzzle whose kernel
    /// is `symbol`.
    pub fn reads(self, symbol: &str) -> String {
        match self {
            Between::Warps | Between::Host => symbol.to_owned(),
            Between::Blocks | Between::Cluster => format!("{symbol}_probe"),
        }
    }

    /// The two threads' places, as the model's positions.
    pub(super) fn positions(self) -> [Position; 2] {
        let block = |cta| Position { cta, cluster: cta, gpu: 0 };
        match self {
            Between::Warps => [block(0), block(0)],
            Between::Blocks => [block(0), block(1)],
            Between::Cluster => [block(0), Position { cta: 1, cluster: 0, gpu: 0 }],
            // The host's thread is on no GPU: only `.sys` holds both.
            Between::Host => [block(0), Position { cta: 1, cluster: 1, gpu: 1 }],
        }
    }

    /// The narrowest scope that holds both threads, as PTX writes it.
    pub fn narrowest(self) -> &'static str {
        match self {
            Between::Warps => "cta",
            Between::Cluster => "cluster",
            Between::Blocks => "gpu",
            Between::Host => "sys",
        }
    }

    /// Where the two threads are, in a few words.
    pub fn words(self) -> &'static str {
        match self {
            Between::Warps => "both threads are in one block",
            Between::Blocks => "the two threads are in two blocks of one grid",
            Between::Cluster => "the two threads are in the two blocks of one cluster",
            Between::Host => "the consumer is a CPU thread, on no GPU",
        }
    }

    /// What a stale record reads as, in the model's execution: the page's
    /// `{0, 0}` payload, or the host's record as it was before this round.
    fn stale(self) -> &'static str {
        match self {
            Between::Warps | Between::Blocks | Between::Cluster => "the record as {0, 0}",
            Between::Host => "the record's words as they were before the kernel wrote them",
        }
    }

    /// The publication a kernel's `.entry` body performs, or what is
    /// missing, in one sentence.
    pub fn read(self, body: &str) -> Result<Publication, String> {
        match self {
            Between::Warps | Between::Blocks | Between::Cluster => Publication::read(body),
            Between::Host => Publication::read_producer(body),
        }
    }
}

/// The host's half of a publication to a CPU thread: Rust's `Acquire` load
/// of the flag (the PTX model's `ld.acquire.sys`) and plain reads of the
/// record.
const HOST_CONSUMER: [&str; 2] = ["ld.acquire.sys.b32", "ld.b32"];

/// What a thread of the publication does, in program order.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Access {
    /// The record, by a weak access (its PTX).
    Record(String),
    /// The flag, by a strong access (its PTX).
    Flag(String),
    /// A fence (its PTX, `membar` spelled as the fence it is).
    Fence(String),
}

/// The publication a kernel's PTX performs after its first barrier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Publication {
    producer: Vec<Access>,
    consumer: Vec<Access>,
}

/// What the model says of a publication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the model permits the consumer to read the flag as set and
    /// the record as it was before the producer wrote it.
    pub stale_permitted: bool,
    /// Why, in one or two sentences naming the learner's instructions.
    pub because: String,
    /// The flag store's and the flag load's scopes (`cta`, `gpu`, `sys`).
    pub scopes: (String, String),
}

/// The instruction of one PTX line (`st.release.cta.b32`), without its
/// operands, predicate or label; `None` for a line that holds none.
fn instruction(line: &str) -> Option<&str> {
    super::ptx::instruction(line).map(|i| i.opcode)
}

/// Whether a load or store instruction is strong: atomic, with an
/// ordering the model reads.
fn is_strong(op: &str) -> bool {
    op.split('.').any(|q| matches!(q, "relaxed" | "acquire" | "release" | "volatile"))
}

/// Whether a weak access can be the record's: shared or generic memory,
/// not the report's global words or a parameter.
fn is_record(op: &str) -> bool {
    !op.split('.').any(|q| matches!(q, "global" | "param" | "local" | "const"))
}

/// `membar` spelled as the fence it is (PTX ISA: `membar.cta` is
/// `fence.sc.cta`, `membar.gl` `fence.sc.gpu`, `membar.sys`
/// `fence.sc.sys`).
fn fence(op: &str) -> Option<String> {
    match op {
        "membar.cta" => Some("fence.sc.cta".to_owned()),
        "membar.gl" => Some("fence.sc.gpu".to_owned()),
        "membar.sys" => Some("fence.sc.sys".to_owned()),
        _ if op.starts_with("fence.sc.") || op.starts_with("fence.acq_rel.") => Some(op.to_owned()),
        _ => None,
    }
}

impl Publication {
    /// Reads the publication out of a kernel's `.entry` body, or says in one
    /// sentence what is missing.
    pub fn read(body: &str) -> Result<Publication, String> {
        let mut after_barrier = false;
        let mut steps = Vec::new();
        for op in body.lines().filter_map(instruction) {
            if op.starts_with("bar.sync") || op.starts_with("barrier.sync") {
                after_barrier = true;
                continue;
            }
            if !after_barrier {
                continue;
            }
            if let Some(f) = fence(op) {
                steps.push(Access::Fence(f));
            } else if op.starts_with("st.") || op.starts_with("ld.") {
                if is_strong(op) {
                    steps.push(Access::Flag(op.to_owned()));
                } else if is_record(op) {
                    steps.push(Access::Record(op.to_owned()));
                }
            }
        }
        if !after_barrier {
            return Err("no barrier: the flag must be zero, and seen to be, before either thread starts".to_owned());
        }
        let is_store = |a: &Access| matches!(a, Access::Flag(op) | Access::Record(op) if op.starts_with("st."));
        let is_load = |a: &Access| matches!(a, Access::Flag(op) | Access::Record(op) if op.starts_with("ld."));
        let producer = Publication::thread(&steps, is_store);
        let consumer = Publication::thread(&steps, is_load);
        let has_flag = |t: &[Access]| t.iter().any(|a| matches!(a, Access::Flag(_)));
        let has_record = |t: &[Access]| t.iter().any(|a| matches!(a, Access::Record(_)));
        match () {
            () if !has_flag(&producer) => Err("no atomic store of the flag: a plain store is not atomic, and a \
                                               store the consumer cannot read atomically publishes nothing"
                .to_owned()),
            () if !has_flag(&consumer) => Err("no atomic load of the flag: the consumer never waits for it".to_owned()),
            () if !has_record(&producer) => Err("the producer writes no record".to_owned()),
            () if !has_record(&consumer) => Err("the consumer reads no record".to_owned()),
            () => Ok(Publication { producer, consumer }),
        }
    }

    /// Reads a publication to the host out of a producer kernel's `.entry`
    /// body: its record stores and flag stores, in text order, with the
    /// fences between them, before the host's [`HOST_CONSUMER`].
    pub fn read_producer(body: &str) -> Result<Publication, String> {
        let mut steps = Vec::new();
        for op in body.lines().filter_map(instruction).filter(|op| op.starts_with("st.") || fence(op).is_some()) {
            steps.push(match fence(op) {
                Some(f) => Access::Fence(f),
                None if is_strong(op) => Access::Flag(op.to_owned()),
                None => Access::Record(op.to_owned()),
            });
        }
        let producer = Publication::thread(&steps, |a| !matches!(a, Access::Fence(_)));
        let consumer = vec![Access::Flag(HOST_CONSUMER[0].to_owned()), Access::Record(HOST_CONSUMER[1].to_owned())];
        match () {
            () if !producer.iter().any(|a| matches!(a, Access::Flag(_))) => Err("no atomic store of the flag: a \
                 plain store is not atomic, and a store the host cannot read atomically publishes nothing"
                .to_owned()),
            () if !producer.iter().any(|a| matches!(a, Access::Record(_))) => {
                Err("the kernel writes no record".to_owned())
            }
            () => Ok(Publication { producer, consumer }),
        }
    }

    /// One thread's accesses (the stores, or the loads) with the fences
    /// between them: a fence belongs to the thread whose accesses surround
    /// it in the text.
    fn thread(steps: &[Access], mine: impl Fn(&Access) -> bool) -> Vec<Access> {
        let first = steps.iter().position(&mine);
        let last = steps.iter().rposition(&mine);
        let (Some(first), Some(last)) = (first, last) else { return Vec::new() };
        steps[first..=last].iter().filter(|a| mine(a) || matches!(a, Access::Fence(_))).cloned().collect()
    }

    /// MP's two roles in this publication's order: the producer's last
    /// record store and its (last) flag store, the consumer's first flag
    /// load and its first record load, each with the fences between them.
    fn roles(&self) -> [Vec<Step<'_>>; 2] {
        let [producer, consumer] = Test::Mp.roles() else { unreachable!("MP has two roles") };
        let (data, flag) = (producer.ops[0], producer.ops[1]);
        let (read_flag, read_data) = (consumer.ops[0], consumer.ops[1]);
        [
            Publication::steps(&self.producer, data, flag, Pick::LastRecord, Pick::LastFlag),
            Publication::steps(&self.consumer, read_data, read_flag, Pick::FirstRecord, Pick::FirstFlag),
        ]
    }

    /// The two accesses of one role, in the thread's order, with the fences
    /// between them.
    fn steps(thread: &[Access], record: Op, flag: Op, r: Pick, f: Pick) -> Vec<Step<'_>> {
        let at = |pick: Pick| {
            let hit = |a: &Access| match pick {
                Pick::FirstRecord | Pick::LastRecord => matches!(a, Access::Record(_)),
                Pick::FirstFlag | Pick::LastFlag => matches!(a, Access::Flag(_)),
            };
            match pick {
                Pick::FirstRecord | Pick::FirstFlag => thread.iter().position(hit),
                Pick::LastRecord | Pick::LastFlag => thread.iter().rposition(hit),
            }
            .expect("read() checked that both accesses are there")
        };
        let (ri, fi) = (at(r), at(f));
        let text = |i: usize| match &thread[i] {
            Access::Record(op) | Access::Flag(op) | Access::Fence(op) => op.as_str(),
        };
        let (first, second) = if ri < fi { ((ri, record), (fi, flag)) } else { ((fi, flag), (ri, record)) };
        let mut steps = vec![Step::Access(first.1, text(first.0))];
        steps.extend(
            (first.0 + 1..second.0).filter(|&i| matches!(thread[i], Access::Fence(_))).map(|i| Step::Fence(text(i))),
        );
        steps.push(Step::Access(second.1, text(second.0)));
        steps
    }

    /// The model's verdict on this publication, its threads placed as
    /// `between` says.
    pub fn judge(&self, between: Between) -> Result<Verdict, String> {
        let roles = self.roles();
        let stale_permitted = weak_allowed_for(Test::Mp, &roles, &between.positions())?;
        let flag_of = |steps: &[Step<'_>], store: bool| {
            steps.iter().find_map(|s| match *s {
                Step::Access(op, ptx) if matches!(op, Op::Store(..)) == store && is_strong(ptx) => Some(ptx.to_owned()),
                _ => None,
            })
        };
        let (store, load) =
            (flag_of(&roles[0], true).unwrap_or_default(), flag_of(&roles[1], false).unwrap_or_default());
        let because = if stale_permitted { why_stale(&roles, between) } else { why_not(&store, &load, &roles) };
        Ok(Verdict { stale_permitted, because, scopes: (scope(&store), scope(&load)) })
    }
}

/// Which access of a thread stands for the role's.
#[derive(Clone, Copy)]
enum Pick {
    FirstRecord,
    LastRecord,
    FirstFlag,
    LastFlag,
}

/// The scope an access names: `cta`, `cluster`, `gpu` or `sys` (`sys` for a
/// volatile one, which the PTX ISA makes relaxed at system scope).
fn scope(ptx: &str) -> String {
    let parts: Vec<&str> = ptx.split('.').collect();
    ["cta", "cluster", "gpu", "sys"]
        .into_iter()
        .find(|s| parts.contains(s))
        .unwrap_or(if parts.contains(&"volatile") { "sys" } else { "none" })
        .to_owned()
}

/// Whether a flag access at `scope` (`cta`, `gpu`, ...) holds both
/// threads placed as `between` says.
fn holds(scope: &str, between: Between) -> bool {
    let rank = |s: &str| ["cta", "cluster", "gpu", "sys"].iter().position(|&r| r == s);
    matches!((rank(scope), rank(between.narrowest())), (Some(a), Some(b)) if a >= b)
}

/// Why the model permits the stale read, naming the learner's instructions.
fn why_stale(roles: &[Vec<Step<'_>>; 2], between: Between) -> String {
    let [producer, consumer] = roles;
    let text = |s: &Step<'_>| match *s {
        Step::Access(_, ptx) | Step::Fence(ptx) => ptx.to_owned(),
    };
    let mut reasons = Vec::new();
    if matches!(producer[0], Step::Access(Op::Store(layout::litmus::Location::Y, _), _)) {
        reasons.push("the producer stores the flag before the record".to_owned());
    } else if producer.len() == 2 && !text(&producer[1]).contains(".release") {
        reasons.push(format!(
            "nothing orders the record's stores before the flag: `{}` is atomic, but not a release, and no fence stands between them",
            text(&producer[1])
        ));
    }
    if matches!(consumer[0], Step::Access(Op::Load(layout::litmus::Location::X, _), _)) {
        reasons.push("the consumer reads the record before it waits for the flag".to_owned());
    } else if consumer.len() == 2 && !text(&consumer[0]).contains(".acquire") {
        reasons.push(format!(
            "nothing orders the flag's load before the record's loads: `{}` is not an acquire, and no fence stands between them",
            text(&consumer[0])
        ));
    }
    let flags: Vec<String> = roles
        .iter()
        .flatten()
        .filter_map(|s| match *s {
            Step::Access(_, ptx) if is_strong(ptx) && !holds(&scope(ptx), between) => Some(format!("`{ptx}`")),
            _ => None,
        })
        .collect();
    if !flags.is_empty() {
        reasons.push(format!(
            "{} {} not hold both threads: {}, and only `.{}` or wider does",
            flags.join(" and "),
            if flags.len() == 1 { "does" } else { "do" },
            between.words(),
            between.narrowest()
        ));
    }
    if reasons.is_empty() {
        reasons.push("the fences between the accesses do not order the record against the flag".to_owned());
    }
    format!(
        "the model permits the consumer to read the flag as set and {}: {}",
        between.stale(),
        reasons.join("; and ")
    )
}

/// Why the model forbids the stale read.
fn why_not(store: &str, load: &str, roles: &[Vec<Step<'_>>; 2]) -> String {
    let fences: Vec<String> = roles
        .iter()
        .flatten()
        .filter_map(|s| match *s {
            Step::Fence(f) => Some(format!("`{f}`")),
            Step::Access(..) => None,
        })
        .collect();
    let with = if fences.is_empty() { String::new() } else { format!(" with {}", fences.join(" and ")) };
    format!(
        "the model forbids the stale read: `{store}` and `{load}`{with} order the record's stores before the consumer's loads whenever the load reads the flag's 1"
    )
}

/// Store buffering, SB (`W x; R y || W y; R x`), read out of a kernel whose
/// threads each run the learner's `enter`: a strong store of its own flag,
/// the fences after it, and a strong load of the other thread's flag. Both
/// threads run the same code on the two flags, so one thread's steps, with
/// the flags swapped, are the other's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreBuffering {
    store: String,
    fences: Vec<String>,
    load: String,
}

impl StoreBuffering {
    /// Reads the first strong store, the fences after it and the strong
    /// load that follows, or says what is missing.
    pub fn read(body: &str) -> Result<StoreBuffering, String> {
        let ops: Vec<&str> = body.lines().filter_map(instruction).collect();
        let strong = |op: &&str| is_strong(op);
        let Some(at) = ops.iter().position(|op| op.starts_with("st.") && strong(op)) else {
            return Err("no atomic store of this thread's flag".to_owned());
        };
        let Some(load) = ops[at..].iter().position(|op| op.starts_with("ld.") && strong(op)).map(|k| at + k) else {
            return Err("no atomic load of the other thread's flag after the store of this one's".to_owned());
        };
        let fences = ops[at..load].iter().filter_map(|op| fence(op)).collect();
        Ok(StoreBuffering { store: ops[at].to_owned(), fences, load: ops[load].to_owned() })
    }

    /// Whether the model permits both threads, in two blocks, to read the
    /// other's flag as 0; and why, in one sentence.
    pub fn judge(&self) -> Result<(bool, String), String> {
        let steps = |role: &layout::litmus::Role| {
            let mut steps = vec![Step::Access(role.ops[0], self.store.as_str())];
            steps.extend(self.fences.iter().map(|f| Step::Fence(f.as_str())));
            steps.push(Step::Access(role.ops[1], self.load.as_str()));
            steps
        };
        let roles: Vec<Vec<Step<'_>>> = Test::Sb.roles().iter().map(steps).collect();
        let both_zero = weak_allowed_for(Test::Sb, &roles, &Between::Blocks.positions())?;
        let between = if self.fences.is_empty() {
            "nothing between them".to_owned()
        } else {
            self.fences.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(" and ")
        };
        let why = if both_zero {
            format!(
                "the model permits both threads to read the other's flag as 0: `{}`, then {between}, then `{}` \
                 does not order a thread's store before its load as the other thread sees them. A release orders \
                 what comes before it, an acquire what comes after; here a store must be ordered before a later \
                 load, which only `fence.sc` does",
                self.store, self.load
            )
        } else {
            format!(
                "the model forbids both reading 0: `{}`, {between}, `{}` on both sides; the two `fence.sc` are \
                 ordered one way, and the later thread's load sees the other's store",
                self.store, self.load
            )
        };
        Ok((both_zero, why))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The PTX shape of the page's demo after its barrier, with the flag's
    /// two instructions and the consumer's order given.
    fn body(store: &str, load: &str, read_first: bool) -> String {
        let (early, late) =
            if read_first { ("ld.shared.u32 %r5, [%rd1];", "") } else { ("", "ld.shared.u32 %r5, [%rd1];") };
        format!(
            "st.shared.u32 [%rd2], 0;\nbar.sync 0;\n@%p1 bra $L__BB0_2;\nst.shared.v2.u32 [%rd1], {{%r1, %r2}};\n\
             {store} [%rd2], 1;\n$L__BB0_2:\n{early}\n$L__BB0_3:\n{load} %r4, [%rd2];\n@%p2 bra $L__BB0_3;\n{late}\n\
             st.global.u32 [%rd3], %r5;\nret;"
        )
    }

    #[test]
    fn release_and_acquire_at_cta_forbid_the_stale_read() {
        let p = Publication::read(&body("st.release.cta.b32", "ld.acquire.cta.b32", false)).unwrap();
        let v = p.judge(Between::Warps).unwrap();
        assert!(!v.stale_permitted, "{v:?}");
        assert_eq!(v.scopes, ("cta".to_owned(), "cta".to_owned()));
    }

    #[test]
    fn a_relaxed_flag_or_an_early_read_permits_it_and_says_why() {
        let relaxed = Publication::read(&body("st.relaxed.cta.b32", "ld.relaxed.cta.b32", false))
            .unwrap()
            .judge(Between::Warps)
            .unwrap();
        assert!(relaxed.stale_permitted);
        assert!(relaxed.because.contains("`st.relaxed.cta.b32` is atomic, but not a release"), "{}", relaxed.because);
        let early = Publication::read(&body("st.release.cta.b32", "ld.acquire.cta.b32", true))
            .unwrap()
            .judge(Between::Warps)
            .unwrap();
        assert!(early.stale_permitted);
        assert!(early.because.contains("reads the record before it waits"), "{}", early.because);
        let volatile = Publication::read(&body("st.volatile.b32", "ld.volatile.b32", false))
            .unwrap()
            .judge(Between::Warps)
            .unwrap();
        assert!(volatile.stale_permitted);
        assert_eq!(volatile.scopes.0, "sys");
    }

    #[test]
    fn fences_around_relaxed_accesses_forbid_it() {
        let fenced = body("fence.acq_rel.cta;\nst.relaxed.cta.b32", "ld.relaxed.cta.b32", false)
            .replace("@%p2 bra $L__BB0_3;\n", "@%p2 bra $L__BB0_3;\nmembar.cta;\n");
        let v = Publication::read(&fenced).unwrap().judge(Between::Warps).unwrap();
        assert!(!v.stale_permitted, "{v:?}");
    }

    #[test]
    fn a_missing_flag_or_barrier_is_named() {
        let stub = "bar.sync 0;\nst.global.u32 [%rd3], 0;\nret;";
        assert!(Publication::read(stub).unwrap_err().contains("no atomic store of the flag"));
        assert!(Publication::read("ret;").unwrap_err().contains("no barrier"));
    }
}
