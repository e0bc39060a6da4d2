//! Builds the kernels to PTX before the host is compiled, through the same
//! builder as `cargo xtask build-ptx`, so `cargo run -p host` works on a fresh
//! clone with no earlier step. The host embeds the PTX (`gpu::EMBEDDED_PTX`).

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = xtask::paths::workspace_root();
    for watched in ["kernels/src", "kernels/Cargo.toml", "layout/src", "rust-toolchain.toml"] {
        println!("cargo::rerun-if-changed={}", root.join(watched).display());
    }
    let cargo = std::env::var_os("CARGO").map_or_else(|| PathBuf::from("cargo"), PathBuf::from);
    match xtask::ptx::build(&root, &cargo) {
        Ok(ptx) => {
            println!("cargo::rustc-env=KERNELS_PTX={}", ptx.display());
            println!("cargo::rustc-env=LAB_KERNEL_COMPILER={}", xtask::ptx::compiler_version(&root));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
