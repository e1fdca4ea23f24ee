//! Oriented bounding boxes.
