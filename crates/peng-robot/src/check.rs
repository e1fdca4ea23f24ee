//! Collision and distance checks of one configuration: the robot against
//! itself (link pairs that are neither adjacent nor disabled by the SRDF)
//! and against environment objects, with padding per link.

use crate::bounds::{box_distance, link_bounds, Sphere};
use crate::error::RobotError;
use crate::model::Robot;
use crate::shapes::LinkShape;
use crate::srdf::Srdf;
use crate::transform::Transform;
use glam::DVec3;
use peng::d3::{distance, intersects, Aabb3, Obb3, Pose3, Shape, Vec3};
use std::cell::OnceCell;

/// What a pair of a link and something else is: another link or an
/// environment object (its index in [`Checker::environment`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Other {
    /// A link, by index in [`Robot::links`].
    Link(usize),
    /// An environment object, by index.
    Object(usize),
}

/// A contact or near pair of one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairReport {
    /// The link (the smaller index when both are links).
    pub link: usize,
    /// What it meets.
    pub other: Other,
    /// Signed distance between the padded shapes (negative: depth).
    pub distance: f32,
    /// The closest (or deepest) point on the link, root frame.
    pub point_link: Vec3,
    /// The closest (or deepest) point on the other, root frame.
    pub point_other: Vec3,
}

/// The bounding volumes of one configuration: per link its sphere's centre
/// and radius (world frame) and its oriented box (placed when first asked),
/// and each object's box.
struct Bounds<'a> {
    checker: &'a Checker,
    links: &'a [Transform],
    spheres: Vec<Option<(DVec3, f64)>>,
    boxes: Vec<OnceCell<Obb3>>,
    objects: Vec<Aabb3>,
}

impl Bounds<'_> {
    /// Link `l`'s oriented box in the world (it has bounds).
    fn obb(&self, l: usize) -> &Obb3 {
        self.boxes[l].get_or_init(|| {
            let (_, local) = self.checker.bounds[l].expect("a link with bounds");
            local.transformed(&self.links[l].to_pose())
        })
    }
}

/// Whether [`Checker::check`] stops at the first contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// At the first contact found (its report only).
    AtFirst,
    /// Never: every pair in contact.
    Never,
}

/// A robot with its link shapes, the pairs to check and its environment.
#[derive(Debug, Clone)]
pub struct Checker {
    /// The robot.
    pub robot: Robot,
    shapes: Vec<Vec<LinkShape>>,
    /// Padding per link (m), added to every shape of the link.
    padding: Vec<f32>,
    /// The link pairs checked against each other.
    self_pairs: Vec<(usize, usize)>,
    /// Environment objects: shapes at poses in the root frame.
    pub environment: Vec<(Shape, Pose3)>,
    /// Link and object pairs allowed to touch (see [`Checker::allow`]).
    allowed_objects: Vec<(usize, Other)>,
    /// Each link's bounding sphere and box in its frame (`None`: no shapes,
    /// or unbounded ones).
    bounds: Vec<Option<(Sphere, Obb3)>>,
}

impl Checker {
    /// A checker for `robot` with `shapes` (see
    /// [`link_shapes`](crate::link_shapes)): every pair of links with
    /// shapes, except adjacent ones and those the SRDF disables. Links are
    /// adjacent when one is the other's nearest ancestor with shapes (links
    /// without geometry in between are passed over, as MoveIt does).
    pub fn new(robot: Robot, shapes: Vec<Vec<LinkShape>>, srdf: Option<&Srdf>) -> Checker {
        let n = robot.links.len();
        let adjacent = Self::adjacent_pairs(&robot, &shapes);
        let mut self_pairs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if shapes[a].is_empty() || shapes[b].is_empty() || adjacent.contains(&(a, b)) {
                    continue;
                }
                if srdf.is_some_and(|s| s.is_disabled(a, b)) {
                    continue;
                }
                self_pairs.push((a, b));
            }
        }
        Checker {
            padding: vec![0.0; n],
            bounds: shapes.iter().map(|s| link_bounds(s)).collect(),
            allowed_objects: Vec::new(),
            robot,
            shapes,
            self_pairs,
            environment: Vec::new(),
        }
    }

    /// The adjacent pairs of links with shapes (smaller index first, sorted):
    /// one is the other's nearest ancestor with shapes.
    pub fn adjacent_pairs(robot: &Robot, shapes: &[Vec<LinkShape>]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for l in 0..robot.links.len() {
            if shapes[l].is_empty() {
                continue;
            }
            let mut up = l;
            while let Some(j) = robot.parent_joint(up) {
                up = robot.joints[j].parent;
                if !shapes[up].is_empty() {
                    out.push((l.min(up), l.max(up)));
                    break;
                }
            }
        }
        out.sort();
        out
    }

    /// For each of [`self_pairs`](Self::self_pairs), whether it collides at
    /// `q` (an invalid `q` collides nowhere).
    pub(crate) fn colliding_self_pairs(&self, q: &[f64]) -> Vec<bool> {
        let Ok(links) = self.robot.link_poses(q) else {
            return vec![false; self.self_pairs.len()];
        };
        let placed = self.place(&links);
        let at = self.bounds_at(&links, false);
        self.self_pairs
            .iter()
            .map(|&(a, b)| {
                !self.apart(&at, a, Other::Link(b)) && self.touching(&placed, a, Other::Link(b))
            })
            .collect()
    }

    /// Sets link `link`'s padding (m, finite and not negative).
    pub fn set_padding(&mut self, link: usize, padding: f64) -> Result<(), RobotError> {
        let name = self
            .robot
            .links
            .get(link)
            .map(|l| l.name.clone())
            .unwrap_or_default();
        if !(padding.is_finite() && padding >= 0.0) || link >= self.padding.len() {
            return Err(RobotError::new(
                format!("link \"{name}\""),
                format!("padding {padding} must be finite and not negative"),
            ));
        }
        self.padding[link] = padding as f32;
        Ok(())
    }

    /// The link pairs checked against each other.
    pub fn self_pairs(&self) -> &[(usize, usize)] {
        &self.self_pairs
    }

    /// The world pose of every shape of every link, the links at `links`.
    fn place(&self, links: &[Transform]) -> Vec<Vec<Pose3>> {
        self.place_some(links, &vec![true; links.len()])
    }

    /// [`place`](Self::place) for the links marked `needed` (others get no
    /// poses).
    fn place_some(&self, links: &[Transform], needed: &[bool]) -> Vec<Vec<Pose3>> {
        self.shapes
            .iter()
            .zip(links)
            .zip(needed)
            .map(|((shapes, lp), &n)| {
                if n {
                    shapes.iter().map(|s| lp.mul(&s.pose).to_pose()).collect()
                } else {
                    Vec::new()
                }
            })
            .collect()
    }

    /// Whether the bounding volumes prove `link` and `other` apart by more
    /// than their padding: the spheres first, then the oriented boxes.
    fn apart(&self, at: &Bounds, link: usize, other: Other) -> bool {
        let gap = self.gap_bound(at, link, other);
        if gap > 0.0 {
            return true;
        }
        if gap == f64::NEG_INFINITY {
            return false;
        }
        let pad_a = self.padding[link];
        let b = match other {
            Other::Link(b) => {
                let bb = at.obb(b);
                let pad = pad_a + self.padding[b];
                Obb3::new(bb.center, bb.axes, bb.half_extents + pad)
            }
            Other::Object(o) => {
                let b = &at.objects[o];
                if !(b.min.is_finite() && b.max.is_finite()) {
                    return false;
                }
                Obb3::new(b.center(), glam::Mat3::IDENTITY, b.half_extents() + pad_a)
            }
        };
        !at.obb(link).overlaps(&b)
    }

    /// The bounding volumes of every link (links at `links`) and, with
    /// `objects`, of every object.
    fn bounds_at<'a>(&'a self, links: &'a [Transform], objects: bool) -> Bounds<'a> {
        Bounds {
            checker: self,
            links,
            spheres: self
                .bounds
                .iter()
                .zip(links)
                .map(|(b, t)| b.map(|(s, _)| (t.transform_point(s.center), s.radius)))
                .collect(),
            boxes: (0..links.len()).map(|_| OnceCell::new()).collect(),
            objects: if objects {
                self.object_boxes()
            } else {
                Vec::new()
            },
        }
    }

    /// The gap between the bounding spheres of `link` and `other` (links at
    /// `links`; objects' boxes in `boxes`), less the padding: a lower bound
    /// on their distance (`-∞` without bounds).
    pub(crate) fn sphere_gap(
        &self,
        links: &[Transform],
        boxes: &[Aabb3],
        link: usize,
        other: Other,
    ) -> f64 {
        let sphere =
            |l: usize| self.bounds[l].map(|(s, _)| (links[l].transform_point(s.center), s.radius));
        self.gap_of(sphere, boxes, link, other)
    }

    /// The gap between `link`'s sphere (`sphere(l)`: a link's world centre
    /// and radius) and `other`'s sphere or box, less the padding (`-∞`
    /// without bounds).
    fn gap_of(
        &self,
        sphere: impl Fn(usize) -> Option<(DVec3, f64)>,
        boxes: &[Aabb3],
        link: usize,
        other: Other,
    ) -> f64 {
        let Some((ca, ra)) = sphere(link) else {
            return f64::NEG_INFINITY;
        };
        let pad_a = f64::from(self.padding[link]);
        match other {
            Other::Link(b) => sphere(b).map_or(f64::NEG_INFINITY, |(cb, rb)| {
                ca.distance(cb) - ra - rb - pad_a - f64::from(self.padding[b])
            }),
            Other::Object(o) => box_distance(&boxes[o], ca) - ra - pad_a,
        }
    }

    /// The shapes of `link` and `other` placed (links at `links`; other links
    /// get no poses).
    pub(crate) fn place_pair(
        &self,
        links: &[Transform],
        link: usize,
        other: Other,
    ) -> Vec<Vec<Pose3>> {
        let mut needed = vec![false; links.len()];
        needed[link] = true;
        if let Other::Link(b) = other {
            needed[b] = true;
        }
        self.place_some(links, &needed)
    }

    /// The environment objects' boxes.
    pub(crate) fn object_boxes(&self) -> Vec<Aabb3> {
        self.environment.iter().map(|(s, p)| s.aabb(p)).collect()
    }

    /// Every (link, other) pair to check, self pairs first, then each link
    /// with shapes against each object.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (usize, Other)> + '_ {
        let selfs = self.self_pairs.iter().map(|&(a, b)| (a, Other::Link(b)));
        let env = (0..self.shapes.len())
            .filter(|&l| !self.shapes[l].is_empty())
            .flat_map(move |l| (0..self.environment.len()).map(move |o| (l, Other::Object(o))))
            .filter(|&(l, o)| !self.allowed_objects.contains(&(l, o)));
        selfs.chain(env)
    }

    /// Allows `link` to touch `other` (an entry of the allowed-collision
    /// matrix, as MoveIt keeps one): the pair is no longer checked, e.g. a
    /// robot's base standing on a table. Errors on an unknown link or object.
    pub fn allow(&mut self, link: usize, other: Other) -> Result<(), RobotError> {
        let bad = |what: String| Err(RobotError::new(what, "does not exist"));
        if link >= self.shapes.len() {
            return bad(format!("link {link}"));
        }
        match other {
            Other::Link(b) if b >= self.shapes.len() => bad(format!("link {b}")),
            Other::Link(b) => {
                let pair = (link.min(b), link.max(b));
                self.self_pairs.retain(|&p| p != pair);
                Ok(())
            }
            Other::Object(o) if o >= self.environment.len() => bad(format!("object {o}")),
            Other::Object(_) => {
                if !self.allowed_objects.contains(&(link, other)) {
                    self.allowed_objects.push((link, other));
                }
                Ok(())
            }
        }
    }

    /// A link's shapes, in the link's frame (for drawing and reports).
    pub fn shapes_of(&self, link: usize) -> &[LinkShape] {
        &self.shapes[link]
    }

    /// The closest pair of shapes of `link` and `other`: its report.
    pub(crate) fn measure(
        &self,
        placed: &[Vec<Pose3>],
        link: usize,
        other: Other,
    ) -> Option<PairReport> {
        let pad_a = self.padding[link];
        let mut best: Option<PairReport> = None;
        // The least distance so far before padding (the padding is the same
        // for every shape pair of the two links).
        let mut least = f32::INFINITY;
        for (sa, pa) in self.shapes[link].iter().zip(&placed[link]) {
            // Once `sa` is measured apart from one of B's shapes, the plane
            // through its closest point, across the normal, has all of `sa`
            // behind it: a shape of B whose box lies beyond the least
            // distance from that plane cannot come nearer (a link against
            // a gripper finger's four boxes measures one or two of them).
            let mut plane: Option<(Vec3, f32)> = None;
            let mut one = |sb: &Shape, pb: &Pose3, pad_b: f32| {
                if let Some((n, offset)) = plane {
                    let b = sb.aabb(pb);
                    let gap = n.dot(b.center()) - n.abs().dot(b.half_extents()) - offset;
                    if gap >= least {
                        return;
                    }
                }
                let d = distance(&sa.shape, pa, sb, pb);
                if d.distance < least {
                    least = d.distance;
                    plane = (d.distance > 0.0).then(|| (d.normal, d.normal.dot(d.point_a)));
                }
                let r = PairReport {
                    link,
                    other,
                    distance: d.distance - pad_a - pad_b,
                    point_link: d.point_a + d.normal * pad_a,
                    point_other: d.point_b - d.normal * pad_b,
                };
                if best.is_none_or(|b| r.distance < b.distance) {
                    best = Some(r);
                }
            };
            match other {
                Other::Link(b) => {
                    for (sb, pb) in self.shapes[b].iter().zip(&placed[b]) {
                        one(&sb.shape, pb, self.padding[b]);
                    }
                }
                Other::Object(o) => {
                    let (s, p) = &self.environment[o];
                    one(s, p, 0.0);
                }
            }
        }
        best
    }

    /// Whether any shape pair of `link` and `other` touches (padding
    /// counted).
    fn touching(&self, placed: &[Vec<Pose3>], link: usize, other: Other) -> bool {
        let padded =
            self.padding[link] > 0.0 || matches!(other, Other::Link(b) if self.padding[b] > 0.0);
        if padded {
            return self
                .measure(placed, link, other)
                .is_some_and(|r| r.distance <= 0.0);
        }
        self.shapes[link]
            .iter()
            .zip(&placed[link])
            .any(|(sa, pa)| match other {
                Other::Link(b) => self.shapes[b]
                    .iter()
                    .zip(&placed[b])
                    .any(|(sb, pb)| intersects(&sa.shape, pa, &sb.shape, pb)),
                Other::Object(o) => intersects(
                    &sa.shape,
                    pa,
                    &self.environment[o].0,
                    &self.environment[o].1,
                ),
            })
    }

    /// The pairs in contact at configuration `q` (touching counts), each
    /// with its depth and points; with [`Stop::AtFirst`] at most one.
    pub fn check(&self, q: &[f64], stop: Stop) -> Result<Vec<PairReport>, RobotError> {
        let links = self.robot.link_poses(q)?;
        let at = self.bounds_at(&links, true);
        let near: Vec<(usize, Other)> = self
            .pairs()
            .filter(|&(link, other)| !self.apart(&at, link, other))
            .collect();
        // Only the links of the pairs left need their shapes placed.
        let mut needed = vec![false; links.len()];
        for &(link, other) in &near {
            needed[link] = true;
            if let Other::Link(b) = other {
                needed[b] = true;
            }
        }
        let placed = self.place_some(&links, &needed);
        let mut out = Vec::new();
        for (link, other) in near {
            if self.touching(&placed, link, other) {
                if let Some(r) = self.measure(&placed, link, other) {
                    out.push(r);
                    if stop == Stop::AtFirst {
                        break;
                    }
                }
            }
        }
        Ok(out)
    }

    /// The closest pair at configuration `q` (`None` when nothing is
    /// checked), and every pair closer than `cutoff`, closest first.
    ///
    /// Pairs are measured in the order of a lower bound on their distance
    /// (their bounding spheres' gap, or a sphere's gap to an object's box,
    /// less the padding), and the measuring stops once that bound reaches
    /// both the cut-off and the least distance found: the pairs left can be
    /// neither. (A finite cut-off thus skips most far pairs; an infinite one
    /// measures every pair.)
    pub fn distance(
        &self,
        q: &[f64],
        cutoff: f32,
    ) -> Result<(Option<PairReport>, Vec<PairReport>), RobotError> {
        let links = self.robot.link_poses(q)?;
        let at = self.bounds_at(&links, true);
        let mut order: Vec<(f64, usize, Other)> = self
            .pairs()
            .map(|(l, o)| (self.gap_bound(&at, l, o), l, o))
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
        let placed = self.place(&links);
        let mut all: Vec<PairReport> = Vec::new();
        let mut least = f64::INFINITY;
        for (bound, l, o) in order {
            if bound > least && bound >= f64::from(cutoff) {
                break;
            }
            if let Some(r) = self.measure(&placed, l, o) {
                least = least.min(f64::from(r.distance));
                all.push(r);
            }
        }
        all.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        let closest = all.first().copied();
        all.retain(|r| r.distance < cutoff);
        Ok((closest, all))
    }

    /// A lower bound on the padded distance of `link` and `other` from the
    /// bounding volumes (`-∞` without them): shapes inside spheres are no
    /// nearer than the spheres, and overlap by no more than they do.
    fn gap_bound(&self, at: &Bounds, link: usize, other: Other) -> f64 {
        self.gap_of(|l| at.spheres[l], &at.objects, link, other)
    }

    /// The pose of every link at `q` (for drawing and reports).
    pub fn link_poses(&self, q: &[f64]) -> Result<Vec<Transform>, RobotError> {
        self.robot.link_poses(q)
    }
}
