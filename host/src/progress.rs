//! A progress bar for long runs, on stderr, shown only on a terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar that is drawn only when asked for and when stderr is a
/// terminal; otherwise every call does nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar that draws if `wanted` and stderr is a terminal.
    pub fn new(wanted: bool) -> Progress {
        Progress::with_terminal(wanted, std::io::stderr().is_terminal())
    }

    /// A bar that draws if `wanted` and `terminal`; split out for tests.
    pub fn with_terminal(wanted: bool, terminal: bool) -> Progress {
        let bar = (wanted && terminal).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
                    .expect("the template is valid")
                    .progress_chars("=> "),
            );
            bar
        });
        Progress { bar }
    }

    /// Whether anything will be drawn.
    pub fn is_visible(&self) -> bool {
        self.bar.is_some()
    }

    /// Sets the number of steps.
    pub fn start(&self, steps: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(steps);
        }
    }

    /// Shows what is running now.
    pub fn message(&self, text: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        }
    }

    /// Marks one step done.
    pub fn step(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Marks the steps done up to `position` (a search with a time budget
    /// counts tenths of a second).
    pub fn step_to(&self, position: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(position);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_only_when_wanted_on_a_terminal() {
        assert!(Progress::with_terminal(true, true).is_visible());
        assert!(!Progress::with_terminal(true, false).is_visible());
        assert!(!Progress::with_terminal(false, true).is_visible());
    }
}
