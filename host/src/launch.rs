//! Launch geometry shared by every kernel wrapper.

use std::fmt;

/// A block size the lab's kernels accept: a power of two from 32 to 1024.
///
/// Powers of two because the tree reduction halves the block at each step;
/// at least 32 so every block is whole warps; at most 1024, the hardware limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "u32", try_from = "u32")]
pub struct Block(u32);

impl Block {
    /// The smallest block the kernels accept.
    pub const MIN: u32 = 32;
    /// The largest block the hardware allows.
    pub const MAX: u32 = 1024;

    /// The page's block size, and every command's default.
    pub const DEFAULT: Block = Block(256);

    /// Checks `threads` and wraps it.
    pub const fn new(threads: u32) -> Result<Block, BlockError> {
        if threads >= Self::MIN && threads <= Self::MAX && threads.is_power_of_two() {
            Ok(Block(threads))
        } else {
            Err(BlockError(threads))
        }
    }

    /// Threads per block.
    pub const fn threads(self) -> u32 {
        self.0
    }

    /// Blocks needed for one thread per element of `n`: `ceil(n / block)`.
    pub fn grid_for(self, n: usize) -> u32 {
        u32::try_from(n.div_ceil(self.0 as usize)).expect("the host validates n so the grid fits in u32")
    }
}

impl From<Block> for u32 {
    fn from(block: Block) -> u32 {
        block.0
    }
}

impl TryFrom<u32> for Block {
    type Error = BlockError;
    fn try_from(threads: u32) -> Result<Block, BlockError> {
        Block::new(threads)
    }
}

impl fmt::Display for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A block size that is not a power of two in 32..=1024.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockError(pub u32);

impl fmt::Display for BlockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a power of two from 32 to 1024", self.0)
    }
}

impl std::error::Error for BlockError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_exactly_the_powers_of_two_from_32_to_1024() {
        let accepted: Vec<u32> = (0..=4096).filter(|&t| Block::new(t).is_ok()).collect();
        assert_eq!(accepted, [32, 64, 128, 256, 512, 1024]);
    }

    #[test]
    fn grid_covers_every_element_once() {
        let b = Block::new(256).unwrap();
        assert_eq!(b.grid_for(1), 1);
        assert_eq!(b.grid_for(256), 1);
        assert_eq!(b.grid_for(257), 2);
        assert_eq!(b.grid_for(4_194_304), 16_384);
    }
}
