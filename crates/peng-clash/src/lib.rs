//! Clash detection for building and mechanical models (CAD/BIM).
//!
//! A model is a list of [`Element`]s: a triangle mesh stored in its own local
//! frame (f32 vertices around an f64 origin, so that precision holds kilometres
//! from the world origin) with the element's [`Identity`] (IFC GlobalId, class,
//! name, storey, file; or a mesh file's node name).
//!
//! Clash tests ([`run`], one [`ClashTest`] each) take two sets of elements (or one set against itself)
//! and report, per pair:
//! - **hard** clashes: the surfaces cross by more than a touching tolerance, or
//!   one element lies wholly inside another closed one;
//! - **clearance** clashes: separated elements closer than a distance;
//! - **duplicates**: the same geometry within a tolerance.
//!
//! Each [`Clash`] has a stable id made from the two element ids, a kind
//! (protrusion, pierce, containment, touch, clearance, duplicate), the two points
//! that show it, and a signed distance (negative: penetration depth).

#![warn(missing_docs)]

mod broad;
mod check;
mod clash;
mod element;
mod error;
pub mod federated;
mod ifc;
mod ignore;
mod loaded;
mod mesh_files;
mod narrow;
mod options;
pub mod picture;
mod repair;
pub mod report;
mod select;
mod solid;

pub use check::{run, run_with_progress, test_pair, ClashTest, Mode, NUMERIC_TOUCH};
pub use clash::{clash_id, Clash, ClashKind, Finding};
pub use element::{Bounds, Element, Identity};
pub use error::ClashError;
pub use ifc::{parse_ifc, parse_ifc_with, read_ifc, read_ifc_with};
pub use ignore::{IgnoreRules, EMBEDDED_MARGIN};
pub use loaded::Loaded;
pub use mesh_files::{mesh_elements, read_mesh_elements, read_mesh_elements_with};
pub use options::LoadOptions;
pub use select::{Selection, Selector};
pub use solid::Solid;
mod example;
pub use example::example_model;
