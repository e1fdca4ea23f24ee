//! Errors of model loading and clash checks.

use thiserror::Error;

/// What went wrong, naming the file and, where one is to blame, the element.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ClashError {
    /// A file could not be read or parsed at all.
    #[error("{file}: {what}")]
    File {
        /// The file as the user named it.
        file: String,
        /// What is wrong.
        what: String,
    },
    /// One element of a file is unusable; the other elements are still checked.
    #[error("{file}: element {element}: {what}")]
    Element {
        /// The file as the user named it.
        file: String,
        /// The element: its id, with its class where known (`#12 IfcWall 2O2Fr$t4X7Zf8NOew3FLOH`).
        element: String,
        /// What is wrong.
        what: String,
    },
}
