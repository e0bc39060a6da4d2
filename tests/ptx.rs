//! The kernels' PTX, checked on any machine: it assembles with NVIDIA's
//! `ptxas` for three architectures, links nothing it does not define, and each
//! kernel contains the instructions its documentation promises.
//!
//! `cargo xtask test` installs `ptxas` where it is missing and passes it in
//! `$PTXAS`; without one these tests fail and say how to get it.

use std::path::PathBuf;
use std::process::Command;

use host::gpu::EMBEDDED_PTX;
use lab_tests::entry_body;

/// Every kernel, the instructions its docs promise, and ones it must not have.
const KERNELS: &[(&str, &[&str], &[&str])] = &[
    ("sum_global_atomic", &["red.global.add.f32"], &["bar.sync", "red.shared"]),
    ("sum_shared_atomic", &["red.shared.add.f32", "bar.sync", "red.global.add.f32"], &["atom.shared"]),
    ("sum_tree_atomic", &["bar.sync", "add.rn.f32", "red.global.add.f32"], &["red.shared", "atom.shared"]),
    (
        "publish_block_release_acquire",
        &["st.release.cta.b32", "ld.acquire.cta.b32", "bar.sync"],
        &[".relaxed", ".gpu.b32", "fence"],
    ),
    (
        "publish_block_relaxed",
        &["st.relaxed.cta.b32", "ld.relaxed.cta.b32", "bar.sync"],
        &[".release", ".acquire", "fence", "membar"],
    ),
    (
        "publish_grid_release_acquire",
        &["st.release.gpu.b32", "ld.acquire.gpu.b32", "%globaltimer"],
        &[".cta.b32", ".relaxed", "bar.sync"],
    ),
    (
        "publish_grid_wrong_scope",
        &["st.release.cta.b32", "ld.acquire.cta.b32", "%globaltimer"],
        &[".gpu.b32", ".relaxed", "bar.sync"],
    ),
    ("sum_warp_shuffle", &["shfl.sync.bfly.b32", "bar.sync", "red.global.add.f32"], &["red.shared", "atom.shared"]),
    ("sum_bandwidth", &["ld.global.nc.v4.f32", "shfl.sync.bfly.b32", "red.global.add.f32"], &["red.shared"]),
    (
        "sum_deterministic",
        &["ld.global.nc.v4.f32", "shfl.sync.bfly.b32", "fence.acq_rel.gpu", "atom.global.add.u32", "bar.sync"],
        &["red.global.add.f32", "atom.global.add.f32"],
    ),
    ("empty", &["ret;"], &["ld.", "st."]),
    ("histogram_global_atomic", &["red.global.add.u32"], &["bar.sync", "red.shared"]),
    ("histogram_privatized", &["red.shared.add.u32", "bar.sync", "red.global.add.u32"], &["atom."]),
];

fn ptxas() -> PathBuf {
    xtask::ptxas::find(&xtask::paths::workspace_root())
        .expect("no ptxas found: run `cargo xtask test` (it installs one) or set PTXAS=/path/to/ptxas")
}

fn ptx_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lab-ptx-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kernels.ptx");
    std::fs::write(&path, EMBEDDED_PTX).unwrap();
    path
}

#[test]
fn assembles_for_turing_ampere_and_hopper() {
    let ptx = ptx_file();
    for arch in ["sm_75", "sm_80", "sm_90"] {
        let cubin = ptx.with_extension(format!("{arch}.cubin"));
        let out = Command::new(ptxas())
            .args(["-v", "-arch", arch])
            .arg(&ptx)
            .arg("-o")
            .arg(&cubin)
            .output()
            .expect("ptxas runs");
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "ptxas -arch={arch} failed:\n{log}");
        // `-v` reports each function's registers; every kernel must be there.
        for (name, _, _) in KERNELS {
            assert!(log.contains(&format!("Compiling entry function '{name}' for '{arch}'")), "{arch}: {name}\n{log}");
        }
        assert!(cubin.metadata().unwrap().len() > 0);
    }
}

#[test]
fn every_kernel_is_an_entry_and_nothing_is_left_unresolved() {
    for (name, _, _) in KERNELS {
        assert!(EMBEDDED_PTX.contains(&format!(".visible .entry {name}(")), "no .entry {name}");
    }
    let unresolved: Vec<&str> = EMBEDDED_PTX.lines().filter(|l| l.trim_start().starts_with(".extern .func")).collect();
    assert!(unresolved.is_empty(), "unresolved functions: {unresolved:?}");
}

#[test]
fn each_kernel_emits_the_instructions_its_docs_promise() {
    for (name, required, forbidden) in KERNELS {
        let body = entry_body(EMBEDDED_PTX, name).unwrap_or_else(|| panic!("no .entry {name}"));
        for instruction in *required {
            assert!(body.contains(instruction), "{name} lacks {instruction}:\n{body}");
        }
        for instruction in *forbidden {
            assert!(!body.contains(instruction), "{name} has {instruction}:\n{body}");
        }
    }
}

#[test]
fn no_panic_path_survives_in_any_kernel() {
    // The panic handler traps; a `trap` in the PTX means some kernel kept a
    // bounds check or overflow check that could fire.
    assert!(!EMBEDDED_PTX.contains("trap;"), "a panic path reached the PTX");
}

#[test]
fn the_ptx_targets_the_architecture_the_builder_names() {
    assert!(EMBEDDED_PTX.contains(&format!(".target {}", xtask::ptx::ARCH)));
    assert!(EMBEDDED_PTX.contains(".address_size 64"));
}

/// The machine code on Hopper, summarized by `cargo xtask sass`'s own
/// function: what each synchronization primitive becomes.
#[test]
fn sass_summary_on_sm_90_shows_what_each_primitive_becomes() {
    let root = xtask::paths::workspace_root();
    let cuobjdump = xtask::ptxas::find_tool(&root, "cuobjdump")
        .expect("no cuobjdump found: run `cargo xtask test` (it installs one)");
    let work = std::env::temp_dir().join(format!("lab-sass-test-{}", std::process::id()));
    let (text, _) = xtask::sass::disassemble(&ptxas(), &cuobjdump, &ptx_file(), "sm_90", &work).unwrap();
    let summaries = xtask::sass::summarize(&text);
    let of = |name: &str| summaries.iter().find(|s| s.kernel == name).unwrap_or_else(|| panic!("no SASS for {name}"));
    let has = |name: &str, prefix: &str| of(name).counts.keys().any(|op| op.starts_with(prefix));

    assert_eq!(summaries.len(), KERNELS.len(), "one SASS function per kernel");
    // A shared-memory float add has no single instruction on sm_90.
    assert!(of("sum_shared_atomic").has_cas_loop(), "{}", of("sum_shared_atomic").line());
    // The global float add is one reduction instruction, and integer shared
    // atomics are native.
    assert!(has("sum_global_atomic", "REDG.E.ADD.F32") && !of("sum_global_atomic").has_cas_loop());
    assert!(has("histogram_privatized", "ATOMS.") && !of("histogram_privatized").has_cas_loop());
    // Release/acquire becomes a memory barrier of the scope; a device-scope
    // acquire also invalidates L1; relaxed becomes neither.
    assert!(has("publish_block_release_acquire", "MEMBAR.ALL.CTA"));
    assert!(has("publish_grid_release_acquire", "MEMBAR.ALL.GPU") && has("publish_grid_release_acquire", "CCTL.IVALL"));
    assert!(!has("publish_grid_wrong_scope", "MEMBAR.ALL.GPU") && !has("publish_grid_wrong_scope", "CCTL"));
    assert!(!has("publish_block_relaxed", "MEMBAR"));
    // The deterministic sum's fences and its ticket.
    assert!(has("sum_deterministic", "MEMBAR.ALL.GPU") && has("sum_deterministic", "ATOMG.E.ADD"));
    assert!(has("sum_warp_shuffle", "SHFL.BFLY"));
    assert!(of("empty").counts.is_empty());
}
