//! Helpers shared by the lab's top-level tests: reading one kernel's body out
//! of a PTX module.

// Reading one kernel out of a module is the PTX builder's, which
// `cargo xtask practice` uses too.
pub use ptx_builder::{entry_body, entry_params};

/// The parameters of kernel `name` as its Rust source writes them, each as
/// `name: type` with paths cut to their last segment (`params: *const
/// Params`). `source` is the source of the kernel's family, all files
/// together; a kernel that a list names for a macro to export (`name =>
/// Variant` in the litmus grid, `name = store, load;` for a cross-block
/// publication variant) has the signature of the macro's `fn $symbol(`, the
/// only one in `source`. `None` if neither is found.
pub fn rust_params(source: &str, name: &str) -> Option<Vec<String>> {
    let open = format!("fn {name}(");
    let start = match source.find(&open) {
        Some(at) => at + open.len(),
        None if source.contains(&format!("{name} =")) => source.find("fn $symbol(")? + "fn $symbol(".len(),
        None => return None,
    };
    let rest = &source[start..];
    let list = &rest[..rest.find(')')?];
    let params = list.split(',').filter(|p| !p.trim().is_empty()).map(|p| {
        let (name, ty) = p.split_once(':').map_or((p, ""), |(n, t)| (n.trim(), t.trim()));
        let (pointer, path) =
            ["*const ", "*mut "].iter().find_map(|q| ty.strip_prefix(q).map(|rest| (*q, rest))).unwrap_or(("", ty));
        format!("{name}: {pointer}{}", path.rsplit("::").next().unwrap_or(path))
    });
    Some(params.collect())
}

/// A kernel's instructions, as a 64-bit FNV-1a hash of its `.entry` body
/// with what does not reach `ptxas` as code left out: comments, blank
/// lines, the numbers in LLVM's block labels and the crate hash in mangled
/// names (`Cs…_7kernels`, which depends on the path of the checkout). A
/// label the body defines (`$L__BB12_3:`) is named by its place among the
/// body's labels (`$L__BB_#0` for the first), since both its numbers move
/// when a kernel is added before it or LLVM numbers the same blocks another
/// way; a label it only names keeps its block number (`$L__BB_3`). Two
/// kernels with one fingerprint are one program to `ptxas`, so they compile
/// to the same SASS.
pub fn instruction_fingerprint(body: &str) -> u64 {
    let mut lines = Vec::new();
    for line in body.lines() {
        let code = line.split("//").next().unwrap_or("").trim_end();
        if !code.trim().is_empty() {
            lines.push(without_numbers(code));
        }
    }
    // The labels the body defines, in order: `$L__BB_3:` opens a line.
    let defined: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_suffix(':').filter(|d| d.starts_with("$L__BB_")).map(str::to_owned))
        .collect();
    let mut normalized = String::with_capacity(body.len());
    for line in &lines {
        normalized.push_str(&with_labels_in_order(line, &defined));
        normalized.push('\n');
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in normalized.trim_end().bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// `line` with every label of `defined` (`$L__BB_3`) as `$L__BB_#` and its
/// place in `defined`.
fn with_labels_in_order(line: &str, defined: &[String]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("$L__BB_") {
        let digits = rest[at + 7..].bytes().take_while(u8::is_ascii_digit).count();
        let label = &rest[at..at + 7 + digits];
        out.push_str(&rest[..at]);
        match defined.iter().position(|d| d == label) {
            Some(place) => out.push_str(&format!("$L__BB_#{place}")),
            None => out.push_str(label),
        }
        rest = &rest[at + 7 + digits..];
    }
    out.push_str(rest);
    out
}

/// `line` with `$L__BB<digits>_` as `$L__BB_` and `Cs<hash>_7kernels` as
/// `Cs_7kernels`.
fn without_numbers(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        let label = rest.find("$L__BB");
        let krate = rest.find("Cs").filter(|&i| {
            rest[i + 2..].split_once('_').is_some_and(|(h, tail)| {
                !h.is_empty() && h.bytes().all(|b| b.is_ascii_alphanumeric()) && tail.starts_with("7kernels")
            })
        });
        match (label, krate) {
            (Some(l), k) if k.is_none_or(|k| l < k) => {
                let digits = rest[l + 6..].bytes().take_while(u8::is_ascii_digit).count();
                if digits > 0 && rest[l + 6 + digits..].starts_with('_') {
                    out.push_str(&rest[..l + 6]);
                    rest = &rest[l + 6 + digits..];
                } else {
                    out.push_str(&rest[..l + 6]);
                    rest = &rest[l + 6..];
                }
            }
            (_, Some(k)) => {
                let end = k + 2 + rest[k + 2..].find('_').unwrap();
                out.push_str(&rest[..k + 2]);
                rest = &rest[end..];
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_entrys_parameter_types() {
        let ptx = ".visible .entry e()\n{\n}\n.visible .entry k(\n\t.param .u64 .ptr .align 1 k_param_0,\n\t\
                   .param .u32 k_param_1\n)\n{\n}\n";
        assert_eq!(entry_params(ptx, "e"), Some(vec![]));
        assert_eq!(entry_params(ptx, "k"), Some(vec![".u64 .ptr".to_owned(), ".u32".to_owned()]));
        assert_eq!(entry_params(ptx, "x"), None);
    }

    #[test]
    fn reads_a_kernels_rust_parameters_and_a_macros() {
        let source = "pub unsafe extern \"ptx-kernel\" fn k(input: *const f32, n: usize) {}\n\
                      fn $symbol(\n    params: *const layout::litmus::Params,\n    shift: u32,\n) {}\n\
                      Mp { litmus_mp_weak => Weak }";
        assert_eq!(rust_params(source, "k").unwrap(), ["input: *const f32", "n: usize"]);
        assert_eq!(rust_params(source, "litmus_mp_weak").unwrap(), ["params: *const Params", "shift: u32"]);
        assert_eq!(rust_params(source, "nothing"), None);
    }

    #[test]
    fn a_fingerprint_ignores_comments_label_numbers_and_the_crate_hash_only() {
        let a = ".entry k(\n// %bb.0:\n\t@%p1 bra \t$L__BB12_3;   // note\n\tcall.uni _RNvCsAb12_7kernels1f, (p);\n}";
        let b = ".entry k(\n\t@%p1 bra \t$L__BB140_3;\n\n\tcall.uni _RNvCsZz9_7kernels1f, (p);\n}";
        assert_eq!(instruction_fingerprint(a), instruction_fingerprint(b));
        let c = ".entry k(\n\t@%p1 bra \t$L__BB140_4;\n\tcall.uni _RNvCsZz9_7kernels1f, (p);\n}";
        assert_ne!(instruction_fingerprint(b), instruction_fingerprint(c), "another block is another program");
        let d = ".entry k(\n\t@%p1 bra \t$L__BB140_3;\n\tcall.uni _RNvCsZz9_7kernels1g, (p);\n}";
        assert_ne!(instruction_fingerprint(b), instruction_fingerprint(d), "another callee is another program");
        // The same blocks numbered another way are the same program; a
        // branch to another of them is not.
        let e = ".entry k(\n\tbra.uni \t$L__BB7_2;\n$L__BB7_5:\n\tret;\n$L__BB7_2:\n\tbra.uni \t$L__BB7_5;\n}";
        let f = ".entry k(\n\tbra.uni \t$L__BB9_4;\n$L__BB9_1:\n\tret;\n$L__BB9_4:\n\tbra.uni \t$L__BB9_1;\n}";
        assert_eq!(instruction_fingerprint(e), instruction_fingerprint(f));
        let g = ".entry k(\n\tbra.uni \t$L__BB9_1;\n$L__BB9_1:\n\tret;\n$L__BB9_4:\n\tbra.uni \t$L__BB9_1;\n}";
        assert_ne!(instruction_fingerprint(f), instruction_fingerprint(g), "another target is another program");
    }

    #[test]
    fn finds_one_entry_and_stops_at_its_brace() {
        let ptx = ".visible .entry a(\n)\n{\n\tret;\n}\n.visible .entry b(\n)\n{\n\tbar.sync 0;\n}\n";
        assert_eq!(entry_body(ptx, "a"), Some(".entry a(\n)\n{\n\tret;\n}"));
        assert!(entry_body(ptx, "b").unwrap().contains("bar.sync"));
        assert_eq!(entry_body(ptx, "c"), None);
    }
}
