//! `f32` in JSON, NaN and infinities included. JSON has no number for them,
//! and `serde_json` writes them as `null`, which cannot be read back; a sum of
//! a user's array may well be one. These write a finite float as a number and
//! the others as the strings `"NaN"`, `"inf"` and `"-inf"`, and read both.

use serde::{Deserialize, Deserializer, Serializer};

/// A JSON value as written: a number, or a non-finite float's name.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
enum Written {
    Number(f32),
    Name(String),
}

fn write(x: f32) -> Written {
    match x {
        x if x.is_finite() => Written::Number(x),
        x if x.is_nan() => Written::Name("NaN".to_owned()),
        x if x > 0.0 => Written::Name("inf".to_owned()),
        _ => Written::Name("-inf".to_owned()),
    }
}

fn read<E: serde::de::Error>(w: Written) -> Result<f32, E> {
    match w {
        Written::Number(x) => Ok(x),
        Written::Name(name) => match name.as_str() {
            "NaN" => Ok(f32::NAN),
            "inf" => Ok(f32::INFINITY),
            "-inf" => Ok(f32::NEG_INFINITY),
            other => Err(E::custom(format!("`{other}` is not a float"))),
        },
    }
}

/// One float: `#[serde(with = "crate::float_json::one")]`.
pub mod one {
    use super::*;

    /// Writes `x`.
    pub fn serialize<S: Serializer>(x: &f32, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&write(*x), s)
    }

    /// Reads a float.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        read(Written::deserialize(d)?)
    }
}

/// A list of floats: `#[serde(with = "crate::float_json::many")]`.
pub mod many {
    use super::*;

    /// Writes every float of `xs`.
    pub fn serialize<S: Serializer>(xs: &[f32], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(xs.iter().map(|&x| write(x)))
    }

    /// Reads a list of floats.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f32>, D::Error> {
        Vec::<Written>::deserialize(d)?.into_iter().map(read).collect()
    }
}

#[cfg(test)]
mod tests {
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    struct Sums {
        #[serde(with = "super::one")]
        exact: f32,
        #[serde(with = "super::many")]
        sums: Vec<f32>,
    }

    #[test]
    fn every_float_round_trips() {
        let sums = Sums { exact: f32::NEG_INFINITY, sums: vec![1.5, f32::NAN, f32::INFINITY, -0.0, f32::MAX] };
        let text = serde_json::to_string(&sums).unwrap();
        assert_eq!(text, r#"{"exact":"-inf","sums":[1.5,"NaN","inf",-0.0,3.4028235e+38]}"#);
        let back: Sums = serde_json::from_str(&text).unwrap();
        assert_eq!(back.exact, f32::NEG_INFINITY);
        assert!(
            back.sums[1].is_nan() && back.sums[2] == f32::INFINITY && back.sums[3].to_bits() == (-0.0f32).to_bits()
        );
        assert!(serde_json::from_str::<Sums>(r#"{"exact":"big","sums":[]}"#).is_err());
    }
}
