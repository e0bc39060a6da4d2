//! The kernels' PTX, checked on any machine: it assembles with NVIDIA's
//! `ptxas` for three architectures, links nothing it does not define, and each
//! kernel contains the instructions its registry entry (`layout`) promises,
//! in PTX and in SASS. The kernels are the registry's: a kernel added there
//! is checked here with no edit.
//!
//! `cargo xtask test` installs `ptxas` where it is missing and passes it in
//! `$PTXAS`; without one these tests fail and say how to get it.

use std::path::PathBuf;
use std::process::Command;

use host::gpu::embedded_ptx;
use lab_tests::{entry_body, entry_params, instruction_fingerprint, rust_params};
use layout::Module;

fn ptxas() -> PathBuf {
    xtask::ptxas::find(&xtask::paths::workspace_root())
        .expect("no ptxas found: run `cargo xtask test` (it installs one) or set PTXAS=/path/to/ptxas")
}

/// One embedded PTX module in a file of its own for each caller: the tests
/// run in parallel, and one must never read the file while another rewrites
/// it.
fn ptx_file(module: Module) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("lab-ptx-test-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(module.file_name());
    std::fs::write(&path, embedded_ptx(module)).unwrap();
    path
}

/// The sm_90 SASS of both modules, as one text (each kernel is in one).
fn sass_of_both_modules(tag: &str) -> String {
    let root = xtask::paths::workspace_root();
    let cuobjdump = xtask::ptxas::find_tool(&root, "cuobjdump")
        .expect("no cuobjdump found: run `cargo xtask test` (it installs one)");
    let mut text = String::new();
    for module in Module::ALL {
        let work = std::env::temp_dir().join(format!("lab-{tag}-{}-{}", module.arch(), std::process::id()));
        let (module_text, _) = xtask::sass::disassemble(&ptxas(), &cuobjdump, &ptx_file(module), "sm_90", &work)
            .unwrap_or_else(|e| panic!("{}: {e}", module.file_name()));
        // The cubin was only a step to the SASS text.
        let _ = std::fs::remove_dir_all(&work);
        text.push_str(&module_text);
    }
    text
}

/// The base module assembles for Turing, Ampere and Hopper; the Hopper module
/// for Hopper.
#[test]
fn assembles_for_turing_ampere_and_hopper() {
    for (module, arch) in
        [(Module::Base, "sm_75"), (Module::Base, "sm_80"), (Module::Base, "sm_90"), (Module::Hopper, "sm_90")]
    {
        let ptx = ptx_file(module);
        let cubin = ptx.with_extension(format!("{arch}.cubin"));
        let out = Command::new(ptxas())
            .args(["-v", "-arch", arch])
            .arg(&ptx)
            .arg("-o")
            .arg(&cubin)
            .output()
            .expect("ptxas runs");
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "ptxas -arch={arch} failed on {}:\n{log}", module.file_name());
        // `-v` reports each function's registers; every kernel must be there.
        for entry in layout::entries().filter(|e| e.module == module) {
            let name = entry.symbol;
            assert!(log.contains(&format!("Compiling entry function '{name}' for '{arch}'")), "{arch}: {name}\n{log}");
        }
        assert!(cubin.metadata().unwrap().len() > 0);
    }
}

/// `ptxas -v`'s resource report for both modules on sm_90, one after the
/// other. `tag` names the test's own cubins, so tests running in parallel
/// never share a file.
fn ptxas_report(tag: &str) -> String {
    let mut log = String::new();
    for module in Module::ALL {
        let ptx = ptx_file(module);
        let cubin = ptx.with_extension(format!("{tag}.cubin"));
        let out =
            Command::new(ptxas()).args(["-v", "-arch", "sm_90"]).arg(&ptx).arg("-o").arg(&cubin).output().unwrap();
        assert!(out.status.success(), "ptxas -v failed:\n{}", String::from_utf8_lossy(&out.stderr));
        log.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    log
}

/// A kernel that takes `--block` must launch at 1024 threads, so on sm_90
/// (65,536 registers per block) it may use at most 64 registers a thread:
/// more and the launch fails with "too many resources requested".
#[test]
fn every_kernel_that_takes_any_block_fits_1024_threads_in_the_register_file() {
    let log = ptxas_report("registers");
    let mut too_many = Vec::new();
    // A cluster route is launched at its own blocks, never `--block`'s
    // (the test below).
    let clusters: Vec<&str> =
        layout::sum::KERNELS.iter().filter_map(|k| k.cluster_route).map(|r| r.entry.symbol).collect();
    let takes_any_block = |e: &&layout::Entry| {
        matches!(e.family, layout::Family::Sum | layout::Family::Histogram) && !clusters.contains(&e.symbol)
    };
    for entry in layout::entries().filter(takes_any_block) {
        let registers = xtask::sass::registers_of(&log, entry.symbol)
            .unwrap_or_else(|| panic!("no register count for {} in ptxas -v", entry.symbol));
        if registers > 64 {
            too_many.push(format!("{}: {registers} registers", entry.symbol));
        }
    }
    assert!(too_many.is_empty(), "cannot launch 1024 threads: {too_many:?}");
}

/// A cluster route launches blocks of its own size, whatever block was
/// asked: at its largest block its registers must fit the register file.
#[test]
fn every_cluster_route_fits_its_largest_block_in_the_register_file() {
    let log = ptxas_report("cluster-registers");
    for route in layout::sum::KERNELS.iter().filter_map(|k| k.cluster_route) {
        let registers = xtask::sass::registers_of(&log, route.entry.symbol)
            .unwrap_or_else(|| panic!("no register count for {} in ptxas -v", route.entry.symbol));
        let most = 65_536 / route.max_threads();
        assert!(registers <= most, "{}: {registers} registers, at most {most}", route.entry.symbol);
    }
}

/// The two sums that run at the memory's limit keep nothing in local memory:
/// an array of the deterministic sum's batch sums that ptxas leaves on the
/// stack adds a local-memory store and reload to every chunk (README,
/// section 5), and nothing else in its SASS shows it.
#[test]
fn the_sums_at_the_memory_limit_keep_no_stack_frame() {
    let log = ptxas_report("stack");
    for entry in [&layout::sum::BANDWIDTH.entry, &layout::sum::DETERMINISTIC.entry] {
        let frame = xtask::sass::stack_frame_of(&log, entry.symbol)
            .unwrap_or_else(|| panic!("no stack frame line for {} in ptxas -v", entry.symbol));
        assert_eq!(frame, 0, "{} keeps {frame} bytes in local memory", entry.symbol);
    }
}

/// Every kernel is an `.entry` of the module its registry entry names, and
/// so in exactly one module.
#[test]
fn every_kernel_is_an_entry_of_its_module_and_nothing_is_left_unresolved() {
    for module in Module::ALL {
        let ptx = embedded_ptx(module);
        let listed: Vec<&str> = layout::entries().filter(|e| e.module == module).map(|e| e.symbol).collect();
        for symbol in &listed {
            assert!(
                ptx.contains(&format!(".visible .entry {symbol}(")),
                "no .entry {symbol} in {}",
                module.file_name()
            );
        }
        // And no kernel the registry does not know: the host could not launch it.
        let entries = ptx.matches(".visible .entry ").count();
        assert_eq!(entries, listed.len(), "{} has kernels the registry does not list", module.file_name());
        let unresolved: Vec<&str> = ptx.lines().filter(|l| l.trim_start().starts_with(".extern .func")).collect();
        assert!(unresolved.is_empty(), "unresolved functions in {}: {unresolved:?}", module.file_name());
    }
}

/// Every kernel's `.param` list is its registry entry's `params`: as many, in
/// order, each of the PTX type its Rust type becomes. The host pushes a
/// launch's arguments from the same list (`host/src/gpu/args.rs`), so a
/// parameter added, dropped, moved or retyped in a kernel fails here, not
/// on a GPU.
#[test]
fn each_kernels_ptx_parameters_are_its_registry_entrys() {
    for entry in layout::entries() {
        let name = entry.symbol;
        let found = entry_params(embedded_ptx(entry.module), name).unwrap_or_else(|| panic!("no .entry {name}"));
        let listed: Vec<&str> = entry.params.iter().map(|p| p.ty.ptx()).collect();
        let signature: Vec<String> = entry.params.iter().map(ToString::to_string).collect();
        assert_eq!(found, listed, "{name}: the PTX's .param types are not its entry's ({})", signature.join(", "));
    }
}

/// And the entry's names and Rust types are the kernel's Rust signature's,
/// which the PTX does not keep (a `*const f32` and a `*mut u32` are both
/// `.u64 .ptr` there).
#[test]
fn each_kernels_rust_signature_is_its_registry_entrys() {
    let root = xtask::paths::workspace_root();
    let sources = |paths: &[&str]| {
        let mut source = String::new();
        let mut dirs: Vec<PathBuf> = paths.iter().map(|p| root.join(p)).collect();
        while let Some(path) = dirs.pop() {
            if path.is_dir() {
                dirs.extend(std::fs::read_dir(&path).unwrap().map(|f| f.unwrap().path()));
            } else if path.extension().is_some_and(|e| e == "rs") {
                source.push_str(&std::fs::read_to_string(&path).unwrap());
                source.push('\n');
            }
        }
        source
    };
    // Each family's source, so that the one macro a family exports its
    // kernels with is the only `fn $symbol(` there; the litmus grid that names
    // the litmus kernels is `layout`'s.
    let family = |family: layout::Family| match family {
        layout::Family::Sum => sources(&["kernels/src/sum"]),
        layout::Family::Publish => sources(&["kernels/src/publish"]),
        layout::Family::Histogram => sources(&["kernels/src/histogram"]),
        layout::Family::Baseline => sources(&[
            "kernels/src/empty.rs",
            "kernels/src/evict.rs",
            "kernels/src/hold.rs",
            "kernels/src/cluster_probe.rs",
        ]),
        layout::Family::Litmus => sources(&["kernels/src/litmus", "layout/src/litmus/suite/mod.rs"]),
        layout::Family::Pitfall => sources(&["kernels/src/pitfall"]),
        layout::Family::System => sources(&["kernels/src/system"]),
        layout::Family::Ladder => sources(&["kernels/src/ladder"]),
    };
    for entry in layout::entries() {
        let name = entry.symbol;
        let found = rust_params(&family(entry.family), name)
            .unwrap_or_else(|| panic!("no `fn {name}(` in its family's source, nor a list that names it"));
        let listed: Vec<String> = entry.params.iter().map(ToString::to_string).collect();
        assert_eq!(found, listed, "{name}: its Rust signature is not its registry entry's");
    }
}

#[test]
fn each_kernel_emits_the_instructions_its_docs_promise() {
    for entry in layout::entries() {
        let name = entry.symbol;
        let body = entry_body(embedded_ptx(entry.module), name).unwrap_or_else(|| panic!("no .entry {name}"));
        for instruction in entry.ptx_has {
            assert!(body.contains(instruction), "{name} lacks {instruction}:\n{body}");
        }
        for instruction in entry.ptx_lacks {
            assert!(!body.contains(instruction), "{name} has {instruction}:\n{body}");
        }
    }
}

/// Every litmus kernel's test accesses, in program order, with exactly the
/// qualifiers its variant names, and its fences between them: the `.u32`
/// loads, stores and fences of its body are exactly `Kernel::program()`. The
/// kernel's other accesses (environment, stress, results) are `.b32`, so they
/// cannot hide a test access or add one.
#[test]
fn litmus_kernels_access_memory_in_program_order_with_their_variants_qualifiers() {
    for kernel in &layout::litmus::KERNELS {
        let name = kernel.entry.symbol;
        let body = entry_body(embedded_ptx(kernel.entry.module), name).unwrap_or_else(|| panic!("no .entry {name}"));
        let found: Vec<&str> = body.lines().filter_map(layout::litmus::test_step).collect();
        let expected: Vec<&str> = kernel.program().collect();
        assert_eq!(found, expected, "{name}");
    }
}

#[test]
fn no_panic_path_survives_in_any_kernel() {
    // The panic handler traps; a `trap` in the PTX means some kernel kept a
    // bounds check or overflow check that could fire. A kernel that gives up
    // on purpose (`thread::give_up`, at a wait's deadline) marks its `trap`.
    for module in Module::ALL {
        let unmarked = embedded_ptx(module).lines().filter(|l| l.contains("trap;") && !l.contains(GIVE_UP_MARK));
        assert_eq!(unmarked.count(), 0, "a panic path reached {}", module.file_name());
    }
}

/// The comment `thread::give_up` writes beside its `trap`.
const GIVE_UP_MARK: &str = "// give up: a wait passed its deadline";

#[test]
fn each_module_targets_its_architecture() {
    for module in Module::ALL {
        let ptx = embedded_ptx(module);
        assert!(ptx.contains(&format!(".target {}\n", module.arch())), "{}", module.file_name());
        assert!(ptx.contains(".address_size 64"));
    }
}

/// The machine code on Hopper, summarized by `cargo xtask sass`'s own
/// function: what each synchronization primitive becomes, checked against
/// each kernel's registry entry (a shared float add is a compare-and-swap
/// loop, release/acquire a memory barrier of its scope, a device-scope acquire
/// also invalidates L1, relaxed is neither, and so on: see `layout`).
#[test]
fn sass_on_sm_90_keeps_every_registry_promise() {
    let text = sass_of_both_modules("sass-test");
    let summaries = xtask::sass::summarize(&text);
    assert_eq!(summaries.len(), layout::entries().count(), "one SASS function per kernel");
    let mut broken = Vec::new();
    for entry in layout::entries() {
        let summary = summaries.iter().find(|s| s.kernel == entry.symbol);
        let summary = summary.unwrap_or_else(|| panic!("no SASS for {}", entry.symbol));
        for promise in summary.broken_promises(entry) {
            broken.push(format!("{}: {promise} ({})", entry.symbol, summary.line()));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    let shared = summaries.iter().find(|s| s.kernel == layout::sum::SHARED_ATOMIC.entry.symbol).unwrap();
    assert!(shared.has_cas_loop(), "{}", shared.line());
}

/// Every access of every litmus test reaches the machine code: after the
/// synchronised start, the test's loads and stores appear in the sm_90 SASS
/// as separate instructions, exactly as many as the test has, with the
/// strength its variant names and the barriers its release, acquire or fence
/// becomes, in program order (`Kernel::sass_program`); every loaded register
/// is recorded; the loads are issued in program order, except where the
/// registry says `ptxas` reorders them (weak loads only); each store writes
/// its program store's value at an address computed as its location's is
/// (`xtask::sass::litmus_problems`); the preload is one ordinary caching `LDG.E`
/// per role with a location to preload, the stress loads ordinary `LDG.E`
/// too, as many in every litmus kernel; and the
/// environment's preload and stress loads are kept live (two stress folds,
/// and one preload fold where a role has a location to preload), as are the
/// publication demo's preload, payload stores and payload loads.
#[test]
fn litmus_accesses_survive_to_sm_90_sass_in_program_order() {
    let text = sass_of_both_modules("sass-order-test");
    let functions = xtask::sass::split_functions(&text);
    let mut broken = Vec::new();
    let mut stress_loads = std::collections::BTreeSet::new();
    let mut sharp = (0, 0);
    for kernel in &layout::litmus::KERNELS {
        let name = kernel.entry.symbol;
        let body = &functions.iter().find(|(f, _)| f == name).unwrap_or_else(|| panic!("no SASS for {name}")).1;
        let (problems, stress) = xtask::sass::litmus_problems(kernel, body);
        broken.extend(problems);
        stress_loads.insert(stress);
        // How sharp the address check is here: an access to x aimed at a
        // y or z whose address uses `location_offset` on every path fails.
        let offset = std::mem::offset_of!(layout::litmus::Params, location_offset) as u64;
        if let Some(sass) = xtask::sass::litmus_sass(body) {
            for access in sass.stores.iter().chain(&sass.loads) {
                if access.address.loaded.contains(&(xtask::sass::PARAMETER_BASE, offset)) {
                    sharp.1 += 1;
                    sharp.0 += usize::from(
                        access.address_on_every_path.loaded.contains(&(xtask::sass::PARAMETER_BASE, offset)),
                    );
                }
            }
        }
    }
    println!(
        "{} of {} test accesses to y or z use location_offset on every path: an x access aimed at one of those fails",
        sharp.0, sharp.1
    );
    // Every litmus kernel runs the same environment, so the same stress
    // loop: as many stress loads in each.
    if stress_loads.len() != 1 {
        broken.push(format!("the litmus kernels have different numbers of stress loads: {stress_loads:?}"));
    }
    // The publication demo's cross-block consumers preload the payload's
    // line (`--preload`): that load is kept live too, once per kernel.
    for variant in layout::publish::VARIANTS.iter().filter(|v| v.memory == layout::publish::Memory::Global) {
        let name = variant.entry.symbol;
        let body = &functions.iter().find(|(f, _)| f == name).unwrap_or_else(|| panic!("no SASS for {name}")).1;
        if xtask::sass::kept_live(body) != 1 {
            broken.push(format!("{name}: {} preload folds kept live, expected 1", xtask::sass::kept_live(body)));
        }
        // Its record reaches the machine too: every flag store follows the
        // payload's two plain stores (and the release's barrier), and the
        // consumer's two plain payload loads follow its last flag load.
        let ops = xtask::sass::memory_opcodes(body);
        let flag_store = |op: &String| op.starts_with("ST.E.STRONG");
        let flag_load = |op: &String| op.starts_with("LD.E.STRONG");
        for (i, _) in ops.iter().enumerate().filter(|(_, op)| flag_store(op)) {
            let before: Vec<&str> =
                ops[..i].iter().rev().filter(|op| !op.starts_with("MEMBAR")).take(2).map(String::as_str).collect();
            if before != ["STG.E", "STG.E"] {
                broken.push(format!("{name}: a flag store after {before:?}, not the payload's two stores"));
            }
        }
        // A volatile flag is relaxed at system scope (PTX ISA section
        // 8.4.2), and `ptxas` writes it so: strong at `.SYS`, no barrier.
        if variant.ordering == layout::publish::Ordering::Volatile {
            let flags: Vec<&String> = ops.iter().filter(|op| flag_store(op) || flag_load(op)).collect();
            if flags.is_empty() || !flags.iter().all(|op| op.ends_with(".STRONG.SYS")) {
                broken.push(format!("{name}: volatile flag accesses {flags:?}, expected each .STRONG.SYS"));
            }
        }
        match ops.iter().rposition(flag_load) {
            None => broken.push(format!("{name}: no flag load")),
            Some(last) => {
                let after: Vec<&str> =
                    ops[last + 1..].iter().filter(|op| !op.starts_with("CCTL")).take(2).map(String::as_str).collect();
                if after != ["LDG.E", "LDG.E"] {
                    broken.push(format!("{name}: after the flag load {after:?}, not the payload's two loads"));
                }
            }
        }
    }
    broken.extend(cluster_records_survive_to_sass(&functions));
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The store check compares what each store writes, not only its opcode:
/// MP's real sm_90 SASS passes it, and the same text with its two test
/// stores swapped (so the flag is written before the data, with opcodes
/// and order of opcodes unchanged), or with the second store aimed at the
/// first one's address, fails it, naming the store; and so does the same
/// text with its preload made an evict-first load (`LDG.E.EF`).
#[test]
fn mp_with_its_stores_swapped_or_aimed_at_one_address_fails_the_sass_check() {
    let kernel = layout::litmus::KERNELS
        .iter()
        .find(|k| k.test == layout::litmus::Test::Mp && k.variant == layout::litmus::Variant::Weak)
        .expect("MP's weak kernel");
    let text = sass_of_both_modules("sass-swap-test");
    let functions = xtask::sass::split_functions(&text);
    let name = kernel.entry.symbol;
    let body = &functions.iter().find(|(f, _)| f == name).unwrap_or_else(|| panic!("no SASS for {name}")).1;
    let (problems, _) = xtask::sass::litmus_problems(kernel, body);
    assert!(problems.is_empty(), "the real SASS fails: {problems:?}");
    let sass = xtask::sass::litmus_sass(body).expect("a litmus kernel");
    let [first, second] = &sass.stores[..] else { panic!("{name}: stores {:?}", sass.stores) };
    let line = |at: u64| {
        let label = format!("/*{at:04x}*/");
        body.lines().find(|l| l.trim_start().starts_with(&label)).unwrap_or_else(|| panic!("no line {label}"))
    };
    let (a, b) = (line(first.at), line(second.at));
    let split = |l: &str| l.split_once("*/").map(|(label, rest)| (format!("{label}*/"), rest.to_owned())).unwrap();
    let ((a_label, a_rest), (b_label, b_rest)) = (split(a), split(b));

    let swapped = body.replace(a, &format!("{a_label}{b_rest}")).replacen(b, &format!("{b_label}{a_rest}"), 1);
    let (problems, _) = xtask::sass::litmus_problems(kernel, &swapped);
    println!("swapped stores:\n{}", problems.join("\n"));
    for n in 0..2 {
        assert!(
            problems.iter().any(|p| p.contains(&format!("store {n} ")) && p.contains(", so not ")),
            "swapping MP's stores went unnoticed at store {n}: {problems:?}"
        );
    }

    let register = |l: &str| l.split("][").nth(1).and_then(|r| r.split(']').next()).map(str::to_owned).unwrap();
    let aimed = body.replace(b, &b.replace(&register(b), &register(a)));
    let (problems, _) = xtask::sass::litmus_problems(kernel, &aimed);
    println!("second store at the first's address:\n{}", problems.join("\n"));
    assert!(problems.iter().any(|p| p.contains("store 1 ") && p.contains("so not y or z")), "{problems:?}");

    // The preload made a load that does not allocate in L1 fails too.
    let locations = xtask::sass::parameter_word(&kernel.entry, "locations").expect("a `locations` parameter");
    let preload = sass.environment_loads.iter().find(|l| l.address.constants.contains(&locations));
    let p = line(preload.expect("MP's preload of x").at);
    let bypassing = body.replace(p, &p.replacen("LDG.E ", "LDG.E.EF ", 1));
    let (problems, _) = xtask::sass::litmus_problems(kernel, &bypassing);
    println!("preload made evict-first:\n{}", problems.join("\n"));
    assert!(problems.iter().any(|p| p.contains("preload loads") && p.contains("LDG.E.EF")), "{problems:?}");
}

/// The cluster variants whose record lives in the producer block's shared
/// memory: in sm_90 SASS the producer's record is one `STS.64` (the two plain
/// 32-bit stores of adjacent fields, merged) before the flag's strong store,
/// with the release's barrier of the flag's scope between them
/// (`MEMBAR.ALL.GPU` for `.cluster`, `MEMBAR.ALL.CTA` for `.cta`) or, relaxed,
/// none; the flag's strong accesses carry the scope `ptxas` gives it (`.GPU`
/// for `.cluster`, `.SM` for `.cta`); and the consumer's two plain payload
/// loads through distributed shared memory (generic `LD.E`) follow its last
/// flag load. The barrier variant has no strong access at all: its record's
/// store is followed by the cluster barrier's `MEMBAR.ALL.GPU`, and its two
/// loads come after the barrier's `CCTL.IVALL`.
fn cluster_records_survive_to_sass(functions: &[(String, String)]) -> Vec<String> {
    use layout::Scope;
    use layout::publish::{Memory, Ordering};
    let mut broken = Vec::new();
    for variant in layout::publish::VARIANTS.iter().filter(|v| v.memory == Memory::Distributed) {
        let name = variant.entry.symbol;
        let body = &functions.iter().find(|(f, _)| f == name).unwrap_or_else(|| panic!("no SASS for {name}")).1;
        let ops = xtask::sass::memory_opcodes(body);
        let strong = |op: &String| op.starts_with("ST.E.STRONG") || op.starts_with("LD.E.STRONG");
        let record = |op: &String| op == "STS.64";
        let payload_loads = |from: usize, skip: &str| -> Vec<String> {
            ops[from..].iter().filter(|op| !op.starts_with(skip)).take(2).cloned().collect()
        };
        if variant.ordering == Ordering::Barrier {
            if let Some(op) = ops.iter().find(|op| strong(op)) {
                broken.push(format!("{name}: a strong access {op} in a variant without a flag"));
            }
            match ops.iter().rposition(record) {
                Some(i) if ops.get(i + 1).map(String::as_str) == Some("MEMBAR.ALL.GPU") => {}
                found => {
                    broken.push(format!("{name}: the record's STS.64 at {found:?} is not before the barrier's MEMBAR"))
                }
            }
            match ops.iter().position(|op| op == "LD.E") {
                Some(i)
                    if i > 0 && ops[i - 1] == "CCTL.IVALL" && ops.get(i + 1).map(String::as_str) == Some("LD.E") => {}
                found => {
                    broken.push(format!("{name}: the payload's loads at {found:?} do not follow the barrier's CCTL"))
                }
            }
            continue;
        }
        let suffix = match variant.scope {
            Scope::Cta => ".STRONG.SM",
            Scope::Cluster => ".STRONG.GPU",
            other => panic!("{name}: no cluster variant has a flag at {other:?}"),
        };
        let flags: Vec<&String> = ops.iter().filter(|op| strong(op)).collect();
        if flags.is_empty() || !flags.iter().all(|op| op.ends_with(suffix)) {
            broken.push(format!("{name}: flag accesses {flags:?}, expected each {suffix}"));
        }
        let fence = match (variant.ordering, variant.scope) {
            (Ordering::ReleaseAcquire, Scope::Cluster) => vec!["MEMBAR.ALL.GPU"],
            (Ordering::ReleaseAcquire, _) => vec!["MEMBAR.ALL.CTA"],
            _ => vec![],
        };
        for (i, _) in ops.iter().enumerate().filter(|(_, op)| op.starts_with("ST.E.STRONG")) {
            let Some(at) = ops[..i].iter().rposition(record) else {
                broken.push(format!("{name}: a flag store with no STS.64 of the record before it"));
                continue;
            };
            let between: Vec<&str> = ops[at + 1..i].iter().map(String::as_str).collect();
            if between != fence {
                broken.push(format!("{name}: between the record and its flag {between:?}, expected {fence:?}"));
            }
        }
        match ops.iter().rposition(|op| op.starts_with("LD.E.STRONG")) {
            None => broken.push(format!("{name}: no flag load")),
            Some(last) => {
                let after = payload_loads(last + 1, "CCTL");
                if after != ["LD.E", "LD.E"] {
                    broken.push(format!("{name}: after the flag load {after:?}, not the payload's two loads"));
                }
            }
        }
    }
    broken
}

/// Every mutant `host litmus --mutants` would run assembles for sm_90, and
/// its machine code is its mutated program: the same check as the kernels'
/// own (`litmus_accesses_survive_to_sm_90_sass_in_program_order`), so a
/// mutant that `ptxas` quietly "repaired" or broke further cannot pass for
/// the mutation it names.
#[test]
fn every_litmus_mutant_assembles_and_keeps_its_mutated_program_in_sass() {
    use host::gpu::litmus::LitmusKernel;
    use host::litmus::mutants;
    // One PTX file of mutants per module: a mutant keeps its kernel's
    // module's header (`.target sm_70` or `sm_90`).
    let mut modules: Vec<(Module, String)> = Module::ALL.iter().map(|&m| (m, String::new())).collect();
    let mut expected = Vec::new();
    let mut refused = 0;
    // A mutant's PTX does not depend on its placement: each edit of each
    // kernel that some placement forbids is made once.
    for kernel in LitmusKernel::all() {
        let spec = &layout::litmus::KERNELS[kernel.index()];
        if layout::litmus::Split::ALL.iter().all(|&p| mutants::mutants(kernel, p).is_empty()) {
            continue;
        }
        let module = &mut modules.iter_mut().find(|(m, _)| *m == spec.entry.module).expect("every module").1;
        for (n, (_, edit)) in mutants::edits(spec).into_iter().enumerate() {
            let name = mutants::symbol(spec, n);
            match mutants::module(embedded_ptx(spec.entry.module), spec, &edit, &name) {
                Ok(text) => {
                    let body = text.split_once("\n\n").map_or(text.as_str(), |(_, b)| b);
                    if module.is_empty() {
                        module.push_str(text.split_once("\n\n").map_or("", |(h, _)| h));
                        module.push_str("\n\n");
                    }
                    module.push_str(body);
                    expected.push((name, spec, mutants::program(spec, &edit)));
                }
                Err(_) => refused += 1,
            }
        }
    }
    assert!(expected.len() > refused, "{} mutants made, {refused} refused", expected.len());
    let root = xtask::paths::workspace_root();
    let cuobjdump = xtask::ptxas::find_tool(&root, "cuobjdump").expect("no cuobjdump: run `cargo xtask test`");
    let mut functions = Vec::new();
    for (module, text) in modules.iter().filter(|(_, text)| !text.is_empty()) {
        let dir = std::env::temp_dir().join(format!("lab-mutants-{}-{}", module.arch(), std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ptx = dir.join("mutants.ptx");
        std::fs::write(&ptx, text).unwrap();
        let (sass, _) = xtask::sass::disassemble(&ptxas(), &cuobjdump, &ptx, "sm_90", &dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        functions.extend(xtask::sass::split_functions(&sass));
    }
    let mut broken = Vec::new();
    for (name, spec, program) in &expected {
        let body = &functions.iter().find(|(f, _)| f == name).unwrap_or_else(|| panic!("no SASS for {name}")).1;
        let sass = xtask::sass::litmus_sass(body).unwrap_or_else(|| panic!("{name}: no start poll"));
        let want: Vec<&str> = program.iter().flat_map(|p| layout::litmus::sass_of(p).iter().copied()).collect();
        if sass.accesses != want {
            broken.push(format!("{name}: {:?}, expected {want:?}", sass.accesses));
        }
        let registers: Option<Vec<u8>> = sass.load_registers.iter().copied().collect();
        if registers.is_none() {
            broken.push(format!("{name} ({}): a load not followed to its record", spec.entry.symbol));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Every kernel's instructions are the ones recorded in
/// `tests/ptx-fingerprints.txt` ([`instruction_fingerprint`]), so a change
/// that means to leave the machine code alone (a refactor of the kernels'
/// vocabulary, of `layout`'s descriptions, of the build) is proved to, and
/// the reference run still stands for it. A change that means to alter a
/// kernel, or adds one, records the new fingerprints with
/// `UPDATE_FINGERPRINTS=1 cargo test -p lab-tests --test ptx every_kernels_instructions_match`,
/// and its diff names the kernels whose machine code changed: those need a
/// new reference run.
#[test]
fn every_kernels_instructions_match_their_recorded_fingerprint() {
    let path = xtask::paths::workspace_root().join("tests/ptx-fingerprints.txt");
    let mut found = String::new();
    for entry in layout::entries() {
        let ptx = embedded_ptx(entry.module);
        let body = entry_body(ptx, entry.symbol).unwrap_or_else(|| panic!("{} is not in its module", entry.symbol));
        found += &format!("{} {:016x}\n", entry.symbol, instruction_fingerprint(body));
    }
    if std::env::var_os("UPDATE_FINGERPRINTS").is_some() {
        std::fs::write(&path, &found).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    let differ: Vec<&str> = found
        .lines()
        .filter(|line| !recorded.lines().any(|r| r == *line))
        .map(|line| line.split(' ').next().unwrap())
        .collect();
    assert!(
        differ.is_empty(),
        "the instructions of {} differ from tests/ptx-fingerprints.txt: if that is meant, record them with \
         UPDATE_FINGERPRINTS=1 and make a new reference run",
        differ.join(", ")
    );
    assert_eq!(recorded.lines().count(), found.lines().count(), "a kernel left the registry: record the fingerprints");
}
