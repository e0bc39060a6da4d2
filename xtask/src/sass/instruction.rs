//! One line of `cuobjdump -sass` as an instruction: its address, predicate,
//! opcode and operands, and the byte offset of an address operand. The
//! reading of a test's accesses (`accesses.rs`) and the register dataflow
//! under it (`dataflow.rs`) both take instructions in this form.

/// One SASS instruction: its opcode (`LDG.E.STRONG.GPU`) and operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Instruction {
    /// Its address in the function.
    pub(super) address: u64,
    /// Whether it runs under a predicate (`@P0`, `@!P0`).
    pub(super) predicated: bool,
    pub(super) opcode: String,
    pub(super) operands: Vec<String>,
}

/// The instruction of one `cuobjdump -sass` line such as
/// `/*0200*/  @!P0 ATOMS.CAST.SPIN R5, [R2], R4, R5 ;`, predicate dropped, if
/// the line has one.
pub(super) fn instruction(line: &str) -> Option<Instruction> {
    let rest = line.trim_start().strip_prefix("/*")?;
    let (address, rest) = rest.split_once("*/")?;
    if !address.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let address = u64::from_str_radix(address, 16).ok()?;
    let text = rest.split("/*").next()?.trim().trim_end_matches(';').trim();
    let predicated = text.starts_with('@');
    let text = if predicated { text.split_once(' ')?.1.trim() } else { text };
    let (opcode, operands) = text.split_once(' ').unwrap_or((text, ""));
    let operands = operands.split(',').map(|o| o.trim().to_owned()).filter(|o| !o.is_empty()).collect();
    Some(Instruction { address, predicated, opcode: opcode.to_owned(), operands })
}

/// The byte offset in an address operand such as `desc[UR14][R4.64+0x4]`.
pub(super) fn offset(operand: &str) -> Option<u64> {
    let inner = operand.rsplit('[').next()?.trim_end_matches(']');
    match inner.split_once('+') {
        Some((_, hex)) => u64::from_str_radix(hex.trim_start_matches("0x"), 16).ok(),
        None => Some(0),
    }
}
