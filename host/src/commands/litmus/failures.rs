//! The lines a forbidden outcome prints, for every command that runs litmus
//! kernels: `litmus`'s suite, its search, and `tune`'s.

use crate::litmus::{Broken, Environment, LitmusRow};

/// One line per histogram bin, of each row, that breaks a rule: what,
/// where, in which environment, the outcome's registers and why it is
/// forbidden.
pub fn litmus_failures(rows: &[(&LitmusRow, &Environment)]) -> String {
    let mut out = String::new();
    for (row, environment) in rows {
        for (bin, count) in row.forbidden_bins() {
            let why = match row.broken_rule(bin) {
                Some(Broken::Garbage) => "a value no thread wrote",
                Some(Broken::Sequential) => "the sequential control predicts one outcome only",
                Some(Broken::Weak) => &row.reason,
                Some(Broken::Other) | None => {
                    "the PTX memory model allows no execution that ends so, though it is not the test's weak outcome"
                }
            };
            out += &format!(
                "FORBIDDEN: {} {} {}: {count} of {} instances ended {} ({why}). This is a bug in the GPU, the \
                     compiler or the lab. Environment: {}\n",
                row.test().name(),
                row.kernel.variant.key(),
                row.placement.key(),
                row.counts.instances,
                crate::litmus::outcome_text(bin, row.test()),
                environment.summary(),
            );
        }
    }
    out
}
