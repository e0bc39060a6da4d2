//! Classic shapes Dat3M has no PTX files for (2+2W, S, R, ISA2, Z6.3,
//! 3.2W), each with `fence.acq_rel.gpu` and with `fence.sc.gpu` between
//! `.relaxed.gpu` accesses, one thread per CTA. The verdicts are reasoned
//! from ptx.als by hand, as each case's comment says.

use memory_model::litmus_file::parse;

/// A litmus file with the given threads (rows of instructions, `{F}` for the
/// fence), the variables, and the `exists` condition.
fn file(rows: &[&str], fence: &str, condition: &str) -> String {
    let threads = rows[0].split('|').count();
    let header: Vec<String> = (0..threads).map(|t| format!("P{t}@cta {t},gpu 0")).collect();
    let mut text = format!("PTX shape\n{{ x=0; y=0; z=0; }}\n {} ;\n", header.join(" | "));
    for row in rows {
        text.push_str(&format!(" {} ;\n", row.replace("{F}", fence)));
    }
    text.push_str(&format!("exists ({condition})\n"));
    text
}

fn allowed(rows: &[&str], fence: &str, condition: &str) -> bool {
    let text = file(rows, fence, condition);
    let file = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    file.holds()
}

const ACQ_REL: &str = "fence.acq_rel.gpu";
const SC: &str = "fence.sc.gpu";

#[test]
fn two_plus_two_writes() {
    let rows = ["st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1", "{F} | {F}", "st.relaxed.gpu y, 2 | st.relaxed.gpu x, 2"];
    // No load observes anything, so acq_rel fences never synchronize.
    assert!(allowed(&rows, ACQ_REL, "x == 1 /\\ y == 1"));
    // Whichever fence.sc is first puts its thread's first store before the
    // other's second store in causality order; Coherence makes that `co`.
    assert!(!allowed(&rows, SC, "x == 1 /\\ y == 1"));
}

#[test]
fn s() {
    let rows = ["st.relaxed.gpu x, 2 | ld.relaxed.gpu r0, y", "{F} | {F}", "st.relaxed.gpu y, 1 | st.relaxed.gpu x, 1"];
    // The fences synchronize through y, so W x=2 is before W x=1 in
    // causality order, hence in `co`: x ends 1.
    assert!(!allowed(&rows, ACQ_REL, "1:r0 == 1 /\\ x == 2"));
    assert!(!allowed(&rows, SC, "1:r0 == 1 /\\ x == 2"));
    assert!(allowed(
        &["st.relaxed.gpu x, 2 | ld.relaxed.gpu r0, y", "st.relaxed.gpu y, 1 | st.relaxed.gpu x, 1"],
        "",
        "1:r0 == 1 /\\ x == 2"
    ));
}

#[test]
fn r() {
    let rows = ["st.relaxed.gpu x, 1 | st.relaxed.gpu y, 2", "{F} | {F}", "st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, x"];
    // Nothing is observed: acq_rel fences do nothing.
    assert!(allowed(&rows, ACQ_REL, "y == 2 /\\ 1:r0 == 0"));
    // One fence.sc order makes W y=2 before W y=1 (so y ends 1), the other
    // puts W x before the load of x, which then cannot miss it.
    assert!(!allowed(&rows, SC, "y == 2 /\\ 1:r0 == 0"));
}

#[test]
fn isa2() {
    let rows = [
        "st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, z",
        "{F} | {F} | {F}",
        "st.relaxed.gpu y, 1 | st.relaxed.gpu z, 1 | ld.relaxed.gpu r2, x",
    ];
    // Two synchronizations chain: W x is before the last load of x.
    let weak = "1:r0 == 1 /\\ 2:r1 == 1 /\\ 2:r2 == 0";
    assert!(!allowed(&rows, ACQ_REL, weak));
    assert!(!allowed(&rows, SC, weak));
}

#[test]
fn z6_3() {
    let rows = [
        "st.relaxed.gpu x, 1 | st.relaxed.gpu y, 2 | ld.relaxed.gpu r0, z",
        "{F} | {F} | {F}",
        "st.relaxed.gpu y, 1 | st.relaxed.gpu z, 1 | ld.relaxed.gpu r1, x",
    ];
    let weak = "y == 2 /\\ 2:r0 == 1 /\\ 2:r1 == 0";
    // Thread 0 and thread 1 meet only in `co` on y, which no acq_rel fence
    // turns into causality.
    assert!(allowed(&rows, ACQ_REL, weak));
    // y == 2 needs thread 0's fence first in Fence-SC order; then W x is
    // before thread 1's fence, which synchronizes with thread 2's.
    assert!(!allowed(&rows, SC, weak));
}

#[test]
fn three_two_writes() {
    let rows = [
        "st.relaxed.gpu x, 2 | st.relaxed.gpu y, 2 | st.relaxed.gpu z, 2",
        "{F} | {F} | {F}",
        "st.relaxed.gpu y, 1 | st.relaxed.gpu z, 1 | st.relaxed.gpu x, 1",
    ];
    let weak = "x == 2 /\\ y == 2 /\\ z == 2";
    assert!(allowed(&rows, ACQ_REL, weak));
    // Each final value needs one fence before the next in Fence-SC order:
    // a cycle.
    assert!(!allowed(&rows, SC, weak));
}
