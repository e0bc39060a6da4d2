//! The host's view of `layout`'s kernel registries: a [`Kernel`] is a handle
//! on one registry entry, so its symbol, launch shape and names come from the
//! one table the kernels crate also compiles against.

use std::fmt;

use layout::Entry;

/// A kernel family's registry table in `layout`.
pub trait Registry: Sized + 'static {
    /// Every kernel of the family, in the registry's order.
    const ALL: &'static [Self];
    /// What every symbol of the family starts with; the rest is the kernel's
    /// key in JSON and CSV.
    const PREFIX: &'static str;
    /// The entry every kernel has.
    fn entry(&self) -> &Entry;
}

impl Registry for layout::sum::Sum {
    const ALL: &'static [Self] = &layout::sum::KERNELS;
    const PREFIX: &'static str = "sum_";
    fn entry(&self) -> &Entry {
        &self.entry
    }
}

impl Registry for layout::publish::Variant {
    const ALL: &'static [Self] = &layout::publish::VARIANTS;
    const PREFIX: &'static str = "publish_";
    fn entry(&self) -> &Entry {
        &self.entry
    }
}

impl Registry for layout::histogram::Histogram {
    const ALL: &'static [Self] = &layout::histogram::KERNELS;
    const PREFIX: &'static str = "histogram_";
    fn entry(&self) -> &Entry {
        &self.entry
    }
}

impl Registry for layout::pitfall::Kernel {
    const ALL: &'static [Self] = &layout::pitfall::KERNELS;
    const PREFIX: &'static str = "pitfall_";
    fn entry(&self) -> &Entry {
        &self.entry
    }
}

impl Registry for layout::system::Kernel {
    const ALL: &'static [Self] = &layout::system::KERNELS;
    const PREFIX: &'static str = "system_";
    fn entry(&self) -> &Entry {
        &self.entry
    }
}

impl Registry for layout::litmus::Kernel {
    const ALL: &'static [Self] = &layout::litmus::KERNELS;
    const PREFIX: &'static str = "litmus_";
    fn entry(&self) -> &Entry {
        &self.entry
    }
}

/// One registered kernel of family `F`. It dereferences to its registry
/// entry (`kernel.label`, `kernel.grid`, ...), compares and orders by its
/// place in the registry, and serializes as its key (`"tree_atomic"`).
pub struct Kernel<F: 'static>(usize, std::marker::PhantomData<&'static F>);

impl<F: Registry> Kernel<F> {
    /// Every kernel of the family, in registry order.
    pub fn all() -> impl Iterator<Item = Kernel<F>> {
        (0..F::ALL.len()).map(|i| Kernel(i, std::marker::PhantomData))
    }

    /// The handle of `spec`, which must be one of `F::ALL` (a registry
    /// constant such as `layout::sum::DETERMINISTIC`).
    pub fn of(spec: &F) -> Kernel<F> {
        let symbol = spec.entry().symbol;
        let index = F::ALL.iter().position(|k| k.entry().symbol == symbol);
        Kernel(index.unwrap_or_else(|| panic!("{symbol} is not in its family's registry")), std::marker::PhantomData)
    }

    /// The kernel whose key is `key`.
    pub fn from_key(key: &str) -> Option<Kernel<F>> {
        Kernel::<F>::all().find(|k| k.key() == key)
    }

    /// Its registry entry.
    pub fn spec(self) -> &'static F {
        &F::ALL[self.0]
    }

    /// Its place in the registry.
    pub fn index(self) -> usize {
        self.0
    }

    /// What every kernel records: symbol, parameters, promises.
    pub fn entry(self) -> &'static Entry {
        self.spec().entry()
    }

    /// The `.entry` name in the PTX.
    pub fn symbol(self) -> &'static str {
        self.spec().entry().symbol
    }

    /// The symbol without the family's prefix: its name in JSON and CSV.
    pub fn key(self) -> &'static str {
        let symbol = self.symbol();
        symbol.strip_prefix(F::PREFIX).unwrap_or(symbol)
    }
}

impl<F: Registry> std::ops::Deref for Kernel<F> {
    type Target = F;
    fn deref(&self) -> &F {
        self.spec()
    }
}

// Written by hand rather than derived: a derive would ask `F` itself to be
// `Copy`, `Eq` and so on, and the handle is all of those whatever `F` is.
impl<F> Clone for Kernel<F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F> Copy for Kernel<F> {}
impl<F> PartialEq for Kernel<F> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<F> Eq for Kernel<F> {}
impl<F> PartialOrd for Kernel<F> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<F> Ord for Kernel<F> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}
impl<F> std::hash::Hash for Kernel<F> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<F: Registry> fmt::Debug for Kernel<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

impl<F: Registry> serde::Serialize for Kernel<F> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

impl<'de, F: Registry> serde::Deserialize<'de> for Kernel<F> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = String::deserialize(deserializer)?;
        Kernel::from_key(&key).ok_or_else(|| serde::de::Error::custom(format!("no kernel `{}{key}`", F::PREFIX)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout::sum::{self, Sum};

    #[test]
    fn a_handle_finds_its_entry_and_round_trips_through_its_key() {
        let tree = Kernel::<Sum>::of(&sum::TREE_ATOMIC);
        assert_eq!((tree.symbol(), tree.key(), tree.label), ("sum_tree_atomic", "tree_atomic", "tree + atomic"));
        assert_eq!(Kernel::<Sum>::from_key("tree_atomic"), Some(tree));
        let json = serde_json::to_string(&tree).unwrap();
        assert_eq!(json, "\"tree_atomic\"");
        assert_eq!(serde_json::from_str::<Kernel<Sum>>(&json).unwrap(), tree);
        assert!(serde_json::from_str::<Kernel<Sum>>("\"nope\"").is_err());
    }

    #[test]
    fn handles_follow_the_registry_order() {
        let all: Vec<Kernel<Sum>> = Kernel::all().collect();
        assert_eq!(all.len(), sum::KERNELS.len());
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(all[0], Kernel::of(&sum::GLOBAL_ATOMIC));
    }
}
