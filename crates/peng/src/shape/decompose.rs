//! Convex decomposition of simple polygons.
