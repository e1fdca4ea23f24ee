//! Separating-axis tests and face clipping for polyhedral shapes in 3D.
