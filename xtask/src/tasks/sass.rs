//! `cargo xtask sass [--arch sm_90] [--kernel NAME] [--ptx FILE]`: each
//! kernel's SASS, then a summary of its synchronizing instructions and its
//! `ptxas -v` resources. Needs no GPU: the tools come from PyPI.

use std::path::PathBuf;

use xtask::{Error, paths, ptxas, sass};

/// `sass`'s flags.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The GPU architecture ptxas compiles for.
    #[arg(long, value_name = "sm_NN", default_value = "sm_90", value_parser = architecture)]
    pub arch: String,
    /// Show only this kernel (its symbol, e.g. sum_tree_atomic).
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// Disassemble this PTX file instead of building both modules of the
    /// kernels.
    #[arg(long, value_name = "FILE")]
    pub ptx: Option<PathBuf>,
}

/// A clap parser for `--arch`: `sm_` and a number, with letters allowed
/// (`sm_90a`).
fn architecture(text: &str) -> Result<String, String> {
    if text.strip_prefix("sm_").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric())) {
        Ok(text.to_owned())
    } else {
        Err("not a GPU architecture such as sm_90".to_owned())
    }
}

/// Runs the task.
pub fn run(args: &Args) -> super::Result {
    let root = paths::workspace_root();
    let arch = args.arch.as_str();
    // Without `--ptx`, both modules; the Hopper one only for an architecture
    // that can run it.
    let ptx_files = match &args.ptx {
        Some(file) => vec![file.clone()],
        None => {
            let built = ptx_builder::build(&root, &super::cargo())?;
            if generation(arch) >= generation(layout::Module::Hopper.arch()) {
                vec![built.base, built.hopper]
            } else {
                vec![built.base]
            }
        }
    };
    let ptxas = ptxas::find_or_install(&root)?;
    let cuobjdump = ptxas::find_tool(&root, "cuobjdump")
        .ok_or_else(|| Error("cuobjdump not found after installing it".to_owned()))?;
    let (mut text, mut resources) = (String::new(), String::new());
    for (i, ptx_file) in ptx_files.iter().enumerate() {
        let work = root.join("target/sass").join(i.to_string());
        let (module_text, module_resources) = sass::disassemble(&ptxas, &cuobjdump, ptx_file, arch, &work)?;
        text.push_str(&module_text);
        resources.push_str(&module_resources);
    }
    let wanted = |name: &str| args.kernel.as_deref().is_none_or(|k| k == name);

    for (name, body) in sass::split_functions(&text).into_iter().filter(|(name, _)| wanted(name)) {
        println!("==== {name} ({arch}) ====\n{body}");
    }
    println!("==== summary ({arch}) ====");
    for s in sass::summarize(&text).iter().filter(|s| wanted(&s.kernel)) {
        println!("{}\n    resources: {}", s.line(), sass::resources_of(&resources, &s.kernel));
        // The registry's promises are checked for sm_90 (tests/ptx.rs does the
        // same); other architectures may compile an atomic differently.
        if arch == "sm_90"
            && let Some(entry) = layout::entries().find(|e| e.symbol == s.kernel)
        {
            let broken = s.broken_promises(entry);
            let verdict =
                if broken.is_empty() { "as its registry entry promises".to_owned() } else { broken.join(", ") };
            println!("    promises: {verdict}");
        }
    }
    Ok(())
}

/// The number of an architecture such as `sm_90` or `sm_90a` (90), or 0 if it
/// has none.
fn generation(arch: &str) -> u32 {
    let digits: String = arch.trim_start_matches("sm_").chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(0)
}
