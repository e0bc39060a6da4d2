//! A litmus kernel's test accesses as `ptxas` left them: the check that
//! every load and store of a test reaches the machine code, separately, in
//! program order and with the strength its variant names.
//!
//! The PTX tests check the PTX, but PTX is `ptxas`'s input: it merges two
//! weak loads of one address, deletes a weak load whose value is dead, and
//! reorders weak accesses. So the SASS test reads the machine code. A
//! litmus kernel's SASS has three parts, which the kernels make easy to
//! tell apart:
//!
//! - the environment, up to the synchronised start's poll, the kernel's only
//!   generic (not `.global`) load, `LD.E.STRONG.GPU`. Its preload and stress
//!   loads are folded into values that `keep_live` compares with `-1`: one
//!   `ISETP … -0x1` per fold;
//! - the test, after the poll (after the poll loop's exit, where `ptxas`
//!   lays out some of the environment's code between the loop and the
//!   test, as it does in the sm_90 module, and the loop leaves by a `BRA`
//!   over it): its loads and stores (`LDG`/`STG` with the
//!   variant's `.STRONG.GPU`, `.STRONG.SM`, `.STRONG.SYS` for volatile, or
//!   none), the memory barriers
//!   and cache invalidations that releases, acquires and fences become, and
//!   the sequential control's predicated `BAR.SYNC`;
//! - the records: each loaded register stored with `st.global.cs`, which is
//!   `STG.E.EF`, at byte `4r` of the instance's slot for register `r`.
//!
//! Following each test load's destination register to the record that
//! stores it says which register, so which of the test's loads, it is: the
//! order `ptxas` issued the loads in.

use super::dataflow::{self, Flow, Roots};
use super::instruction::{Instruction, instruction, offset};

/// Where the test begins in `all`, whose synchronised-start poll is at
/// `poll`: right after it, or, when the poll loop leaves by an
/// unconditional `BRA` forward before any test access (over environment
/// code that `ptxas` placed between the loop and the test), at the
/// branch's target. Returns the test's first index and the indices of the
/// environment code jumped over.
fn test_start(all: &[Instruction], poll: usize) -> (usize, std::ops::Range<usize>) {
    let after = poll + 1;
    let jump = all[after..].iter().position(|i| i.opcode == "BRA" && !i.predicated || is_test_access(&i.opcode));
    let Some(j) = jump.map(|j| after + j).filter(|&j| all[j].opcode == "BRA") else { return (after, after..after) };
    let target = all[j].operands.first().and_then(|t| u64::from_str_radix(t.trim_start_matches("0x"), 16).ok());
    match target.and_then(|t| all.iter().position(|i| i.address == t)) {
        Some(t) if t > j => (t, j + 1..t),
        _ => (after, after..after),
    }
}

/// The instructions of one function's `cuobjdump -sass` text, in listing
/// order.
fn instructions(function: &str) -> Vec<Instruction> {
    function.lines().filter_map(instruction).collect()
}

/// Whether an opcode is one of the test's memory accesses or the
/// synchronization they become.
fn is_test_access(opcode: &str) -> bool {
    opcode.starts_with("MEMBAR") || opcode.starts_with("CCTL") || is_load(opcode) || is_store(opcode)
}

fn is_load(opcode: &str) -> bool {
    opcode.starts_with("LDG")
}

fn is_store(opcode: &str) -> bool {
    opcode.starts_with("STG") && !is_record(opcode)
}

fn is_record(opcode: &str) -> bool {
    opcode.starts_with("STG") && opcode.contains(".EF")
}

/// Whether `instruction` writes `register`: its first operand is the
/// destination of anything but a store or a reduction, and a 64-bit result
/// (`IMAD.WIDE R4`, `….64`) also writes the register after it (`R5`).
fn overwrites(instruction: &Instruction, register: &str) -> bool {
    let op = &instruction.opcode;
    if op.starts_with("ST") || op.starts_with("RED") {
        return false;
    }
    let Some(dest) = instruction.operands.first() else { return false };
    if dest == register {
        return true;
    }
    let wide = op.contains(".WIDE") || op.contains(".64");
    let number = |r: &str| r.strip_prefix('R')?.parse::<u32>().ok();
    wide && matches!((number(dest), number(register)), (Some(d), Some(r)) if r == d + 1)
}

/// What the SASS of one litmus kernel shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusSass {
    /// The test's accesses and barriers after the synchronised start, in
    /// listing order: opcodes such as `STG.E.STRONG.GPU` or `MEMBAR.ALL.GPU`.
    pub accesses: Vec<String>,
    /// For each test load, in the order `ptxas` issued them, the register
    /// `r` its value is recorded as (`None`: no record stores it).
    pub load_registers: Vec<Option<u8>>,
    /// The registers the record stores write, in listing order.
    pub recorded: Vec<u8>,
    /// Folds of environment loads kept live before the start (`ISETP`
    /// against `-0x1`).
    pub kept_live: usize,
    /// The test's stores, in listing order, each with what its address is
    /// computed from and the constant it stores.
    pub stores: Vec<Operand>,
    /// The test's loads, in listing order (the order of
    /// [`LitmusSass::load_registers`]), each with what its address is
    /// computed from.
    pub loads: Vec<Operand>,
    /// The environment's global loads before the start (and in the
    /// environment code `ptxas` placed after the poll loop): its reads of
    /// the parameters, its preload and its stress loads, in listing order,
    /// each with its full opcode, which names its caching (`LDG.E` is an
    /// ordinary load that allocates in L1).
    pub environment_loads: Vec<Operand>,
}

/// One memory instruction's opcode, and where its address and (for a
/// store) its value come from, followed back through every path of the
/// function's control flow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    /// The full opcode (`STG.E.STRONG.GPU`, `LDG.E`).
    pub opcode: String,
    /// Its address in the listing, for messages.
    pub at: u64,
    /// What the address is computed from on some path: the kernel
    /// parameters (constant bank words) and the words loaded through them.
    pub address: Roots,
    /// What the address is computed from on every path that reaches it.
    pub address_on_every_path: Roots,
    /// For a store, the value stored when every definition of its register
    /// that reaches it is the same immediate.
    pub value: Option<u32>,
}

/// The opcodes of one function's global, generic and shared loads and
/// stores, memory barriers and cache invalidations, in listing order: what
/// the publication demo's SASS promise reads (a cluster variant's record is
/// stored with `STS` and read through distributed shared memory with a
/// generic `LD.E`).
pub fn memory_opcodes(function: &str) -> Vec<String> {
    let memory =
        |op: &str| ["LDG", "STG", "LDS", "STS", "LD.", "ST.", "MEMBAR", "CCTL"].iter().any(|p| op.starts_with(p));
    instructions(function).into_iter().map(|i| i.opcode).filter(|op| memory(op)).collect()
}

/// Folds of loaded values that `keep_live` keeps in one function's SASS:
/// its `ISETP` compares against `-0x1`.
pub fn kept_live(function: &str) -> usize {
    instructions(function).iter().filter(|i| is_keep_live(i)).count()
}

fn is_keep_live(i: &Instruction) -> bool {
    i.opcode.starts_with("ISETP") && i.operands.get(3).is_some_and(|o| o == "-0x1")
}

/// The [`Operand`] of the memory instruction at `index` of `all`.
fn operand(flow: &mut Flow<'_>, all: &[Instruction], index: usize) -> Operand {
    let ins = &all[index];
    let store = ins.opcode.starts_with("ST");
    let address_operand = if store { ins.operands.first() } else { ins.operands.get(1) };
    let register = address_operand.and_then(|a| dataflow::address_register(a));
    let address = register.as_ref().map(|r| flow.roots(index, r)).unwrap_or_default();
    let address_on_every_path = register.as_ref().map(|r| flow.roots_on_every_path(index, r)).unwrap_or_default();
    let value = if store {
        ins.operands.get(1).and_then(|v| flow.constant_value(index, v.trim_end_matches(".reuse")))
    } else {
        None
    };
    Operand { opcode: ins.opcode.clone(), at: ins.address, address, address_on_every_path, value }
}

/// Reads one litmus kernel's SASS (the body of its `Function :` section), or
/// `None` if it has no synchronised-start poll to split it at.
pub fn litmus_sass(function: &str) -> Option<LitmusSass> {
    let all = instructions(function);
    let start = all.iter().rposition(|i| i.opcode.starts_with("LD.E.STRONG.GPU"))?;
    let (begin, skipped) = test_start(&all, start);
    let (environment, test) = (&all[..start], &all[begin..]);
    let kept_live = environment.iter().chain(&all[skipped.clone()]).filter(|i| is_keep_live(i)).count();
    let accesses = test.iter().filter(|i| is_test_access(&i.opcode)).map(|i| i.opcode.clone()).collect();
    let recorded = test
        .iter()
        .filter(|i| is_record(&i.opcode))
        .filter_map(|i| offset(i.operands.first()?))
        .map(|o| ((o / 4) % layout::litmus::REGISTERS as u64) as u8)
        .collect();
    let load_registers = test
        .iter()
        .enumerate()
        .filter(|(_, i)| is_load(&i.opcode))
        .map(|(k, load)| {
            let dest = load.operands.first()?;
            for later in &test[k + 1..] {
                if is_record(&later.opcode) && later.operands.get(1) == Some(dest) {
                    let o = offset(later.operands.first()?)?;
                    return Some(((o / 4) % layout::litmus::REGISTERS as u64) as u8);
                }
                if overwrites(later, dest) {
                    return None;
                }
            }
            None
        })
        .collect();
    // The environment code the poll loop's exit jumps over is a stressing
    // block's, which exits before the test: no path through it reaches a
    // test access, so the test's addresses are followed without it.
    let mut test_flow = Flow::without(&all, skipped.clone());
    let test_indices = begin..all.len();
    let stores =
        test_indices.clone().filter(|&i| is_store(&all[i].opcode)).map(|i| operand(&mut test_flow, &all, i)).collect();
    let loads = test_indices.filter(|&i| is_load(&all[i].opcode)).map(|i| operand(&mut test_flow, &all, i)).collect();
    let mut flow = Flow::new(&all);
    let environment_loads = (0..start)
        .chain(skipped)
        .filter(|&i| all[i].opcode.starts_with("LDG"))
        .map(|i| operand(&mut flow, &all, i))
        .collect();
    Some(LitmusSass { accesses, load_registers, recorded, kept_live, stores, loads, environment_loads })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test part of `litmus_mp_weak` on sm_90 as ptxas 13 wrote it:
    /// the loads of `x` (recorded as r1) and `y` (r0) issued in the
    /// opposite order to the program's.
    const MP_WEAK: &str = "
        /*1970*/                   LDG.E R9, desc[UR14][R8.64] ;
        /*1980*/                   ISETP.NE.U32.AND P0, PT, R9, -0x1, PT ;
        /*19a0*/              @!P0 STG.E desc[UR14][R2.64], R9 ;
        /*1a90*/                   LD.E.STRONG.GPU R0, desc[UR14][R2.64] ;
        /*1af0*/               @P0 EXIT ;
        /*2440*/                   STG.E desc[UR14][R2.64], R11 ;
        /*2460*/                   STG.E desc[UR14][R8.64], R11 ;
        /*2470*/               @P0 BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*2e80*/                   LDG.E R2, desc[UR14][R26.64] ;
        /*2e90*/                   LDG.E R3, desc[UR14][R6.64] ;
        /*3000*/                   IMAD.WIDE R4, R0, 0x4, R4 ;
        /*3220*/                   STG.E.EF desc[UR14][R6.64], R3 ;
        /*35b0*/                   STG.E.EF desc[UR14][R4.64+0x4], R2 ;
        /*35c0*/                   EXIT ;
";

    #[test]
    fn splits_environment_test_and_records() {
        let s = litmus_sass(MP_WEAK).unwrap();
        assert_eq!(s.accesses, ["STG.E", "STG.E", "LDG.E", "LDG.E"]);
        assert_eq!(s.load_registers, [Some(1), Some(0)], "x's load (r1) was issued first");
        assert_eq!(s.recorded, [0, 1]);
        assert_eq!(s.kept_live, 1);
        assert_eq!(kept_live(MP_WEAK), 1);
        assert_eq!(memory_opcodes(MP_WEAK)[..3], ["LDG.E", "STG.E", "LD.E.STRONG.GPU"]);
    }

    #[test]
    fn a_register_overwritten_before_its_record_is_not_followed() {
        let sass = MP_WEAK.replace("IMAD.WIDE R4, R0", "IMAD R2, R0");
        let s = litmus_sass(&sass).unwrap();
        assert_eq!(s.load_registers, [None, Some(0)]);
    }

    #[test]
    fn a_wide_result_overwrites_the_register_after_its_destination() {
        let sass = MP_WEAK.replace("IMAD.WIDE R4, R0", "IMAD.WIDE R1, R0");
        assert_eq!(litmus_sass(&sass).unwrap().load_registers, [None, Some(0)], "R1:R2 overwrites R2");
    }

    #[test]
    fn a_function_without_the_start_poll_is_not_a_litmus_kernel() {
        assert_eq!(litmus_sass("        /*0000*/                   EXIT ;\n"), None);
    }
}
