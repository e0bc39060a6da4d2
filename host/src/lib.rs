//! The host side of the lab: load the PTX, launch and time the kernels, check
//! every result against a CPU reference, and render the tables.
//!
//! The pipeline, after hyperfine's: [`cli`] parses and validates flags;
//! [`app`] turns them into options and calls a runner ([`sweep`],
//! [`determinism`], [`publish`], [`histogram`]); runners return one result type each; [`report`] turns a
//! result into text. Only [`gpu`] talks to the driver, and statistics
//! ([`stats`], [`reference`](mod@reference)) are pure functions with their tests beside them.

pub mod app;
pub mod bench;
pub mod cli;
pub mod determinism;
pub mod error;
pub mod exercise;
pub mod gpu;
pub mod histogram;
pub mod input;
pub mod progress;
pub mod publish;
pub mod record;
pub mod reference;
pub mod report;
pub mod stats;
pub mod sweep;
