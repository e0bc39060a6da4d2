//! The host side of the lab: load the PTX, launch and time the kernels, check
//! every result against a CPU reference, and write the results.
//!
//! The pipeline, after hyperfine's: [`cli`] parses and validates flags;
//! [`app`] turns them into options and calls a runner ([`sweep`],
//! [`determinism`], [`exercise`], [`bench`](mod@bench), [`publish`], [`histogram`],
//! [`accuracy`], [`litmus`], and [`evidence`], which runs all of them);
//! the runners' results go into one [`record::Record`]; [`report`] turns a
//! record into text or a plot. Only [`gpu`] talks to the driver, and the
//! statistics ([`stats`], [`reference`](mod@reference), [`input`]) are pure
//! functions with their tests beside them.

#![warn(missing_docs)]

pub mod accuracy;
pub mod app;
pub mod bench;
pub mod cli;
pub mod data_file;
pub mod determinism;
pub mod error;
pub mod evidence;
pub mod exact;
pub mod exercise;
pub mod float_json;
pub mod gpu;
pub mod histogram;
pub mod input;
pub mod interrupt;
pub mod litmus;
pub mod progress;
pub mod publish;
pub mod record;
pub mod reference;
pub mod report;
pub mod rng;
pub use lab_stats as stats;
pub mod strategies;
pub mod sweep;
