//! `cargo xtask sass [--arch sm_90] [--kernel NAME] [--ptx FILE]`: each
//! kernel's SASS, then a summary of its synchronizing instructions and its
//! `ptxas -v` resources. Needs no GPU: the tools come from PyPI.

use xtask::{Error, paths, ptx, ptxas, sass};

use super::Flags;

/// Runs the task.
pub fn run(args: &[String]) -> super::Result {
    let flags = Flags::parse(args, &["--arch", "--kernel", "--ptx"])?;
    let root = paths::workspace_root();
    let arch = flags.text("--arch").unwrap_or("sm_90").to_owned();
    if !arch.strip_prefix("sm_").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric())) {
        return Err(Error(format!("--arch: `{arch}` is not a GPU architecture such as sm_90")));
    }
    let ptx_file = match flags.path("--ptx") {
        Some(file) => file,
        None => ptx::build(&root, &super::cargo())?,
    };
    let ptxas = ptxas::find_or_install(&root)?;
    let cuobjdump = ptxas::find_tool(&root, "cuobjdump")
        .ok_or_else(|| Error("cuobjdump not found after installing it".to_owned()))?;
    let (text, resources) = sass::disassemble(&ptxas, &cuobjdump, &ptx_file, &arch, &root.join("target/sass"))?;
    let only = flags.text("--kernel").map(str::to_owned);
    let wanted = |name: &str| only.as_deref().is_none_or(|k| k == name);

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
