//! Pictures of clashes: the two elements drawn around the clash, the clash
//! marked, as a PNG; and [`Canvas`], the drawing surface that the `peng`
//! tool's pictures share.
//!
//! An orthographic view from above and to the side (azimuth 35°, elevation
//! 30°), framed on the region where the two elements' boxes overlap
//! ([`frame`]), so a pipe through a 30 m slab fills the picture, not the
//! slab. Element A is drawn in orange, B in blue, Lambert-shaded with a
//! z-buffer (an element whose box holds the other's see-through), and each
//! element's creases are drawn over everything so hidden parts still show;
//! other elements near the clash show as light grey edges; the two clash
//! points are joined by a black line with a ring around them.

mod canvas;
mod depth;
mod hairline;
mod view;

pub use canvas::{Canvas, Rgb, MAX_SIDE};
pub use view::View;

use crate::element::Element;
use glam::{DVec3, Vec2, Vec3};

/// Element A's colour (orange).
pub const COLOR_A: [u8; 3] = [232, 120, 40];
/// Element B's colour (blue).
pub const COLOR_B: [u8; 3] = [52, 120, 210];

/// Draws elements `a` and `b` around the clash between `point_a` and `point_b`
/// on a `width` × `height` canvas.
pub fn draw_clash(
    a: &Element,
    b: &Element,
    point_a: DVec3,
    point_b: DVec3,
    width: u32,
    height: u32,
) -> Canvas {
    let mut canvas = Canvas::new(width, height, BACKGROUND);
    draw_clash_on(&mut canvas, a, b, point_a, point_b, &[]);
    canvas
}

/// The pictures' background.
const BACKGROUND: Rgb = [250, 250, 247];

/// [`draw_clash`] on `canvas`, cleared first and kept at its size (one
/// canvas draws many pictures without allocating each afresh), with the
/// elements of `context` (others near the clash) drawn faded around it.
///
/// An element whose box holds the other's (a part cast in a column, a pipe
/// inside a slab's box) is drawn see-through, so the part inside shows
/// rather than a speck of it within the container's face.
pub fn draw_clash_on(
    canvas: &mut Canvas,
    a: &Element,
    b: &Element,
    point_a: DVec3,
    point_b: DVec3,
    context: &[&Element],
) {
    let (width, height) = (canvas.width(), canvas.height());
    let (center, half) = frame(a, b, point_a, point_b);
    let view = View::looking_at(center, half, width, height);
    canvas.clear(BACKGROUND);
    let (a_holds_b, b_holds_a) = (holds(a, b), holds(b, a));
    // Boxes that hold each other (a duplicate) are both drawn solid.
    let see_through = [a_holds_b && !b_holds_a, b_holds_a && !a_holds_b];
    for ((e, color), glass) in [(a, COLOR_A), (b, COLOR_B)].into_iter().zip(see_through) {
        if !glass {
            fill_element(canvas, &view, e, color, e.is_closed());
        }
    }
    for ((e, color), glass) in [(a, COLOR_A), (b, COLOR_B)].into_iter().zip(see_through) {
        if glass {
            glaze_element(canvas, &view, e, color, GLASS);
        }
    }
    // The context, faded: the edges of the elements around, where the
    // clash's elements do not hide them (their faces, glazed, cost as much
    // again as the whole picture).
    for e in context {
        let lines: Vec<(Vec3, Vec3)> = creases(e)
            .into_iter()
            .map(|(p, q)| (pxz(&view, p), pxz(&view, q)))
            .collect();
        canvas.hairlines_behind(&lines, CONTEXT_COLOR);
    }
    // X-ray: each element's creases drawn over everything, so the parts one
    // element hides of the other still show.
    for (e, color) in [(a, COLOR_A), (b, COLOR_B)] {
        let dark = color.map(|c| c / 2);
        let lines: Vec<(Vec2, Vec2)> = creases(e)
            .into_iter()
            .map(|(p, q)| (px(&view, p), px(&view, q)))
            .collect();
        canvas.hairlines(&lines, dark);
    }
    let (pa, pb) = (px(&view, point_a), px(&view, point_b));
    canvas.line(pa, pb, 1.0, [0, 0, 0], 1.0);
    // A black ring with a thin white rim outside, seen on any background.
    let (m, r) = ((pa + pb) * 0.5, ring_radius(width, height));
    canvas.ring(m, r + 2.25, 2.0, [255, 255, 255]);
    canvas.ring(m, r + 0.25, 2.0, [0, 0, 0]);
}

/// The opacity of a see-through container.
const GLASS: f32 = 0.3;
/// The context elements' edges' colour (a light grey).
const CONTEXT_COLOR: Rgb = [170, 170, 170];

/// Whether `outer`'s box holds `inner`'s (within a millionth of its size).
fn holds(outer: &Element, inner: &Element) -> bool {
    let (o, i) = (outer.bounds(), inner.bounds());
    let slack = 1e-6 * (o.max - o.min).max_element().max(1.0);
    (i.min - o.min).min_element() >= -slack && (o.max - i.max).min_element() >= -slack
}

/// Glazes element `e` at opacity `alpha`: its faces towards the viewer for a
/// closed element (the far side would darken it twice), every face for an
/// open one.
fn glaze_element(canvas: &mut Canvas, view: &View, e: &Element, color: Rgb, alpha: f32) {
    let mesh = e.mesh();
    let cull = e.is_closed();
    for t in mesh.indices() {
        let w = t.map(|i| e.world_point(mesh.vertices()[i as usize]));
        if cull && (w[1] - w[0]).cross(w[2] - w[0]).dot(view.toward_viewer) < 0.0 {
            continue;
        }
        canvas.glaze_triangle(view, w, color, alpha);
    }
}

/// Fills element `e`'s triangles in `color`. With `cull_back`, for a closed
/// element, whose shells are wound outward (see `Element::from_local`), the
/// triangles facing away from the viewer are left out: each lies behind one
/// of the same shell facing the viewer, so the picture is the same for about
/// half the pixels' work. An open element shows both sides.
fn fill_element(canvas: &mut Canvas, view: &View, e: &Element, color: Rgb, cull_back: bool) {
    let mesh = e.mesh();
    for t in mesh.indices() {
        let w = t.map(|i| e.world_point(mesh.vertices()[i as usize]));
        if cull_back && (w[1] - w[0]).cross(w[2] - w[0]).dot(view.toward_viewer) < 0.0 {
            continue;
        }
        canvas.fill_triangle(view, w, color);
    }
}

/// The pixel position of a world point and its depth (metres).
fn pxz(view: &View, p: DVec3) -> Vec3 {
    view.project(p).as_vec2().extend(view.depth(p) as f32)
}

/// The pixel position of a world point, in `f32` for drawing (the view
/// centres the frame first, so no precision is lost far from the origin).
fn px(view: &View, p: DVec3) -> Vec2 {
    view.project(p).as_vec2()
}

/// The radius in pixels of the ring around a clash.
fn ring_radius(width: u32, height: u32) -> f32 {
    (width.min(height) as f32 / 30.0).max(4.0)
}

/// The cube a clash picture frames: its centre and half-side. It holds the
/// region where the two elements' boxes overlap (where the clash can be) and
/// both clash points, with a margin, at least 0.5 m and at most 12 m across:
/// a close-up of where two members meet, the pipe's passage through a slab.
pub fn frame(a: &Element, b: &Element, point_a: DVec3, point_b: DVec3) -> (DVec3, f64) {
    let (ba, bb) = (a.bounds(), b.bounds());
    let (lo, hi) = (ba.min.max(bb.min), ba.max.min(bb.max));
    let mut region = crate::Bounds {
        min: point_a.min(point_b),
        max: point_a.max(point_b),
    };
    if lo.cmple(hi).all() {
        region = region.merged(&crate::Bounds { min: lo, max: hi });
    }
    let half = ((region.max - region.min).max_element() * 0.8).clamp(0.25, 6.0);
    (region.center(), half)
}

/// The element's creases in world coordinates: edges between triangles that
/// meet at more than 20°, and boundary edges, each once.
fn creases(e: &Element) -> Vec<(DVec3, DVec3)> {
    let mesh = e.mesh();
    let topo = mesh.topology();
    let normal = |t: u32| {
        let c = mesh.triangle(t);
        (c[1] - c[0]).cross(c[2] - c[0]).normalize_or_zero()
    };
    let cos_limit = 20f32.to_radians().cos();
    let mut out = Vec::new();
    for (t, idx) in mesh.indices().iter().enumerate() {
        let t = t as u32;
        for k in 0..3 {
            let sharp = match topo.adjacent(t, k) {
                // Each shared edge once, from its lower-numbered triangle.
                Some(n) if n < t => continue,
                Some(n) => normal(t).dot(normal(n)) < cos_limit,
                None => true,
            };
            if sharp {
                let (i, j) = (idx[k], idx[(k + 1) % 3]);
                out.push((
                    e.world_point(mesh.vertices()[i as usize]),
                    e.world_point(mesh.vertices()[j as usize]),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Identity, Solid};

    fn el(id: &str, s: Solid) -> Element {
        let identity = Identity {
            id: id.into(),
            ..Identity::default()
        };
        Element::from_world(identity, &s.vertices, s.triangles).unwrap()
    }

    /// A pipe through a slab far from the origin: both colours show, the
    /// marker rings the clash, and the PNG decodes to the size.
    #[test]
    fn pipe_through_slab_picture() {
        let o = DVec3::new(512_000.0, 4_100_000.0, 30.0);
        let slab = el(
            "slab",
            Solid::cuboid(
                o - DVec3::new(15.0, 15.0, 0.1),
                o + DVec3::new(15.0, 15.0, 0.1),
            ),
        );
        let pipe = el("pipe", Solid::bar(o - DVec3::Z, o + DVec3::Z, 0.1, 16));
        let (pa, pb) = (o, o + DVec3::new(0.0, 0.0, 0.1));
        let c = draw_clash(&slab, &pipe, pa, pb, 320, 240);
        let count = |col: [u8; 3]| {
            c.rgb()
                .chunks(3)
                .filter(|p| {
                    // Shaded versions of the colour: same hue ordering.
                    let (r, b) = (p[0] as i32, p[2] as i32);
                    if col == COLOR_A {
                        r > b + 40
                    } else {
                        b > r + 40
                    }
                })
                .count()
        };
        let (na, nb) = (count(COLOR_A), count(COLOR_B));
        if let Ok(dir) = std::env::var("PENG_PICTURE_DIR") {
            std::fs::write(format!("{dir}/pipe_slab.png"), c.to_png()).unwrap();
        }
        assert!(na > 2000, "slab pixels {na}");
        assert!(nb > 500, "pipe pixels {nb}");
        // Framed on the pipe's passage through the slab: 0.2 m across.
        let (center, half) = frame(&slab, &pipe, pa, pb);
        assert!(
            (center - o).length() < 1e-9 && (half - 0.25).abs() < 1e-12,
            "{center} {half}"
        );
        // The ring is black at its radius, left of the clash (its band is
        // r - 0.75 to r + 1.25 from the centre: the pixel taken lies wholly
        // in it, whatever the sub-pixel position).
        let m = px(&View::looking_at(center, half, 320, 240), (pa + pb) * 0.5);
        let r = ring_radius(320, 240);
        let (x, y) = ((m.x - r - 0.25).floor() as i64, m.y.floor() as i64);
        assert_eq!(c.get(x, y), Some([0, 0, 0]));
        let png = c.to_png();
        let dec = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        assert_eq!((dec.info().width, dec.info().height), (320, 240));
    }

    /// Leaving out a closed element's triangles that face away from the
    /// viewer changes no pixel: a box, a 16-sided bar crossing it, a bar seen
    /// along its axis, each filled with and without.
    #[test]
    fn back_faces_of_closed_elements_are_hidden_anyway() {
        let o = DVec3::new(300.0, -20.0, 4.0);
        let elements = [
            el(
                "box",
                Solid::cuboid(o - DVec3::ONE, o + DVec3::new(1.0, 2.0, 0.5)),
            ),
            el(
                "bar",
                Solid::bar(o - DVec3::X * 2.0, o + DVec3::new(1.5, 1.0, 0.3), 0.2, 16),
            ),
            el(
                "end on",
                Solid::bar(o, o + View::looking_at(o, 1.0, 8, 8).toward_viewer, 0.5, 16),
            ),
        ];
        for e in &elements {
            assert!(e.is_closed(), "{}", e.identity.id);
            let view = View::looking_at(o, 1.5, 160, 120);
            let mut pictures = [true, false].map(|cull| {
                let mut c = Canvas::new(160, 120, [255, 255, 255]);
                fill_element(&mut c, &view, e, COLOR_A, cull);
                c.rgb()
            });
            let drawn = pictures[0]
                .chunks(3)
                .filter(|p| p != &[255, 255, 255])
                .count();
            assert!(drawn > 300, "{}: {drawn} pixels", e.identity.id);
            let [culled, all] = &mut pictures;
            assert!(culled == all, "{}", e.identity.id);
        }
    }

    /// A canvas reused for a second picture draws it exactly as a fresh one:
    /// nothing of the first picture's pixels or depths is left.
    #[test]
    fn a_reused_canvas_draws_as_a_fresh_one() {
        let o = DVec3::new(10.0, 20.0, 3.0);
        let slab = el(
            "slab",
            Solid::cuboid(o - DVec3::new(3.0, 3.0, 0.1), o + DVec3::new(3.0, 3.0, 0.1)),
        );
        let pipe = el("pipe", Solid::bar(o - DVec3::Z, o + DVec3::Z, 0.1, 16));
        let wall = el(
            "wall",
            Solid::cuboid(
                o + DVec3::new(0.5, -2.0, -1.0),
                o + DVec3::new(0.7, 2.0, 1.0),
            ),
        );
        let mut canvas = Canvas::new(200, 150, [0, 0, 0]);
        draw_clash_on(&mut canvas, &slab, &pipe, o, o + DVec3::Z * 0.1, &[]);
        let first = canvas.rgb();
        draw_clash_on(
            &mut canvas,
            &wall,
            &slab,
            o + DVec3::X * 0.6,
            o + DVec3::X * 0.6,
            &[],
        );
        let fresh = draw_clash(
            &wall,
            &slab,
            o + DVec3::X * 0.6,
            o + DVec3::X * 0.6,
            200,
            150,
        );
        assert!(canvas.rgb() == fresh.rgb());
        assert!(first != fresh.rgb());
    }

    /// Pixels whose colour leans to orange (A) and to blue (B).
    fn hues(c: &Canvas) -> (usize, usize) {
        let (mut na, mut nb) = (0, 0);
        for p in c.rgb().chunks(3) {
            let (r, b) = (p[0] as i32, p[2] as i32);
            na += (r > b + 40) as usize;
            nb += (b > r + 40) as usize;
        }
        (na, nb)
    }

    /// A part wholly inside a column shows through the column (drawn
    /// see-through), not as a speck in its face: most of the part's
    /// projection leans to orange; drawn solid, only its creases would.
    #[test]
    fn a_part_inside_a_column_shows_through_it() {
        let o = DVec3::new(80.0, 40.0, 2.0);
        let column = el(
            "column",
            Solid::cuboid(o - DVec3::new(0.3, 0.3, 2.0), o + DVec3::new(0.3, 0.3, 2.0)),
        );
        let part = el(
            "channel",
            Solid::cuboid(
                o - DVec3::new(0.1, 0.05, 0.2),
                o + DVec3::new(0.1, 0.05, 0.2),
            ),
        );
        let c = draw_clash(&part, &column, o, o + DVec3::X * 0.3, 240, 180);
        if let Ok(dir) = std::env::var("PENG_PICTURE_DIR") {
            std::fs::write(format!("{dir}/part_in_column.png"), c.to_png()).unwrap();
        }
        let (na, nb) = hues(&c);
        // (Drawn solid, the column's face leaves the part's creases only:
        // about 300 pixels.)
        assert!(na > 1200, "orange {na}, blue {nb}");
        // The same part on the column's face, not inside: the column solid.
        assert!(!holds(
            &column,
            &el("out", Solid::cuboid(o + DVec3::X * 0.2, o + DVec3::X * 0.5))
        ));
    }

    /// Elements near the clash are drawn faded (their edges in light grey)
    /// around it, and never over the clash's elements.
    #[test]
    fn context_elements_are_faded_around_the_clash() {
        // Two beams crossing, a post beside them.
        let o = DVec3::new(-30.0, 12.0, 0.0);
        let a = el(
            "a",
            Solid::cuboid(o - DVec3::new(2.0, 0.1, 0.1), o + DVec3::new(2.0, 0.1, 0.1)),
        );
        let b = el(
            "b",
            Solid::cuboid(
                o - DVec3::new(0.1, 2.0, 0.08),
                o + DVec3::new(0.1, 2.0, 0.12),
            ),
        );
        let post = DVec3::new(0.25, -0.25, 0.0);
        let near = el(
            "near",
            Solid::cuboid(
                o + post - DVec3::new(0.05, 0.05, 1.0),
                o + post + DVec3::new(0.05, 0.05, 1.0),
            ),
        );
        let grey = |c: &Canvas| {
            c.rgb()
                .chunks(3)
                .filter(|p| {
                    let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
                    (r - g).abs() < 8 && (g - b).abs() < 12 && r < 238 && r > 150
                })
                .count()
        };
        let (pa, pb) = (o + DVec3::Z * 0.1, o - DVec3::Z * 0.08);
        let mut with = Canvas::new(240, 180, [0; 3]);
        draw_clash_on(&mut with, &a, &b, pa, pb, &[&near]);
        let without = draw_clash(&a, &b, pa, pb, 240, 180);
        if let Ok(dir) = std::env::var("PENG_PICTURE_DIR") {
            std::fs::write(format!("{dir}/context.png"), with.to_png()).unwrap();
        }
        assert!(
            grey(&with) > grey(&without) + 150,
            "{} {}",
            grey(&with),
            grey(&without)
        );
        // The beams keep their pixels (but for their creases' blends, over
        // grey rather than the background).
        let ((a1, b1), (a0, b0)) = (hues(&with), hues(&without));
        let close = |x: usize, y: usize| (x as f64 / y as f64 - 1.0).abs() < 0.02;
        assert!(
            close(a1, a0) && close(b1, b0),
            "{:?} {:?}",
            (a1, b1),
            (a0, b0)
        );
    }

    /// A zero-sized picture is drawn as one pixel, not a panic.
    #[test]
    fn zero_size_picture() {
        let a = el("a", Solid::cuboid(DVec3::ZERO, DVec3::ONE));
        let png = draw_clash(&a, &a, DVec3::ZERO, DVec3::ONE, 0, 0).to_png();
        let dec = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        assert_eq!((dec.info().width, dec.info().height), (1, 1));
    }

    /// An element modelled twice in the same place: both colours show, in
    /// about equal parts (a block, so that its faces outweigh its creases).
    #[test]
    fn duplicate_shows_both_elements() {
        let o = DVec3::new(700_000.0, 5_300_000.0, 12.0);
        let block = |id: &str| {
            el(
                id,
                Solid::cuboid(o - DVec3::new(0.5, 0.5, 0.0), o + DVec3::new(0.5, 0.5, 1.0)),
            )
        };
        let (a, b) = (block("c"), block("c copy"));
        let c = draw_clash(&a, &b, o, o, 240, 180);
        let (mut na, mut nb) = (0, 0);
        for p in c.rgb().chunks(3) {
            let (r, b) = (p[0] as i32, p[2] as i32);
            na += (r > b + 40) as usize;
            nb += (b > r + 40) as usize;
        }
        assert!(na > 500 && nb > 500, "orange {na}, blue {nb}");
        assert!(
            (na as f64 / nb as f64 - 1.0).abs() < 0.3,
            "orange {na}, blue {nb}"
        );
    }
}
