//! `accuracy`'s command line, and how it runs.

use std::path::PathBuf;

use clap::Args;

use super::{AccuracyOptions, Data};
use crate::cli::{OutputArgs, PlotArgs, parse_block, parse_count};
use crate::commands::{Command, Written, progress};
use crate::data_file;
use crate::error::LabError;
use crate::gpu::Gpu;
use crate::gpu::launch::Block;
use crate::gpu::sum::SumKernels;
use crate::input::Spread;

/// `accuracy`'s flags.
#[derive(Debug, Args)]
pub struct AccuracyArgs {
    /// Sum this file instead of generated arrays: a 1-D little-endian float32
    /// .npy array, or raw float32 words in a .f32 file. It is read and checked
    /// before the GPU is opened.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["spread", "sizes", "seed"])]
    pub input: Option<PathBuf>,

    /// Generated arrays, comma-separated (see the README for each).
    #[arg(long, value_delimiter = ',', default_values_t = Spread::ALL, value_enum)]
    pub spread: Vec<Spread>,

    /// Sizes of the generated arrays, comma-separated, from 1 to 2^29.
    #[arg(long, value_delimiter = ',', default_values_t = super::DEFAULT_SIZES, value_parser = parse_count)]
    pub sizes: Vec<usize>,

    /// The seed of every generated array.
    #[arg(long, default_value_t = crate::input::INEXACT_SEED)]
    pub seed: u64,

    /// Launches of each GPU kernel per array.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,

    /// Threads per block: a power of two from 32 to 1024.
    #[arg(long, default_value_t = Block::DEFAULT, value_parser = parse_block)]
    pub block: Block,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub plot: PlotArgs,
}

impl From<&AccuracyArgs> for AccuracyOptions {
    fn from(args: &AccuracyArgs) -> AccuracyOptions {
        let data = match &args.input {
            Some(path) => Data::File(path.clone()),
            None => Data::Generated { spreads: args.spread.clone(), sizes: args.sizes.clone(), seed: args.seed },
        };
        AccuracyOptions { data, block: args.block, runs: args.runs as usize }
    }
}

impl Command for AccuracyArgs {
    type Device = Gpu;
    const STOPS_AT_CHECKS: bool = true;
    /// The values of `--input`, read and checked before the GPU is opened.
    type Checked = Option<Vec<f32>>;
    type Output = Written;

    fn check(&self) -> Result<Option<Vec<f32>>, LabError> {
        // A user's data file is read and checked before the GPU is opened, so
        // a wrong file is reported the same way on every machine, at once.
        self.input
            .as_ref()
            .map(|path| {
                data_file::load(path).map_err(|e| LabError::DataFile { path: path.clone(), reason: e.to_string() })
            })
            .transpose()
    }

    fn run(self, file_values: Option<Vec<f32>>, gpu: &Gpu) -> Result<Written, LabError> {
        let options = AccuracyOptions::from(&self);
        let kernels = SumKernels::load(gpu)?;
        let report = super::run(&kernels, &options, file_values.as_deref(), &progress(&self.output))?;
        Ok(Written::run(gpu, report, self.output, Some(self.plot)))
    }
}
