//! Pictures of a report's clashes, drawn from the model they came from.

use super::{ClashEntry, Report};
use crate::broad::{overlapping_pairs, Entry};
use crate::element::Bounds;
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
        Some((*a, *b))
    };
    let jobs: Vec<(usize, &ClashEntry, usize, usize)> = report
        .tests
        .iter()
        .enumerate()
        .flat_map(|(t, test)| test.clashes.iter().map(move |c| (t, c)))
        .filter_map(|(t, c)| find(c).map(|(a, b)| (t, c, a, b)))
        .collect();
    let frames: Vec<(DVec3, f64)> = jobs
        .iter()
        .map(|&(_, c, a, b)| frame(&model[a], &model[b], c.point_a.into(), c.point_b.into()))
        .collect();
    let context = context(model, &frames, &jobs);
    // One canvas per worker, reused from picture to picture.
    jobs.par_iter()
        .zip(frames.par_iter().zip(context.par_iter()))
        .map_init(
            || Canvas::new(width, height, [0; 3]),
            |canvas, (&(t, c, a, b), (&(center, half), near))| {
                let (pa, pb) = (DVec3::from(c.point_a), DVec3::from(c.point_b));
                let near: Vec<&Element> = near.iter().map(|&i| &model[i]).collect();
                draw_clash_on(canvas, &model[a], &model[b], pa, pb, &near);
                let png = canvas.to_png();
                ((t, c.id.clone()), Picture { png, center, half })
            },
        )
        .collect()
}

/// Up to this many other elements are drawn faded around a clash.
const CONTEXT: usize = 6;

/// For each picture (its clash's elements in `jobs`, its framed cube in
/// `frames`), the other elements of `model` whose boxes meet the cube grown
/// by half (the picture is wider than the cube's side): the [`CONTEXT`]
/// nearest to the cube's centre, by their boxes. One sweep over the model's
/// boxes and the frames' together.
fn context(
    model: &[Element],
    frames: &[(DVec3, f64)],
    jobs: &[(usize, &ClashEntry, usize, usize)],
) -> Vec<Vec<usize>> {
    let n = model.len();
    let mut entries: Vec<Entry> = model
        .iter()
        .enumerate()
        .map(|(i, e)| Entry {
            element: i,
            side: 0,
            bounds: e.bounds(),
        })
        .collect();
    entries.extend(frames.iter().enumerate().map(|(k, &(c, h))| Entry {
        element: n + k,
        side: 1,
        bounds: Bounds {
            min: c - DVec3::splat(1.5 * h),
            max: c + DVec3::splat(1.5 * h),
        },
    }));
    let mut near: Vec<Vec<usize>> = vec![Vec::new(); frames.len()];
    for (e, f) in overlapping_pairs(entries, false) {
        let k = f - n;
        let (_, _, a, b) = jobs[k];
        if e != a && e != b {
            near[k].push(e);
        }
    }
    for (k, list) in near.iter_mut().enumerate() {
        let c = frames[k].0;
        let gap = |i: &usize| {
            let b = model[*i].bounds();
            (c.clamp(b.min, b.max) - c).length()
        };
        list.sort_by(|x, y| gap(x).total_cmp(&gap(y)).then(x.cmp(y)));
        list.truncate(CONTEXT);
    }
    near
}
