//! The lab's build tasks as a library, so that `cargo xtask` and the host's
//! build script share one implementation of "compile the kernels to PTX".

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
pub mod ptx;
pub mod ptxas;
pub mod sass;
pub mod webdriver;

pub use error::Error;
