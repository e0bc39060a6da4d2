//! One access of a litmus test, the words every other part of the contract
//! is written in: which location, and whether it is a store of a value or
//! a load into a register. The test's definition (`definition.rs`) lists
//! them per role, and a variant (`variant.rs`) spells each in PTX.

/// A location of a litmus test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The first location (the data, in message passing).
    X,
    /// The second location (the flag, in message passing).
    Y,
    /// The third location (ISA2's second flag).
    Z,
}

/// One access of a role's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Store the value (1, or 2 where a test has two stores to one location
    /// and its outcome tells them apart) to the location.
    Store(Location, u32),
    /// Load the location into register `r` (0 to 3) of the instance.
    Load(Location, u8),
}

impl Op {
    /// The location it accesses.
    pub const fn location(self) -> Location {
        match self {
            Op::Store(location, _) | Op::Load(location, _) => location,
        }
    }
}
