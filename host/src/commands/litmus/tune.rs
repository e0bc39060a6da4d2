//! `host tune`: the litmus suite's environment, tuned for the GPU it runs on.
//! It spends a time budget searching ([`crate::litmus::tune::search`]),
//! keeps each kernel's winner (a test in one variant) in a file named after
//! the GPU and driver ([`Winners`]), and reports the winners beside the
//! environment it started from. `host litmus --tuned` then runs each kernel
//! in its winner. It lives beside `litmus` because it is that suite's step
//! and shares its report.

use std::path::PathBuf;

use clap::Args;
use layout::litmus::{Split, Test, Variant};
use tabled::builder::Builder;

use super::failures::litmus_failures;
use super::flags::{HOPPER, parse_location_stride, parse_seconds};
use crate::commands::{Command, Written, progress, write};
use crate::device::{DeviceInfo, kernel_driver_version};
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::litmus::{Budget, LitmusKernel, LitmusKernels};
use crate::litmus::environment::DEFAULT_LOCATION_STRIDE;
use crate::litmus::tune::{self, Confirmation, Trial};
use crate::litmus::tuned::{self, Winners};
use crate::litmus::{self, Environment, LitmusOptions, LitmusRow, Preset, keys};
use crate::options::OutputArgs;
use crate::report::table::{Look, device_header, rate_per_million, render_some};
use crate::report::{Checks, Csv, Report};

/// `tune`'s flags.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Seconds to spend: most drawing random environments, the rest running
    /// each kernel's best few again, for longer, beside the starting one.
    #[arg(long, default_value_t = 120.0, value_parser = parse_seconds)]
    pub budget: f64,

    /// Seconds each kernel runs in each environment drawn.
    #[arg(long, default_value_t = 0.05, value_parser = parse_seconds)]
    pub row_seconds: f64,

    /// Tests, comma-separated; every test by default.
    #[arg(long, value_delimiter = ',', value_parser = keys::parser::<Test>())]
    pub test: Vec<Test>,

    /// The variants each environment runs, comma-separated. Each test in
    /// each of them whose weak outcome the model allows is a kernel with a
    /// winner of its own: the environment that showed that weak outcome most
    /// often per instance. `litmus --tuned` runs a variant not searched in
    /// its test's winner for the first of these that has one. The default
    /// pairs the relaxed accesses at `.gpu` scope (the rows cuda-litmus runs)
    /// with block-scoped fences across blocks, whose weak outcomes the model
    /// allows and the hardware shows rarely.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "relaxed-gpu,fence-acq-rel-cta",
        value_parser = keys::parser::<Variant>()
    )]
    pub variant: Vec<Variant>,

    /// The placements each environment runs, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "inter-block", value_parser = keys::parser::<Split>())]
    pub placement: Vec<Split>,

    /// The environment the search starts from: it runs again in the
    /// confirming round, so a winner is never one that did worse than it.
    #[arg(long, value_enum, default_value_t = Preset::TunedWrc)]
    pub preset: Preset,

    /// Words of the location buffer per instance, for every environment of
    /// the search (as `litmus --location-stride`): 8 places instances as
    /// cuda-litmus's `memStride=4` does, four to a 128-byte line.
    #[arg(long, default_value_t = 8, value_parser = parse_location_stride)]
    pub location_stride: u32,

    /// Where the winners go: a folder, which gets one file named after the
    /// GPU and driver (`nvidia-h200-580.159.04.json`), or a `.json` file.
    #[arg(long, value_name = "PATH", default_value = tuned::DEFAULT_FOLDER)]
    pub save: PathBuf,

    /// The seed of every random choice.
    #[arg(long, default_value_t = 26)]
    pub seed: u64,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}

/// What `tune` writes: the search, its confirming round and the winners.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TunedResults {
    /// What every environment ran; its environment is the starting one.
    pub options: LitmusOptions,
    /// The environments drawn, in order.
    pub trials: Vec<Trial>,
    /// Each kernel's finalists and the starting environment, run again.
    pub confirmations: Vec<Confirmation>,
    /// The winners, as saved (boxed: the largest part of the largest
    /// result).
    pub winners: Box<Winners>,
    /// The file they were saved to.
    pub saved: PathBuf,
}

impl TuneArgs {
    /// The kernels to run: each test's variants among `--variant` that the
    /// model allows the weak outcome of in some placement given (a search
    /// ranks environments by weak outcomes, and a forbidden row must show
    /// none).
    fn kernels(&self) -> Vec<LitmusKernel> {
        LitmusKernel::all()
            .filter(|k| self.test.is_empty() || self.test.contains(&k.test))
            .filter(|k| self.variant.contains(&k.variant))
            .filter(|k| self.placement.iter().any(|&p| p.fits(k.test) && litmus::verdict(k.test, k.variant, p).allowed))
            .collect()
    }

    /// The options every environment runs with, `environment` the starting
    /// one.
    fn options(&self, kernels: Vec<LitmusKernel>) -> LitmusOptions {
        let environment = Environment { location_stride: self.location_stride, ..self.preset.environment() };
        LitmusOptions {
            kernels,
            placements: self.placement.clone(),
            budget: Budget::Seconds(self.row_seconds),
            batch: 16,
            preset: (environment == self.preset.environment()).then_some(self.preset),
            environment,
            tuned: None,
            sequential: false,
            seed: self.seed,
        }
    }

    /// Where the winners go on `device`: `--save`'s file, or its folder's
    /// file for this GPU and driver.
    fn save_path(&self, device: &DeviceInfo, driver: Option<&str>) -> PathBuf {
        if self.save.extension().is_some_and(|e| e == "json") && !self.save.is_dir() {
            self.save.clone()
        } else {
            Winners::file_in(&self.save, device, driver)
        }
    }
}

impl Command for TuneArgs {
    type Device = Gpu;
    const STOPS_AT_CHECKS: bool = true;
    type Checked = Vec<LitmusKernel>;
    type Output = Written<TunedResults>;

    /// Refuses, before the GPU opens, a selection with nothing to run and a
    /// budget that leaves no time for one environment.
    fn check(&self) -> Result<Vec<LitmusKernel>, LabError> {
        let kernels = self.kernels();
        let rows = kernels.iter().map(|k| self.placement.iter().filter(|p| p.fits(k.test)).count()).sum::<usize>();
        if rows == 0 {
            return Err(LabError::Unrunnable(
                "nothing to tune: no test given has a row among the variants and placements given whose weak outcome \
                 the model allows"
                    .to_owned(),
            ));
        }
        let draw = rows as f64 * self.row_seconds;
        if draw > self.budget * tune::SEARCH_SHARE {
            return Err(LabError::Unrunnable(format!(
                "--budget {} leaves {:.1} s for drawing environments, and one takes {draw:.1} s ({rows} rows of \
                 --row-seconds {}): raise the budget or select fewer tests",
                self.budget,
                self.budget * tune::SEARCH_SHARE,
                self.row_seconds
            )));
        }
        Ok(kernels)
    }

    fn run(self, kernels: Vec<LitmusKernel>, gpu: &Gpu) -> Result<Written<TunedResults>, LabError> {
        let needs_hopper =
            kernels.iter().any(|k| k.variant.needs_hopper()) || self.placement.iter().any(|p| p.needs_clusters());
        if needs_hopper && gpu.info.compute_capability < HOPPER {
            return Err(LabError::Unrunnable(
                "a .cluster variant or a cluster placement needs compute capability 9.0 or above".to_owned(),
            ));
        }
        let options = self.options(kernels);
        let litmus_kernels = LitmusKernels::load(gpu)?;
        let bar = progress(&self.output);
        let (trials, confirmations) = tune::search(&litmus_kernels, &options, self.budget, self.row_seconds, &bar)?;
        let driver = kernel_driver_version();
        // In the order `--variant` gave them, each once.
        let variants: Vec<String> = self.variant.iter().map(|v| v.key().to_owned()).fold(Vec::new(), |mut seen, v| {
            if !seen.contains(&v) {
                seen.push(v);
            }
            seen
        });
        let winners = Box::new(Winners {
            gpu: gpu.info.name.clone(),
            driver: driver.clone(),
            tool: crate::commands::tool(),
            budget_seconds: self.budget,
            environments_tried: trials.len(),
            variants,
            placements: options.placements.iter().map(|p| p.key().to_owned()).collect(),
            location_stride: options.environment.location_stride,
            winners: tune::winners(&confirmations),
        });
        let saved = self.save_path(&gpu.info, driver.as_deref());
        if let Some(folder) = saved.parent().filter(|f| !f.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder)
                .map_err(|e| LabError::Output { path: folder.to_path_buf(), reason: e.to_string() })?;
        }
        let text = serde_json::to_string_pretty(&winners).expect("winners serialize") + "\n";
        write(&saved, &text)?;
        Ok(Written::run(gpu, TunedResults { options, trials, confirmations, winners, saved }, self.output, None))
    }
}

/// The columns of `tune`'s CSV: one row per confirming run.
const HEADER: [&str; 9] = [
    "test",
    "variant",
    "configuration",
    "winner",
    "weak",
    "instances",
    "weak_per_million",
    "environment",
    "location_stride",
];

impl Report for TunedResults {
    fn validate(&self) -> Result<(), String> {
        let rows = self.trials.iter().flat_map(|t| &t.rows).chain(self.confirmations.iter().flat_map(|c| &c.rows));
        rows.into_iter().try_for_each(LitmusRow::validate)
    }

    fn tables(&self, device: &DeviceInfo, look: Look) -> String {
        let mut builder = Builder::default();
        builder.push_record(["test", "variant", "winner", "weak per million", "starting environment", "ratio"]);
        for w in &self.winners.winners {
            let start = rate_per_million(w.start_weak, w.start_instances);
            let ratio = if w.start_weak == 0 {
                "-".to_owned()
            } else {
                format!(
                    "{:.1}x",
                    (w.weak as f64 / w.instances as f64) / (w.start_weak as f64 / w.start_instances as f64)
                )
            };
            builder.push_record([
                w.test.name().to_owned(),
                w.variant.key().to_owned(),
                w.found.clone(),
                rate_per_million(w.weak, w.instances),
                start,
                ratio,
            ]);
        }
        let table = render_some(builder, look, 3..6);
        let mut list = Builder::default();
        list.push_record(["test", "variant", "its environment"]);
        for w in &self.winners.winners {
            list.push_record([w.test.name(), w.variant.key(), &w.summary]);
        }
        let list = render_some(list, look, 0..0);
        let missing: Vec<String> = self
            .options
            .kernels
            .iter()
            .filter(|k| self.winners.winner(k.test, k.variant).is_none())
            .map(|k| format!("{} {}", k.test.name(), k.variant.key()))
            .collect();
        let missing = if missing.is_empty() {
            String::new()
        } else {
            format!(
                "No environment showed the weak outcome of {}; each runs in its test's winner for another variant, \
                 or else in the one given.\n",
                missing.join(", ")
            )
        };
        let stride = if self.options.environment.location_stride == DEFAULT_LOCATION_STRIDE {
            String::new()
        } else {
            format!(", {}-word slots", self.options.environment.location_stride)
        };
        format!(
            "{}\nTuning: {} random environments in {} s ({} {}{stride}), then each kernel's best {} and the starting \
             environment again; the winner shows the weak outcome most often per instance.\n{}\n\n{missing}{}\n\
             Saved to {}; host litmus --tuned runs each kernel in its winner.\n",
            device_header(device, None),
            self.trials.len(),
            self.winners.budget_seconds,
            self.winners.variants.join(", "),
            self.winners.placements.join(","),
            tune::FINALISTS,
            table.trim_end(),
            list.trim_end(),
            self.saved.display()
        )
    }

    fn csv(&self) -> Csv {
        let rows = self
            .confirmations
            .iter()
            .map(|c| {
                let (weak, instances) = c.counts();
                let winner = self.winners.winner(c.kernel.test, c.kernel.variant).map(|w| &w.environment)
                    == Some(&c.environment);
                vec![
                    c.kernel.test.key().to_owned(),
                    c.kernel.variant.key().to_owned(),
                    c.configuration.map_or("start".to_owned(), |i| (i + 1).to_string()),
                    winner.to_string(),
                    weak.to_string(),
                    instances.to_string(),
                    format!("{}", if instances == 0 { 0.0 } else { weak as f64 * 1e6 / instances as f64 }),
                    c.environment.summary(),
                    c.environment.location_stride.to_string(),
                ]
            })
            .collect();
        Csv { header: &HEADER, rows }
    }

    /// A forbidden outcome in any environment fails the search, as it fails
    /// `litmus`.
    fn checks(&self) -> Checks {
        let trials = self.trials.iter().flat_map(|t| t.rows.iter().map(move |r| (r, &t.environment)));
        let confirmations = self.confirmations.iter().flat_map(|c| c.rows.iter().map(move |r| (r, &c.environment)));
        let bad: Vec<(&LitmusRow, &Environment)> =
            trials.chain(confirmations).filter(|(r, _)| r.forbidden() > 0).collect();
        Checks::from_lines(litmus_failures(&bad))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        tune: TuneArgs,
    }

    fn parse(args: &[&str]) -> TuneArgs {
        Cli::try_parse_from(std::iter::once("tune").chain(args.iter().copied())).unwrap().tune
    }

    #[test]
    fn a_budget_too_small_for_one_environment_is_refused_before_the_gpu() {
        let refused = parse(&["--budget", "0.5", "--row-seconds", "0.1"]).check().unwrap_err().to_string();
        assert!(refused.contains("leaves 0.3 s for drawing environments"), "{refused}");
        let nothing = parse(&["--test", "mp", "--variant", "relaxed-cta", "--placement", "blocks-01-2"]);
        assert!(nothing.check().unwrap_err().to_string().contains("nothing to tune"));
        let forbidden = parse(&["--test", "corr"]);
        assert!(forbidden.check().unwrap_err().to_string().contains("the model allows"));
        // Each test in each default variant whose weak outcome the model
        // allows across blocks; CoRR's is forbidden in both.
        let kernels = parse(&["--test", "mp,iriw,corr"]).check().unwrap();
        let chosen: Vec<(Test, Variant)> = kernels.iter().map(|k| (k.test, k.variant)).collect();
        assert_eq!(
            chosen,
            [
                (Test::Mp, Variant::RelaxedGpu),
                (Test::Mp, Variant::FenceAcqRelCta),
                (Test::Iriw, Variant::RelaxedGpu),
                (Test::Iriw, Variant::FenceAcqRelCta)
            ]
        );
    }

    #[test]
    fn the_search_starts_from_the_preset_at_the_stride_given() {
        let args = parse(&["--preset", "tuned-iriw"]);
        let options = args.options(args.check().unwrap());
        assert_eq!(options.environment.location_stride, 8);
        assert_eq!(options.preset, None);
        assert_eq!(Environment { location_stride: 64, ..options.environment }, Preset::TunedIriw.environment());
    }
}
