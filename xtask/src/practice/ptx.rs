//! One line of a kernel's PTX, as the checker's layers read it: the
//! instruction on it, if any, with its guard, opcode and operands. The PTX
//! checks, the publication reader and the barrier analysis share it.

/// A PTX instruction: its guard predicate (without a `!`), its opcode with
/// its qualifiers (`st.release.cta.b32`), and its operands.
pub struct Instruction<'a> {
    /// The predicate that guards it (`@%p1`, `@!%p1`: `%p1`), if any.
    pub guard: Option<&'a str>,
    /// The opcode and its qualifiers.
    pub opcode: &'a str,
    /// The operands, without brackets or braces.
    pub operands: Vec<&'a str>,
}

/// The instruction on `line`, if it holds one: not a label, a directive, a
/// brace or a comment (a comment after a label or an instruction is
/// dropped).
pub fn instruction(line: &str) -> Option<Instruction<'_>> {
    let line = line.split("//").next().unwrap_or("").trim();
    if line.is_empty() || line.ends_with(':') || line.starts_with('.') || line == "{" || line == "}" {
        return None;
    }
    let line = line.trim_end_matches(';');
    let (guard, rest) = match line.strip_prefix('@') {
        Some(guarded) => {
            let (guard, rest) = guarded.split_once(char::is_whitespace)?;
            (Some(guard.trim_start_matches('!')), rest.trim())
        }
        None => (None, line),
    };
    let (opcode, operands) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let operands = operands
        .split(',')
        .map(|o| o.trim().trim_matches(|c| matches!(c, '[' | ']' | '{' | '}')).trim())
        .filter(|o| !o.is_empty())
        .collect();
    Some(Instruction { guard, opcode, operands })
}

/// The lines of a kernel body that hold an instruction, trimmed.
pub fn instruction_lines(body: &str) -> impl Iterator<Item = &str> {
    body.lines().map(str::trim).filter(|l| instruction(l).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_gives_its_guard_opcode_and_operands_and_a_label_none() {
        let i = instruction("@!%p2 bra \t$L__BB0_4; // in loop").unwrap();
        assert_eq!((i.guard, i.opcode, i.operands), (Some("%p2"), "bra", vec!["$L__BB0_4"]));
        let i = instruction("st.release.cta.b32 [%rd2], 1;").unwrap();
        assert_eq!((i.guard, i.opcode, i.operands), (None, "st.release.cta.b32", vec!["%rd2", "1"]));
        for line in ["$L__BB6_2:  // %.preheader", ".reg .pred %p<6>;", "// begin inline asm", "{", ""] {
            assert!(instruction(line).is_none(), "{line}");
        }
    }
}
