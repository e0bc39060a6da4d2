//! `cargo xtask sass`: the machine code each kernel becomes, and what in it
//! synchronizes.
//!
//! PTX is a virtual ISA; `ptxas` turns it into SASS, the GPU's own
//! instructions, and that is where questions like "is a shared-memory float
//! atomic one instruction or a compare-and-swap loop?" are answered.
//! [`summarize`] is a pure function over `cuobjdump -sass` text, tested here
//! and on the lab's real PTX in `tests/ptx.rs`; [`litmus_problems`] holds a
//! litmus kernel's SASS to its program (`sass/check.rs`), reading it with
//! `sass/accesses.rs` and following registers with `sass/dataflow.rs`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::Error;

mod accesses;
mod check;
mod dataflow;
mod instruction;

pub use accesses::{LitmusSass, Operand, kept_live, litmus_sass, memory_opcodes};
pub use check::{PARAMETER_BASE, litmus_problems, parameter_word};
pub use dataflow::Roots;

/// The opcode families that synchronize or communicate: atomics (`ATOM`,
/// `ATOMS` shared, `ATOMG` global), reductions (`RED`, `REDG`), barriers
/// (`BAR`), memory barriers and fences (`MEMBAR`, `FENCE`, `ERRBAR`), cache
/// control (`CCTL`: an acquire at device scope invalidates L1 with it), warp
/// shuffles (`SHFL`) and, on Hopper, the cluster barrier's arrive and wait
/// (`UCGABAR_ARV`, `UCGABAR_WAIT`), the error barrier a cluster's release
/// adds (`CGAERRBAR`), the asynchronous store into another block's shared
/// memory (`STAS`) and the `mbarrier`'s operations (`SYNCS`).
pub const FAMILIES: [&str; 12] =
    ["ATOM", "RED", "BAR", "MEMBAR", "FENCE", "ERRBAR", "CCTL", "SHFL", "UCGABAR", "CGAERRBAR", "STAS", "SYNCS"];

/// One kernel's synchronizing instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The kernel's name.
    pub kernel: String,
    /// Each full opcode of [`FAMILIES`] and how often it appears.
    pub counts: BTreeMap<String, usize>,
}

impl Summary {
    /// Whether an atomic became a compare-and-swap loop (`.CAS`, or the
    /// `ATOMS.CAST.SPIN` form Hopper uses for a shared float add).
    pub fn has_cas_loop(&self) -> bool {
        self.counts.keys().any(|op| op.contains(".CAS"))
    }

    /// Whether some opcode contains `part` (`"MEMBAR.ALL.GPU"`, `".CAS"`).
    pub fn has(&self, part: &str) -> bool {
        self.counts.keys().any(|op| op.contains(part))
    }

    /// The promises of `entry`'s registry row this SASS breaks: each
    /// `sass_has` it lacks and each `sass_lacks` it has, as one phrase each.
    pub fn broken_promises(&self, entry: &layout::Entry) -> Vec<String> {
        let missing = entry.sass_has.iter().filter(|p| !self.has(p)).map(|p| format!("lacks {p}"));
        let present = entry.sass_lacks.iter().filter(|p| self.has(p)).map(|p| format!("has {p}"));
        missing.chain(present).collect()
    }

    /// One line: `kernel: OP xN, ...` and a note on CAS loops.
    pub fn line(&self) -> String {
        let ops: Vec<String> = self.counts.iter().map(|(op, n)| format!("{op} x{n}")).collect();
        let ops = if ops.is_empty() { "no synchronizing instructions".to_owned() } else { ops.join(", ") };
        let cas = if self.has_cas_loop() { " [compare-and-swap loop]" } else { "" };
        format!("{}: {ops}{cas}", self.kernel)
    }
}

/// The SASS of each kernel in `cuobjdump -sass` output, by name, in order.
pub fn split_functions(sass: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in sass.lines() {
        if let Some(name) = line.trim().strip_prefix("Function : ") {
            out.push((name.trim().to_owned(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The synchronizing instructions of every kernel in `cuobjdump -sass` text.
pub fn summarize(sass: &str) -> Vec<Summary> {
    split_functions(sass)
        .into_iter()
        .map(|(kernel, body)| {
            let mut counts = BTreeMap::new();
            for op in body.lines().filter_map(instruction::instruction).map(|i| i.opcode) {
                if FAMILIES.iter().any(|f| op.starts_with(f)) {
                    *counts.entry(op).or_insert(0) += 1;
                }
            }
            Summary { kernel, counts }
        })
        .collect()
}

/// Assembles `ptx` for `arch` and returns (`cuobjdump -sass` text, `ptxas -v`
/// report).
pub fn disassemble(
    ptxas: &Path,
    cuobjdump: &Path,
    ptx: &Path,
    arch: &str,
    work: &Path,
) -> Result<(String, String), Error> {
    std::fs::create_dir_all(work).map_err(|e| Error(format!("cannot create {}: {e}", work.display())))?;
    let cubin = work.join(format!("kernels.{arch}.cubin"));
    let out = Command::new(ptxas)
        .args(["-v", "-arch", arch])
        .arg(ptx)
        .arg("-o")
        .arg(&cubin)
        .output()
        .map_err(|e| Error(format!("cannot run {}: {e}", ptxas.display())))?;
    let resources = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(Error(format!("ptxas -arch={arch} failed:\n{resources}")));
    }
    let sass = disassemble_cubin(cuobjdump, &cubin)?;
    Ok((sass, resources))
}

/// `cuobjdump -sass` of a cubin: its SASS text, one `Function :` section
/// per kernel.
pub fn disassemble_cubin(cuobjdump: &Path, cubin: &Path) -> Result<String, Error> {
    // cuobjdump runs nvdisasm, which sits beside it.
    let mut cmd = Command::new(cuobjdump);
    if let Some(dir) = cuobjdump.parent() {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![dir.to_path_buf()];
        dirs.extend(std::env::split_paths(&path));
        cmd.env("PATH", std::env::join_paths(dirs).unwrap_or(path));
    }
    let out =
        cmd.arg("-sass").arg(cubin).output().map_err(|e| Error(format!("cannot run {}: {e}", cuobjdump.display())))?;
    if !out.status.success() {
        return Err(Error(format!("cuobjdump failed: {}", String::from_utf8_lossy(&out.stderr))));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `ptxas -v`'s resource lines for `kernel`: registers, shared memory,
/// stack and spills.
pub fn resources_of(report: &str, kernel: &str) -> String {
    let mut lines = report.lines().skip_while(|l| !l.contains(&format!("entry function '{kernel}'")));
    lines.next();
    lines
        .take_while(|l| !l.contains("Compiling entry function"))
        .filter(|l| l.contains("registers") || l.contains("spill") || l.contains("smem"))
        .map(|l| l.trim().trim_start_matches("ptxas info    : "))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The registers a thread of `kernel` uses, from `ptxas -v`'s report.
pub fn registers_of(report: &str, kernel: &str) -> Option<u32> {
    resources_of(report, kernel).split("Used ").nth(1)?.split(' ').next()?.parse().ok()
}

/// The bytes of local memory (stack frame) a thread of `kernel` keeps, from
/// `ptxas -v`'s report: an array the compiler could not hold in registers
/// lands here, and every access to it is a load or store to memory.
pub fn stack_frame_of(report: &str, kernel: &str) -> Option<u32> {
    resources_of(report, kernel).split(" bytes stack frame").next()?.rsplit(' ').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SASS: &str = "
\tcode for sm_90
\t\tFunction : sum_shared_atomic
        /*0110*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;     /* 0x0000000000007b1d */
        /*0200*/              @!P0 ATOMS.CAST.SPIN R5, [R2], R4, R5 ; /* 0x000000040205738d */
        /*0240*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;     /* 0x0000000000007b1d */
        /*02b0*/                   REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR6][R2.64], R5 ;
\t\tFunction : empty
        /*0000*/                   EXIT ;
";

    #[test]
    fn counts_synchronizing_opcodes_per_kernel() {
        let s = summarize(SASS);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].kernel, "sum_shared_atomic");
        assert_eq!(s[0].counts["BAR.SYNC.DEFER_BLOCKING"], 2);
        assert_eq!(s[0].counts["ATOMS.CAST.SPIN"], 1, "a predicated instruction still counts");
        assert!(s[0].has_cas_loop());
        assert!(s[1].counts.is_empty() && !s[1].has_cas_loop());
        assert_eq!(s[1].line(), "empty: no synchronizing instructions");
        assert!(s[0].line().ends_with("[compare-and-swap loop]"));
    }

    #[test]
    fn promises_are_checked_against_the_registry_entry() {
        let s = summarize(SASS);
        assert!(s[0].broken_promises(&layout::sum::SHARED_ATOMIC.entry).is_empty());
        assert!(s[1].broken_promises(&layout::baseline::EMPTY).is_empty());
        // The shared-atomic kernel's SASS is not the tree kernel's.
        assert_eq!(s[0].broken_promises(&layout::sum::TREE_ATOMIC.entry), ["has ATOMS"]);
    }

    #[test]
    fn reads_resources_of_one_kernel() {
        let report = "ptxas info    : Compiling entry function 'a' for 'sm_90'\n\
                      ptxas info    : Function properties for a\n    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
                      ptxas info    : Used 8 registers, used 0 barriers\n\
                      ptxas info    : Compiling entry function 'b' for 'sm_90'\n\
                      ptxas info    : Used 12 registers, used 1 barriers\n";
        assert_eq!(
            resources_of(report, "a"),
            "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads; Used 8 registers, used 0 barriers"
        );
        assert_eq!(resources_of(report, "b"), "Used 12 registers, used 1 barriers");
        assert_eq!(
            (registers_of(report, "a"), registers_of(report, "b"), registers_of(report, "c")),
            (Some(8), Some(12), None)
        );
        let framed = report.replace("    0 bytes stack frame", "    32 bytes stack frame");
        assert_eq!((stack_frame_of(report, "a"), stack_frame_of(&framed, "a")), (Some(0), Some(32)));
        assert_eq!((stack_frame_of(report, "b"), stack_frame_of(report, "c")), (None, None));
    }
}
