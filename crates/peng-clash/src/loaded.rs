//! What reading a model file gives.

use crate::element::Element;
use crate::error::ClashError;

/// What a file gave: its usable elements, and what could not be used (the
/// other elements are still checked).
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// The elements, in file order.
    pub elements: Vec<Element>,
    /// What went wrong without stopping the load: file-level problems
    /// ([`ClashError::File`], e.g. a truncated IFC file) first, then one per
    /// element left out ([`ClashError::Element`], naming the file and the
    /// element), in file order.
    pub problems: Vec<ClashError>,
}
