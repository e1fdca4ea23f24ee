//! Broad phase: structures that find candidate pairs of overlapping boxes,
//! independent of any world.
