//! Whether every thread of a block reaches each of a kernel's barriers, as
//! far as its PTX shows: no branch whose condition differs from thread to
//! thread may skip a barrier, repeat one, or send some threads to `ret`
//! while the others go on to one.
//!
//! A condition differs from thread to thread when it is computed, however
//! indirectly, from the thread's index (`%tid`, `%laneid`); one computed
//! only from the block's index, its size, the parameters or constants is
//! the same for every thread of the block, as a tree's `half` is. The
//! registers that carry the thread's index are found by following every
//! instruction's operands until nothing changes; a load through such an
//! address counts as carrying it too. Then the body is cut into basic
//! blocks, and a barrier that post-dominates one target of such a branch
//! but not the branch itself is one that the threads going one way reach
//! and the others may not: an early return, a barrier inside an `if`, or
//! one inside a loop whose trip count depends on the thread.
//!
//! It reads the control flow the compiler emitted, whatever its layout
//! (LLVM moves blocks around and ends many with `bra.uni`), and sees every
//! path, possible or not: a path that no input could take still counts.

use std::collections::{HashMap, HashSet};

use super::ptx::{Instruction, instruction};

/// Whether an opcode writes its first operand.
fn writes_first(opcode: &str) -> bool {
    !["st.", "red.", "bar", "bra", "ret", "exit", "fence", "membar", "trap", "call"]
        .iter()
        .any(|p| opcode.starts_with(p))
}

/// The registers (the names in an operand, `%r1`, or each of `%p1|%p2`).
fn registers(operand: &str) -> impl Iterator<Item = &str> {
    operand.split(['|', '+', ' ']).filter(|t| t.starts_with('%'))
}

/// The registers whose values can differ between the threads of a block.
fn per_thread(lines: &[&Instruction<'_>]) -> HashSet<String> {
    let mut tainted: HashSet<String> = HashSet::new();
    let is_thread_index = |r: &str| r.starts_with("%tid") || r.starts_with("%laneid");
    loop {
        let before = tainted.len();
        for i in lines.iter().filter(|i| writes_first(i.opcode)) {
            let Some((dst, sources)) = i.operands.split_first() else { continue };
            let from_thread =
                sources.iter().flat_map(|s| registers(s)).any(|r| is_thread_index(r) || tainted.contains(r));
            if from_thread {
                tainted.extend(registers(dst).map(str::to_owned));
            }
        }
        if tainted.len() == before {
            return tainted;
        }
    }
}

/// A basic block: the lines it spans, its label, and the blocks control
/// may go to next (`None` for the kernel's exit).
struct Block<'a> {
    label: Option<&'a str>,
    lines: Vec<usize>,
    next: Vec<Option<usize>>,
}

/// The kernel body's basic blocks, in text order.
fn blocks<'a>(lines: &[&'a str], parsed: &HashMap<usize, Instruction<'a>>) -> Vec<Block<'a>> {
    let mut blocks: Vec<Block<'a>> = Vec::new();
    let mut open = false;
    for (k, line) in lines.iter().enumerate() {
        if let Some(label) = line.strip_suffix(':') {
            blocks.push(Block { label: Some(label), lines: Vec::new(), next: Vec::new() });
            open = true;
            continue;
        }
        let Some(i) = parsed.get(&k) else { continue };
        if !open {
            blocks.push(Block { label: None, lines: Vec::new(), next: Vec::new() });
            open = true;
        }
        blocks.last_mut().expect("a block is open").lines.push(k);
        if ["bra", "ret", "exit"].iter().any(|t| i.opcode.starts_with(t)) {
            open = false;
        }
    }
    let at: HashMap<&str, usize> = blocks.iter().enumerate().filter_map(|(b, x)| x.label.map(|l| (l, b))).collect();
    for b in 0..blocks.len() {
        let fall = (b + 1 < blocks.len()).then_some(b + 1);
        let last = blocks[b].lines.last().and_then(|k| parsed.get(k));
        blocks[b].next = match last {
            Some(i) if i.opcode.starts_with("bra") => {
                let to = i.operands.last().and_then(|l| at.get(l).copied());
                if i.guard.is_some() { vec![to, fall] } else { vec![to] }
            }
            Some(i) if i.opcode.starts_with("ret") || i.opcode.starts_with("exit") => {
                if i.guard.is_some() {
                    vec![None, fall]
                } else {
                    vec![None]
                }
            }
            _ => vec![fall],
        };
    }
    blocks
}

/// Each block's post-dominators (the blocks every path from it to the exit
/// passes through, itself included), by the usual iteration to a fixed
/// point from "every block".
fn post_dominators(blocks: &[Block<'_>]) -> Vec<HashSet<usize>> {
    let all: HashSet<usize> = (0..blocks.len()).collect();
    let mut pdom: Vec<HashSet<usize>> = vec![all; blocks.len()];
    loop {
        let mut changed = false;
        for b in (0..blocks.len()).rev() {
            let mut meet: Option<HashSet<usize>> = None;
            for next in &blocks[b].next {
                let theirs = match next {
                    Some(n) => pdom[*n].clone(),
                    None => HashSet::new(),
                };
                meet = Some(match meet {
                    None => theirs,
                    Some(m) => m.intersection(&theirs).copied().collect(),
                });
            }
            let mut mine = meet.unwrap_or_default();
            mine.insert(b);
            if mine != pdom[b] {
                pdom[b] = mine;
                changed = true;
            }
        }
        if !changed {
            return pdom;
        }
    }
}

/// The first branch (or `ret`) on a per-thread condition that decides
/// whether a thread reaches a barrier, as its PTX line; `None` when there
/// is none. A barrier depends on a branch when it post-dominates one of the
/// branch's targets but not the branch itself: some threads will pass it
/// and the others, having gone the other way, may not.
pub fn divergent_barrier(body: &str) -> Option<String> {
    // A label may carry a comment (`$L__BB6_2: // %.preheader`).
    let lines: Vec<&str> = body.lines().map(|l| l.split("//").next().unwrap_or("").trim()).collect();
    let parsed: HashMap<usize, Instruction<'_>> =
        lines.iter().enumerate().filter_map(|(k, l)| instruction(l).map(|i| (k, i))).collect();
    let mut ordered: Vec<(&usize, &Instruction<'_>)> = parsed.iter().collect();
    ordered.sort_by_key(|(k, _)| **k);
    let tainted = per_thread(&ordered.iter().map(|(_, i)| *i).collect::<Vec<_>>());
    let blocks = blocks(&lines, &parsed);
    let pdom = post_dominators(&blocks);
    let is_barrier = |k: &usize| lines[*k].starts_with("bar.sync") || lines[*k].starts_with("barrier.sync");
    let barriers: Vec<usize> = (0..blocks.len()).filter(|b| blocks[*b].lines.iter().any(is_barrier)).collect();
    for (b, block) in blocks.iter().enumerate() {
        let Some(&last) = block.lines.last() else { continue };
        if !parsed[&last].guard.is_some_and(|g| tainted.contains(g)) {
            continue;
        }
        let decides = barriers.iter().any(|&barrier| {
            !pdom[b].contains(&barrier) && block.next.iter().flatten().any(|&n| pdom[n].contains(&barrier))
        });
        if decides {
            return Some(lines[last].trim_end_matches(';').split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree sum's PTX: the tile written, a barrier, the loop over `half`
    /// (from `%ntid.x`, the same for every thread), and inside it the
    /// `tid < half` step; `barrier_in_if` moves the loop's barrier into it.
    fn tree(barrier_in_if: bool) -> String {
        let (inside, after) = if barrier_in_if { ("bar.sync 0;", "") } else { ("", "bar.sync 0;") };
        format!(
            "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;\nst.shared.f32 [%r1], %f1;\nbar.sync 0;\nshr.u32 %r3, %r2, 1;\n\
             $L__BB0_2:\nsetp.ge.u32 %p2, %r1, %r3;\n@%p2 bra $L__BB0_4;\nld.shared.f32 %f2, [%r4];\n\
             st.shared.f32 [%r1], %f2;\n{inside}\n$L__BB0_4:\n{after}\nshr.u32 %r3, %r3, 1;\n\
             setp.ne.s32 %p3, %r3, 0;\n@%p3 bra $L__BB0_2;\nret;"
        )
    }

    #[test]
    fn a_uniform_loop_around_a_barrier_and_a_step_beside_it_pass() {
        assert_eq!(divergent_barrier(&tree(false)), None);
    }

    #[test]
    fn a_barrier_inside_the_step_is_named() {
        assert_eq!(divergent_barrier(&tree(true)).as_deref(), Some("@%p2 bra $L__BB0_4"));
    }

    #[test]
    fn an_early_return_before_the_barrier_is_named_either_way_it_is_laid_out() {
        let jump =
            "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, %r9;\n@%p1 bra $L__BB0_9;\nbar.sync 0;\n$L__BB0_9:\nret;";
        assert_eq!(divergent_barrier(jump).as_deref(), Some("@%p1 bra $L__BB0_9"));
        let around = "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, %r9;\n@%p1 bra $L__BB0_2;\nret;\n$L__BB0_2:\nbar.sync 0;\nret;";
        assert_eq!(divergent_barrier(around).as_deref(), Some("@%p1 bra $L__BB0_2"));
        let guarded = "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, %r9;\n@%p1 ret;\nbar.sync 0;\nret;";
        assert_eq!(divergent_barrier(guarded).as_deref(), Some("@%p1 ret"));
    }

    #[test]
    fn a_barrier_in_a_block_llvm_moved_behind_a_bra_uni_is_named() {
        // rustc's layout of `if i < n { write; sync }` before a uniform tree
        // loop: the `then` block sits after the branch, and `bra.uni` skips
        // it for the other threads.
        let body = "mov.u32 %r2, %tid.x;\nadd.s64 %rd13, %rd11, %rd12;\ncvt.u64.u32 %rd12, %r2;\n\
                    setp.lt.u64 %p1, %rd13, %rd9;\n@%p1 bra $L__BB0_8;\nbra.uni $L__BB0_1;\n$L__BB0_8:\n\
                    st.shared.b32 [%rd3], %r4;\nbar.sync 0;\n$L__BB0_1:\nshr.u32 %r9, %r1, 1;\n\
                    setp.eq.b32 %p2, %r9, 0;\n@%p2 bra $L__BB0_5;\nbra.uni $L__BB0_2;\n$L__BB0_5:\nret;\n\
                    $L__BB0_4:\nbar.sync 0;\nshr.u32 %r9, %r9, 1;\nsetp.ne.b32 %p4, %r9, 0;\n@%p4 bra $L__BB0_2;\n\
                    bra.uni $L__BB0_5;\n$L__BB0_2:\nsetp.ge.u32 %p3, %r2, %r9;\n@%p3 bra $L__BB0_4;\n\
                    st.shared.b32 [%rd3], %r7;\nbra.uni $L__BB0_4;";
        assert_eq!(divergent_barrier(body).as_deref(), Some("@%p1 bra $L__BB0_8"));
        // The same with the first barrier outside the `if`: the tree's own
        // `tid < half` branch rejoins before its barrier.
        let fixed = body.replace("bar.sync 0;\n$L__BB0_1:", "$L__BB0_1:\nbar.sync 0;");
        assert_eq!(divergent_barrier(&fixed), None);
    }

    #[test]
    fn rustc_s_own_bodies_are_judged_as_their_sources_say() {
        // Two bodies as rustc emitted them (commented labels, rotated loops):
        // the tree with its step barrier inside `if tid < half`, and the
        // privatized histogram, whose loops over the bins run a per-thread
        // number of times between its two barriers.
        let tree = include_str!("../../testdata/tree-barrier-in-if.ptx");
        assert_eq!(divergent_barrier(tree).as_deref(), Some("@%p3 bra $L__BB17_7"));
        assert_eq!(divergent_barrier(include_str!("../../testdata/histogram-privatized.ptx")), None);
    }

    #[test]
    fn a_branch_around_a_load_before_the_barrier_passes() {
        let guard = "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, %r9;\nmov.f32 %f1, 0f00000000;\n@%p1 bra $L__BB0_2;\n\
                     ld.global.f32 %f1, [%rd1];\n$L__BB0_2:\nst.shared.f32 [%r1], %f1;\nbar.sync 0;\nret;";
        assert_eq!(divergent_barrier(guard), None);
    }
}
