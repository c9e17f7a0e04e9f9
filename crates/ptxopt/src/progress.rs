//! The progress bar of commands over many files (`build`, `report`) or
//! kernels (`verify`), on standard error.
//!
//! When standard error is a terminal and there is more than one item: one
//! bar redrawn in place (items done / total, elapsed time, rate, the item
//! being worked on), cleared at the end so the output after it is what it
//! would be without it. When it is not a terminal: nothing, except that
//! `build` keeps the lines it has always printed for 100 files or more (one
//! per tenth), so a log or a pipe reads as it did before. `--quiet`: nothing.
//!
//! The bar is `indicatif`'s: maintained, thread-safe (workers tick it from
//! several threads), rate-limited redraws (at most 20 per second, so ticking
//! it costs nothing measurable), and it clears itself without leaving
//! control characters in the output after it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use std::fmt::Write as FmtWrite;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Items this many or more get `build`'s progress lines even when stderr is
/// not a terminal.
const LINES_MIN_ITEMS: usize = 100;

/// A progress display; see the module documentation.
pub struct Progress {
    verb: &'static str,
    total: usize,
    done: AtomicUsize,
    bar: Option<ProgressBar>,
    lines: bool,
}

impl Progress {
    /// `verb` names the work (`building`); `unit` the items (`files`).
    /// `lines_when_piped`: `build`'s lines when not on a terminal.
    pub fn new(
        verb: &'static str,
        unit: &'static str,
        total: usize,
        quiet: bool,
        lines_when_piped: bool,
    ) -> Progress {
        use std::io::IsTerminal;
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal && total > 1).then(|| {
            let bar = ProgressBar::with_draw_target(
                Some(total as u64),
                ProgressDrawTarget::stderr_with_hz(20),
            );
            let template = format!(
                "{verb} [{{bar:25}}] {{pos}}/{{len}} {unit}, {{elapsed}}, {{rate}} {{wide_msg}}"
            );
            if let Ok(style) = ProgressStyle::with_template(&template) {
                let style = style.progress_chars("=> ").with_key(
                    "rate",
                    move |state: &ProgressState, w: &mut dyn FmtWrite| {
                        let _ = write!(w, "{:.1} {unit}/s", state.per_sec());
                    },
                );
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            verb,
            total,
            done: AtomicUsize::new(0),
            lines: !quiet && !terminal && lines_when_piped && total >= LINES_MIN_ITEMS,
            bar,
        }
    }

    /// An item is being started (shown as the current one; for a path, its
    /// file name, which fits a narrow terminal better).
    pub fn start(&self, name: &str) {
        if let Some(bar) = &self.bar {
            let short = name.rsplit('/').next().unwrap_or(name);
            bar.set_message(short.to_string());
        }
    }

    /// An item is done.
    pub fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        if self.lines {
            let step = self.total.div_ceil(10).max(1);
            // Crossed a multiple of `step` (`is_multiple_of` needs Rust 1.87).
            if done / step != (done - 1) / step && done < self.total {
                eprintln!("{}: {done}/{} files", self.verb, self.total);
            }
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Progress {
    /// Runs `f` (which prints) with the bar hidden, then redraws it, so
    /// printed lines and the bar do not mix on a terminal.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }
}
