//! Where a register's value comes from in one function's SASS: the kernel
//! parameters an address is computed from (and the words loaded through
//! them), and the constant a stored value is.
//!
//! The listing is read as a control-flow graph (a `BRA` jumps, an
//! unconditional one or an `EXIT` does not fall through; a `CALL` is taken
//! to return with nothing changed), and a register read at one instruction
//! is followed back to every definition that reaches it on some path, then
//! through that definition's own sources. The answer is a set of roots, an
//! over-approximation where paths join: enough to tell which buffer an
//! address points into and which of the environment's fields it was
//! computed from, which is what the SASS test asks.

use std::collections::{BTreeSet, HashMap};

use super::instruction::Instruction;

/// What a register's value is computed from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roots {
    /// Constant-bank words read (`c[0x0][0x220]` is 0x220): on sm_90 the
    /// kernel parameters start at 0x210.
    pub constants: BTreeSet<u32>,
    /// Words loaded from memory through a pointer read from the constant
    /// bank: (the pointer's constant-bank word, the byte offset loaded).
    /// A litmus kernel's environment fields are `(0x210, offset)`.
    pub loaded: BTreeSet<(u32, u64)>,
}

impl Roots {
    fn extend(&mut self, other: &Roots) {
        self.constants.extend(&other.constants);
        self.loaded.extend(&other.loaded);
    }
}

/// The registers (`R7`, `UR4`) an operand names, each with whether it is
/// the low half of a 64-bit pair (`R16.64`). `RZ` and `URZ` are no
/// registers.
pub(super) fn registers(operand: &str) -> Vec<(String, bool)> {
    let bytes = operand.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let word_start = i == 0 || !bytes[i - 1].is_ascii_alphanumeric() && bytes[i - 1] != b'_';
        let prefix = if bytes[i..].starts_with(b"UR") {
            2
        } else if bytes[i] == b'R' {
            1
        } else {
            0
        };
        if word_start && prefix > 0 {
            let digits = bytes[i + prefix..].iter().take_while(|b| b.is_ascii_digit()).count();
            let end = i + prefix + digits;
            let after_ok = end == bytes.len() || !bytes[end].is_ascii_alphanumeric();
            if digits > 0 && after_ok {
                let wide = bytes[end..].starts_with(b".64");
                out.push((operand[i..end].to_owned(), wide));
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The register after `register` (`R5` after `R4`).
fn next(register: &str) -> Option<String> {
    let digits = register.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let prefix = &register[..register.len() - digits.len()];
    Some(format!("{prefix}{}", digits.parse::<u32>().ok()? + 1))
}

/// The registers an instruction writes: its first operand, when that is a
/// plain register (a store's first operand is an address, a compare's a
/// predicate), and the register after it for a 64-bit result.
pub(super) fn destinations(instruction: &Instruction) -> Vec<String> {
    let op = &instruction.opcode;
    if op.starts_with("ST") || op.starts_with("RED") || op.starts_with("CALL") || op.starts_with("BRA") {
        return Vec::new();
    }
    let Some(first) = instruction.operands.first() else { return Vec::new() };
    let regs = registers(first);
    if regs.len() != 1 || regs[0].0 != *first {
        return Vec::new();
    }
    let mut out = vec![regs[0].0.clone()];
    let wide = op.contains(".64") || op.contains(".WIDE") || op == "CS2R";
    if wide && let Some(n) = next(&regs[0].0) {
        out.push(n);
    }
    out
}

/// The registers an instruction reads.
fn sources(instruction: &Instruction) -> Vec<String> {
    let op = &instruction.opcode;
    let reads_first = op.starts_with("ST") || op.starts_with("RED") || destinations(instruction).is_empty();
    let operands = if reads_first { &instruction.operands[..] } else { &instruction.operands[1..] };
    let mut out = Vec::new();
    for operand in operands {
        for (register, wide) in registers(operand) {
            if wide && let Some(n) = next(&register) {
                out.push(n);
            }
            out.push(register);
        }
    }
    out
}

/// The constant-bank word of an operand such as `c[0x0][0x220]`.
fn constant(operand: &str) -> Option<u32> {
    let rest = operand.split("c[0x0][").nth(1)?;
    u32::from_str_radix(rest.split(']').next()?.trim_start_matches("0x"), 16).ok()
}

/// The base register of an address operand such as `desc[UR10][R16.64+0x1c]`.
pub(super) fn address_register(operand: &str) -> Option<String> {
    let inner = operand.rsplit('[').next()?;
    registers(inner).into_iter().next().map(|(r, _)| r)
}

/// One function's instructions as a control-flow graph.
pub(super) struct Flow<'a> {
    all: &'a [Instruction],
    predecessors: Vec<Vec<usize>>,
    memo: HashMap<(usize, String, bool), Option<Roots>>,
}

impl<'a> Flow<'a> {
    /// The graph of `all`, a function's instructions in listing order.
    pub(super) fn new(all: &'a [Instruction]) -> Flow<'a> {
        Flow::without(all, 0..0)
    }

    /// The graph of `all` with the instructions of `cut` left out: no path
    /// enters or leaves them.
    pub(super) fn without(all: &'a [Instruction], cut: std::ops::Range<usize>) -> Flow<'a> {
        let at: HashMap<u64, usize> = all.iter().enumerate().map(|(i, ins)| (ins.address, i)).collect();
        let mut predecessors = vec![Vec::new(); all.len()];
        for (i, ins) in all.iter().enumerate() {
            if cut.contains(&i) {
                continue;
            }
            let op = ins.opcode.as_str();
            if op == "BRA"
                && let Some(target) =
                    ins.operands.last().and_then(|t| u64::from_str_radix(t.trim_start_matches("0x"), 16).ok())
                && let Some(&t) = at.get(&target)
            {
                predecessors[t].push(i);
            }
            let ends = (op == "BRA" || op == "EXIT") && !ins.predicated || op.starts_with("RET");
            if !ends && i + 1 < all.len() {
                predecessors[i + 1].push(i);
            }
        }
        for p in &mut predecessors {
            p.retain(|i| !cut.contains(i));
        }
        Flow { all, predecessors, memo: HashMap::new() }
    }

    /// The instructions that write `register` and reach instruction `at` on
    /// some path (a predicated write does not end the path).
    fn reaching(&self, at: usize, register: &str) -> Vec<usize> {
        let mut found = Vec::new();
        let mut seen = vec![false; self.all.len()];
        let mut stack: Vec<usize> = self.predecessors[at].clone();
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            if destinations(&self.all[i]).iter().any(|d| d == register) {
                found.push(i);
                if !self.all[i].predicated {
                    continue;
                }
            }
            stack.extend(&self.predecessors[i]);
        }
        found.sort_unstable();
        found
    }

    /// What `register`, read at instruction `at`, is computed from on some
    /// path: the union over every definition that reaches it.
    pub(super) fn roots(&mut self, at: usize, register: &str) -> Roots {
        self.follow(at, register, false).unwrap_or_default()
    }

    /// What `register`, read at instruction `at`, is computed from on every
    /// path: the intersection over the definitions that reach it (each
    /// definition's own roots being the union over its sources). Where
    /// `ptxas` reuses a register on two paths, [`Flow::roots`] mixes their
    /// computations; this keeps only what they share.
    pub(super) fn roots_on_every_path(&mut self, at: usize, register: &str) -> Roots {
        self.follow(at, register, true).unwrap_or_default()
    }

    /// [`Flow::roots`] (`every_path` false) or [`Flow::roots_on_every_path`];
    /// `None` while a loop is being followed round, which neither adds to a
    /// union nor takes from an intersection.
    fn follow(&mut self, at: usize, register: &str, every_path: bool) -> Option<Roots> {
        let key = (at, register.to_owned(), every_path);
        if let Some(known) = self.memo.get(&key) {
            return known.clone();
        }
        self.memo.insert(key.clone(), None);
        let mut found: Option<Roots> = None;
        for d in self.reaching(at, register) {
            let ins = &self.all[d];
            let mut roots = Roots::default();
            roots.constants.extend(ins.operands.iter().skip(1).filter_map(|o| constant(o)));
            let is_load =
                ins.opcode.starts_with("LD") && !ins.opcode.starts_with("LDC") && !ins.opcode.starts_with("LDS");
            if is_load && let Some(address) = ins.operands.get(1) {
                if let Some(base) = address_register(address) {
                    let offset = super::instruction::offset(address).unwrap_or(0);
                    let pointer = self.follow(d, &base, every_path).unwrap_or_default();
                    roots.loaded.extend(pointer.constants.iter().map(|&c| (c, offset)));
                }
            } else {
                for source in sources(ins) {
                    if let Some(more) = self.follow(d, &source, every_path) {
                        roots.extend(&more);
                    }
                }
            }
            found = Some(match found {
                None => roots,
                Some(mut so_far) if every_path => {
                    so_far.constants.retain(|c| roots.constants.contains(c));
                    so_far.loaded.retain(|l| roots.loaded.contains(l));
                    so_far
                }
                Some(mut so_far) => {
                    so_far.extend(&roots);
                    so_far
                }
            });
        }
        let found = Some(found.unwrap_or_default());
        self.memo.insert(key, found.clone());
        found
    }

    /// The value `register` holds at instruction `at` when every definition
    /// that reaches it is the same immediate (`MOV R1, 0x2`,
    /// `IMAD.MOV.U32 R1, RZ, RZ, 0x1`, `CS2R R1, SRZ`, or the pair of halves
    /// `HFMA2.MMA R1, -RZ, RZ, 0, 5.9604644775390625e-08` that is 1).
    pub(super) fn constant_value(&self, at: usize, register: &str) -> Option<u32> {
        if register == "RZ" {
            return Some(0);
        }
        let defs = self.reaching(at, register);
        let values: Option<Vec<u32>> = defs.iter().map(|&d| immediate(&self.all[d])).collect();
        let values = values?;
        let first = *values.first()?;
        values.iter().all(|&v| v == first).then_some(first)
    }
}

/// The immediate an instruction moves into its destination, if it is a move
/// of one.
fn immediate(ins: &Instruction) -> Option<u32> {
    let ops = &ins.operands;
    let number = |s: &str| -> Option<u32> {
        if s == "RZ" || s == "SRZ" {
            return Some(0);
        }
        let (negative, s) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
        let value = u32::from_str_radix(s.strip_prefix("0x")?, 16).ok()?;
        Some(if negative { value.wrapping_neg() } else { value })
    };
    match ins.opcode.as_str() {
        "MOV" | "UMOV" if ops.len() == 2 => number(&ops[1]),
        "IMAD.MOV.U32" | "IMAD.MOV" if ops.len() == 4 && ops[1] == "RZ" && ops[2] == "RZ" => number(&ops[3]),
        "CS2R" | "CS2R.32" if ops.len() == 2 && ops[1] == "SRZ" => Some(0),
        "HFMA2.MMA" | "HFMA2" if ops.len() == 5 && ops[1] == "-RZ" && ops[2] == "RZ" => {
            Some(u32::from(half_bits(&ops[3])?) << 16 | u32::from(half_bits(&ops[4])?))
        }
        _ => None,
    }
}

/// The bits of the half-precision number `cuobjdump` prints as `text`.
fn half_bits(text: &str) -> Option<u16> {
    let value: f64 = text.parse().ok()?;
    (0..=u16::MAX).find(|&bits| half_value(bits) == Some(value))
}

/// The value of a half-precision bit pattern (`None` for NaN).
fn half_value(bits: u16) -> Option<f64> {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let fraction = f64::from(bits & 0x3ff);
    match exponent {
        0 => Some(sign * fraction * 2f64.powi(-24)),
        31 if fraction == 0.0 => Some(sign * f64::INFINITY),
        31 => None,
        e => Some(sign * (1.0 + fraction / 1024.0) * 2f64.powi(e - 15)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::instruction::instruction;
    use super::*;

    fn listing(text: &str) -> Vec<Instruction> {
        text.lines().filter_map(instruction).collect()
    }

    #[test]
    fn reads_registers_of_operands() {
        assert_eq!(registers("desc[UR10][R16.64+0x1c]"), [("UR10".to_owned(), false), ("R16".to_owned(), true)]);
        assert_eq!(registers("R0.reuse"), [("R0".to_owned(), false)]);
        assert_eq!(registers("-R10"), [("R10".to_owned(), false)]);
        assert!(
            registers("RZ").is_empty() && registers("SR_TID.X").is_empty() && registers("c[0x0][0x220]").is_empty()
        );
    }

    #[test]
    fn follows_definitions_along_every_path_that_reaches_a_use() {
        let all = listing(
            "
        /*0000*/                   LDC.64 R16, c[0x0][0x210] ;
        /*0010*/                   LDG.E R14, desc[UR10][R16.64+0x1c] ;
        /*0020*/               @P0 BRA 0x50 ;
        /*0030*/                   IMAD.MOV.U32 R15, RZ, RZ, 0x1 ;
        /*0040*/                   BRA 0x60 ;
        /*0050*/                   IMAD.MOV.U32 R14, RZ, RZ, RZ ;
        /*0060*/                   ULDC.64 UR16, c[0x0][0x220] ;
        /*0070*/                   LEA R10, P1, R14, UR16, 0x2 ;
        /*0080*/                   LEA.HI.X R11, R14, UR17, RZ, 0x2, P1 ;
        /*0090*/                   HFMA2.MMA R15, -RZ, RZ, 0, 5.9604644775390625e-08 ;
        /*00a0*/                   STG.E desc[UR10][R10.64], R15 ;
",
        );
        let mut flow = Flow::new(&all);
        let roots = flow.roots(10, "R10");
        assert_eq!(roots.constants, BTreeSet::from([0x220]));
        assert_eq!(roots.loaded, BTreeSet::from([(0x210, 0x1c)]), "through the path that skips the move");
        let every = flow.roots_on_every_path(10, "R10");
        assert_eq!(every.constants, BTreeSet::from([0x220]));
        assert!(every.loaded.is_empty(), "the path through the move reads no field");
        assert_eq!(flow.constant_value(10, "R15"), Some(1));
        assert_eq!(flow.constant_value(7, "R15"), Some(1), "the one definition that reaches the join");
        assert_eq!(flow.constant_value(7, "R14"), None, "a load and a zero reach the join");
    }
}
