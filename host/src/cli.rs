//! The command line: the binary's flags and its subcommands, one per
//! command folder. Each command's own flags live in its folder
//! (`commands/<name>/args.rs`), the flags several share in
//! [`crate::options`]. Every check that can be made without a GPU is made by
//! clap or by the command's check, before anything runs. Only [`crate::app`]
//! and `main` read this module.

use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::commands::accuracy::AccuracyArgs;
use crate::commands::bench::BenchArgs;
use crate::commands::compare::CompareArgs;
use crate::commands::evidence::EvidenceArgs;
use crate::commands::exercise::ExerciseArgs;
use crate::commands::histogram::HistogramArgs;
use crate::commands::litmus::{LitmusArgs, TuneArgs};
use crate::commands::pitfalls::PitfallsArgs;
use crate::commands::publish::PublishArgs;
use crate::commands::publish_sys::PublishSysArgs;
use crate::commands::scopes::ScopesArgs;
use crate::commands::sweep::SweepArgs;
use crate::render::RenderArgs;

/// Launch, time and check GPU synchronization kernels written in Rust.
#[derive(Debug, Parser)]
#[command(name = "host", version, after_help = EXIT_CODES)]
pub struct Cli {
    /// Load kernels from this PTX file instead of the PTX built with the binary.
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "practice")]
    pub ptx: Option<PathBuf>,

    /// Your kernels, as `cargo xtask practice check` writes them
    /// (target/practice/practice.ptx, or practice-sm90.ptx for a puzzle that
    /// needs Hopper's clusters): each puzzle named by --puzzle runs
    /// wherever the command would run the lab kernel it stands for, with
    /// that kernel's launch and checks.
    #[arg(long, global = true, value_name = "FILE", requires = "puzzle")]
    pub practice: Option<PathBuf>,

    /// The puzzles whose kernels --practice takes (comma-separated).
    #[arg(long, global = true, value_delimiter = ',', requires = "practice", value_parser = puzzle_parser())]
    pub puzzle: Vec<String>,

    /// What to run.
    #[command(subcommand)]
    pub command: Command,
}

/// What each exit code means, printed under `--help` of the binary and of
/// every command.
pub const EXIT_CODES: &str = "Exit codes: 0 every check passed; 1 a check failed (a sum not bit-exact, a \
histogram count off, a stale record from a correct publish variant, a forbidden litmus outcome); 2 bad flags, an \
unusable data file or no CUDA device; 3 the environment failed (PTX that cannot be read or does not load, a driver \
error, an output file that cannot be written); 130 stopped by Ctrl-C (litmus, bench and accuracy first print what they \
measured, marked partial); 141 standard output closed by its reader (`| head`), quietly.";

impl Cli {
    /// The command line's definition, with [`EXIT_CODES`] under every
    /// command's `--help` as well as the binary's.
    pub fn definition() -> clap::Command {
        Cli::command().mut_subcommands(|command| command.after_help(EXIT_CODES))
    }

    /// Parses the process's arguments against [`Cli::definition`].
    pub fn try_parse_args() -> Result<Cli, clap::Error> {
        let mut matches = Cli::definition().try_get_matches()?;
        Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut Cli::definition()))
    }
}
/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Sum one array three ways at several sizes, time each, check each sum
    /// bit for bit, then show how deterministic each kernel is.
    Sweep(SweepArgs),
    /// The page's exercise: the sweep at blocks 64, 256 and 1024, the nine
    /// ratios, the fastest columns and the bitwise check. No verdict.
    Exercise(ExerciseArgs),
    /// Publish a record from a producer to a consumer thread in twelve ways
    /// (release/acquire, relaxed and volatile in one block; release/acquire,
    /// relaxed, volatile and wrong scope across blocks; release/acquire at
    /// .cluster, wrong scope, relaxed and the cluster barrier between two
    /// blocks of one cluster, on Hopper) under stress, and count stale records.
    Publish(PublishArgs),
    /// Publish records between the GPU and CPU threads through mapped host
    /// memory, both ways, at system scope and at the wrong scope, with
    /// relaxed flags on either side, and count stale records.
    PublishSys(PublishSysArgs),
    /// The scope ladder: who each scope (.cta, .cluster, .gpu, .sys)
    /// includes, the ping-pong round trip between two agents at each, as a
    /// ratio to the .cta one, and the cost of one fence at each scope.
    Scopes(ScopesArgs),
    /// Time every sum kernel at large sizes against the device's own copy
    /// bandwidth and an empty launch, with the spread of every timing.
    Bench(BenchArgs),
    /// Count values into bins with global atomics and with a privatized
    /// shared-memory histogram, timed, and checked exactly against the CPU.
    Histogram(HistogramArgs),
    /// How far each sum is from the exact one: every kernel (20 runs) and the
    /// usual CPU sums, on generated arrays or your own .npy file, in units in
    /// the last place of the exactly rounded sum.
    Accuracy(AccuracyArgs),
    /// Make weak memory behaviour visible: run the litmus suite (every test
    /// of `--test`, in the variants that teach something and both placements)
    /// in the parallel testing environment, count each outcome on the GPU,
    /// and hold each count to the PTX memory model's verdict.
    Litmus(LitmusArgs),
    /// Tune the litmus suite's environment for this GPU: search random
    /// environments for a time budget, keep each test's winner (the most
    /// weak outcomes per instance) in a file named after the GPU and driver,
    /// and show it beside the environment it started from. `litmus --tuned`
    /// then runs each test in its winner.
    Tune(TuneArgs),
    /// Run each of the pages' mistakes beside its fix, under the condition
    /// that makes it show: a barrier inside a bounds check, a warp barrier
    /// across warps, a grid barrier in an ordinary launch, two atomics on
    /// two fields, a relaxed (volatile) flag, the histogram without a
    /// barrier, an accumulator never reset, a golden `==` on a float sum.
    /// Fails only if a fix goes wrong.
    Pitfalls(PitfallsArgs),
    /// Run everything the book shows, with the settings of record, on the GPU
    /// found, and write each run's JSON and plot and a manifest.json (commit,
    /// GPU, driver, each command line, date, wall time) into DIR. Where
    /// compute-sanitizer is on PATH, every kernel runs under its four tools
    /// too. Render the book from DIR with `cargo xtask book --results DIR`.
    Evidence(EvidenceArgs),
    /// Print a result saved with `--format json` again, in another format or
    /// as a plot. Needs no GPU.
    Render(RenderArgs),
    /// Put two evidence runs side by side: their headline figures with the
    /// second's as a ratio of the first's, and whether the reproducible sums
    /// gave the same bits on both GPUs (exit 1 if not). Needs no GPU.
    Compare(CompareArgs),
}

/// `--puzzle`'s values: the names of the puzzles whose kernels stand for a
/// lab kernel (a puzzle the model alone judges is never launched).
fn puzzle_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        layout::practice::PUZZLES.iter().filter(|p| p.stands_for.lab().is_some()).map(|p| p.key),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::publish::PublishVariant;
    use crate::options::*;
    use clap::CommandFactory;

    /// A host enum's value as the command line spells it (clap's
    /// `ValueEnum`) and as JSON spells it (serde): they must be one word.
    fn spelled_once<T: clap::ValueEnum + serde::Serialize>() -> Vec<String> {
        T::value_variants()
            .iter()
            .map(|v| {
                let cli = v.to_possible_value().expect("no value is hidden").get_name().to_owned();
                assert_eq!(serde_json::to_value(v).unwrap(), serde_json::Value::String(cli.clone()), "{cli}");
                cli
            })
            .collect()
    }

    /// The lab spells an enum two ways by construction: `layout`'s enums by
    /// their `key()` (`litmus::keys`, since `layout` has neither clap nor
    /// serde), the host's own by clap and serde derives. Both must give one
    /// spelling on the command line, in tables and in JSON.
    #[test]
    fn every_enum_is_spelled_the_same_on_the_command_line_in_tables_and_in_json() {
        use crate::gpu::publish::FlagPlacement;
        use crate::input::{Distribution, Spread};
        use crate::litmus::Preset;
        use crate::litmus::environment::Distance;
        for (name, cli) in [
            ("distribution", spelled_once::<Distribution>()),
            ("spread", spelled_once::<Spread>()),
            ("flag", spelled_once::<FlagPlacement>()),
            ("distance", spelled_once::<Distance>()),
            ("preset", spelled_once::<Preset>()),
        ] {
            assert!(!cli.is_empty(), "{name}");
        }
        // The two that also have a table name.
        use clap::ValueEnum;
        for d in Distribution::value_variants() {
            assert_eq!(d.name(), d.to_possible_value().unwrap().get_name());
        }
        for s in Spread::value_variants() {
            assert_eq!(s.name(), s.to_possible_value().unwrap().get_name());
        }
    }

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("host").chain(args.iter().copied()))
    }

    fn sweep(args: &[&str]) -> SweepArgs {
        match parse(args).unwrap().command {
            Command::Sweep(a) => a,
            other => panic!("parsed as {other:?}"),
        }
    }

    #[test]
    fn the_cli_definition_is_consistent() {
        Cli::command().debug_assert();
        Cli::definition().debug_assert();
    }

    #[test]
    fn sweep_defaults_are_the_issue_s() {
        let a = sweep(&["sweep"]);
        assert_eq!(a.block.threads(), 256);
        assert_eq!((a.timing.runs, a.timing.warmup), (10, 3));
        assert_eq!(a.sizes, DEFAULT_SIZES);
    }

    #[test]
    fn sizes_parse_as_a_comma_list() {
        assert_eq!(sweep(&["sweep", "--sizes", "1,31,4_097"]).sizes, [1, 31, 4097]);
    }

    #[test]
    fn bad_values_name_the_flag_and_the_reason() {
        for (args, flag, reason) in [
            (&["sweep", "--block", "48"][..], "--block", "48 is not a power of two from 32 to 1024"),
            (&["sweep", "--block", "2048"], "--block", "2048 is not a power of two"),
            (&["sweep", "--block", "x"], "--block", "`x` is not a whole number"),
            (&["sweep", "--sizes", "0"], "--sizes", "at least 1"),
            (&["sweep", "--sizes", ""], "--sizes", "not a whole number"),
            (&["sweep", "--sizes", "10000000"], "--sizes", "could reach 2^24"),
            (&["sweep", "--runs", "0"], "--runs", "0 is not in 1..=10000"),
            (&["publish", "--launches", "0"], "--launches", "0 is not in 1..=100000"),
            (&["histogram", "--bins", "0"], "--bins", "0 is not in 1..=12288"),
            (&["histogram", "--bins", "20000"], "--bins", "20000 is not in 1..=12288"),
            (&["histogram", "--sizes", "0"], "--sizes", "0 is not between 1 and 2^29"),
            (&["bench", "--sizes", "2147483649"], "--sizes", "not between 1 and 2^31"),
            (&["bench", "--block", "100"], "--block", "not a power of two"),
            (&["histogram", "--distribution", "zipf"], "--distribution", "zipf"),
            (&["litmus", "--test", "dekker"], "--test", "dekker"),
            (&["litmus", "--threads", "64"], "--threads", "not a power of two from 128"),
            (&["litmus", "--seconds", "0"], "--seconds", "above 0"),
            (&["litmus", "--lane-multiplier", "2"], "--lane-multiplier", "2 is even"),
            (&["litmus", "--lane-multiplier", "0"], "--lane-multiplier", "not an odd number from 1 to 1023"),
            (&["litmus", "--lane-multiplier", "1025"], "--lane-multiplier", "not an odd number from 1 to 1023"),
            (&["litmus", "--instances", "5", "--seconds", "1"], "--instances", "cannot be used with"),
        ] {
            let message = parse(args).unwrap_err().to_string();
            let first = message.lines().next().unwrap();
            assert!(first.contains(flag) && first.contains(reason), "{args:?}: {first}");
        }
    }

    #[test]
    fn publish_takes_registry_names_and_the_old_launches_flag() {
        let Command::Publish(a) =
            parse(&["publish", "--iterations", "7", "--variant", "grid-wrong-scope,block-relaxed"]).unwrap().command
        else {
            panic!("not publish");
        };
        assert_eq!(a.launches, 7);
        assert_eq!(
            a.variant,
            [
                PublishVariant::of(&layout::publish::GRID_WRONG_SCOPE),
                PublishVariant::of(&layout::publish::BLOCK_RELAXED)
            ]
        );
    }

    #[test]
    fn an_odd_lane_multiplier_reaches_the_kernel_as_given() {
        let Command::Litmus(a) = parse(&["litmus", "--lane-multiplier", "5"]).unwrap().command else {
            panic!("not litmus");
        };
        let params = a.environment().params(layout::litmus::Test::Mp, layout::Placement::IntraBlock, 8, false, 1);
        assert_eq!(params.lane_multiplier, 5);
    }

    #[test]
    fn litmus_placements_default_to_two_and_all_expands_in_place() {
        use layout::litmus::Split;
        let placements = |args: &[&str]| {
            let Command::Litmus(a) = parse(args).unwrap().command else {
                panic!("not litmus");
            };
            a.placements()
        };
        assert_eq!(placements(&["litmus"]), Split::DEFAULT);
        assert_eq!(placements(&["litmus", "--sequential"]), [Split::IntraBlock]);
        let warp_then_all = placements(&["litmus", "--placement", "warp,inter-block,all"]);
        assert_eq!(warp_then_all.len(), Split::ALL.len());
        assert_eq!(&warp_then_all[..3], [Split::Warp, Split::InterBlock, Split::IntraBlock]);
        let split = placements(&["litmus", "--placement", "blocks-01-2"]);
        assert_eq!(split.len(), 1);
        assert_eq!(split[0].key(), "blocks-01-2");
        let params = parse(&["litmus"]).map(|c| match c.command {
            Command::Litmus(a) => a.environment().params(layout::litmus::Test::Wrc, split[0], 8, false, 1),
            _ => panic!("not litmus"),
        });
        let params = params.unwrap();
        assert_eq!((params.placement, params.parts, params.roles), (layout::litmus::PLACEMENT_BLOCKS, 0x100, 3));
    }

    /// The `.cluster` variants come by default only with a cluster
    /// placement, so the default run is the same on every GPU; below
    /// compute capability 9.0 a cluster placement or variant named on the
    /// command line is refused in one line, and `all` leaves them out.
    #[test]
    fn litmus_cluster_rows_are_opt_in_and_refused_below_sm_90() {
        use crate::commands::Command as _;
        use layout::litmus::Split;
        let litmus = |args: &[&str]| match parse(args).unwrap().command {
            Command::Litmus(a) => a,
            _ => panic!("not litmus"),
        };
        let default = litmus(&["litmus", "--test", "mp"]);
        let kernels = default.check().unwrap();
        assert!(!kernels.is_empty() && kernels.iter().all(|k| !k.variant.needs_hopper()));
        assert_eq!(default.for_device(kernels.clone(), (8, 0)).unwrap(), (kernels.clone(), Split::DEFAULT.to_vec()));
        assert_eq!(default.for_device(kernels.clone(), (9, 0)).unwrap(), (kernels, Split::DEFAULT.to_vec()));

        let cluster = litmus(&["litmus", "--test", "mp", "--placement", "intra-cluster,inter-cluster"]);
        let kernels = cluster.check().unwrap();
        let keys: Vec<&str> = kernels.iter().filter(|k| k.variant.needs_hopper()).map(|k| k.variant.key()).collect();
        assert_eq!(keys, ["relaxed-cluster", "rel-acq-cluster", "fence-acq-rel-cluster", "fence-sc-cluster"]);
        let refused = cluster.for_device(kernels.clone(), (8, 0)).unwrap_err().to_string();
        assert!(refused.starts_with("intra-cluster needs") && refused.contains("8.0") && !refused.contains('\n'));
        assert_eq!(cluster.for_device(kernels.clone(), (9, 0)).unwrap(), (kernels, Split::CLUSTER.to_vec()));

        let named = litmus(&["litmus", "--variant", "rel-acq-cluster"]);
        let kernels = named.check().unwrap();
        assert!(kernels.iter().all(|k| k.variant.key() == "rel-acq-cluster"));
        let refused = named.for_device(kernels, (7, 5)).unwrap_err().to_string();
        assert!(refused.starts_with("rel-acq-cluster needs"), "{refused}");

        let all = litmus(&["litmus", "--test", "mp,wrc,iriw", "--placement", "all"]);
        let kernels = all.check().unwrap();
        let (below, placements) = all.for_device(kernels.clone(), (8, 0)).unwrap();
        assert!(below.iter().all(|k| !k.variant.needs_hopper()) && below.len() < kernels.len());
        assert!(placements.iter().all(|p| !p.needs_clusters()) && placements.len() == Split::ALL.len() - 2);
    }

    #[test]
    fn the_largest_exact_size_is_accepted_and_the_next_refused() {
        assert_eq!(parse_size("5592405"), Ok(5_592_405));
        assert!(parse_size("5592406").is_err());
    }
}
