//! Errors of reading robot files and of evaluating configurations.

use std::fmt;
use std::path::PathBuf;

/// An error that names where it happened: the file (when the input came
/// from one), the line (when there is one), the element (a joint, a link,
/// an XML element or attribute) and what is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct RobotError {
    /// The file read, if any.
    pub file: Option<PathBuf>,
    /// The 1-based line, if known.
    pub line: Option<u32>,
    /// The element the error is about, e.g. `joint "elbow"`.
    pub element: String,
    /// What is wrong.
    pub message: String,
}

impl RobotError {
    /// An error about `element` with no position.
    pub(crate) fn new(element: impl Into<String>, message: impl Into<String>) -> Self {
        RobotError {
            file: None,
            line: None,
            element: element.into(),
            message: message.into(),
        }
    }

    /// The same error at `line`.
    pub(crate) fn at(mut self, line: u32) -> Self {
        self.line = Some(line);
        self
    }

    /// The same error in `file` (kept if already set).
    pub(crate) fn in_file(mut self, file: impl Into<PathBuf>) -> Self {
        if self.file.is_none() {
            self.file = Some(file.into());
        }
        self
    }
}

impl fmt::Display for RobotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(p), Some(l)) => write!(f, "{}:{l}: ", p.display())?,
            (Some(p), None) => write!(f, "{}: ", p.display())?,
            (None, Some(l)) => write!(f, "line {l}: ",)?,
            (None, None) => {}
        }
        if self.element.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.element, self.message)
        }
    }
}
