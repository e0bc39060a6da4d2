//! `cargo xtask sass [--arch sm_90] [--kernel NAME] [--ptx FILE]`: each
//! kernel's SASS, then a summary of its synchronizing instructions and its
//! `ptxas -v` resources. Needs no GPU: the tools come from PyPI.

use xtask::{Error, paths, ptxas, sass};

use super::Flags;

/// Runs the task.
pub fn run(args: &[String]) -> super::Result {
    let flags = Flags::parse(args, &["--arch", "--kernel", "--ptx"])?;
    let root = paths::workspace_root();
    let arch = flags.text("--arch").unwrap_or("sm_90").to_owned();
    if !arch.strip_prefix("sm_").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric())) {
        return Err(Error(format!("--arch: `{arch}` is not a GPU architecture such as sm_90")));
    }
    // Without `--ptx`, both modules; the Hopper one only for an architecture
    // that can run it.
    let ptx_files = match flags.path("--ptx") {
        Some(file) => vec![file],
        None => {
            let built = ptx_builder::build(&root, &super::cargo())?;
            if generation(&arch) >= generation(layout::Module::Hopper.arch()) {
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
        let (module_text, module_resources) = sass::disassemble(&ptxas, &cuobjdump, ptx_file, &arch, &work)?;
        text.push_str(&module_text);
        resources.push_str(&module_resources);
    }
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

/// The number of an architecture such as `sm_90` or `sm_90a` (90), or 0 if it
/// has none.
fn generation(arch: &str) -> u32 {
    let digits: String = arch.trim_start_matches("sm_").chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(0)
}
