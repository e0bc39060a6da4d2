//! The host side of the lab: load the PTX, launch and time the kernels, check
//! every result against a CPU reference, and write the results.
//!
//! The pipeline, after hyperfine's, in layers that only point down: `main`
//! parses the command line ([`cli`]); [`app`] runs the command's
//! [`commands::Command`], one folder per command under [`commands`] holding
//! its flags, runner and report; [`record`] turns a command's result into
//! the one [`record::Record`] every exporter reads, and [`render`] reads one
//! back; [`report`], a leaf, turns it into text or a plot through the
//! result's [`report::Report`], seeing of the GPU only the plain data of
//! [`device`] and [`launch`].
//! What two commands share sits below them ([`options`], [`sums`],
//! [`verdict`], the [`litmus`] and [`pitfalls`] engines). Only [`gpu`] talks
//! to the driver, and the statistics ([`stats`],
//! [`reference`](mod@reference), [`input`]) are pure functions with their
//! tests beside them. `tests/layers.rs` holds the layering.

#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod app;
pub mod cli;
pub mod commands;
pub mod cpu_agent;
pub mod data_file;
pub mod device;
pub mod error;
pub mod exact;
pub mod float_json;
pub mod gpu;
pub mod input;
pub mod interrupt;
pub mod launch;
pub mod litmus;
pub mod options;
pub mod pitfalls;
pub mod progress;
pub mod record;
pub mod reference;
pub mod render;
pub mod report;
pub mod rng;
pub use lab_stats as stats;
pub mod strategies;
pub mod sums;
pub mod verdict;
