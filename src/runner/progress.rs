//! The progress bar: battles done, battles per second and the time left, on stderr, only when
//! stderr is a terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar for `total` battles, or a hidden one when `show` is false or stderr is not a terminal
/// (a log file or a cluster job gets no control codes).
pub fn progress_bar(total: u64, show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4));
    // indicatif's own {per_sec} prints every decimal of the rate: round it to whole battles.
    let style = ProgressStyle::with_template(
        "{bar:32} {human_pos}/{human_len} battles  {rate:>10} battles/s  ETA {eta}",
    )
    .map(|s| {
        s.with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", state.per_sec());
            },
        )
    })
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}
