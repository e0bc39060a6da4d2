//! A parser for the subset of Dat3M's PTX `.litmus` format that loads,
//! stores and fences need (the grammar is Dat3M's
//! `dartagnan/src/main/antlr4/LitmusPTX.g4`):
//!
//! ```text
//! PTX MP-cta
//! "a comment, on as many quoted lines as it likes"
//! { x=0; y=0; P1:r1=0; }
//!  P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;
//!  st.weak x, 1           | ld.acquire.cta r1, y   ;
//!  st.release.cta y, 1    | ld.weak r2, x          ;
//! exists
//! (P1:r1 == 1 /\ P1:r2 != 1)
//! ```
//!
//! Instructions: `ld{.sem{.scope}} r, loc`, `st{.sem{.scope}} loc, value`
//! (a constant or a register), `ld r, constant` (a register's value, which
//! must come before any load into that register), `fence{.sc|.acq_rel}.scope`
//! and `membar.{cta,gl,sys}` (which the ISA defines as `fence.sc` at
//! `.cta`, `.gpu`, `.sys`). `.volatile` is `.relaxed.sys` (see [`Sem`]).
//! State-space and type qualifiers (`.global`, `.u32`, ...) are ignored.
//! Anything else (atomics, barriers, proxies, branches) is refused with a
//! message. Conditions: `exists`, `~exists` or `forall` over `/\`, `\/`,
//! `~`, parentheses and atoms `P1:r1 == 1`, `1:r1 = 1`, `P1:r1 != 1`,
//! `x == 2`.

use crate::program::{Condition, Event, Position, Program, Scope, Sem, Thread, Value};

/// The quantifier of a litmus test's condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// `exists`: some allowed outcome satisfies the condition.
    Exists,
    /// `~exists`: no allowed outcome satisfies it.
    NotExists,
    /// `forall`: every allowed outcome satisfies it.
    Forall,
}

/// A parsed litmus file.
#[derive(Clone, Debug)]
pub struct LitmusFile {
    /// The name on its first line.
    pub name: String,
    /// The program.
    pub program: Program,
    /// The locations' names, by index.
    pub locations: Vec<String>,
    /// The quantifier.
    pub quantifier: Quantifier,
    /// The condition.
    pub condition: Condition,
}

impl LitmusFile {
    /// Whether the file's claim holds under the model: for `exists`, that
    /// some allowed outcome satisfies the condition; for `~exists`, that
    /// none does; for `forall`, that all do. This is what Dat3M's expected
    /// results record (1 for holds, 0 for not).
    pub fn holds(&self) -> bool {
        match self.quantifier {
            Quantifier::Exists => crate::allows(&self.program, &self.condition),
            Quantifier::NotExists => !crate::allows(&self.program, &self.condition),
            Quantifier::Forall => !crate::allows(&self.program, &Condition::Not(Box::new(self.condition.clone()))),
        }
    }
}

/// The registers of one thread, named in the file, numbered in order of
/// first appearance.
#[derive(Default)]
struct Registers {
    names: Vec<String>,
}

impl Registers {
    fn index(&mut self, name: &str) -> Result<u8, String> {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return Ok(i as u8);
        }
        if self.names.len() >= u8::MAX as usize {
            return Err("too many registers".into());
        }
        self.names.push(name.to_string());
        Ok(self.names.len() as u8 - 1)
    }
}

struct Parser {
    locations: Vec<String>,
    initial: Vec<u32>,
    registers: Vec<Registers>,
    threads: Vec<Thread>,
}

fn number(text: &str) -> Option<u32> {
    let text = text.trim();
    if let Some(neg) = text.strip_prefix('-') {
        return neg.parse::<u32>().ok().map(|v| v.wrapping_neg());
    }
    text.parse().ok()
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn scope_word(word: &str) -> Option<Scope> {
    match word {
        "cta" => Some(Scope::Cta),
        "cluster" => Some(Scope::Cluster),
        "gpu" | "gl" => Some(Scope::Gpu),
        "sys" => Some(Scope::Sys),
        _ => None,
    }
}

/// Parses a thread's name, `P3` or `3`.
fn thread_index(text: &str) -> Result<usize, String> {
    let text = text.trim();
    text.strip_prefix('P').unwrap_or(text).parse().map_err(|_| format!("bad thread name `{text}`"))
}

impl Parser {
    fn location(&mut self, name: &str) -> Result<usize, String> {
        let name = name.trim().trim_start_matches('[').trim_end_matches(']').trim();
        if !is_identifier(name) {
            return Err(format!("bad location `{name}`"));
        }
        if let Some(i) = self.locations.iter().position(|n| n == name) {
            return Ok(i);
        }
        self.locations.push(name.to_string());
        self.initial.push(0);
        Ok(self.locations.len() - 1)
    }

    fn init(&mut self, text: &str) -> Result<(), String> {
        for item in text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let (lhs, rhs) = item.split_once('=').ok_or_else(|| format!("bad initialisation `{item}`"))?;
            let value = number(rhs).ok_or_else(|| format!("bad initial value `{item}`"))?;
            match lhs.split_once(':') {
                Some((thread, reg)) => {
                    let t = thread_index(thread)?;
                    self.ensure_thread(t);
                    let r = self.registers[t].index(reg.trim())?;
                    self.threads[t].initial.retain(|&(x, _)| x != r);
                    self.threads[t].initial.push((r, value));
                }
                None => {
                    let l = self.location(lhs)?;
                    self.initial[l] = value;
                }
            }
        }
        Ok(())
    }

    fn ensure_thread(&mut self, t: usize) {
        while self.threads.len() <= t {
            self.threads.push(Thread::default());
            self.registers.push(Registers::default());
        }
    }

    /// `P0@cta 0,gpu 0`, `P0@cta 0, cluster 0, gpu 0`: without a cluster,
    /// the CTA is a cluster of its own.
    fn header(&mut self, column: usize, text: &str) -> Result<(), String> {
        let (name, place) = text.split_once('@').unwrap_or((text, ""));
        let t = thread_index(name)?;
        if t != column {
            return Err(format!("thread {t} in column {column}"));
        }
        self.ensure_thread(t);
        let (mut cta, mut cluster, mut gpu) = (0, None, 0);
        for part in place.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (word, value) = part.split_once(char::is_whitespace).ok_or_else(|| format!("bad place `{part}`"))?;
            let value = number(value).ok_or_else(|| format!("bad place `{part}`"))?;
            match word {
                "cta" => cta = value,
                "cluster" => cluster = Some(value),
                "gpu" => gpu = value,
                _ => return Err(format!("bad place `{part}`")),
            }
        }
        self.threads[t].position = Position { cta, cluster: cluster.unwrap_or(cta), gpu };
        Ok(())
    }

    fn instruction(&mut self, t: usize, text: &str) -> Result<(), String> {
        let (mnemonic, operands) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let operands: Vec<&str> = operands.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        let mut words = mnemonic.split('.');
        let op = words.next().unwrap_or("");
        let (mut sem, mut scope, mut sc, mut volatile) = (None, None, None, false);
        for word in words {
            match word {
                "weak" => sem = Some(Sem::Weak),
                "relaxed" => sem = Some(Sem::Relaxed),
                "acquire" => sem = Some(Sem::Acquire),
                "release" => sem = Some(Sem::Release),
                "volatile" => volatile = true,
                "sc" => sc = Some(true),
                "acq_rel" => sc = Some(false),
                "global" | "u32" | "s32" | "b32" | "u64" | "s64" | "b64" => {}
                w => match scope_word(w) {
                    Some(s) => scope = Some(s),
                    None => return Err(format!("unsupported qualifier `.{w}` in `{text}`")),
                },
            }
        }
        if volatile {
            // The ISA: volatile accesses have the memory synchronization
            // semantics of relaxed accesses at system scope.
            (sem, scope) = (Some(Sem::Relaxed), Some(Scope::Sys));
        }
        let sem = sem.unwrap_or(Sem::Weak);
        let strong_scope = || -> Result<Scope, String> {
            match (sem, scope) {
                (Sem::Weak, _) => Ok(Scope::Sys),
                (_, Some(s)) => Ok(s),
                (_, None) => Err(format!("`{text}` needs a scope")),
            }
        };
        let event = match (op, operands.as_slice()) {
            ("ld", [reg, source]) => {
                let r = self.registers[t].index(reg)?;
                if let Some(c) = number(source) {
                    // A register's value, before the thread's first access
                    // to it: its initial value.
                    let thread = &self.threads[t];
                    let loaded = thread.events.iter().any(|e| matches!(*e, Event::Load { reg, .. } if reg == r));
                    if loaded || sem != Sem::Weak || scope.is_some() {
                        return Err(format!("`{text}`: a constant is only supported as a first value"));
                    }
                    self.threads[t].initial.retain(|&(x, _)| x != r);
                    self.threads[t].initial.push((r, c));
                    return Ok(());
                }
                if sem == Sem::Release {
                    return Err(format!("`{text}`: a load cannot be a release"));
                }
                Event::Load { loc: self.location(source)?, reg: r, sem, scope: strong_scope()? }
            }
            ("st", [target, value]) => {
                if sem == Sem::Acquire {
                    return Err(format!("`{text}`: a store cannot be an acquire"));
                }
                let value = match number(value) {
                    Some(c) => Value::Const(c),
                    None if is_identifier(value) => Value::Reg(self.registers[t].index(value)?),
                    None => return Err(format!("bad value in `{text}`")),
                };
                Event::Store { loc: self.location(target)?, value, sem, scope: strong_scope()? }
            }
            ("fence", []) => {
                Event::Fence { sc: sc.unwrap_or(false), scope: scope.ok_or_else(|| format!("`{text}` needs a scope"))? }
            }
            ("membar", []) => Event::Fence { sc: true, scope: scope.ok_or_else(|| format!("`{text}` needs a level"))? },
            _ => return Err(format!("unsupported instruction `{text}`")),
        };
        self.threads[t].events.push(event);
        Ok(())
    }

    fn condition(&mut self, text: &str) -> Result<Condition, String> {
        // `P3: r0` is `P3:r0`.
        let mut text = text.to_string();
        while text.contains(": ") || text.contains(" :") {
            text = text.replace(": ", ":").replace(" :", ":");
        }
        let tokens = tokenize(&text)?;
        let mut at = 0;
        let c = self.or(&tokens, &mut at)?;
        if at != tokens.len() {
            return Err(format!("trailing `{}` in the condition", tokens[at..].join(" ")));
        }
        Ok(c)
    }

    fn or(&mut self, tokens: &[String], at: &mut usize) -> Result<Condition, String> {
        let mut all = vec![self.and(tokens, at)?];
        while tokens.get(*at).is_some_and(|t| t == "\\/") {
            *at += 1;
            all.push(self.and(tokens, at)?);
        }
        Ok(if all.len() == 1 { all.pop().unwrap() } else { Condition::Or(all) })
    }

    fn and(&mut self, tokens: &[String], at: &mut usize) -> Result<Condition, String> {
        let mut all = vec![self.atom(tokens, at)?];
        while tokens.get(*at).is_some_and(|t| t == "/\\") {
            *at += 1;
            all.push(self.atom(tokens, at)?);
        }
        Ok(if all.len() == 1 { all.pop().unwrap() } else { Condition::And(all) })
    }

    fn atom(&mut self, tokens: &[String], at: &mut usize) -> Result<Condition, String> {
        let token = tokens.get(*at).ok_or("the condition ends early")?.clone();
        *at += 1;
        if token == "~" {
            return Ok(Condition::Not(Box::new(self.atom(tokens, at)?)));
        }
        if token == "(" {
            let c = self.or(tokens, at)?;
            if tokens.get(*at).is_none_or(|t| t != ")") {
                return Err("a `(` without its `)`".into());
            }
            *at += 1;
            return Ok(c);
        }
        let op = tokens.get(*at).ok_or("the condition ends early")?.clone();
        let value = tokens.get(*at + 1).and_then(|v| number(v)).ok_or_else(|| format!("bad atom at `{token}`"))?;
        *at += 2;
        let c = match token.split_once(':') {
            Some((thread, reg)) => {
                let t = thread_index(thread)?;
                if t >= self.threads.len() {
                    return Err(format!("no thread {t}"));
                }
                let reg = self.registers[t].index(reg)?;
                Condition::Register { thread: t, reg, value }
            }
            None => Condition::Memory { loc: self.location(&token)?, value },
        };
        match op.as_str() {
            "=" | "==" => Ok(c),
            "!=" => Ok(Condition::Not(Box::new(c))),
            _ => Err(format!("bad comparison `{op}`")),
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        if c.is_whitespace() {
            i += 1;
        } else if ["/\\", "\\/", "==", "!="].contains(&two.as_str()) {
            tokens.push(two);
            i += 2;
        } else if "()~=".contains(c) {
            tokens.push(c.to_string());
            i += 1;
        } else if c.is_ascii_alphanumeric() || "_:-[]".contains(c) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || "_:-[]".contains(chars[i])) {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else {
            return Err(format!("unexpected `{c}` in the condition"));
        }
    }
    Ok(tokens)
}

/// Parses a PTX litmus file in Dat3M's format, or says why not.
pub fn parse(text: &str) -> Result<LitmusFile, String> {
    let mut lines = text.lines();
    let first = lines.next().ok_or("an empty file")?;
    let name = first.trim().strip_prefix("PTX").ok_or("the first line is not `PTX <name>`")?.trim().to_string();
    let rest: Vec<&str> = lines.collect();
    let rest = rest.join("\n");
    let open = rest.find('{').ok_or("no `{`")?;
    let close = rest[open..].find('}').ok_or("no `}`")? + open;
    let mut parser = Parser { locations: Vec::new(), initial: Vec::new(), registers: Vec::new(), threads: Vec::new() };
    parser.init(&rest[open + 1..close])?;
    let body = &rest[close + 1..];
    let mut rows = body.lines().map(str::trim).filter(|l| !l.is_empty());
    let header = rows.next().ok_or("no threads")?;
    let columns: Vec<&str> = header.trim_end_matches(';').split('|').map(str::trim).collect();
    for (i, column) in columns.iter().enumerate() {
        parser.header(i, column)?;
    }
    let mut condition_text = String::new();
    let mut quantifier = None;
    for row in rows {
        if quantifier.is_some() {
            condition_text.push(' ');
            condition_text.push_str(row);
            continue;
        }
        for (word, q) in
            [("~exists", Quantifier::NotExists), ("exists", Quantifier::Exists), ("forall", Quantifier::Forall)]
        {
            if let Some(tail) = row.strip_prefix(word) {
                quantifier = Some(q);
                condition_text.push_str(tail);
                break;
            }
        }
        if quantifier.is_some() {
            continue;
        }
        let cells: Vec<&str> = row.trim_end_matches(';').split('|').map(str::trim).collect();
        if cells.len() > columns.len() {
            return Err(format!("`{row}` has more columns than threads"));
        }
        for (t, cell) in cells.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
            parser.instruction(t, cell)?;
        }
    }
    let quantifier = quantifier.ok_or("no `exists`, `~exists` or `forall`")?;
    let condition = parser.condition(&condition_text)?;
    let program = Program { initial: parser.initial, threads: parser.threads };
    if let Some(problem) = program.problem() {
        return Err(problem);
    }
    Ok(LitmusFile { name, program, locations: parser.locations, quantifier, condition })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_passing_across_ctas() {
        let file = parse(
            "PTX MP-cta\n\"comment\"\n{\nx=0;\ny=0;\nP1:r1=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n \
             st.weak x, 1 | ld.acquire.cta r1, y ;\n st.release.cta y, 1 | ld.weak r2, x ;\nexists\n(P1:r1 == 1 /\\ P1:r2 != 1)",
        )
        .unwrap();
        assert_eq!(file.name, "MP-cta");
        assert_eq!(file.locations, ["x", "y"]);
        assert_eq!(file.quantifier, Quantifier::Exists);
        assert_eq!(file.program.threads[1].position, Position { cta: 1, cluster: 1, gpu: 0 });
        assert_eq!(
            file.program.threads[1].events[0],
            Event::Load { loc: 1, reg: 0, sem: Sem::Acquire, scope: Scope::Cta }
        );
        assert!(file.holds(), "the release and acquire are .cta in different CTAs: not morally strong");
    }

    #[test]
    fn constants_volatile_membar_and_refusals() {
        let file = parse(
            "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n ld r0, 2 | ld.volatile r1, x ;\n \
             st.weak x, r0 | membar.gl ;\nexists (x = 2 /\\ 1:r1 = 2)",
        )
        .unwrap();
        assert_eq!(file.program.threads[0].initial, [(0, 2)]);
        assert_eq!(
            file.program.threads[1].events[0],
            Event::Load { loc: 0, reg: 0, sem: Sem::Relaxed, scope: Scope::Sys }
        );
        assert_eq!(file.program.threads[1].events[1], Event::Fence { sc: true, scope: Scope::Gpu });
        assert!(file.holds());
        let atom = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n atom.relaxed.gpu.add r0, x, 1 ;\nexists (0:r0 = 0)";
        assert!(parse(atom).unwrap_err().contains("unsupported"));
    }
}
