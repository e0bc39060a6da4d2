//! `cargo xtask <task>`: the lab's build tasks. This file only dispatches;
//! each task is a module under `tasks/`, over the `xtask` library.

mod tasks;

use std::env;
use std::process::ExitCode;

use xtask::{Error, paths, ptxas};

/// The tasks and their flags, printed by `--help` and shown in the book.
pub const USAGE: &str = "usage: cargo xtask <task>

tasks:
  build-ptx   compile kernels/ to PTX (both modules) and print the two PTX paths
  book [--results DIR]
              generate the book's tables and plots from a results directory
              (default results/h200, the reference run; make your own with
              `host evidence DIR`), check it and build it into target/book/
  ptxas       print the ptxas the tests use, installing it if missing
  test        the README's test command: cargo fmt --check and clippy -D warnings
              on both workspaces, every test (installing ptxas, cuobjdump and
              nvdisasm if missing), then the book from the reference run, then
              the browser test on it
  browser-test [--book DIR] [--screenshots DIR]
              open every chapter of the built book (default target/book) in
              headless Chromium at 1280x800, sidebar open, and fail on a table,
              code block or image wider than its column, an image that does
              not load, or a broken link or anchor; installs Debian's chromium
              and chromium-driver with apt-get if missing
  sass [--arch sm_90] [--kernel NAME] [--ptx FILE]
              print each kernel's SASS (cuobjdump), its synchronizing
              instructions and its ptxas -v resources; no GPU needed
  sanitize [--host FILE] [--out DIR]
              run every kernel under compute-sanitizer (memcheck, racecheck,
              synccheck, initcheck) through `host evidence DIR --only sanitize`;
              needs a GPU. Without --host, builds the release host first. Logs
              go to DIR/sanitizer/ (DIR defaults to target/sanitizer).
  nvcc-compare [--host FILE] [--out DIR] [--cu FILE] [--cub-cu FILE] [--cccl DIR]
               [--sizes N,N]
              time the page's kernels compiled by rustc and by nvcc -O3,
              alternately, then every lab sum beside CUB's DeviceReduce::Sum
              (its default, and with CCCL 3.1 or later its not_guaranteed,
              run_to_run and gpu_to_gpu modes, held and as called), warm and
              cold, and CUB's accuracy on the accuracy command's arrays, in one
              run, and write DIR/nvcc-compare.json (DIR defaults to
              target/nvcc); needs nvcc and a GPU. Builds against the CCCL
              headers in target/cccl (or --cccl DIR) if they are there, and
              never runs pip.
  nvcc-compare --install-only
              install the pinned CCCL headers (nvidia-cuda-cccl) under
              target/cccl with pip; needs the network, not a GPU.";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let (task, rest) = args.split_first().map_or(("", &[][..]), |(t, r)| (t.as_str(), r));
    let result = match task {
        "build-ptx" => tasks::build_ptx::run(),
        "book" => tasks::book::run(rest),
        "ptxas" => ptxas::find_or_install(&paths::workspace_root()).map(|p| println!("{}", p.display())),
        "test" => tasks::test::run(),
        "browser-test" => tasks::browser::run(rest),
        "sass" => tasks::sass::run(rest),
        "sanitize" => tasks::sanitize::run(rest),
        "nvcc-compare" => tasks::nvcc_compare::run(rest),
        "-h" | "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        "" => Err(Error(USAGE.to_owned())),
        other => Err(Error(format!("unknown task `{other}`\n{USAGE}"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
