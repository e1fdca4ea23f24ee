//! Draws one moment of a simulation: every collider of every body at body
//! pose * local pose, the joints between their anchors, the contact points
//! (magenta, [`crate::draw::CONTACT`]) and a caption.
//!
//! 2D scenes are drawn as they are (x right, y up); 3D scenes as the
//! orthographic front view of `peng check --png` (x right, y up, looking
//! along -z), far bodies first so that nearer ones cover them. Dynamic
//! bodies take the colours of [`crate::draw::PALETTE`] (but its grey) in
//! file order, static bodies are grey, kinematic ones slate blue.

use super::model::{BodyKind, JointKind, ViewSpec, World};
use super::space::{Outline, Space};
use crate::draw::{clip, CONTACT, PALETTE};
use crate::font::draw_text;
use crate::raster::{Canvas, Rgb, P};
use peng::d2::Vec2;

/// The picture's background.
pub const BACKGROUND: Rgb = [250, 250, 250];
/// Fill and outline of static bodies.
pub const STATIC: Rgb = [120, 120, 120];
/// Fill and outline of kinematic bodies.
pub const KINEMATIC: Rgb = [70, 90, 160];
/// Joints: lines between anchors, dots at hinges.
pub const JOINT: Rgb = [40, 40, 40];
const TEXT: Rgb = [60, 60, 60];
/// How strongly body fills cover the background.
pub const FILL_ALPHA: f32 = 0.45;

/// Maps view coordinates to pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    /// The view point at the picture's centre.
    pub center: Vec2,
    /// Pixels per unit of length.
    pub scale: f32,
    /// Picture width in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
}

impl Viewport {
    /// Shows the region `[lo, hi]` as large as fits, centred (the other axis
    /// shows more).
    pub fn region(lo: Vec2, hi: Vec2, width: u32, height: u32) -> Self {
        let size = (hi - lo).max(Vec2::splat(1e-3));
        let scale = (width as f32 / size.x).min(height as f32 / size.y);
        Viewport {
            center: (lo + hi) * 0.5,
            scale,
            width,
            height,
        }
    }

    /// The pixel of a view point.
    pub fn px(&self, p: Vec2) -> P {
        P::new(
            self.width as f32 * 0.5 + (p.x - self.center.x) * self.scale,
            self.height as f32 * 0.5 - (p.y - self.center.y) * self.scale,
        )
    }

    /// The view rectangle's corners, counter-clockwise from lower left.
    fn world_rect(&self) -> [Vec2; 4] {
        let h = Vec2::new(self.width as f32, self.height as f32) * (0.5 / self.scale);
        let c = self.center;
        [
            c - h,
            c + Vec2::new(h.x, -h.y),
            c + h,
            c + Vec2::new(-h.x, h.y),
        ]
    }
}

/// The outlines of every body's colliders at `poses` (one list per body).
pub fn outlines<D: Space>(world: &World<D>, poses: &[D::Pose]) -> Vec<Vec<Outline>> {
    world
        .bodies
        .iter()
        .zip(poses)
        .map(|(b, pose)| {
            let mut out = Vec::new();
            for c in &b.colliders {
                D::outline(&c.shape, &D::mul(pose, &c.local_pose), &mut out);
            }
            out
        })
        .collect()
}

/// The box of every finite point of the outlines (half-planes count by
/// their boundary point only); `None` if there is none.
pub fn bounds(outlines: &[Vec<Outline>]) -> Option<(Vec2, Vec2)> {
    let mut lo = Vec2::splat(f32::INFINITY);
    let mut hi = Vec2::splat(f32::NEG_INFINITY);
    for o in outlines.iter().flatten() {
        let pts: &[Vec2] = match o {
            Outline::Poly(ps) => ps,
            Outline::Line(a, b) => &[*a, *b],
            Outline::HalfPlane { point, .. } => std::slice::from_ref(point),
        };
        for &p in pts.iter().filter(|p| p.is_finite()) {
            lo = lo.min(p);
            hi = hi.max(p);
        }
    }
    (lo.x <= hi.x).then_some((lo, hi))
}

/// The box `[lo, hi]` grown by a tenth of its larger side.
pub fn padded(lo: Vec2, hi: Vec2) -> (Vec2, Vec2) {
    let pad = Vec2::splat(0.1 * (hi - lo).max_element().max(0.1));
    (lo - pad, hi + pad)
}

/// The viewport of a scene: its `view` region, else the bodies at the start
/// with a margin ([`padded`]).
pub fn viewport<D: Space>(world: &World<D>, view: &ViewSpec) -> Viewport {
    let (lo, hi) = view.region.unwrap_or_else(|| {
        let poses: Vec<D::Pose> = world.bodies.iter().map(|b| b.pose).collect();
        bounds(&outlines(world, &poses))
            .map_or((Vec2::splat(-1.0), Vec2::splat(1.0)), |(lo, hi)| {
                padded(lo, hi)
            })
    });
    Viewport::region(lo, hi, view.width, view.height)
}

/// The colour of body `i` of kind `k`.
pub fn body_color(i: usize, k: BodyKind) -> Rgb {
    match k {
        // The palette's last colour is grey, which reads as static here.
        BodyKind::Dynamic => PALETTE[i % (PALETTE.len() - 1)],
        BodyKind::Kinematic => KINEMATIC,
        BodyKind::Static => STATIC,
    }
}

/// Draws the bodies of `world` at `poses` (one per body), the contact
/// points `contacts` (view coordinates) as magenta dots, and `caption` at
/// the top left.
pub fn render<D: Space>(
    world: &World<D>,
    poses: &[D::Pose],
    contacts: &[Vec2],
    vp: &Viewport,
    caption: &str,
) -> Canvas {
    let mut c = Canvas::new(vp.width, vp.height, BACKGROUND);
    let shapes = outlines(world, poses);
    let rect = vp.world_rect();
    let diag = (rect[2] - rect[0]).length();
    // Far bodies first (3D); file order otherwise (the sort is stable).
    let mut order: Vec<usize> = (0..shapes.len()).collect();
    order.sort_by(|&i, &j| D::depth(&poses[i]).total_cmp(&D::depth(&poses[j])));
    for i in order {
        let col = body_color(i, world.bodies[i].kind);
        for o in &shapes[i] {
            match o {
                Outline::Poly(ps) => {
                    let px: Vec<P> = ps.iter().map(|&p| vp.px(p)).collect();
                    c.fill_polygon(&px, col, FILL_ALPHA);
                    c.polyline_closed(&px, 1.5, col);
                }
                Outline::Line(a, b) => c.line(vp.px(*a), vp.px(*b), 2.2, col, 1.0),
                Outline::HalfPlane { point, normal } => {
                    let region: Vec<P> = clip(&rect, *point, *normal)
                        .iter()
                        .map(|&p| vp.px(p))
                        .collect();
                    c.fill_polygon(&region, col, FILL_ALPHA);
                    let t = normal.perp() * diag * 2.0;
                    c.line(vp.px(*point - t), vp.px(*point + t), 1.5, col, 1.0);
                }
            }
        }
    }
    for j in &world.joints {
        let (pa, pb) = (&poses[j.body_a], &poses[j.body_b]);
        let a = vp.px(D::project(D::transform_point(pa, j.local_anchor_a)));
        let b = vp.px(D::project(D::transform_point(pb, j.local_anchor_b)));
        match (j.kind, j.spring) {
            (JointKind::Distance, Some(_)) => zigzag(&mut c, a, b),
            (JointKind::Distance, None) | (JointKind::Prismatic, _) => {
                c.line(a, b, 1.2, JOINT, 1.0)
            }
            (JointKind::Revolute | JointKind::Weld, _) => {}
        }
        c.disk(a, 2.5, JOINT, 1.0);
        c.disk(b, 2.5, JOINT, 1.0);
    }
    for &p in contacts {
        c.disk(vp.px(p), 2.2, CONTACT, 1.0);
    }
    draw_text(&mut c, 6, 6, caption, 1, TEXT);
    c
}

/// A spring drawn as a zigzag of 8 teeth between `a` and `b`.
fn zigzag(c: &mut Canvas, a: P, b: P) {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1e-3 {
        return;
    }
    // Unit normal to the spring, teeth 4 px to each side.
    let (nx, ny) = (-dy / len * 4.0, dx / len * 4.0);
    const TEETH: usize = 8;
    let mut prev = a;
    for k in 1..=TEETH * 2 {
        let s = k as f32 / (TEETH * 2) as f32;
        let side = match (k == TEETH * 2, k % 2) {
            (true, _) => 0.0,
            (false, 1) => 1.0,
            _ => -1.0,
        };
        let p = P::new(a.x + dx * s + nx * side, a.y + dy * s + ny * side);
        c.line(prev, p, 1.2, JOINT, 1.0);
        prev = p;
    }
}
