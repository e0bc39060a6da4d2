//! The sums a reader already knows, on the CPU, for the accuracy table to set
//! beside the GPU's: each a pure function of the array, so each gives one
//! answer, right or wrong.

/// A CPU summation strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CpuSum {
    /// `f32` additions left to right: the error bound grows with n.
    Sequential,
    /// `f32` pairwise: halves summed recursively, runs of 8 or fewer left to
    /// right (the error bound grows with log n).
    Pairwise,
    /// Kahan's compensated summation in `f32`.
    Kahan,
    /// Every value widened to `f64`, added left to right, rounded to `f32`
    /// once at the end.
    Double,
}

impl CpuSum {
    /// All four, in the order above.
    pub const ALL: [CpuSum; 4] = [CpuSum::Sequential, CpuSum::Pairwise, CpuSum::Kahan, CpuSum::Double];

    /// The name in tables.
    pub const fn label(self) -> &'static str {
        match self {
            CpuSum::Sequential => "CPU sequential f32",
            CpuSum::Pairwise => "CPU pairwise f32",
            CpuSum::Kahan => "CPU Kahan f32",
            CpuSum::Double => "CPU f64, rounded",
        }
    }

    /// The sum of `values` by this strategy.
    pub fn sum(self, values: &[f32]) -> f32 {
        match self {
            CpuSum::Sequential => values.iter().fold(0.0f32, |acc, &x| acc + x),
            CpuSum::Pairwise => pairwise(values),
            CpuSum::Kahan => {
                let (mut sum, mut compensation) = (0.0f32, 0.0f32);
                for &x in values {
                    let y = x - compensation;
                    let t = sum + y;
                    compensation = (t - sum) - y;
                    sum = t;
                }
                sum
            }
            CpuSum::Double => values.iter().fold(0.0f64, |acc, &x| acc + f64::from(x)) as f32,
        }
    }
}

/// Runs this short are summed left to right.
const PAIRWISE_BASE: usize = 8;

fn pairwise(values: &[f32]) -> f32 {
    if values.len() <= PAIRWISE_BASE {
        values.iter().fold(0.0f32, |acc, &x| acc + x)
    } else {
        let (left, right) = values.split_at(values.len() / 2);
        pairwise(left) + pairwise(right)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_strategy_on_a_case_that_tells_them_apart() {
        // 2^24 followed by many ones: a sequential f32 sum never moves off
        // 2^24 (each 1 is half an ulp, a tie to even); the others see them.
        let mut values = vec![1.0f32; 1001];
        values[0] = 16_777_216.0;
        assert_eq!(CpuSum::Sequential.sum(&values), 16_777_216.0);
        // Pairwise loses only the ones that share a run of eight with 2^24.
        let pairwise = CpuSum::Pairwise.sum(&values);
        assert!(pairwise > 16_778_200.0 && pairwise < 16_778_216.0, "{pairwise}");
        assert_eq!(CpuSum::Kahan.sum(&values), 16_778_216.0);
        assert_eq!(CpuSum::Double.sum(&values), 16_778_216.0);
    }

    #[test]
    fn pairwise_splits_in_halves_down_to_runs_of_eight() {
        let values: Vec<f32> = (1..=20).map(|i| i as f32).collect();
        assert_eq!(pairwise(&values), 210.0);
        assert_eq!(pairwise(&[]), 0.0);
    }

    #[test]
    fn double_rounds_once_at_the_end() {
        // 0.1 in f32, ten times: f64 accumulation keeps every bit, then rounds.
        let values = [0.1f32; 10];
        assert_eq!(CpuSum::Double.sum(&values), (f64::from(0.1f32) * 10.0) as f32);
    }
}
