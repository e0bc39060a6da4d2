//! The derived relations of ptx.als and the PTX memory model's six axioms,
//! one function each, checked on one candidate execution.
//!
//! The definitions follow NVlabs' `ptx.als` (Lustig et al., ASPLOS 2019),
//! restricted to loads, stores and fences: there are no read-modify-writes
//! (so `rmw` is empty and `observation` is exactly the morally strong part
//! of `rf`), no barriers (so `synchronizes` is empty) and no proxies. The
//! PTX ISA's names for the axioms are used: Coherence, Fence-SC, Atomicity,
//! No-Thin-Air, Sequential-Consistency-per-Location and Causality.

use crate::relation::{Rel, Set, members};
use crate::skeleton::{Candidate, Skeleton};

/// From-reads: ptx.als's
/// `fun fr : Read->Write { ~rf.^co + ((Read - (Write.rf)) <: (address.~address) :> Write) }`:
/// a load is before every store that follows its source in `co`, and a load
/// of the initial value is before every store of its location.
pub(crate) fn from_reads(skeleton: &Skeleton, source: &[Option<usize>], co: &Rel) -> Rel {
    let mut fr = Rel::EMPTY;
    for r in members(skeleton.reads) {
        let later = match source[r] {
            Some(w) => co.row(w),
            None => skeleton.loc_writes[skeleton.loc[r].expect("a load has a location")],
        };
        for w in members(later) {
            fr.add(r, w);
        }
    }
    fr
}

/// Well-formedness of `co` (ptx.als's fact `co_per_scope`:
/// `all a: Address | all s: Scope | total[co, scoped[s] & inside[s] & (a.~address & Write)]`):
/// every two stores of one location that are morally strong are ordered by
/// `co` one way or the other. The stores a scope must order are those of
/// threads inside it whose own scope includes it, which is the same as
/// moral strength for each pair. `writes` are the stores of one location.
pub(crate) fn co_per_scope(skeleton: &Skeleton, writes: Set, co: &Rel) -> bool {
    members(writes).all(|a| members(writes & skeleton.strong.row(a)).all(|b| co.has(a, b) || co.has(b, a)))
}

/// Observation: ptx.als's `fact rf_obs { strong[rf] in observation }` and
/// `fact obs_in_rf_rmw { observation in ^(strong[rf] + rmw) }`. With no
/// read-modify-writes the two bounds meet: observation is the morally strong
/// part of reads-from.
pub(crate) fn observation(skeleton: &Skeleton, candidate: &Candidate) -> Rel {
    candidate.rf.and(&skeleton.strong)
}

/// Causality order: ptx.als's
/// ```text
/// fun prefix : Event->Event      { (Release <: optional[po_loc] :> Write) + (FenceRels <: ^po :> Write) }
/// fun suffix : Event->Event      { (Read <: optional[po_loc] :> Acquire) + (Read <: ^po :> FenceAcqs) }
/// fun sync[head: Event, tail: Event] : Event->Event { head <: strong[prefix.^observation.suffix] :> tail }
/// fun cause_base : Event->Event  { ^(*po.(synchronizes + sc + sync[Releasers,Acquirers]).*po) }
/// fun cause : Event->Event       { cause_base + (observation.(po_loc + cause_base)) }
/// ```
/// A *release pattern* is a release store, a release store followed by a
/// store to its location, or a release fence followed by any store; an
/// *acquire pattern* is an acquire load, a load followed by an acquire load
/// of its location, or any load followed by an acquire fence. A release
/// pattern whose store is observed by the load of an acquire pattern
/// *synchronizes* its head with the tail when the two are morally strong.
/// Base causality is program order around synchronization and the Fence-SC
/// order, transitively; causality order adds, in front, an observation
/// followed by program order on the location or by base causality.
pub(crate) fn cause(skeleton: &Skeleton, observation: &Rel, sc: &Rel) -> Rel {
    let writes = skeleton.writes;
    let reads = skeleton.reads;
    let po_loc_opt = skeleton.po_loc.or(&Rel::identity(writes | reads));
    let prefix =
        po_loc_opt.restrict(skeleton.release_writes, writes).or(&skeleton.po.restrict(skeleton.acq_rel_fences, writes));
    let suffix =
        po_loc_opt.restrict(reads, skeleton.acquire_reads).or(&skeleton.po.restrict(reads, skeleton.acq_rel_fences));
    // Without read-modify-writes `observation ; observation` is empty (it
    // would need a load that is also a store), so `^observation` is itself.
    let sync = prefix.then(observation).then(&suffix).and(&skeleton.strong);
    let all = (1u64 << skeleton.len()).wrapping_sub(1) as u32;
    let po_opt = skeleton.po.or(&Rel::identity(all));
    let cause_base = po_opt.then(&sync.or(sc)).then(&po_opt).closure();
    cause_base.or(&observation.then(&skeleton.po_loc.or(&cause_base)))
}

/// **Coherence** (ptx.als `pred coherence { location[Write <: cause :> Write] in ^co }`):
/// two stores of one location that causality orders are in that order in
/// `co`. (The ISA: "If a write W precedes an overlapping write W' in
/// causality order, then W must precede W' in coherence order.")
pub(crate) fn coherence_holds(skeleton: &Skeleton, cause: &Rel, co: &Rel) -> bool {
    skeleton.loc_writes.iter().all(|&set| cause.restrict(set, set).within(co))
}

/// **Fence-SC** (the ISA: "Fence-SC order cannot contradict causality
/// order. For a pair of morally strong fence.sc operations F1 and F2, if F1
/// precedes F2 in causality order, then F1 must precede F2 in Fence-SC
/// order"). In ptx.als this is no separate predicate: `sc` is part of
/// `cause_base`, so a contradiction makes `cause` cyclic and Causality fails;
/// checking it on its own gives the same verdicts and names the reason.
/// (Dat3M's `ptx-v6.0.cat` states it as `([F & SC]; cause; [F & SC]) \ sync_fence`
/// empty, which also forbids causality between fence.sc events that are not
/// morally strong; the ISA and ptx.als do not.)
pub(crate) fn fence_sc_holds(skeleton: &Skeleton, cause: &Rel, sc: &Rel) -> bool {
    let f = skeleton.sc_fences;
    members(f).all(|a| members(cause.row(a) & f & skeleton.strong.row(a)).all(|b| !sc.has(b, a)))
}

/// **Atomicity** (ptx.als `pred atomicity { no strong[fr].(strong[co]) & rmw }`):
/// no store comes between a read-modify-write's read and its write. This
/// checker models no read-modify-writes, so `rmw` is empty and the axiom
/// holds of every candidate; it is here so that the six axioms are all
/// named.
pub(crate) fn atomicity_holds() -> bool {
    true
}

/// **No-Thin-Air** (ptx.als `pred no_thin_air { acyclic[rf + dep] }`): no
/// value may justify itself through a cycle of reads-from and dependencies.
pub(crate) fn no_thin_air(skeleton: &Skeleton, rf: &Rel) -> bool {
    rf.or(&skeleton.dep).acyclic()
}

/// **Sequential Consistency per Location** (ptx.als
/// `pred location_sc { acyclic[strong[com] + po_loc] }` with
/// `com = rf + ^co + fr`): morally strong communication on one location
/// never contradicts program order.
pub(crate) fn sc_per_location(skeleton: &Skeleton, candidate: &Candidate) -> bool {
    let com = candidate.rf.or(&candidate.co).or(&candidate.fr);
    com.and(&skeleton.strong).or(&skeleton.po_loc).acyclic()
}

/// **Causality** (ptx.als `pred causality { irreflexive[optional[fr + rf].cause] }`):
/// causality order is irreflexive, no load reads a store that it precedes
/// in causality order, and no load misses (is `fr`-before) a store that
/// precedes it in causality order.
pub(crate) fn causality_holds(cause: &Rel, candidate: &Candidate) -> bool {
    let all_events = Rel::identity(u32::MAX);
    all_events.or(&candidate.fr).or(&candidate.rf).then(cause).irreflexive()
}

/// Whether `candidate` satisfies every axiom for one of the Fence-SC orders
/// in `fence_orders` (the candidate's `co` already satisfies
/// [`co_per_scope`]).
pub(crate) fn consistent(skeleton: &Skeleton, candidate: &Candidate, fence_orders: &[Rel]) -> bool {
    if !atomicity_holds() || !no_thin_air(skeleton, &candidate.rf) || !sc_per_location(skeleton, candidate) {
        return false;
    }
    let observation = observation(skeleton, candidate);
    fence_orders.iter().any(|sc| {
        let cause = cause(skeleton, &observation, sc);
        coherence_holds(skeleton, &cause, &candidate.co)
            && fence_sc_holds(skeleton, &cause, sc)
            && causality_holds(&cause, candidate)
    })
}
