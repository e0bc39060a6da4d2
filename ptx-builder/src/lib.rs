//! Compiles `kernels/` to PTX with rustc's own `nvptx64-nvidia-cuda` target:
//! the one builder behind the host's build script (which embeds the PTX) and
//! `cargo xtask build-ptx`, `sass` and `book` (which disassemble it). It
//! builds the learner's `practice/` the same way, for `cargo xtask
//! practice`.
//!
//! It is a crate of its own so that building the host compiles this file and
//! `layout`, and nothing of the task runner: the CUB and nvcc comparisons,
//! the book's generator and their dependencies stay outside the host's build
//! graph.
//!
//! Why not rust-cuda's `cuda_builder`: it drives `rustc_codegen_nvvm`, which
//! needs LLVM 7 (the IR dialect libNVVM accepts for pre-Blackwell GPUs), and
//! no registry reachable from the machines this lab is built on ships it.
//! rustc's NVPTX backend needs only a nightly and two rustup components.
//!
//! The recipe, in order:
//! 1. `-Zbuild-std=core,panic_abort`: rustup ships no `core` for nvptx64, so it
//!    is compiled from the toolchain's `rust-src`.
//! 2. `-Ctarget-cpu=sm_70` for the base module: the oldest architecture with
//!    the scoped memory operations (`ld.acquire`, `st.release`, `.relaxed`)
//!    the kernels use. The Hopper module is the same crate built again with
//!    its `hopper` feature and `-Ctarget-cpu=sm_90`, for the kernels that use
//!    thread-block clusters (see `layout::Module`), at the PTX ISA version
//!    its kernels need (`Module::ptx_isa_feature`).
//! 3. The target links with `llvm-bitcode-linker`, which runs `llvm-link`,
//!    `opt` and `llc` from the nightly's `llvm-tools` (same LLVM as rustc).
//!    Rustup publishes that linker for stable releases but not for recent
//!    nightlies, so it is taken from the pinned stable [`LINKER_TOOLCHAIN`]
//!    and installed there on first use.
//!
//! Every function takes the checkout's root (the directory holding
//! `kernels/` and `rust-toolchain.toml`) and writes under its `target/`.

#![warn(missing_docs)]

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fmt, fs, io};

use layout::Module;

/// Why the kernels could not be built, in words meant for the person at the
/// terminal: one line, naming the command or file that failed.
#[derive(Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// The rustc target the kernels are compiled for.
pub const TARGET: &str = "nvptx64-nvidia-cuda";

/// The stable toolchain that supplies `llvm-bitcode-linker`.
pub const LINKER_TOOLCHAIN: &str = "1.95.0";

/// The two PTX files one build writes, one per [`Module`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// [`Module::Base`]'s, [`ptx_file`] of it.
    pub base: PathBuf,
    /// [`Module::Hopper`]'s.
    pub hopper: PathBuf,
}

impl Built {
    /// The file of `module`.
    pub fn path(&self, module: Module) -> &Path {
        match module {
            Module::Base => &self.base,
            Module::Hopper => &self.hopper,
        }
    }
}

/// Builds the kernels (release) into both modules and returns their fixed
/// paths, [`ptx_file`]. A file is rewritten only when its text
/// changes, so the host's build script does not rebuild the host for nothing.
///
/// `cargo` is the cargo to run (`$CARGO` from the caller). Progress goes to
/// stderr of the nested cargo, which the caller may show or hide.
pub fn build(root: &Path, cargo: &Path) -> Result<Built, Error> {
    let [base, hopper] = Module::ALL.map(|module| build_module(root, cargo, module));
    Ok(Built { base: base?, hopper: hopper? })
}

/// Builds one module, in a target directory of its own (the two builds
/// differ in flags and features, so they would otherwise rebuild each other).
fn build_module(root: &Path, cargo: &Path, module: Module) -> Result<PathBuf, Error> {
    let target_dir = root.join("target").join(build_dir(module));
    let mut cmd = kernels_cargo(root, cargo, "build", &target_dir, module)?;
    let status = cmd.status().map_err(|e| Error(format!("cannot run {}: {e}", cargo.display())))?;
    if !status.success() {
        return Err(Error(format!("building kernels/ for {TARGET} ({}) failed ({status})", module.arch())));
    }

    let built = target_dir.join(TARGET).join("release/kernels.ptx");
    let ptx = fs::read_to_string(&built)
        .map_err(|e| Error(format!("the kernel build wrote no PTX at {}: {e}", built.display())))?;
    let out = ptx_file(root, module);
    write_if_changed(&out, &ptx).map_err(|e| Error(format!("cannot write {}: {e}", out.display())))?;
    Ok(out)
}

/// Builds the learner's kernels, the crate in `crate_dir` (`practice/`, or
/// a copy of it with another answer in one file), for `module`, in
/// `target_dir`, and returns its PTX. The Hopper build is the same crate
/// with its `hopper` feature: every puzzle of the base build, and the
/// puzzles that need thread-block clusters. Each crate and module needs a
/// target directory of its own: the copy's crate has the learner's crate's
/// name, so one would overwrite the other's PTX where cargo, seeing the
/// other's sources unchanged, would not build it again. Cargo's and
/// rustc's output goes to this process's stderr as they print it, so a
/// learner's compile error reads as rustc wrote it; a failed build is an
/// `Err` that says so in one line.
pub fn build_practice(
    root: &Path,
    cargo: &Path,
    crate_dir: &Path,
    target_dir: &Path,
    module: Module,
) -> Result<String, Error> {
    let mut cmd = crate_cargo(root, cargo, "build", crate_dir, target_dir, module)?;
    let status = cmd.status().map_err(|e| Error(format!("cannot run {}: {e}", cargo.display())))?;
    if !status.success() {
        return Err(Error(format!(
            "rustc did not compile {} for {} ({status}): its errors are above",
            crate_dir.display(),
            module.arch()
        )));
    }
    let built = target_dir.join(TARGET).join("release/practice.ptx");
    fs::read_to_string(&built)
        .map_err(|e| Error(format!("the practice build wrote no PTX at {}: {e}", built.display())))
}

/// The one fixed path of a PTX module of the kernels:
/// `target/ptx/kernels.ptx` for the base module, `target/ptx/kernels-sm90.ptx`
/// for the Hopper one.
pub fn ptx_file(root: &Path, module: Module) -> PathBuf {
    root.join("target").join("ptx").join(module.file_name())
}

/// The directory under `target/` where `module` is built.
fn build_dir(module: Module) -> &'static str {
    match module {
        Module::Base => "ptx-build",
        Module::Hopper => "ptx-build-sm90",
    }
}

/// `cargo <subcommand> --release` of `kernels/` for [`TARGET`] and `module`,
/// in `target_dir`, with everything the PTX build needs: `-Zbuild-std`, the
/// module's target CPU and feature, `llvm-bitcode-linker` (installed on first
/// use) and the nightly's `llvm-tools` on `PATH`. [`build`] runs it as
/// `build`; xtask's lint runs it as `clippy` for each module, so the kernels are
/// checked for the target and with the flags they are compiled with. The
/// caller adds any further arguments.
pub fn kernels_cargo(
    root: &Path,
    cargo: impl AsRef<OsStr>,
    subcommand: &str,
    target_dir: &Path,
    module: Module,
) -> Result<Command, Error> {
    crate_cargo(root, cargo, subcommand, &root.join("kernels"), target_dir, module)
}

/// [`kernels_cargo`] for the crate in `crate_dir`: `kernels/`, `device/`
/// or `practice/` (or a copy of it), each built for the GPU the same way.
pub fn crate_cargo(
    root: &Path,
    cargo: impl AsRef<OsStr>,
    subcommand: &str,
    crate_dir: &Path,
    target_dir: &Path,
    module: Module,
) -> Result<Command, Error> {
    let sysroot = rustc_sysroot(root)?;
    let host = host_triple(root)?;
    let llvm_tools = sysroot.join("lib/rustlib").join(&host).join("bin");
    if !llvm_tools.join("llc").exists() {
        return Err(Error(format!(
            "llc not found in {}: install the toolchain's components with `rustup toolchain install` in {}",
            llvm_tools.display(),
            root.display()
        )));
    }
    let linker = bitcode_linker(&host)?;

    let mut path = OsString::from(&llvm_tools);
    if let Some(old) = env::var_os("PATH") {
        path.push(":");
        path.push(old);
    }
    let mut flags = vec![
        format!("-Ctarget-cpu={}", module.arch()),
        "-Alinker_messages".to_owned(),
        format!("-Clinker={}", linker.display()),
    ];
    if let Some(isa) = module.ptx_isa_feature() {
        flags.push(format!("-Ctarget-feature=+{isa}"));
    }

    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args([subcommand, "--release", "--target", TARGET, "-Zbuild-std=core,panic_abort"])
        .arg("--manifest-path")
        .arg(crate_dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir);
    if let Some(feature) = module.feature() {
        cmd.args(["--features", feature]);
    }
    // A build script inherits the outer build's flags, wrappers and target
    // settings; none of them are meant for the GPU build.
    for var in [
        "RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTDOC",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_ENCODED_RUSTFLAGS",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("CARGO_ENCODED_RUSTFLAGS", flags.join("\x1f")).env("PATH", path);
    Ok(cmd)
}

/// `rustc -V` of the toolchain that compiles the kernels, with the target:
/// recorded in every JSON export.
pub fn compiler_version(root: &Path) -> String {
    let mut cmd = Command::new("rustc");
    cmd.current_dir(root).arg("-V").env_remove("RUSTC");
    let version = output(&mut cmd).unwrap_or_else(|e| format!("unknown rustc ({e})"));
    let [base, hopper] = Module::ALL.map(Module::arch);
    format!("{version}, target {TARGET}, {base} (and {hopper} for the Hopper module)")
}

fn write_if_changed(path: &Path, text: &str) -> io::Result<()> {
    if fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    fs::create_dir_all(path.parent().expect("the PTX path has a parent"))?;
    fs::write(path, text)
}

/// Runs a command and returns its trimmed stdout, or an error naming it.
fn output(cmd: &mut Command) -> Result<String, Error> {
    let shown = format!("{cmd:?}");
    let out = cmd.output().map_err(|e| Error(format!("cannot run {shown}: {e}")))?;
    if !out.status.success() {
        return Err(Error(format!("{shown} failed: {}", String::from_utf8_lossy(&out.stderr).trim())));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The sysroot of the toolchain `rust-toolchain.toml` selects in `root`.
fn rustc_sysroot(root: &Path) -> Result<PathBuf, Error> {
    let mut cmd = Command::new("rustc");
    cmd.current_dir(root).args(["--print", "sysroot"]).env_remove("RUSTC");
    output(&mut cmd).map(PathBuf::from)
}

fn host_triple(root: &Path) -> Result<String, Error> {
    let mut cmd = Command::new("rustc");
    cmd.current_dir(root).args(["--print", "host-tuple"]);
    output(&mut cmd)
}

/// The path of `llvm-bitcode-linker` in [`LINKER_TOOLCHAIN`], installing the
/// toolchain's component with rustup when it is missing.
fn bitcode_linker(host: &str) -> Result<PathBuf, Error> {
    let locate = || -> Result<PathBuf, Error> {
        let rustc = output(Command::new("rustup").args(["which", "--toolchain", LINKER_TOOLCHAIN, "rustc"]))?;
        let sysroot = Path::new(&rustc)
            .parent()
            .and_then(Path::parent)
            .ok_or_else(|| Error(format!("unexpected rustc path {rustc}")))?;
        Ok(sysroot.join("lib/rustlib").join(host).join("bin/self-contained/llvm-bitcode-linker"))
    };
    if let Ok(path) = locate()
        && path.exists()
    {
        return Ok(path);
    }
    eprintln!("installing llvm-bitcode-linker (toolchain {LINKER_TOOLCHAIN}) for the PTX link step");
    output(Command::new("rustup").args([
        "toolchain",
        "install",
        LINKER_TOOLCHAIN,
        "--profile",
        "minimal",
        "--component",
        "llvm-bitcode-linker-preview",
    ]))?;
    let path = locate()?;
    if path.exists() {
        Ok(path)
    } else {
        Err(Error(format!("rustup installed llvm-bitcode-linker but it is not at {}", path.display())))
    }
}

/// The text of `.entry name(...) { ... }` in `ptx`, up to the end of its body,
/// or `None` if the module has no such entry.
pub fn entry_body<'a>(ptx: &'a str, name: &str) -> Option<&'a str> {
    let start = ptx.find(&format!(".entry {name}("))?;
    let rest = &ptx[start..];
    // LLVM closes every function with a line holding only `}`.
    let end = rest.find("\n}").map_or(rest.len(), |i| i + 2);
    Some(&rest[..end])
}

/// The PTX types of the `.param` list of `.entry name` in `ptx`, in order:
/// `".u32"`, `".u64"`, or `".u64 .ptr"` for a pointer (alignment and name
/// left out). `None` if there is no such entry.
pub fn entry_params(ptx: &str, name: &str) -> Option<Vec<String>> {
    let open = format!(".entry {name}(");
    let rest = &ptx[ptx.find(&open)? + open.len()..];
    let list = &rest[..rest.find(')')?];
    let types = list.split(',').filter(|p| !p.trim().is_empty()).map(|p| {
        let tokens = p.split_whitespace().skip_while(|t| *t == ".param");
        tokens.take_while(|t| t.starts_with('.') && *t != ".align").collect::<Vec<_>>().join(" ")
    });
    Some(types.collect())
}
