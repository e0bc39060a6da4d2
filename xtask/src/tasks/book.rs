//! `cargo xtask book [--results DIR]`: generate the book's tables,
//! plots and listings from a results directory (see [`xtask::book`]), check
//! its sources, and build it with the pinned mdBook into `target/book/`.

use std::cell::{OnceCell, RefCell};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use layout::Module;
use xtask::{Error, book, mdbook, paths, ptxas, sass};

/// The reference run the book shows by default.
pub const REFERENCE: &str = book::REFERENCE;

/// `book`'s flags.
#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// The results directory to show [default: results/h200, the reference
    /// run]. Make your own with `host evidence DIR`; a figure it lacks is
    /// shown as missing instead of failing the build.
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
}

/// Runs the task.
pub fn run(args: &Args) -> super::Result {
    let root = paths::workspace_root();
    let (results, strict) = match &args.results {
        Some(dir) => (dir.clone(), false),
        None => (root.join(REFERENCE), true),
    };
    // A run that cannot be read is the command line's mistake, found before
    // anything is built.
    let manifest = results.join(lab_records::MANIFEST);
    let run = std::fs::read_to_string(&manifest)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str::<lab_records::Manifest>(&text).map_err(|e| e.to_string()));
    if let Err(why) = run {
        return Err(super::Failure::Usage(Error(format!(
            "{} is not a run of `host evidence DIR` ({}: {why})",
            results.display(),
            manifest.display()
        ))));
    }
    let cargo = super::cargo();
    let mdbook = mdbook::find_or_install(&root, cargo.as_os_str())?;
    let host = super::host_binary(None)?;
    let disassembled = Disassembled::new(&root);
    let sass = |listing: book::SassListing| disassembled.listing(listing);
    let usage = super::usage();
    let sources = book::Sources { results: &results, host: &host, strict, xtask_usage: &usage, sass: &sass };
    let src = root.join("book/src");
    // What the run cannot provide and the chapters ask for, and a chapter
    // that breaks the book's rules, are the book's checks failing.
    for warning in book::generate(&src, &sources).map_err(super::Failure::Failed)? {
        eprintln!("warning: {warning}");
    }
    book::check(&src).map_err(super::Failure::Failed)?;
    let index = book::build(&mdbook, &root.join("book"), &root)?;
    println!("{}", index.display());
    Ok(())
}

/// Both modules' `sm_90` SASS, disassembled once each, the first time a
/// listing needs it, from one build of the PTX.
struct Disassembled<'a> {
    root: &'a Path,
    /// The PTX of both modules and the tools that disassemble it, found or
    /// built once, by the first listing.
    tools: OnceCell<Tools>,
    /// Per module: the SASS text and `ptxas -v`'s resources.
    modules: RefCell<BTreeMap<&'static str, (String, String)>>,
}

/// What turns the PTX into SASS: the built modules, `ptxas` and `cuobjdump`.
struct Tools {
    built: ptx_builder::Built,
    ptxas: PathBuf,
    cuobjdump: PathBuf,
}

impl<'a> Disassembled<'a> {
    fn new(root: &'a Path) -> Self {
        Disassembled { root, tools: OnceCell::new(), modules: RefCell::new(BTreeMap::new()) }
    }

    /// The PTX and the tools, built or installed on the first call.
    fn tools(&self) -> Result<&Tools, Error> {
        if let Some(tools) = self.tools.get() {
            return Ok(tools);
        }
        let built = ptx_builder::build(self.root, &super::cargo())?;
        let ptxas = ptxas::find_or_install(self.root)?;
        let cuobjdump = ptxas::find_tool(self.root, "cuobjdump")
            .ok_or_else(|| Error("cuobjdump not found after installing it".to_owned()))?;
        Ok(self.tools.get_or_init(|| Tools { built, ptxas, cuobjdump }))
    }

    /// The SASS and resources of `module`.
    fn module(&self, module: Module) -> Result<(String, String), Error> {
        let key = module.file_name();
        if let Some(done) = self.modules.borrow().get(key) {
            return Ok(done.clone());
        }
        let tools = self.tools()?;
        let work: PathBuf = self.root.join("target/sass").join(key);
        let done = sass::disassemble(&tools.ptxas, &tools.cuobjdump, tools.built.path(module), "sm_90", &work)?;
        self.modules.borrow_mut().insert(key, done.clone());
        Ok(done)
    }

    /// A listing's summary lines, as `cargo xtask sass` prints them: the
    /// synchronizing instructions of each kernel the listing names, with
    /// their resources for the page's kernels.
    fn listing(&self, listing: book::SassListing) -> Result<String, Error> {
        let shown: Vec<&layout::Entry> = layout::registry::entries().filter(|e| listing.shows(e)).collect();
        let mut lines = Vec::new();
        for module in Module::ALL {
            if !shown.iter().any(|e| e.module == module) {
                continue;
            }
            let (text, resources) = self.module(module)?;
            for s in sass::summarize(&text) {
                let Some(entry) = shown.iter().find(|e| e.module == module && e.symbol == s.kernel) else { continue };
                let mut line = format!("{}\n", s.line());
                if listing == book::SassListing::Page {
                    line.push_str(&format!("    resources: {}\n", sass::resources_of(&resources, &s.kernel)));
                }
                lines.push((listing.rank(entry), line));
            }
        }
        // The listing's own order (for the ladder: rung by rung), the
        // registry's within it; the modules interleave.
        lines.sort_by_key(|(rank, _)| *rank);
        let mut out = format!("$ cargo xtask sass --arch sm_90 (summary of {})\n", listing.what());
        out.extend(lines.into_iter().map(|(_, line)| line));
        Ok(out)
    }
}
