//! Draws a checked scene: shapes, overlaps, contacts, normals and near pairs.
//!
//! 2D scenes are drawn as they are (x right, y up). 3D scenes are drawn as an
//! orthographic front view: x right, y up, looking along -z. The outline of a
//! convex shape in that view is the convex hull of its projected support points:
//! the support of the projection in a view direction `u` is the projection of
//! the support along `u` lifted into 3D, so sampling `u` around the circle
//! traces the exact silhouette of round shapes. A half-space is drawn only when
//! its plane is seen edge-on (normal in the view plane); otherwise its
//! projection covers the whole view and it is left out.

use crate::check::Report;
use crate::outline::{outline2, outline3, Outline};
use crate::raster::{Canvas, Rgb, P};
use crate::scene::{Scene, Shapes};
use peng::d2::Vec2;
use std::collections::HashSet;

/// Colour of the contact-point markers (pure magenta, used by nothing else).
pub const CONTACT: Rgb = [255, 0, 255];
/// Outline colour of shapes that overlap another.
pub const OVERLAP: Rgb = [214, 39, 40];
/// Colour of the contact normal arrows.
pub const NORMAL: Rgb = [20, 20, 120];
/// Colour of the dashed lines joining the closest points of near pairs.
pub const NEAR: Rgb = [0, 140, 70];
/// Shape colours, cycled in scene order.
pub const PALETTE: [Rgb; 8] = [
    [31, 119, 180],
    [255, 127, 14],
    [44, 160, 44],
    [148, 103, 189],
    [140, 86, 75],
    [23, 190, 207],
    [188, 189, 34],
    [127, 127, 127],
];
const BACKGROUND: Rgb = [255, 255, 255];
const AXES: Rgb = [225, 225, 225];
const LABEL: Rgb = [50, 50, 50];

/// Maps view coordinates to pixels, fitting `[lo, hi]` with a margin.
struct View {
    center: Vec2,
    scale: f32,
    w: f32,
    h: f32,
}

impl View {
    fn fit(lo: Vec2, hi: Vec2, w: u32, h: u32) -> Self {
        let (w, h) = (w as f32, h as f32);
        let margin = 20.0 + 0.06 * w.min(h);
        let size = (hi - lo).max(Vec2::splat(1e-3));
        let scale =
            ((w - 2.0 * margin).max(1.0) / size.x).min((h - 2.0 * margin).max(1.0) / size.y);
        View {
            center: (lo + hi) * 0.5,
            scale,
            w,
            h,
        }
    }

    fn px(&self, p: Vec2) -> P {
        P::new(
            self.w * 0.5 + (p.x - self.center.x) * self.scale,
            self.h * 0.5 - (p.y - self.center.y) * self.scale,
        )
    }

    /// A view-space direction as a pixel-space unit direction (y flips).
    fn dir(&self, d: Vec2) -> Option<(f32, f32)> {
        let d = d.try_normalize()?;
        Some((d.x, -d.y))
    }

    /// The view rectangle in view coordinates.
    fn world_rect(&self) -> [Vec2; 4] {
        let hx = self.w * 0.5 / self.scale;
        let hy = self.h * 0.5 / self.scale;
        let c = self.center;
        [
            c + Vec2::new(-hx, -hy),
            c + Vec2::new(hx, -hy),
            c + Vec2::new(hx, hy),
            c + Vec2::new(-hx, hy),
        ]
    }
}

/// Clips a convex polygon to `normal · (p - point) <= 0` (Sutherland and
/// Hodgman, "Reentrant polygon clipping", CACM 1974): the visible part of a
/// half-plane, here and in `peng sim`'s pictures.
pub(crate) fn clip(poly: &[Vec2], point: Vec2, normal: Vec2) -> Vec<Vec2> {
    let mut out = Vec::new();
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let (dp, dq) = (normal.dot(p - point), normal.dot(q - point));
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0) != (dq < 0.0) && dp != dq {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
    out
}

/// A report vector (2 or 3 numbers) in view coordinates.
fn view_point(v: &[f32]) -> Vec2 {
    Vec2::new(
        v.first().copied().unwrap_or(0.0),
        v.get(1).copied().unwrap_or(0.0),
    )
}

/// Draws the scene and the findings of `report` on a `width × height` canvas.
pub fn render(scene: &Scene, report: &Report, width: u32, height: u32) -> Canvas {
    // Outlines per shape, in scene order.
    let shapes: Vec<(String, Vec<Outline>)> = match &scene.shapes {
        Shapes::D2(v) => v
            .iter()
            .map(|n| {
                let mut o = Vec::new();
                outline2(&n.shape, &n.pose, &mut o);
                (n.name.clone(), o)
            })
            .collect(),
        Shapes::D3(v) => v
            .iter()
            .map(|n| {
                let mut o = Vec::new();
                outline3(&n.shape, &n.pose, &mut o);
                (n.name.clone(), o)
            })
            .collect(),
    };

    // Bounds of everything finite that is drawn.
    let mut lo = Vec2::splat(f32::INFINITY);
    let mut hi = Vec2::splat(f32::NEG_INFINITY);
    let mut add = |p: Vec2| {
        if p.is_finite() {
            lo = lo.min(p);
            hi = hi.max(p);
        }
    };
    for (_, outlines) in &shapes {
        for o in outlines {
            match o {
                Outline::Poly(ps) => ps.iter().for_each(|&p| add(p)),
                Outline::Line(a, b) => {
                    add(*a);
                    add(*b);
                }
                Outline::HalfPlane { point, .. } => add(*point),
            }
        }
    }
    for o in &report.overlaps {
        for p in &o.points {
            add(view_point(&p.point_a));
            add(view_point(&p.point_b));
        }
    }
    if !(lo.is_finite() && hi.is_finite()) {
        lo = Vec2::splat(-1.0);
        hi = Vec2::splat(1.0);
    }
    let view = View::fit(lo, hi, width, height);
    let mut c = Canvas::new(width, height, BACKGROUND);

    // Axes through the origin.
    let r = view.world_rect();
    c.line(
        view.px(Vec2::new(r[0].x, 0.0)),
        view.px(Vec2::new(r[1].x, 0.0)),
        1.0,
        AXES,
        1.0,
    );
    c.line(
        view.px(Vec2::new(0.0, r[0].y)),
        view.px(Vec2::new(0.0, r[2].y)),
        1.0,
        AXES,
        1.0,
    );

    let overlapping: HashSet<&str> = report
        .overlaps
        .iter()
        .flat_map(|o| [o.a.as_str(), o.b.as_str()])
        .collect();
    let diag = (r[2] - r[0]).length();

    // Fills, then outlines on top.
    for (i, (_, outlines)) in shapes.iter().enumerate() {
        let col = PALETTE[i % PALETTE.len()];
        for o in outlines {
            match o {
                Outline::Poly(ps) => {
                    let px: Vec<P> = ps.iter().map(|&p| view.px(p)).collect();
                    c.fill_polygon(&px, col, 0.3);
                }
                Outline::HalfPlane { point, normal } => {
                    let region: Vec<P> = clip(&r, *point, *normal)
                        .iter()
                        .map(|&p| view.px(p))
                        .collect();
                    c.fill_polygon(&region, col, 0.3);
                }
                Outline::Line(..) => {}
            }
        }
    }
    for (i, (name, outlines)) in shapes.iter().enumerate() {
        let hit = overlapping.contains(name.as_str());
        let (col, w) = if hit {
            (OVERLAP, 3.0)
        } else {
            (PALETTE[i % PALETTE.len()], 1.8)
        };
        for o in outlines {
            match o {
                Outline::Poly(ps) => {
                    let px: Vec<P> = ps.iter().map(|&p| view.px(p)).collect();
                    c.polyline_closed(&px, w, col);
                }
                Outline::Line(a, b) => c.line(view.px(*a), view.px(*b), w + 0.7, col, 1.0),
                Outline::HalfPlane { point, normal } => {
                    let t = normal.perp() * diag * 2.0;
                    c.line(view.px(*point - t), view.px(*point + t), w, col, 1.0);
                }
            }
        }
    }

    // Names above each shape's outline.
    for (name, outlines) in &shapes {
        let mut top: Option<(f32, f32, f32)> = None; // (min x, max x, max y) in view units
        for o in outlines {
            let pts: Vec<Vec2> = match o {
                Outline::Poly(ps) => ps.clone(),
                Outline::Line(a, b) => vec![*a, *b],
                Outline::HalfPlane { point, .. } => vec![*point],
            };
            for p in pts.into_iter().filter(|p| p.is_finite()) {
                top = Some(match top {
                    None => (p.x, p.x, p.y),
                    Some((lo, hi, y)) => (lo.min(p.x), hi.max(p.x), y.max(p.y)),
                });
            }
        }
        if let Some((lo, hi, y)) = top {
            let anchor = view.px(Vec2::new((lo + hi) * 0.5, y));
            let w = crate::font::text_width(name, 1) as f32;
            let x = (anchor.x - w * 0.5).clamp(2.0, (width as f32 - w - 2.0).max(2.0));
            let y = (anchor.y - 12.0).max(2.0);
            crate::font::draw_text(&mut c, x as i64, y as i64, name, 1, LABEL);
        }
    }

    // Near pairs: dashed line between the closest points.
    for n in &report.near {
        let (a, b) = (
            view.px(view_point(&n.point_a)),
            view.px(view_point(&n.point_b)),
        );
        c.dashed_line(a, b, 1.8, NEAR, 6.0, 4.0);
        c.disk(a, 3.0, NEAR, 1.0);
        c.disk(b, 3.0, NEAR, 1.0);
    }

    // Contacts: a normal arrow from the mean point of each manifold (one per
    // touching part pair), then the markers on top.
    for o in &report.overlaps {
        let mut groups: Vec<((u32, u32), Vec2, Vec2, f32)> = Vec::new();
        for p in &o.points {
            let mid = (view_point(&p.point_a) + view_point(&p.point_b)) * 0.5;
            match groups.iter_mut().find(|g| g.0 == (p.part_a, p.part_b)) {
                Some(g) => {
                    g.1 += mid;
                    g.3 += 1.0;
                }
                None => groups.push(((p.part_a, p.part_b), mid, view_point(&p.normal), 1.0)),
            }
        }
        for (_, sum, normal, n) in groups {
            if let Some((dx, dy)) = view.dir(normal) {
                let a = view.px(sum / n);
                c.arrow(
                    a,
                    P::new(a.x + dx * 40.0, a.y + dy * 40.0),
                    2.0,
                    NORMAL,
                    11.0,
                );
            }
        }
    }
    for o in &report.overlaps {
        for p in &o.points {
            let (a, b) = (view_point(&p.point_a), view_point(&p.point_b));
            c.line(view.px(a), view.px(b), 1.0, [0, 0, 0], 1.0);
            let m = view.px((a + b) * 0.5);
            c.disk(m, 5.5, [0, 0, 0], 1.0);
            c.disk(m, 4.0, CONTACT, 1.0);
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::SAMPLES;
    use peng::d2;
    use peng::d3::{self, Vec3};

    #[test]
    fn clip_keeps_the_inner_half() {
        let sq = [
            Vec2::ZERO,
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        let half = clip(&sq, Vec2::new(0.0, 1.0), Vec2::Y);
        let area: f32 = (0..half.len())
            .map(|i| half[i].perp_dot(half[(i + 1) % half.len()]))
            .sum::<f32>()
            * 0.5;
        assert!((area - 2.0).abs() < 1e-5, "{area}");
        assert!(half.iter().all(|p| p.y <= 1.0 + 1e-6));
    }

    #[test]
    fn ball_silhouette_is_a_circle_and_cuboid_a_rectangle() {
        let mut o = Vec::new();
        let ball = d3::Shape::from(d3::Ball::new(2.0).unwrap());
        outline3(
            &ball,
            &d3::Pose3::from_translation(Vec3::new(1.0, 0.0, 5.0)),
            &mut o,
        );
        let Outline::Poly(ps) = &o[0] else {
            panic!("{o:?}")
        };
        assert!(ps.len() >= SAMPLES / 2);
        for p in ps {
            assert!(((*p - Vec2::new(1.0, 0.0)).length() - 2.0).abs() < 1e-4);
        }
        o.clear();
        // A cube turned 45° about y: its front view is 2√2 wide and 2 tall.
        let cube = d3::Shape::from(d3::Cuboid::new(Vec3::ONE).unwrap());
        let pose = d3::Pose3::new(
            Vec3::ZERO,
            d3::Quat::from_rotation_y(std::f32::consts::FRAC_PI_4),
        );
        outline3(&cube, &pose, &mut o);
        let Outline::Poly(ps) = &o[0] else {
            panic!("{o:?}")
        };
        let w = ps.iter().map(|p| p.x).fold(f32::MIN, f32::max)
            - ps.iter().map(|p| p.x).fold(f32::MAX, f32::min);
        let h = ps.iter().map(|p| p.y).fold(f32::MIN, f32::max)
            - ps.iter().map(|p| p.y).fold(f32::MAX, f32::min);
        assert!(
            (w - 2.0 * 2f32.sqrt()).abs() < 1e-4 && (h - 2.0).abs() < 1e-4,
            "{w} {h}"
        );
        assert_eq!(ps.len(), 4);
    }

    #[test]
    fn edge_on_triangle_is_a_line() {
        let mut o = Vec::new();
        let t = d3::Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Z).unwrap();
        outline3(&t.into(), &d3::Pose3::IDENTITY, &mut o);
        assert!(matches!(o[0], Outline::Line(..)), "{o:?}");
    }

    /// Rendering needs no narrow phase: a hand-made report on the bundled scene.
    #[test]
    fn draws_markers_overlap_outlines_and_near_lines() {
        use crate::check::{ContactOut, Near, Overlap};
        let scene =
            crate::scene::parse("s", include_str!("../../../examples/scene2d.json")).unwrap();
        let report = Report {
            format: "peng-check/1",
            scene: "s".into(),
            dimension: 2,
            shapes: scene.len(),
            distance: 0.5,
            pairs: 36,
            pairs_tested: 0,
            overlaps: vec![Overlap {
                a: "ground".into(),
                b: "crate".into(),
                depth: 0.25,
                normal: vec![0.0, 1.0],
                points: vec![ContactOut {
                    point_a: vec![-6.0, 0.0],
                    point_b: vec![-6.0, -0.25],
                    depth: 0.25,
                    normal: vec![0.0, 1.0],
                    part_a: 0,
                    part_b: 0,
                }],
                compound: false,
            }],
            near: vec![Near {
                a: "wedge".into(),
                b: "beam".into(),
                distance: 0.4,
                normal: vec![0.0, 1.0],
                point_a: vec![0.5, 1.4],
                point_b: vec![0.5, 1.8],
            }],
        };
        let c = render(&scene, &report, 300, 200);
        let count = |col: Rgb| c.rgb().chunks_exact(3).filter(|p| *p == col).count();
        assert!(count(CONTACT) >= 30, "{}", count(CONTACT));
        assert!(count(OVERLAP) > 100);
        assert!(count(NEAR) > 5);
        assert!(count(NORMAL) > 10);
        // The scene fits: the border rows hold only background and grey axes.
        for x in 0..300 {
            for y in [0, 199] {
                let [r, g, b] = c.get(x, y).unwrap();
                assert!(r == g && g == b && r >= AXES[0], "({x}, {y}): {r} {g} {b}");
            }
        }
    }

    #[test]
    fn polyline_outline_is_its_segments() {
        let mut o = Vec::new();
        let v = vec![Vec2::ZERO, Vec2::X, Vec2::ONE];
        let l = d2::Shape::from(d2::Polyline::new(v, None).unwrap());
        outline2(&l, &d2::Pose2::from_translation(Vec2::Y), &mut o);
        assert_eq!(
            o,
            vec![
                Outline::Line(Vec2::Y, Vec2::new(1.0, 1.0)),
                Outline::Line(Vec2::new(1.0, 1.0), Vec2::new(1.0, 2.0)),
            ]
        );
    }

    #[test]
    fn capsule_outline_is_rounded() {
        let mut o = Vec::new();
        let cap = d2::Shape::from(d2::Capsule::vertical(1.0, 0.5).unwrap());
        outline2(&cap, &d2::Pose2::IDENTITY, &mut o);
        let Outline::Poly(ps) = &o[0] else { panic!() };
        let top = ps.iter().map(|p| p.y).fold(f32::MIN, f32::max);
        let right = ps.iter().map(|p| p.x).fold(f32::MIN, f32::max);
        assert!((top - 1.5).abs() < 1e-5 && (right - 0.5).abs() < 1e-5);
    }
}
