//! `host litmus --mutants`: mutation testing of the testing environment,
//! after MC Mutants (Levine et al., ASPLOS 2023).
//!
//! A count of zero on a forbidden row says nothing about the environment: it
//! would be zero if the environment could never show a weak outcome at all.
//! So each forbidden (test, variant, placement) gets *mutants*: the same
//! kernel with one synchronizing element weakened (a fence dropped, narrowed
//! to `.cta` or made `acq_rel`; a release or acquire made relaxed or narrowed;
//! a relaxed access narrowed; a role's two accesses reversed). The model
//! checker decides, for each mutant, whether its weak outcome is now allowed;
//! a mutant whose outcome stays forbidden is *equivalent* and is not run. The
//! others are run until the environment shows their weak outcome (the mutant
//! is *killed*) or the budget is spent. The share of mutants killed is the
//! environment's mutation score: how much of what it should be able to see
//! it does see.
//!
//! A mutant is made from the kernel's PTX, not from Rust: the kernel's test
//! accesses are the `.u32` loads and stores and the fences of its body,
//! exactly [`layout::litmus::Kernel::program`] (the PTX tests hold them to
//! it), so one edit of one of those lines is one mutation, and the rest of
//! the kernel, the environment around the test, is untouched. The edited
//! kernel is renamed and loaded as a module of its own.

use layout::litmus::{Kernel, Op, Split};
use memory_model::lab::{Step, kernel_steps, placement_positions, weak_allowed_for};

use super::{LitmusOptions, keys, run_one_with, verdict};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::litmus::{Budget, LitmusCounts, LitmusKernel, LitmusKernels};
use crate::interrupt;
use crate::progress::Progress;

/// What a mutation does to a kernel's program, by the index of a step in
/// the whole program (every role's steps in order, as
/// [`Kernel::program`] lists them).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Edit {
    /// The step at `index` becomes the instruction `ptx`.
    Replace {
        /// The step.
        index: usize,
        /// Its new instruction.
        ptx: String,
    },
    /// The step at `index` (a fence) is removed.
    Remove {
        /// The step.
        index: usize,
    },
    /// The accesses at `first` and `second`, two of one role, trade places.
    Swap {
        /// The earlier access.
        first: usize,
        /// The later one.
        second: usize,
    },
}

/// One mutant of one forbidden row.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Mutant {
    /// The kernel mutated.
    pub kernel: LitmusKernel,
    /// Where its threads run.
    #[serde(with = "keys::one")]
    pub placement: Split,
    /// What was weakened, in words.
    pub mutation: String,
    /// The edit of the kernel's program.
    pub edit: Edit,
    /// Whether the model allows the mutant's weak outcome: if not, the
    /// mutant is equivalent to its kernel and there is nothing to kill.
    pub allowed: bool,
}

/// A step of a program, owning its instruction: the form a mutation writes.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Owned {
    Access(Op, String),
    Fence(String),
}

/// `steps` with `edit` applied, role by role.
fn apply(steps: &[Vec<Step<'_>>], edit: &Edit) -> Vec<Vec<Owned>> {
    let mut roles: Vec<Vec<Owned>> = steps
        .iter()
        .map(|role| {
            role.iter()
                .map(|s| match *s {
                    Step::Access(op, p) => Owned::Access(op, p.to_owned()),
                    Step::Fence(p) => Owned::Fence(p.to_owned()),
                })
                .collect()
        })
        .collect();
    // Flat index -> (role, position).
    let at = |index: usize, roles: &[Vec<Owned>]| {
        let mut k = index;
        for (r, role) in roles.iter().enumerate() {
            if k < role.len() {
                return (r, k);
            }
            k -= role.len();
        }
        unreachable!("an edit names a step of the program")
    };
    match edit {
        Edit::Replace { index, ptx } => {
            let (r, k) = at(*index, &roles);
            roles[r][k] = match &roles[r][k] {
                Owned::Access(op, _) => Owned::Access(*op, ptx.clone()),
                Owned::Fence(_) => Owned::Fence(ptx.clone()),
            };
        }
        Edit::Remove { index } => {
            let (r, k) = at(*index, &roles);
            roles[r].remove(k);
        }
        Edit::Swap { first, second } => {
            let ((r, a), (_, b)) = (at(*first, &roles), at(*second, &roles));
            roles[r].swap(a, b);
        }
    }
    roles
}

/// `kernel`'s program after `edit`, flat: each role's steps in order, as
/// [`Kernel::program`] lists the kernel's own. The mutant's PTX has exactly
/// these test steps, and its SASS (the PTX tests check) their translation.
pub fn program(kernel: &Kernel, edit: &Edit) -> Vec<String> {
    apply(&kernel_steps(kernel), edit)
        .into_iter()
        .flatten()
        .map(|s| match s {
            Owned::Access(_, p) | Owned::Fence(p) => p,
        })
        .collect()
}

/// Whether the model allows `kernel`'s weak outcome after `edit`, in
/// `placement`.
fn allowed_after(kernel: &Kernel, placement: Split, edit: &Edit) -> bool {
    let roles = apply(&kernel_steps(kernel), edit);
    let steps: Vec<Vec<Step<'_>>> = roles
        .iter()
        .map(|role| {
            role.iter()
                .map(|s| match s {
                    Owned::Access(op, p) => Step::Access(*op, p),
                    Owned::Fence(p) => Step::Fence(p),
                })
                .collect()
        })
        .collect();
    weak_allowed_for(kernel.test, &steps, &placement_positions(kernel.test, placement))
        .expect("every mutation writes an instruction the checker reads")
}

/// Every mutation of `kernel`'s program: each synchronizing element
/// weakened once, and each role's pair of accesses reversed.
pub fn edits(kernel: &Kernel) -> Vec<(String, Edit)> {
    let mut out = Vec::new();
    let mut index = 0;
    for (r, role) in kernel_steps(kernel).iter().enumerate() {
        let accesses: Vec<usize> =
            role.iter().enumerate().filter(|(_, s)| matches!(s, Step::Access(..))).map(|(k, _)| index + k).collect();
        for step in role {
            match *step {
                Step::Fence(ptx) => {
                    out.push((format!("role {r}: its {ptx} dropped"), Edit::Remove { index }));
                    if ptx.ends_with(".gpu") || ptx.ends_with(".cluster") {
                        let narrow = ptx.replace(".gpu", ".cta").replace(".cluster", ".cta");
                        out.push((
                            format!("role {r}: its {ptx} narrowed to {narrow}"),
                            Edit::Replace { index, ptx: narrow },
                        ));
                    }
                    if ptx.starts_with("fence.sc.") {
                        let weaker = ptx.replace("fence.sc.", "fence.acq_rel.");
                        out.push((format!("role {r}: its {ptx} made {weaker}"), Edit::Replace { index, ptx: weaker }));
                    }
                }
                Step::Access(_, ptx) => {
                    let words: Vec<&str> = ptx.split('.').collect();
                    let kind = if ptx.starts_with("st.") { "store" } else { "load" };
                    for strong in ["release", "acquire"] {
                        if words.contains(&strong) {
                            let relaxed = ptx.replace(&format!(".{strong}."), ".relaxed.");
                            out.push((
                                format!("role {r}: its {strong} made relaxed"),
                                Edit::Replace { index, ptx: relaxed },
                            ));
                        }
                    }
                    if words.contains(&"gpu") || words.contains(&"cluster") {
                        let narrow = ptx.replace(".gpu.", ".cta.").replace(".cluster.", ".cta.");
                        out.push((
                            format!("role {r}: its {ptx} {kind} narrowed to .cta"),
                            Edit::Replace { index, ptx: narrow },
                        ));
                    }
                }
            }
            index += 1;
        }
        for pair in accesses.windows(2) {
            out.push((format!("role {r}: its two accesses reversed"), Edit::Swap { first: pair[0], second: pair[1] }));
        }
    }
    out
}

/// The mutants of `kernel` in `placement`, if the placement fits its test
/// and the model forbids its weak outcome there (an allowed row has nothing
/// to weaken).
pub fn mutants(kernel: LitmusKernel, placement: Split) -> Vec<Mutant> {
    if !placement.fits(kernel.test) || verdict(kernel.test, kernel.variant, placement).allowed {
        return Vec::new();
    }
    let spec: &Kernel = &layout::litmus::KERNELS[kernel.index()];
    edits(spec)
        .into_iter()
        .map(|(mutation, edit)| {
            let allowed = allowed_after(spec, placement, &edit);
            Mutant { kernel, placement, mutation, edit, allowed }
        })
        .collect()
}

/// The symbol of mutant `number` of `kernel`.
pub fn symbol(kernel: &Kernel, number: usize) -> String {
    format!("{}_mutant_{number}", kernel.entry.symbol)
}

/// The `%r…` registers a PTX line names, in order.
fn registers(line: &str) -> Vec<&str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '%' || c == '_')).filter(|w| w.starts_with('%')).collect()
}

/// The register an instruction line writes, if any: the first operand of
/// anything but a store, a branch or a barrier.
fn destination(line: &str) -> Option<&str> {
    let l = line.trim_start();
    let l = if l.starts_with('@') { l.split_once(' ')?.1.trim_start() } else { l };
    let op = l.split_whitespace().next()?;
    if op.starts_with("st.") || op.starts_with("bra") || op.starts_with("bar") || op.starts_with("fence") {
        return None;
    }
    registers(l).first().copied()
}

/// The module of mutant `edit` of `kernel`: the PTX header of `ptx`, then
/// `kernel`'s entry from `ptx` renamed `symbol`, with its test step edited.
/// The PTX's test steps must be exactly `kernel`'s program (a `--ptx` file
/// of another build may differ): otherwise, or where the edit cannot be made,
/// the reason comes back instead. A swap is refused if an instruction between
/// the two accesses names a register either names, or if one of the two reads
/// what the other writes: moving one line past the other would change what it
/// computes.
pub fn module(ptx: &str, kernel: &Kernel, edit: &Edit, symbol: &str) -> Result<String, String> {
    let name = kernel.entry.symbol;
    let start = ptx.find(&format!(".entry {name}(")).ok_or_else(|| format!("no .entry {name} in the PTX"))?;
    let start = ptx[..start].rfind('\n').map_or(0, |i| i + 1);
    let end = ptx[start..].find("\n}\n").map(|i| start + i + 3).ok_or_else(|| format!("{name}: no end of body"))?;
    let header: String = ptx
        .lines()
        .filter(|l| l.starts_with(".version") || l.starts_with(".target") || l.starts_with(".address_size"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut lines: Vec<String> = ptx[start..end].lines().map(str::to_owned).collect();
    lines[0] = lines[0].replace(&format!(".entry {name}("), &format!(".entry {symbol}("));
    let steps: Vec<usize> =
        lines.iter().enumerate().filter(|(_, l)| layout::litmus::test_step(l).is_some()).map(|(i, _)| i).collect();
    let found: Vec<String> =
        steps.iter().filter_map(|&i| layout::litmus::test_step(&lines[i])).map(str::to_owned).collect();
    if !found.iter().map(String::as_str).eq(kernel.program()) {
        return Err(format!("{name}: the PTX's test steps {found:?} are not its program"));
    }
    let line_of = |index: usize| steps.get(index).copied().ok_or_else(|| format!("{name}: no step {index}"));
    match edit {
        Edit::Replace { index, ptx: new } => {
            let i = line_of(*index)?;
            lines[i] = lines[i].replacen(&found[*index], new, 1);
        }
        Edit::Remove { index } => {
            lines.remove(line_of(*index)?);
        }
        Edit::Swap { first, second } => {
            let (a, b) = (line_of(*first)?, line_of(*second)?);
            let named: Vec<String> =
                registers(&lines[a]).into_iter().chain(registers(&lines[b])).map(str::to_owned).collect();
            if let Some(between) =
                lines[a + 1..b].iter().find(|l| registers(l).iter().any(|r| named.iter().any(|n| n == r)))
            {
                return Err(format!(
                    "{name}: `{}` sits between the two accesses and shares a register",
                    between.trim()
                ));
            }
            let reads =
                |reader: &str, writer: &str| destination(writer).is_some_and(|d| registers(reader).contains(&d));
            if reads(&lines[b], &lines[a]) || reads(&lines[a], &lines[b]) {
                return Err(format!("{name}: one of the two accesses reads what the other writes"));
            }
            lines.swap(a, b);
        }
    }
    Ok(header + "\n" + &lines.join("\n") + "\n")
}

/// What one mutant did.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MutantRow {
    /// The mutant.
    pub mutant: Mutant,
    /// Why it was not run, if it was not: equivalent, or not expressible as
    /// an edit of the PTX.
    pub skipped: Option<String>,
    /// What it counted, if it ran.
    pub counts: Option<LitmusCounts>,
    /// Instances and seconds run by the end of the batch of launches in which
    /// the first weak outcome appeared, if one did: an upper bound, within one
    /// batch, on what the kill took.
    pub killed_after: Option<(u64, f64)>,
}

impl MutantRow {
    /// Whether the environment killed it.
    pub fn killed(&self) -> bool {
        self.killed_after.is_some()
    }
}

/// Runs the mutants of every forbidden row of `options`, each until its
/// first weak outcome or until the row budget of `options` is spent. A
/// mutant is made from `ptx` (the loaded base module's text), or for a
/// kernel of the Hopper module from the embedded Hopper PTX.
pub fn run(
    kernels: &LitmusKernels<'_>,
    gpu: &Gpu,
    ptx: &str,
    options: &LitmusOptions,
    progress: &Progress,
) -> Result<Vec<MutantRow>, LabError> {
    let mut state = options.seed;
    let all: Vec<Mutant> =
        options.kernels.iter().flat_map(|&k| options.placements.iter().flat_map(move |&p| mutants(k, p))).collect();
    progress.start(all.len() as u64);
    let mut rows = Vec::new();
    for (number, mutant) in all.into_iter().enumerate() {
        if interrupt::requested() {
            break;
        }
        progress.message(format!("{} {}: {}", mutant.kernel.key(), mutant.placement.key(), mutant.mutation));
        let spec = &layout::litmus::KERNELS[mutant.kernel.index()];
        if !mutant.allowed {
            rows.push(MutantRow {
                mutant,
                skipped: Some("equivalent: the model still forbids it".to_owned()),
                counts: None,
                killed_after: None,
            });
            progress.step();
            continue;
        }
        let name = symbol(spec, number);
        let source = match spec.entry.module {
            layout::Module::Base => ptx,
            layout::Module::Hopper => crate::gpu::EMBEDDED_HOPPER_PTX,
        };
        let text = match module(source, spec, &mutant.edit, &name) {
            Ok(text) => text,
            Err(why) => {
                rows.push(MutantRow { mutant, skipped: Some(why), counts: None, killed_after: None });
                progress.step();
                continue;
            }
        };
        let function = match gpu.function_in(&format!("mutant {name}"), &text, &name) {
            Ok(function) => function,
            Err(e) => {
                rows.push(MutantRow {
                    mutant,
                    skipped: Some(format!("did not load: {e}")),
                    counts: None,
                    killed_after: None,
                });
                progress.step();
                continue;
            }
        };
        // The budget is spent in slices of one batch of launches, so that a
        // kill is noticed within a batch of the first weak outcome.
        let mut total: Option<LitmusCounts> = None;
        let mut killed_after = None;
        loop {
            let slice = LitmusOptions { budget: Budget::Instances(1), ..options.clone() };
            let row = run_one_with(
                kernels,
                Some(&function),
                mutant.kernel,
                mutant.placement,
                &options.environment,
                &slice,
                &mut state,
            )?;
            let counts = row.counts;
            let sum = match total.take() {
                None => counts,
                Some(mut t) => {
                    t.launches += counts.launches;
                    t.instances += counts.instances;
                    t.seconds += counts.seconds;
                    for (a, b) in t.histogram.iter_mut().zip(&counts.histogram) {
                        *a += b;
                    }
                    t
                }
            };
            let weak = sum.histogram[mutant.kernel.test.weak() as usize];
            if weak > 0 && killed_after.is_none() {
                killed_after = Some((sum.instances, sum.seconds));
            }
            let spent = match options.budget {
                Budget::Instances(n) => sum.instances >= n,
                Budget::Seconds(s) => sum.seconds >= s,
            };
            total = Some(sum);
            if killed_after.is_some() || spent || interrupt::requested() {
                break;
            }
        }
        // A mutant cut short by Ctrl-C did not survive its budget: it is
        // reported as not run, and the run ends.
        if killed_after.is_none() && interrupt::requested() {
            rows.push(MutantRow { mutant, skipped: Some("interrupted".to_owned()), counts: total, killed_after });
            break;
        }
        rows.push(MutantRow { mutant, skipped: None, counts: total, killed_after });
        progress.step();
    }
    progress.finish();
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout::litmus::KERNELS;

    fn kernel(symbol: &str) -> LitmusKernel {
        LitmusKernel::of(KERNELS.iter().find(|k| k.entry.symbol == symbol).unwrap())
    }

    #[test]
    fn allowed_rows_have_no_mutants_and_forbidden_ones_have_killable_ones() {
        assert!(mutants(kernel("litmus_mp_relaxed_gpu"), Split::InterBlock).is_empty());
        let m = mutants(kernel("litmus_mp_rel_acq_gpu"), Split::InterBlock);
        let allowed: Vec<&str> = m.iter().filter(|m| m.allowed).map(|m| m.mutation.as_str()).collect();
        // Either half of the pair relaxed, or narrowed to .cta across blocks,
        // lets the stale read through; reversing a role's accesses does too.
        assert!(allowed.contains(&"role 0: its release made relaxed"), "{allowed:?}");
        assert!(allowed.contains(&"role 1: its acquire made relaxed"), "{allowed:?}");
        assert!(allowed.contains(&"role 1: its two accesses reversed"), "{allowed:?}");
    }

    #[test]
    fn an_sc_fence_weakened_to_acq_rel_lets_store_buffering_through() {
        let m = mutants(kernel("litmus_sb_fence_sc_gpu"), Split::InterBlock);
        let weakened = m.iter().find(|m| m.mutation == "role 0: its fence.sc.gpu made fence.acq_rel.gpu").unwrap();
        assert!(weakened.allowed);
    }

    #[test]
    fn every_mutant_of_every_forbidden_row_is_a_module_or_says_why_not() {
        for k in LitmusKernel::all() {
            for p in Split::ALL {
                for (n, m) in mutants(k, p).iter().enumerate() {
                    let spec = &KERNELS[k.index()];
                    let ptx = crate::gpu::embedded_ptx(spec.entry.module);
                    match module(ptx, spec, &m.edit, &symbol(spec, n)) {
                        Ok(text) => {
                            assert!(
                                text.starts_with(".version") && text.contains(&format!(".entry {}(", symbol(spec, n)))
                            );
                            let steps = text.lines().filter(|l| layout::litmus::test_step(l).is_some()).count();
                            let expected = spec.program().count() - usize::from(matches!(m.edit, Edit::Remove { .. }));
                            assert_eq!(steps, expected, "{}: {}", spec.entry.symbol, m.mutation);
                        }
                        Err(why) => assert!(matches!(m.edit, Edit::Swap { .. }), "{}: {why}", m.mutation),
                    }
                }
            }
        }
    }
}
