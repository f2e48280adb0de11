//! Progress bars on stderr (indicatif), hidden when stderr is not a terminal or with `-q`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `len` items labelled `what`; hidden when `quiet`.
pub(super) fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let b = ProgressBar::with_draw_target(Some(len), target);
    b.set_style(
        ProgressStyle::with_template(
            "{msg:>10} [{bar:40}] {human_pos}/{human_len} tickets ({per_sec}, {eta})",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    b.set_message(what.to_string());
    b
}
