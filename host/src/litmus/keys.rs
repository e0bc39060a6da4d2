//! The litmus suite's `layout` enums by name: one trait, one command-line
//! parser and one serde form for all of them, so that a test, variant,
//! placement, preload or stress pattern is spelled the same on the command
//! line, in tables and in JSON (`layout` has no clap or serde to derive).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use layout::litmus::{Preload, Split, StressPattern, Test, Variant};

/// A `layout` enum with a fixed list of values, each named by a key.
pub trait Keyed: Copy + Send + Sync + 'static {
    /// Every value, in the order help lists them.
    const ALL: &'static [Self];
    /// Its name on the command line and in JSON.
    fn key(self) -> &'static str;
    /// A word of help beside its name in `--help`, if any.
    fn help(self) -> Option<&'static str> {
        None
    }
}

macro_rules! keyed {
    ($($t:ty),*) => {$(
        impl Keyed for $t {
            const ALL: &'static [Self] = &<$t>::ALL;
            fn key(self) -> &'static str {
                <$t>::key(self)
            }
        }
    )*};
}

keyed!(Variant);

impl Keyed for Split {
    const ALL: &'static [Self] = &Split::ALL;
    fn key(self) -> &'static str {
        Split::key(self)
    }
    fn help(self) -> Option<&'static str> {
        Some(match self {
            Split::Warp => "every thread in one warp, at distinct lanes",
            Split::IntraBlock => "every thread in one block, in distinct warps",
            Split::InterBlock => "every thread in a block of its own",
            Split::Blocks(_) => "the threads of each part (named by role) share a block",
            Split::IntraCluster => "every thread in a block of its own, the blocks in one cluster (sm_90)",
            Split::InterCluster => "every thread in a block of its own, each block in another cluster (sm_90)",
        })
    }
}

impl Keyed for Preload {
    const ALL: &'static [Self] = &Preload::ALL;
    fn key(self) -> &'static str {
        Preload::key(self)
    }
    fn help(self) -> Option<&'static str> {
        Some(match self {
            Preload::None => "nothing",
            Preload::Observer => "the observing thread reads the location it will observe",
            Preload::Neighbour => "a thread in the other half of the observer's block reads it",
        })
    }
}

impl Keyed for StressPattern {
    const ALL: &'static [Self] = &StressPattern::ALL;
    fn key(self) -> &'static str {
        StressPattern::key(self)
    }
    fn help(self) -> Option<&'static str> {
        Some(match self {
            StressPattern::StoreStore => "two stores",
            StressPattern::StoreLoad => "a store, then a load",
            StressPattern::LoadStore => "a load, then a store",
            StressPattern::LoadLoad => "two loads",
        })
    }
}

impl Keyed for Test {
    const ALL: &'static [Self] = &Test::ALL;
    fn key(self) -> &'static str {
        Test::key(self)
    }
    fn help(self) -> Option<&'static str> {
        Some(self.name())
    }
}

/// The value named `key`.
pub fn from_key<T: Keyed>(key: &str) -> Option<T> {
    T::ALL.iter().copied().find(|v| v.key() == key)
}

/// A clap parser that takes exactly the keys of `T`.
pub fn parser<T: Keyed>() -> impl TypedValueParser<Value = T> {
    let names = T::ALL.iter().map(|v| {
        let name = PossibleValue::new(v.key());
        match v.help() {
            Some(help) => name.help(help),
            None => name,
        }
    });
    PossibleValuesParser::new(names).map(|key| from_key(&key).expect("clap accepted only keys"))
}

/// `#[serde(with = "keys::one")]`: one value as its key.
pub mod one {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Keyed;

    /// Writes the key.
    pub fn serialize<T: Keyed, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value.key())
    }

    /// Reads a key.
    pub fn deserialize<'de, T: Keyed, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let key = String::deserialize(d)?;
        super::from_key(&key).ok_or_else(|| serde::de::Error::custom(format!("unknown name `{key}`")))
    }
}

/// `#[serde(with = "keys::list")]`: a list of values as a list of keys.
pub mod list {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Keyed;

    /// Writes the keys.
    pub fn serialize<T: Keyed, S: Serializer>(values: &[T], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(values.iter().map(|v| v.key()))
    }

    /// Reads a list of keys.
    pub fn deserialize<'de, T: Keyed, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        Vec::<String>::deserialize(d)?
            .into_iter()
            .map(|key| super::from_key(&key).ok_or_else(|| serde::de::Error::custom(format!("unknown name `{key}`"))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T: Keyed + PartialEq + std::fmt::Debug>() {
        for &v in T::ALL {
            assert_eq!(from_key::<T>(v.key()), Some(v));
        }
        assert_eq!(from_key::<T>("no such name"), None);
    }

    #[test]
    fn every_name_finds_its_value() {
        round_trips::<Test>();
        round_trips::<Variant>();
        round_trips::<Split>();
        round_trips::<Preload>();
        round_trips::<StressPattern>();
    }
}
