//! Progress bars on stderr (indicatif), hidden when stderr is not a terminal or with `-q`.

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// The rate in whole tickets a second, with thousands separators (`12,345 tickets/s`).
fn rate(state: &ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = write!(
        w,
        "{} tickets/s",
        HumanCount(state.per_sec().max(0.0) as u64)
    );
}

/// A bar of `len` tickets labelled `what`, with its total, the rate and the time left; with
/// no total known (`None`), a spinner with the count and the rate, and no time left said.
/// Hidden when `quiet`.
pub(super) fn bar(len: Option<u64>, what: &str, quiet: bool) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    drawn_to(len, what, target)
}

/// [`bar`], drawn to `target`.
fn drawn_to(len: Option<u64>, what: &str, target: ProgressDrawTarget) -> ProgressBar {
    let template = match len {
        Some(_) => "{msg:>10} [{bar:40}] {human_pos}/{human_len} tickets ({rate}, {eta} left)",
        None => "{msg:>10} {spinner} {human_pos} tickets ({rate})",
    };
    let b = ProgressBar::with_draw_target(len, target);
    b.set_style(
        ProgressStyle::with_template(template)
            .expect("valid template")
            .with_key("rate", rate)
            .progress_chars("=> "),
    );
    b.set_message(what.to_string());
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A terminal that keeps every line drawn.
    #[derive(Clone, Debug, Default)]
    struct Screen(Arc<Mutex<Vec<String>>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            160
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push(s.to_string());
            Ok(())
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.write_line(s)
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The line `bar` draws of `len` at `pos`.
    fn drawn(len: Option<u64>, pos: u64) -> String {
        let screen = Screen::default();
        let b = drawn_to(
            len,
            "verify",
            ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        b.set_position(pos);
        b.tick();
        let lines = screen.0.lock().unwrap().clone();
        lines
            .into_iter()
            .rev()
            .find(|l| l.contains("tickets"))
            .unwrap_or_default()
    }

    #[test]
    fn a_bar_has_its_total_or_says_none() {
        let known = drawn(Some(4_500_000), 1_234_567);
        assert!(
            known.starts_with("    verify [")
                && known.contains("] 1,234,567/4,500,000 tickets (")
                && known.ends_with(" left)"),
            "{known:?}"
        );
        // The rate is whole tickets a second, with separators: no stray decimals.
        let rate = known
            .split(" (")
            .nth(1)
            .unwrap()
            .split(" tickets/s")
            .next()
            .unwrap();
        assert!(
            rate.chars().all(|c| c.is_ascii_digit() || c == ','),
            "{known:?}"
        );
        let unknown = drawn(None, 4_389_589);
        assert!(unknown.contains(" 4,389,589 tickets ("), "{unknown:?}");
        assert!(
            !unknown.contains('/') || unknown.contains("tickets/s"),
            "{unknown:?}"
        );
        assert!(!unknown.contains("4,389,589/"), "{unknown:?}");
    }
}
