//! The lab's build tasks as a library: what `cargo xtask` runs, and what the
//! tests of the whole lab (`tests/`) call to read the PTX's SASS. Compiling
//! the kernels to PTX is the `ptx-builder` crate's, which the host's build
//! script uses too.

#![warn(missing_docs)]

pub mod anchors;
pub mod book;
pub mod browser;
pub mod cccl;
pub mod cub;
mod error;
pub mod lint;
pub mod mdbook;
pub mod nvcc;
pub mod paths;
pub mod peer;
pub mod practice;
pub mod ptxas;
pub mod sass;
pub mod webdriver;

pub use error::Error;
