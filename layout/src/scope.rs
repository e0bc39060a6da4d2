//! Where threads run and which of them a memory operation's order reaches:
//! the two words every family that synchronizes uses, written once. The
//! publication demo and the litmus suite both name a [`Placement`] and a
//! [`Scope`] with these types.

/// The scope of an access, a fence or a flag operation: which threads its
/// ordering covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `.cta`: the threads of one block.
    Cta,
    /// `.gpu`: every thread of the device.
    Gpu,
    /// `.sys`: every thread of the program, on every device and on the host.
    /// No lab kernel names it; it is the scope the PTX ISA gives volatile
    /// accesses (`ld.volatile` and `st.volatile` are relaxed at `.sys`). The
    /// lab runs on one GPU and no host thread touches kernel memory, so `.sys`
    /// covers exactly the threads `.gpu` covers.
    Sys,
}

impl Scope {
    /// Words for tables.
    pub const fn text(self) -> &'static str {
        match self {
            Scope::Cta => "block (.cta)",
            Scope::Gpu => "device (.gpu)",
            Scope::Sys => "system (.sys)",
        }
    }

    /// Whether it covers two threads that run with `placement`: `.gpu` and
    /// `.sys` always, `.cta` only within one block.
    pub const fn covers(self, placement: Placement) -> bool {
        matches!(self, Scope::Gpu | Scope::Sys) || matches!(placement, Placement::IntraBlock)
    }
}

/// Where the threads that communicate run: a producer and its consumer, or
/// the threads of one litmus instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u32)]
pub enum Placement {
    /// In different warps of one block.
    IntraBlock = 0,
    /// In different blocks.
    InterBlock = 1,
}

impl Placement {
    /// Both placements.
    pub const ALL: [Placement; 2] = [Placement::IntraBlock, Placement::InterBlock];

    /// Its name on the command line and in JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Placement::IntraBlock => "intra-block",
            Placement::InterBlock => "inter-block",
        }
    }

    /// Words for the publication demo's tables, where a pair runs in one
    /// block or in two.
    pub const fn text(self) -> &'static str {
        match self {
            Placement::IntraBlock => "same block",
            Placement::InterBlock => "two blocks",
        }
    }
}
