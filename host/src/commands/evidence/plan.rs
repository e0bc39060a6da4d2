//! The reference run's plan: the lab's own command lines, in the order the
//! book teaches them.

use lab_records::BENCH_LADDER_SIZES;

/// One run of the lab's own CLI: the name of its files and its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The step's name and the stem of its files.
    pub name: &'static str,
    /// The command line after `host`.
    pub args: &'static [&'static str],
    /// Whether the command draws a plot (`--plot`).
    pub plot: bool,
}

/// The prefix of an argument that names a file or folder in the run's own
/// directory: `@tuned` is `DIR/tuned`.
pub const IN_RUN: &str = "@";

const fn step(name: &'static str, args: &'static [&'static str]) -> Run {
    Run { name, args, plot: false }
}

const fn plotted(name: &'static str, args: &'static [&'static str]) -> Run {
    Run { name, args, plot: true }
}

/// The runs of record, in the order the book teaches them. Defaults are the
/// settings of record wherever a command has them; a flag appears here only
/// where the book shows a second setting beside the default, or where a
/// default would make the whole run too long to repeat on a learner's card.
pub const RUNS: &[Run] = &[
    // Lesson 1: the page's sweep at the three block sizes of its exercise.
    plotted("sweep-64", &["sweep", "--block", "64"]),
    plotted("sweep-256", &["sweep", "--block", "256"]),
    plotted("sweep-1024", &["sweep", "--block", "1024"]),
    plotted("exercise", &["exercise"]),
    // Lesson 2: the histogram and the publication, with the two stresses that
    // make a broken variant fail where the default layout does not.
    step("histogram", &["histogram"]),
    step("publish", &["publish"]),
    step("publish-preload", &["publish", "--preload"]),
    step("publish-same-slot", &["publish", "--flag", "same-slot"]),
    step("publish-stale", &["publish", "--preload", "--delay-ns", "2000"]),
    // The scope ladder: round trips and fences at .cta, .cluster, .gpu, .sys.
    step("scopes", &["scopes"]),
    // Reductions at the memory limit: warm, cold, and warm from 4,096 floats
    // to 2^31, the largest size a 32-bit float count reaches on the card.
    plotted("bench", &["bench"]),
    plotted("bench-cold", &["bench", "--cold"]),
    plotted("bench-ladder", &["bench", "--sizes", BENCH_LADDER_SIZES]),
    // How accurate is each sum.
    plotted("accuracy", &["accuracy"]),
    // Seeing memory order: the default environment, the stale-L1 preload,
    // the two presets a tuning search chose, and the sequential control.
    // Each row runs for a fixed time rather than a fixed count, so the whole
    // suite takes the same time on a slower card.
    step("litmus", &["litmus", "--seconds", "0.5"]),
    // The default run a user types first: its wall time is in the manifest.
    step("litmus-default", &["litmus"]),
    step("litmus-stale-l1", &["litmus", "--preset", "stale-l1", "--seconds", "0.5"]),
    step("litmus-tuned-mp", &["litmus", "--preset", "tuned-mp", "--seconds", "0.5"]),
    step("litmus-tuned-wrc", &["litmus", "--preset", "tuned-wrc", "--seconds", "0.5"]),
    step("litmus-tuned-iriw", &["litmus", "--preset", "tuned-iriw", "--seconds", "0.5"]),
    step(
        "litmus-tune",
        &[
            "litmus",
            "--tune",
            "100",
            "--seconds",
            "0.03",
            "--placement",
            "inter-block",
            "--test",
            "wrc,iriw",
            "--variant",
            "relaxed-gpu,relaxed-cta,fence-acq-rel-cta",
        ],
    ),
    // Tuned for this GPU: a search of its own budget, whose winners (one
    // file named after the GPU and driver in DIR/tuned) the suite then runs
    // in, row for row as the first step above, in half its time a row.
    step("litmus-gpu-tune", &["tune", "--budget", "120", "--save", "@tuned"]),
    step("litmus-gpu-tuned", &["litmus", "--tuned", "@tuned", "--seconds", "0.25"]),
    step("litmus-sequential", &["litmus", "--sequential", "--instances", "1000000"]),
    // Mutation testing: every forbidden row's killable mutants, each until
    // its first weak outcome or a fifth of a second, in two environments.
    step("litmus-mutants", &["litmus", "--mutants", "--seconds", "0.2"]),
    step("litmus-mutants-tuned-wrc", &["litmus", "--mutants", "--preset", "tuned-wrc", "--seconds", "0.2"]),
    // The scope ladder: a publication at each rung the default `publish`
    // does not run as often as the ladder chapter's target asks (10^8 pairs
    // for each correct variant), the `.cluster` litmus rows, and the price of
    // each rung.
    step(
        "publish-cluster",
        &[
            "publish",
            "--variant",
            "cluster-dsmem-release-acquire,cluster-dsmem-wrong-scope,cluster-dsmem-relaxed,cluster-global-release-acquire,cluster-barrier",
            "--launches",
            "50",
        ],
    ),
    // The `.cta` and `.gpu` rungs' correct publications, lesson 2's two,
    // with the live L1 preload that makes their relaxed twin fail, for as
    // many launches as the `.cluster` ones get.
    step(
        "publish-correct",
        &["publish", "--variant", "block-release-acquire,grid-release-acquire", "--preload", "--launches", "50"],
    ),
    step("publish-sys", &["publish-sys"]),
    step(
        "litmus-cluster",
        &[
            "litmus",
            "--placement",
            "intra-cluster,inter-cluster",
            "--test",
            "mp,sb,lb,wrc,iriw",
            "--variant",
            "relaxed-cluster,rel-acq-cluster,fence-acq-rel-cluster,fence-sc-cluster,rel-acq-cta,fence-acq-rel-cta,rel-acq-gpu,relaxed-gpu",
            "--seconds",
            "0.5",
        ],
    ),
    // The pitfalls: each mistake of both pages beside its fix, one record
    // each, so each lesson's pitfalls section includes its own.
    step("pitfalls-divergent-barrier", &["pitfalls", "--only", "divergent-barrier"]),
    step("pitfalls-warp-scope", &["pitfalls", "--only", "warp-scope"]),
    step("pitfalls-device-phase", &["pitfalls", "--only", "device-phase"]),
    step("pitfalls-torn-record", &["pitfalls", "--only", "torn-record"]),
    step("pitfalls-volatile", &["pitfalls", "--only", "volatile"]),
    step("pitfalls-relaxed-flag", &["pitfalls", "--only", "relaxed-flag"]),
    step("pitfalls-histogram-barrier", &["pitfalls", "--only", "histogram-barrier"]),
    step("pitfalls-unreset-accumulator", &["pitfalls", "--only", "unreset-accumulator"]),
    step("pitfalls-golden-equality", &["pitfalls", "--only", "golden-equality"]),
];
