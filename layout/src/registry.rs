//! The registry: every family's kernels together, in family order, which is
//! what the PTX must contain. Each family's list is its own module's
//! (`sum::KERNELS`, `publish::VARIANTS`, ...); the shape of one entry is
//! `entry.rs`, which the families and this file both read.

use crate::entry::Entry;

/// Every kernel of every family, in family order: what the PTX must contain.
pub fn entries() -> impl Iterator<Item = &'static Entry> {
    let small = crate::sum::KERNELS.iter().filter_map(|k| k.small_entry).map(|s| &s.entry);
    let clusters = crate::sum::KERNELS.iter().filter_map(|k| k.cluster_route).map(|r| &r.entry);
    let sums = crate::sum::KERNELS.iter().map(|k| &k.entry).chain(small).chain(clusters);
    let publish = crate::publish::VARIANTS.iter().map(|v| &v.entry);
    let histograms = crate::histogram::KERNELS.iter().map(|k| &k.entry);
    let litmus = crate::litmus::KERNELS.iter().map(|k| &k.entry).chain(core::iter::once(&crate::litmus::CLASSIFY));
    let pitfalls = crate::pitfall::KERNELS.iter().map(|k| &k.entry);
    let system = crate::system::KERNELS.iter().map(|k| &k.entry);
    let baselines = crate::baseline::KERNELS.iter();
    let ladder = crate::ladder::KERNELS.iter();
    sums.chain(publish).chain(histograms).chain(baselines).chain(litmus).chain(pitfalls).chain(system).chain(ladder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_belongs_to_its_kernels_family_and_no_name_repeats() {
        for entry in entries() {
            for (i, param) in entry.params.iter().enumerate() {
                assert_eq!(param.role.family(), entry.family, "{}: {}", entry.symbol, param.name);
                assert!(entry.params[..i].iter().all(|p| p.name != param.name && p.role != param.role));
            }
        }
    }

    #[test]
    fn symbols_are_unique() {
        let symbols: [&str; 256] = core::array::from_fn(|i| entries().nth(i).map_or("", |e| e.symbol));
        let count = entries().count();
        assert!(count < symbols.len());
        for i in 0..count {
            for j in 0..i {
                assert_ne!(symbols[i], symbols[j]);
            }
        }
    }
}
