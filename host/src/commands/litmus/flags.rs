//! The flags `litmus` and `tune` share: how their values are parsed, and
//! the compute capability the cluster placements need.

use crate::litmus::environment::LOCATION_STRIDES;

/// The first compute capability with thread-block clusters and `.cluster`
/// scope (Hopper, sm_90).
pub const HOPPER: (i32, i32) = (9, 0);

/// Parses `--seconds`: a positive number of seconds, at most an hour.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!("`{text}` is not a number of seconds above 0 and at most 3600")),
    }
}

/// Parses `litmus --threads`: a power of two from 128 (four warps, one per
/// role of IRIW) to 1024.
pub fn parse_litmus_threads(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(t) if t.is_power_of_two() && (128..=1024).contains(&t) => Ok(t),
        _ => Err(format!("`{text}` is not a power of two from 128 to 1024")),
    }
}

/// Parses `litmus --location-stride`: one of [`LOCATION_STRIDES`] words.
pub fn parse_location_stride(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(w) if LOCATION_STRIDES.contains(&w) => Ok(w),
        _ => {
            let strides: Vec<String> = LOCATION_STRIDES.iter().map(u32::to_string).collect();
            Err(format!("`{text}` is not a location stride: one of {} words", strides.join(", ")))
        }
    }
}

/// Parses `litmus --lane-multiplier`: an odd number from 1 to 1023. A role's
/// partner lane is `lane * multiplier^role` modulo the warp (intra-block) or
/// the block (inter-block), both powers of two, and multiplying modulo a power
/// of two permutes the lanes only when the multiplier is odd: an even one
/// would give some instances two threads of one role and others none.
pub fn parse_lane_multiplier(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(m) if m % 2 == 1 && m <= 1023 => Ok(m),
        Ok(m) if m % 2 == 0 && (1..=1023).contains(&m) => Err(format!(
            "{m} is even: partners sit at lane * multiplier^role modulo the warp or block size, a power of two, \
             which only an odd multiplier permutes"
        )),
        _ => Err(format!("`{text}` is not an odd number from 1 to 1023")),
    }
}
