//! Pictures of a report's clashes, drawn from the model they came from.

use super::{ClashEntry, Report};
use crate::element::Element;
use crate::picture::{draw_clash_on, frame, Canvas};
use glam::DVec3;
use rayon::prelude::*;
use std::collections::HashMap;

/// A clash's picture and the frame it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// The PNG file's bytes.
    pub png: Vec<u8>,
    /// The centre of the framed cube (world coordinates).
    pub center: DVec3,
    /// The framed cube's half-side, metres.
    pub half: f64,
}

/// Pictures by (test index, clash id).
pub type Pictures = HashMap<(usize, String), Picture>;

/// Draws every clash of `report` (not the resolved ones, whose elements may be
/// gone) as a `width` × `height` PNG, on all cores. Clashes whose elements are
/// not in `model` (matched by file and id) get no picture.
pub fn draw_pictures(report: &Report, model: &[Element], width: u32, height: u32) -> Pictures {
    let index: HashMap<(&str, &str), usize> = model
        .iter()
        .enumerate()
        .map(|(i, e)| ((e.identity.file.as_str(), e.identity.id.as_str()), i))
        .collect();
    let find = |c: &ClashEntry| {
        let a = index.get(&(c.a.file.as_str(), c.a.id.as_str()))?;
        let b = index.get(&(c.b.file.as_str(), c.b.id.as_str()))?;
        Some((&model[*a], &model[*b]))
    };
    let jobs: Vec<(usize, &ClashEntry)> = report
        .tests
        .iter()
        .enumerate()
        .flat_map(|(t, test)| test.clashes.iter().map(move |c| (t, c)))
        .collect();
    // One canvas per worker, reused from picture to picture.
    jobs.par_iter()
        .map_init(
            || Canvas::new(width, height, [0; 3]),
            |canvas, &(t, c)| {
                let (a, b) = find(c)?;
                let (pa, pb) = (DVec3::from(c.point_a), DVec3::from(c.point_b));
                draw_clash_on(canvas, a, b, pa, pb);
                let png = canvas.to_png();
                let (center, half) = frame(a, b, pa, pb);
                Some(((t, c.id.clone()), Picture { png, center, half }))
            },
        )
        .flatten()
        .collect()
}
