//! A progress bar on standard error for long clash runs, drawn only when
//! standard error is a terminal.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Runs shorter than this draw nothing.
const QUIET_START: Duration = Duration::from_millis(500);
/// The bar is redrawn at most this often.
const REDRAW: Duration = Duration::from_millis(100);
/// The bar's width in characters.
const WIDTH: usize = 24;

/// The progress of one test; `update` may be called from any thread.
pub struct Progress {
    label: String,
    start: Instant,
    enabled: bool,
    /// When the bar was last drawn (`None`: never).
    drawn: Mutex<Option<Instant>>,
}

impl Progress {
    /// A bar for the test `label`, drawn only if standard error is a terminal.
    pub fn new(label: &str) -> Progress {
        Progress {
            label: label.to_string(),
            start: Instant::now(),
            enabled: std::io::stderr().is_terminal(),
            drawn: Mutex::new(None),
        }
    }

    /// `done` of `total` pair tests are finished.
    pub fn update(&self, done: usize, total: usize) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let elapsed = now - self.start;
        if elapsed < QUIET_START {
            return;
        }
        // Another thread drawing: skip this update rather than wait.
        let Ok(mut drawn) = self.drawn.try_lock() else {
            return;
        };
        if drawn.is_some_and(|t| now - t < REDRAW) && done < total {
            return;
        }
        *drawn = Some(now);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{}\x1b[K", line(&self.label, done, total, elapsed));
        let _ = err.flush();
    }

    /// Clears the bar, if one was drawn.
    pub fn finish(&self) {
        let drawn = self.drawn.lock().map(|d| d.is_some()).unwrap_or(true);
        if self.enabled && drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}

/// One line of the bar: `hard [#####-----] 1,024 / 4,096 pairs  25%  2,048 pairs/s`.
pub fn line(label: &str, done: usize, total: usize, elapsed: Duration) -> String {
    let frac = if total == 0 {
        1.0
    } else {
        (done as f64 / total as f64).clamp(0.0, 1.0)
    };
    let filled = (frac * WIDTH as f64).round() as usize;
    let bar: String = "#".repeat(filled) + &"-".repeat(WIDTH - filled);
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        format!("  {} pairs/s", thousands((done as f64 / secs) as usize))
    } else {
        String::new()
    };
    format!(
        "{label} [{bar}] {} / {} pairs  {:.0}%{rate}",
        thousands(done),
        thousands(total),
        frac * 100.0
    )
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_line() {
        let l = line("hard", 1024, 4096, Duration::from_millis(500));
        assert_eq!(
            l,
            "hard [######------------------] 1,024 / 4,096 pairs  25%  2,048 pairs/s"
        );
        let l = line("duplicate", 0, 0, Duration::ZERO);
        assert_eq!(l, "duplicate [########################] 0 / 0 pairs  100%");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
