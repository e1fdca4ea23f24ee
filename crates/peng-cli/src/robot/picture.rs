//! Drawing the robot and its objects at a configuration: the framing (one
//! fixed view on the space the motion sweeps and the objects near it) and
//! one picture with highlighted links, objects, a ring and captions.

use super::tessellate::{tessellate, Detail, Tessellation};
use crate::font::{draw_text, text_width};
use crate::raster::{Canvas, Rgb};
use anyhow::Result;
use glam::{DMat2, DVec2, DVec3, Vec2};
use peng::d3::{Shape, Vec3};
use peng_clash::picture::View;
use peng_robot::{Checker, Transform};

/// The background.
pub const BACKGROUND: Rgb = [250, 250, 247];
/// Links not involved in a contact.
pub const LINK: Rgb = [150, 156, 168];
/// Objects not involved in a contact.
pub const OBJECT: Rgb = [190, 172, 140];
/// Half-spaces (floors).
pub const PLANE: Rgb = [230, 230, 224];
/// A half-space's grid lines.
const GRID: Rgb = [200, 200, 192];
/// Anything in contact (in the animation).
pub const CONTACT: Rgb = [214, 48, 38];
/// Caption text.
pub const TEXT: Rgb = [30, 30, 30];

/// Pixels kept free above and below the drawing (captions, timeline).
const BAND: u32 = 34;

/// A colour per link and per object (`None`: the default).
#[derive(Debug, Clone, Default)]
pub struct Colors {
    /// By link index.
    pub links: Vec<Option<Rgb>>,
    /// By object index.
    pub objects: Vec<Option<Rgb>>,
}

/// What one picture shows besides the robot and the objects.
#[derive(Debug, Clone, Default)]
pub struct Marks {
    /// Colours of links and objects.
    pub colors: Colors,
    /// A ring around the middle of these two points (a contact or the
    /// closest pair), joined by a line.
    pub ring: Option<(DVec3, DVec3)>,
    /// Caption lines at the top, each with its colour.
    pub captions: Vec<(String, Rgb)>,
}

/// A robot and its objects, tessellated once, with a fixed view.
pub struct Painter<'a> {
    checker: &'a Checker,
    /// Per link: each shape's pose in the link frame and its triangles.
    links: Vec<Vec<(Transform, Tessellation)>>,
    /// Per object: its triangles and lines in the root frame, and whether
    /// it is a plane (drawn first, its grid under everything else).
    objects: Vec<(Tessellation, bool)>,
    view: View,
    width: u32,
    height: u32,
}

/// An axis-aligned box in f64.
#[derive(Debug, Clone, Copy)]
struct Region {
    min: DVec3,
    max: DVec3,
}

impl Region {
    fn empty() -> Region {
        Region {
            min: DVec3::splat(f64::INFINITY),
            max: DVec3::splat(f64::NEG_INFINITY),
        }
    }
    fn add(&mut self, min: DVec3, max: DVec3) {
        self.min = self.min.min(min);
        self.max = self.max.max(max);
    }
    fn is_empty(&self) -> bool {
        !(self.min.cmple(self.max).all() && self.min.is_finite() && self.max.is_finite())
    }
    fn corners(&self) -> [DVec3; 8] {
        std::array::from_fn(|i| {
            DVec3::new(
                if i & 1 == 0 { self.min.x } else { self.max.x },
                if i & 2 == 0 { self.min.y } else { self.max.y },
                if i & 4 == 0 { self.min.z } else { self.max.z },
            )
        })
    }
}

/// The box the robot's shapes fill over the configurations `qs`, and the
/// corners of each shape's box at each (the link frames' origins when
/// there are no shapes).
fn robot_region(checker: &Checker, qs: &[Vec<f64>]) -> Result<(Region, Vec<DVec3>)> {
    let mut r = Region::empty();
    let mut points = Vec::new();
    for q in qs {
        let poses = checker.link_poses(q)?;
        for (l, lp) in poses.iter().enumerate() {
            for s in checker.shapes_of(l) {
                let b = s.shape.aabb(&lp.mul(&s.pose).to_pose());
                let one = Region {
                    min: b.min.as_dvec3(),
                    max: b.max.as_dvec3(),
                };
                r.add(one.min, one.max);
                points.extend(one.corners());
            }
        }
    }
    if r.is_empty() {
        points.clear();
        for q in qs {
            for lp in checker.link_poses(q)? {
                r.add(lp.translation, lp.translation);
                points.push(lp.translation);
            }
        }
    }
    Ok((r, points))
}

/// The view from azimuth 35° and elevation 30° that fits `points` between
/// the caption bands of a `width` × `height` picture, centred on them.
fn fit(points: &[DVec3], around: DVec3, width: u32, height: u32) -> View {
    // The view's scale goes as 1 / half: measure the points' picture at
    // half = 1, then scale it to fit and shift its centre onto the middle.
    let unit = View::looking_at(around, 1.0, width, height);
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for p in points {
        let q = unit.project(*p);
        lo = lo.min(q);
        hi = hi.max(q);
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return View::looking_at(around, 1.0, width, height);
    }
    let avail_w = f64::from(width.saturating_sub(24).max(16));
    let avail_h = f64::from(height.saturating_sub(2 * BAND).max(16));
    let ext = hi - lo;
    let half = (ext.x / avail_w).max(ext.y / avail_h).max(1e-3);
    // The world shift in the picture plane that moves the points' centre
    // onto the middle: the least-norm solution of J w = d, J the 2 × 3
    // matrix of pixels per unit along each world axis.
    let o = unit.project(around);
    let d = (lo + hi) * 0.5 - o;
    let j = [DVec3::X, DVec3::Y, DVec3::Z].map(|e| unit.project(around + e) - o);
    let jjt = DMat2::from_cols(
        DVec2::new(
            j.iter().map(|c| c.x * c.x).sum(),
            j.iter().map(|c| c.x * c.y).sum(),
        ),
        DVec2::new(
            j.iter().map(|c| c.x * c.y).sum(),
            j.iter().map(|c| c.y * c.y).sum(),
        ),
    );
    let y = jjt.inverse() * d;
    let shift = DVec3::new(j[0].dot(y), j[1].dot(y), j[2].dot(y));
    let center = if shift.is_finite() {
        around + shift
    } else {
        around
    };
    View::looking_at(center, half, width, height)
}

impl<'a> Painter<'a> {
    /// A painter for `checker`'s robot and objects, framed on the robot at
    /// every configuration of `qs` and on the parts of the objects near
    /// it, for `width` × `height` pictures.
    pub fn new(checker: &'a Checker, qs: &[Vec<f64>], width: u32, height: u32) -> Result<Self> {
        let (robot, mut points) = robot_region(checker, qs)?;
        let size = (robot.max - robot.min).max_element().max(0.2);
        // Objects count where they lie within a margin of the robot: a floor
        // or a long wall shows around the robot, not to its horizon.
        let near = Region {
            min: robot.min - DVec3::splat(0.25 * size),
            max: robot.max + DVec3::splat(0.25 * size),
        };
        let mut region = robot;
        for (shape, pose) in &checker.environment {
            let b = shape.aabb(pose);
            let clipped = Region {
                min: b.min.as_dvec3().max(near.min),
                max: b.max.as_dvec3().min(near.max),
            };
            if !clipped.is_empty() {
                region.add(clipped.min, clipped.max);
                points.extend(clipped.corners());
            }
        }
        let center = (region.min + region.max) * 0.5;
        let detail = Detail {
            segments: 24,
            patch_center: center.as_vec3(),
            patch_half: (0.5 * (near.max - near.min).max_element()) as f32,
        };
        let objects = checker
            .environment
            .iter()
            .map(|(shape, pose)| {
                let local = Detail {
                    patch_center: pose.inverse().transform_point(detail.patch_center),
                    ..detail
                };
                let mut t = tessellate(shape, &local);
                for tri in &mut t.triangles {
                    *tri = tri.map(|p| pose.transform_point(p));
                }
                for line in &mut t.lines {
                    *line = line.map(|p| pose.transform_point(p));
                }
                (t, matches!(shape, Shape::HalfSpace(_)))
            })
            .collect();
        let links = (0..checker.robot.links.len())
            .map(|l| {
                checker
                    .shapes_of(l)
                    .iter()
                    .map(|s| (s.pose, tessellate(&s.shape, &detail)))
                    .collect()
            })
            .collect();
        Ok(Painter {
            checker,
            links,
            objects,
            view: fit(&points, center, width, height),
            width,
            height,
        })
    }

    /// The pixel position of a world point.
    pub fn project(&self, p: DVec3) -> Vec2 {
        self.view.project(p).as_vec2()
    }

    /// The robot at configuration `q` with the objects and `marks`.
    pub fn draw(&self, q: &[f64], marks: &Marks) -> Result<Canvas> {
        let mut c = Canvas::new(self.width, self.height, BACKGROUND);
        let world = |p: Vec3| p.as_dvec3();
        let color_of = |v: &[Option<Rgb>], i: usize, default: Rgb| {
            v.get(i).copied().flatten().unwrap_or(default)
        };
        // Planes first, their grids over them, then everything else: the
        // grid stays under the robot and the objects.
        for (i, (t, plane)) in self.objects.iter().enumerate() {
            if *plane {
                let col = color_of(&marks.colors.objects, i, PLANE);
                for tri in &t.triangles {
                    c.fill_triangle(&self.view, tri.map(world), col);
                }
                for [a, b] in &t.lines {
                    c.line(
                        self.project(world(*a)),
                        self.project(world(*b)),
                        1.0,
                        GRID,
                        1.0,
                    );
                }
            }
        }
        for (i, (t, plane)) in self.objects.iter().enumerate() {
            if !*plane {
                let col = color_of(&marks.colors.objects, i, OBJECT);
                for tri in &t.triangles {
                    c.fill_triangle(&self.view, tri.map(world), col);
                }
            }
        }
        let poses = self.checker.link_poses(q)?;
        for (l, shapes) in self.links.iter().enumerate() {
            let col = color_of(&marks.colors.links, l, LINK);
            for (pose, t) in shapes {
                let at = poses[l].mul(pose);
                for tri in &t.triangles {
                    c.fill_triangle(
                        &self.view,
                        tri.map(|p| at.transform_point(p.as_dvec3())),
                        col,
                    );
                }
                for [a, b] in &t.lines {
                    let (a, b) = (
                        at.transform_point(a.as_dvec3()),
                        at.transform_point(b.as_dvec3()),
                    );
                    c.line(self.project(a), self.project(b), 2.0, col, 1.0);
                }
            }
        }
        for (i, (t, plane)) in self.objects.iter().enumerate() {
            if !*plane {
                let col = color_of(&marks.colors.objects, i, OBJECT);
                for [a, b] in &t.lines {
                    c.line(
                        self.project(world(*a)),
                        self.project(world(*b)),
                        2.0,
                        col,
                        1.0,
                    );
                }
            }
        }
        if let Some((a, b)) = marks.ring {
            let (pa, pb) = (self.project(a), self.project(b));
            c.line(pa, pb, 1.5, [0, 0, 0], 1.0);
            let r = (self.width.min(self.height) as f32 / 22.0).max(4.0);
            let m = (pa + pb) * 0.5;
            c.ring(m, r + 2.25, 2.0, [255, 255, 255]);
            c.ring(m, r + 0.25, 2.0, [0, 0, 0]);
        }
        if !marks.captions.is_empty() {
            // A band of background under the captions: objects reaching
            // out of the frame do not run through the text.
            let h = 8.0 + 16.0 * marks.captions.len() as f32;
            c.fill_rect(0.0, 0.0, self.width as f32, h, BACKGROUND);
        }
        for (k, (line, col)) in marks.captions.iter().enumerate() {
            caption(&mut c, 8 + 16 * k as i64, line, *col);
        }
        Ok(c)
    }
}

/// Draws one caption line at height `y`, at scale 2 when it fits, else 1.
fn caption(c: &mut Canvas, y: i64, text: &str, col: Rgb) {
    let w = c.width().saturating_sub(16);
    let scale = if text_width(text, 2) <= w { 2 } else { 1 };
    draw_text(c, 8, y, text, scale, col);
}

#[cfg(test)]
mod tests {
    use super::*;
    use peng::d3::{Cuboid, HalfSpace, Pose3};
    use peng_robot::{link_shapes, urdf, MeshSource};

    /// A one-link robot (a 0.2 m box at the origin) on a floor half-space
    /// and beside a far-off 100 m wall.
    fn checker() -> Checker {
        let r = urdf::parse(
            "<robot name=\"r\"><link name=\"b\"><collision><geometry>\
             <box size=\"0.2 0.2 0.2\"/></geometry></collision></link></robot>",
        )
        .unwrap();
        let shapes = link_shapes(&r, &MeshSource::default()).unwrap();
        let mut c = Checker::new(r, shapes, None);
        c.environment.push((
            HalfSpace::new(Vec3::Z).unwrap().into(),
            Pose3::from_translation(Vec3::new(0.0, 0.0, -0.1)),
        ));
        c.environment.push((
            Cuboid::new(Vec3::new(50.0, 0.1, 5.0)).unwrap().into(),
            Pose3::from_translation(Vec3::new(0.0, 40.0, 0.0)),
        ));
        c
    }

    /// The view is framed on the robot, not on the floor or the far wall:
    /// the box fills a good part of the picture, and the floor's patch
    /// stays near it.
    #[test]
    fn a_floor_and_a_far_wall_do_not_blow_up_the_frame() {
        let c = checker();
        let p = Painter::new(&c, &[vec![]], 320, 240).unwrap();
        let corners = Region {
            min: DVec3::splat(-0.1),
            max: DVec3::splat(0.1),
        }
        .corners()
        .map(|c| p.project(c));
        let lo = corners.iter().fold(Vec2::INFINITY, |a, b| a.min(*b));
        let hi = corners.iter().fold(Vec2::NEG_INFINITY, |a, b| a.max(*b));
        // The region is the box and a margin of a quarter of its size
        // (where the floor shows): the box spans more than half the height
        // between the caption bands.
        assert!(hi.y - lo.y > 0.5 * (240.0 - 68.0), "{lo} {hi}");
        assert!(
            lo.x >= 0.0 && hi.x <= 320.0 && lo.y >= 34.0 && hi.y <= 206.0,
            "{lo} {hi}"
        );
        let canvas = p.draw(&[], &Marks::default()).unwrap();
        // The links' bluish grey (shaded) against the floor's and the
        // objects' warmer tones.
        let robot = canvas
            .rgb()
            .chunks(3)
            .filter(|q| q[2] as i32 > q[0] as i32 + 4)
            .count();
        assert!(robot > 2000, "{robot} robot pixels");
    }
}
