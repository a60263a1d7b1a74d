//! A one-line progress bar on stderr for long copies, drawn only when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Copies smaller than this many bytes get no progress bar.
pub const THRESHOLD: u64 = 64 << 20;

/// How often the bar is redrawn at most.
const INTERVAL: Duration = Duration::from_millis(200);

/// Progress of a copy of `total` bytes; silent unless enabled.
#[derive(Debug)]
pub struct Progress {
    total: u64,
    done: u64,
    enabled: bool,
    drawn: bool,
    last: Option<Instant>,
}

impl Progress {
    /// A bar for `total` bytes, drawn when stderr is a terminal and `total` reaches
    /// [`THRESHOLD`].
    pub fn new(total: u64) -> Progress {
        Progress::with_enabled(total, total >= THRESHOLD && std::io::stderr().is_terminal())
    }

    /// A bar that draws only when `enabled`.
    pub fn with_enabled(total: u64, enabled: bool) -> Progress {
        Progress {
            total,
            done: 0,
            enabled,
            drawn: false,
            last: None,
        }
    }

    /// Records `bytes` more copied and redraws if due.
    pub fn advance(&mut self, bytes: u64) {
        self.done = self.done.saturating_add(bytes);
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if self.last.is_some_and(|t| now.duration_since(t) < INTERVAL) {
            return;
        }
        self.last = Some(now);
        let line = render(self.done, self.total);
        let mut err = std::io::stderr().lock();
        // A failed write to the terminal is not worth failing the copy for.
        let _ = write!(err, "\r{line}");
        let _ = err.flush();
        self.drawn = true;
    }

    /// Erases the bar, if one was drawn.
    pub fn finish(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{:width$}\r", "", width = 60);
            let _ = err.flush();
            self.drawn = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The text of the bar: `nccopy [#####.....]  50% 12/24 MB`.
pub fn render(done: u64, total: u64) -> String {
    let total = total.max(1);
    let done = done.min(total);
    let pct = u128::from(done) * 100 / u128::from(total);
    let filled = (pct / 5) as usize;
    format!(
        "nccopy [{}{}] {:3}% {}/{} MB",
        "#".repeat(filled),
        ".".repeat(20 - filled),
        pct,
        done / 1_000_000,
        total / 1_000_000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_bar() {
        assert_eq!(
            render(12_000_000, 24_000_000),
            "nccopy [##########..........]  50% 12/24 MB"
        );
        assert_eq!(render(5, 0), "nccopy [####################] 100% 0/0 MB");
    }

    #[test]
    fn disabled_bar_is_silent() {
        let mut p = Progress::with_enabled(100, false);
        p.advance(50);
        assert!(!p.drawn);
    }
}
