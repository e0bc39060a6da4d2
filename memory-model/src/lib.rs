//! A bounded checker of the PTX memory model: which outcomes of a small
//! litmus test the model allows, decided from its axioms rather than from
//! hand-written rules.
//!
//! # What is modelled
//! Straight-line threads of loads and stores (weak, relaxed, acquire,
//! release; `volatile` as relaxed at system scope) and fences
//! (`fence.acq_rel`, `fence.sc`), with scopes `.cta`, `.cluster`, `.gpu`
//! and `.sys` over threads placed in CTAs, clusters and devices
//! ([`Program`]). For every candidate execution — a reads-from source for
//! each load, a coherence order (partial, as in ptx.als) for each location's
//! stores and a Fence-SC order — the checker derives from-reads, moral
//! strength, observation, the release and acquire patterns, synchronization,
//! base causality and causality order, and checks the six axioms: Coherence,
//! Fence-SC, Atomicity, No-Thin-Air, SC-per-Location and Causality
//! (`axioms.rs`, each with its ptx.als definition). The allowed outcomes are
//! the registers and final memory of the consistent executions
//! ([`outcomes`], [`allows`]).
//!
//! # What is not
//! Read-modify-writes (`atom`, `red`: Atomicity holds vacuously), barriers
//! (`bar.sync`: `synchronizes` is empty), proxies and the mixed-proxy
//! fences of PTX 7.5, address and control dependencies, branches, mixed-size
//! accesses, and different state spaces: every location is one word of
//! global memory. It is a brute force meant for tests of a few threads and
//! a dozen events (at most [`MAX_EVENTS`]).
//!
//! # Sources
//! - NVlabs' `ptxmemorymodel` repository, `ptx.als` (commit f0dc6b7f), the
//!   Alloy model of Lustig, Sahasrabuddhe and Giroux, "A Formal Analysis of
//!   the NVIDIA PTX Memory Consistency Model", ASPLOS 2019. The definitions
//!   follow it.
//! - Dat3M (`hernanponcedeleon/Dat3M`), `cat/ptx-v6.0.cat`, the same model
//!   in cat; its PTX litmus tests (`litmus/PTX/`) and their expected results
//!   (`dartagnan/src/test/resources/PTXv6_0-expected.csv`) are the
//!   conformance suite in `tests/dat3m/`.
//! - The PTX ISA, chapter "Memory Consistency Model", for the axioms' names
//!   and wording.
//!
//! The lab's own tests ([`layout::litmus::Test`]) become programs in [`lab`].

#![deny(missing_docs)]

mod axioms;
mod execution;
pub mod lab;
pub mod litmus_file;
mod program;
mod relation;
mod skeleton;

pub use execution::{allows, outcomes};
pub use program::{Condition, Event, MAX_EVENTS, Outcome, Position, Program, Scope, Sem, Thread, Value};
