//! Pair queries on two core polygons with radii, both in the same frame (A's).
//!
//! One analysis serves overlap tests, distances and manifolds:
//! - When neither core has area (points and segments: circles, capsules,
//!   segments), the closest points come in closed form (Ericson 5.1.9).
//! - Otherwise the separating-axis test over both cores' edge normals decides:
//!   a positive separation means the cores are apart and GJK gives the exact
//!   distance and closest features; a non-positive one is the exact penetration
//!   depth of the cores and its face is the reference face for clipping.
//!
//! The radii are added at the end: the signed distance of the rounded shapes is
//! the core signed distance minus `radius_a + radius_b` (see [`super::poly`]).

use super::clip::{clip, ClipPoint, Clipped};
use super::gjk::{gjk, GjkCache2};
use super::poly::Poly;
use super::sat::max_separation;
use super::segment::closest_params_segments;
use crate::math::tolerance::REL_EPS;
use crate::math::Vec2;
use crate::query::types::{ContactId, Feature, FeatureKind};

/// Largest `|sin|` between the closest-point direction and a face normal for
/// which a separated pair is treated as a face contact (two clipped points).
/// The reported normal then differs from the exact one by at most this angle.
const FACE_ALIGN_SIN: f32 = 1.0e-4;

/// Relative margin within which A's face wins a tie with B's.
pub(crate) const TIE_REL: f32 = 2.0e-7;

/// What the analysis of a pair of cores found.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Analysis {
    /// Cores apart (or touching at a point): closest points and their features.
    Closest {
        /// Core distance, `>= 0`.
        dist: f32,
        /// Closest point on A's core.
        pa: Vec2,
        /// Closest point on B's core.
        pb: Vec2,
        /// Unit direction from A to B.
        normal: Vec2,
        /// Feature of A.
        fa: Feature,
        /// Feature of B.
        fb: Feature,
    },
    /// Cores overlapping (or touching along a face): the least-penetration face.
    Faces {
        /// Core separation along the reference normal (`<= 0` but for rounding).
        sep: f32,
        /// Unit normal from A to B.
        normal: Vec2,
        /// Whether the reference face is A's.
        ref_is_a: bool,
        /// Clipped incident points.
        clipped: Clipped,
    },
}

fn segment_feature(p: &Poly, t: f32) -> Feature {
    if p.count() == 1 || t <= 0.0 {
        Feature::vertex(0)
    } else if t >= 1.0 {
        Feature::vertex(1)
    } else {
        Feature::edge(0)
    }
}

/// Endpoints of a point-or-segment core.
fn ends(p: &Poly) -> (Vec2, Vec2) {
    let v = p.verts();
    (v[0], v[v.len() - 1])
}

/// The face route: reference face by least penetration, then clipping.
fn faces(a: &Poly, b: &Poly, sa: Option<(f32, usize)>, sb: Option<(f32, usize)>) -> Analysis {
    // Prefer A's face only within rounding: a wider margin would report a
    // non-minimal depth and a normal off the true MTD.
    // (The scale is only needed when B's face is ahead at all.)
    let use_b = match (sa, sb) {
        (Some((x, _)), Some((y, _))) => y > x && y > x + TIE_REL * a.scale().max(b.scale()),
        (None, Some(_)) => true,
        _ => false,
    };
    let (sep, face, rf, inc) = if use_b {
        let (s, f) = sb.unwrap_or((0.0, 0));
        (s, f, b, a)
    } else {
        let (s, f) = sa.unwrap_or((0.0, 0));
        (s, f, a, b)
    };
    let n = rf.normals()[face];
    Analysis::Faces {
        sep,
        normal: if use_b { -n } else { n },
        ref_is_a: !use_b,
        clipped: clip(rf, face, inc),
    }
}

/// Analyses the pair of cores. `cache` warm-starts GJK when it runs.
pub(crate) fn analyze(a: &Poly, b: &Poly, cache: Option<&mut GjkCache2>) -> Analysis {
    match analyze_within(a, b, cache, f32::INFINITY) {
        Some(an) => an,
        // Unreachable: nothing exceeds an infinite cutoff.
        None => Analysis::Closest {
            dist: f32::INFINITY,
            pa: Vec2::ZERO,
            pb: Vec2::ZERO,
            normal: Vec2::X,
            fa: Feature::NONE,
            fb: Feature::NONE,
        },
    }
}

/// [`analyze`], or `None` as soon as a separating axis proves that the signed
/// distance of the rounded shapes, `core distance - radius_a - radius_b`,
/// exceeds `cutoff` (the core distance is at least any axis's separation, so
/// the pair would be rejected anyway; GJK and the second axis set are skipped).
pub(crate) fn analyze_within(
    a: &Poly,
    b: &Poly,
    mut cache: Option<&mut GjkCache2>,
    cutoff: f32,
) -> Option<Analysis> {
    let beyond = |s: Option<(f32, usize)>| s.is_some_and(|(x, _)| x - a.radius - b.radius > cutoff);
    if let Some(c) = cache.as_deref_mut() {
        c.set_iterations(0);
    }
    if !a.has_area() && !b.has_area() {
        let (p1, q1) = ends(a);
        let (p2, q2) = ends(b);
        let (s, t) = closest_params_segments(p1, q1, p2, q2);
        let pa = p1 + (q1 - p1) * s;
        let pb = p2 + (q2 - p2) * t;
        let delta = pb - pa;
        let dist = delta.length();
        let sa = max_separation(a, b);
        let sb = max_separation(b, a);
        // Two segments whose ends straddle each other's lines cross: rounding in
        // the closest points would report a tiny distance with a meaningless
        // direction, so the orientation test decides (Ericson 5.1.9.1).
        let crossing = a.count() == 2 && b.count() == 2 && {
            let o1 = (q1 - p1).perp_dot(p2 - p1);
            let o2 = (q1 - p1).perp_dot(q2 - p1);
            let o3 = (q2 - p2).perp_dot(p1 - p2);
            let o4 = (q2 - p2).perp_dot(q1 - p2);
            let collinear = o1 == 0.0 && o2 == 0.0;
            !collinear && o1 * o2 <= 0.0 && o3 * o4 <= 0.0
        };
        if (!crossing && dist > 0.0) || (sa.is_none() && sb.is_none()) {
            let (fa, fb) = (segment_feature(a, s), segment_feature(b, t));
            // When a closest point is inside a segment, the direction is that
            // segment's normal, exactly.
            let mut normal = if dist > 0.0 { delta / dist } else { Vec2::X };
            if dist > 0.0 {
                if fa == Feature::edge(0) {
                    let n = a.normals()[0];
                    normal = if n.dot(delta) >= 0.0 { n } else { -n };
                } else if fb == Feature::edge(0) {
                    let n = b.normals()[0];
                    normal = if n.dot(delta) >= 0.0 { n } else { -n };
                }
            } else if a.count() == 2 {
                normal = a.normals()[0];
            } else if b.count() == 2 {
                normal = -b.normals()[0];
            }
            return Some(Analysis::Closest {
                dist,
                pa,
                pb,
                normal,
                fa,
                fb,
            });
        }
        return Some(faces(a, b, sa, sb));
    }
    let sa = max_separation(a, b);
    if beyond(sa) {
        return None;
    }
    let sb = max_separation(b, a);
    if beyond(sb) {
        return None;
    }
    let s = sa
        .map(|x| x.0)
        .unwrap_or(f32::NEG_INFINITY)
        .max(sb.map(|x| x.0).unwrap_or(f32::NEG_INFINITY));
    if s > 0.0 {
        let g = gjk(a, b, cache);
        if !g.overlap && g.distance > 0.0 && separates(a, b, g.normal, g.distance) {
            return Some(Analysis::Closest {
                dist: g.distance.max(s),
                pa: g.pa,
                pb: g.pb,
                normal: g.normal,
                fa: g.feat_a,
                fb: g.feat_b,
            });
        }
    }
    Some(faces(a, b, sa, sb))
}

/// Whether GJK's `normal` (A to B) for cores `dist` apart holds up: the
/// cores' supports along it leave them no more than rounding into each
/// other. Far apart it does by construction; within rounding of a touch the
/// direction between the two nearly equal closest points is noise (soak
/// finding: a capsule's core end on a rectangle's face, 1.2e-7 apart, got
/// the reversed normal), and the caller then takes the separating axis.
#[inline]
fn separates(a: &Poly, b: &Poly, normal: Vec2, dist: f32) -> bool {
    let scale = a.scale().max(b.scale());
    if dist > 1e-3 * scale {
        return true;
    }
    let top_a = normal.dot(a.verts()[a.support(normal)]);
    let low_b = normal.dot(b.verts()[b.support(-normal)]);
    low_b - top_a >= -4.0 * f32::EPSILON * scale
}

/// Core signed distance of an analysis.
#[inline]
pub(crate) fn core_signed_distance(an: &Analysis) -> f32 {
    match *an {
        Analysis::Closest { dist, .. } => dist,
        Analysis::Faces { sep, .. } => sep,
    }
}

/// Whether the rounded shapes overlap (touching counts).
pub(crate) fn intersects(a: &Poly, b: &Poly) -> bool {
    let r = a.radius + b.radius;
    if a.has_area() || b.has_area() {
        // Cheap early outs before the full analysis.
        let sa = max_separation(a, b)
            .map(|x| x.0)
            .unwrap_or(f32::NEG_INFINITY);
        if sa > r {
            return false;
        }
        let sb = max_separation(b, a)
            .map(|x| x.0)
            .unwrap_or(f32::NEG_INFINITY);
        let s = sa.max(sb);
        if s > r {
            return false;
        }
        if s <= 0.0 {
            return true;
        }
        let g = gjk(a, b, None);
        return g.overlap || g.distance.max(s) <= r;
    }
    core_signed_distance(&analyze(a, b, None)) <= r
}

/// Signed distance of the rounded shapes with the deepest/closest points, all in
/// the shared frame: `(distance, point_a, point_b, normal)`.
pub(crate) fn signed_distance(a: &Poly, b: &Poly, an: &Analysis) -> (f32, Vec2, Vec2, Vec2) {
    let (ra, rb) = (a.radius, b.radius);
    match *an {
        Analysis::Closest {
            dist,
            pa,
            pb,
            normal,
            ..
        } => (dist - ra - rb, pa + normal * ra, pb - normal * rb, normal),
        Analysis::Faces {
            sep,
            normal,
            ref_is_a,
            clipped,
        } => {
            let (rf, inc) = if ref_is_a { (a, b) } else { (b, a) };
            let deepest = clipped.points[..clipped.len]
                .iter()
                .min_by(|x, y| x.sep.total_cmp(&y.sep))
                .copied()
                .unwrap_or_default();
            let sp = surface_point(rf, inc, &clipped, &deepest);
            let (pa, pb) = if ref_is_a {
                (sp.on_ref, sp.on_inc)
            } else {
                (sp.on_inc, sp.on_ref)
            };
            (sep - ra - rb, pa, pb, normal)
        }
    }
}

/// A contact point of a face contact on both rounded surfaces.
struct SurfacePoint {
    on_ref: Vec2,
    on_inc: Vec2,
    depth: f32,
}

/// The surface points of a clipped core point.
///
/// At the clip point's coordinate along the reference face, the incident surface
/// point is the lowest point (most against the reference normal) of the rounded
/// incident shape. At the support vertex that is the vertex pushed along the
/// normal by the radius; elsewhere a ray cast along the normal finds it (the
/// rounded surface there may be an offset edge or a vertex arc). The reference
/// surface point is straight across on the offset reference face, so both points
/// lie on their surfaces and `on_inc - on_ref = -depth · n_ref`.
fn surface_point(rf: &Poly, inc: &Poly, cl: &Clipped, c: &ClipPoint) -> SurfacePoint {
    let n = rf.normals()[cl.face];
    let r1 = rf.verts()[cl.face];
    let (rr, ri) = (rf.radius, inc.radius);
    let mut x = c.p - n * ri;
    if ri > 0.0 {
        let lo = inc
            .verts()
            .iter()
            .fold(f32::INFINITY, |m, v| m.min(n.dot(*v)));
        let above = n.dot(c.p) - lo;
        let tol = 1e-6 * inc.scale().max(rf.scale());
        if above > tol {
            let o = c.p - n * (ri + above + 1.0);
            if let Some((_, hit, _)) = super::ray::pieces(inc, o, n, false, None) {
                x = hit;
            }
        }
    }
    let s = n.dot(x - r1);
    SurfacePoint {
        on_ref: x - n * s + n * rr,
        on_inc: x,
        depth: rr - s,
    }
}

/// A contact point in the shared frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LocalPoint {
    pub pa: Vec2,
    pub pb: Vec2,
    pub depth: f32,
    pub id: ContactId,
}

/// A manifold in the shared frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LocalManifold {
    pub normal: Vec2,
    pub points: [LocalPoint; 2],
    pub len: usize,
}

impl LocalManifold {
    fn new(normal: Vec2) -> Self {
        LocalManifold {
            normal,
            points: [LocalPoint {
                pa: Vec2::ZERO,
                pb: Vec2::ZERO,
                depth: 0.0,
                id: ContactId::default(),
            }; 2],
            len: 0,
        }
    }
}

/// The manifold of a face contact; `normal` is from A to B.
fn from_faces(
    a: &Poly,
    b: &Poly,
    normal: Vec2,
    ref_is_a: bool,
    cl: &Clipped,
    prediction: f32,
) -> LocalManifold {
    let (rf, inc) = if ref_is_a { (a, b) } else { (b, a) };
    let mut m = LocalManifold::new(normal);
    for c in &cl.points[..cl.len] {
        let sp = surface_point(rf, inc, cl, c);
        if sp.depth < -prediction {
            continue;
        }
        let (pa, pb, id) = if ref_is_a {
            (sp.on_ref, sp.on_inc, ContactId::new(c.feat_ref, c.feat_inc))
        } else {
            (sp.on_inc, sp.on_ref, ContactId::new(c.feat_inc, c.feat_ref))
        };
        m.points[m.len] = LocalPoint {
            pa,
            pb,
            depth: sp.depth,
            id,
        };
        m.len += 1;
    }
    // Two clipped points can coincide (an incident edge seen end-on): keep one.
    if m.len == 2 && (m.points[0].pb - m.points[1].pb).length_squared() == 0.0 {
        if m.points[1].depth > m.points[0].depth {
            m.points[0] = m.points[1];
        }
        m.len = 1;
    }
    m
}

/// The face contact of `a`'s face `face` (the reference) against `b`: `b`'s
/// incident feature clipped to the face's side planes, each point's depth
/// measured along the face normal (Catto, "Contact Manifolds", GDC 2007).
/// Points deeper below `-prediction` are dropped; `None` when none is left.
/// Used by the polyline queries to replace a contact whose normal the
/// polyline does not have there by the contact of the segment's face.
pub(crate) fn face_manifold(
    a: &Poly,
    face: usize,
    b: &Poly,
    prediction: f32,
) -> Option<LocalManifold> {
    let cl = clip(a, face, b);
    let m = from_faces(a, b, a.normals()[face], true, &cl, prediction);
    (m.len > 0).then_some(m)
}

/// How well a face normal `n` faces `dir`: `(n·dir, |n×dir|)`. Near
/// alignment the sine tells faces apart where the cosine cannot (a face
/// 6.4e-5 rad off has a cosine within 2e-9 of 1, below f32 rounding; soak
/// finding: a capsule's core then took the place of the rectangle face its
/// closest point lies on).
#[derive(Debug, Clone, Copy)]
struct Facing {
    dot: f32,
    sin: f32,
    face: usize,
}

impl Facing {
    fn of(n: &[Vec2], face: usize, dir: Vec2) -> Self {
        Facing {
            dot: n[face].dot(dir),
            sin: n[face].perp_dot(dir).abs(),
            face,
        }
    }

    /// Whether `self` faces the direction better than `o`: a face turned
    /// towards it beats one turned away; among faces turned towards it the
    /// smaller angle wins, and among faces turned away the larger cosine.
    fn beats(self, o: Facing) -> bool {
        match (self.dot > 0.0, o.dot > 0.0) {
            (true, false) => true,
            (false, true) => false,
            (true, true) => self.sin < o.sin,
            (false, false) => self.dot > o.dot,
        }
    }
}

/// The face of `p` holding its closest feature `f` that best faces `dir`
/// (see [`Facing::beats`]): an edge's own face, either face beside a vertex
/// (all of a segment's faces and, for an unknown feature, all faces).
///
/// Faces away from the closest point can face `dir` as well, to rounding,
/// when the polygon has nearly collinear edges (3e-5 rad apart in one case
/// found by the differential tests); clipped against such a face the incident
/// core loses the closest point, and the manifold its deepest point.
fn facing_face(p: &Poly, f: Feature, dir: Vec2) -> Facing {
    let n = p.normals();
    let i = (f.0 & 0x3fff) as usize;
    let kind = f.0 >> 14;
    let (lo, hi) = if p.count() == 2 || i >= p.count() {
        (0, p.count())
    } else if kind == FeatureKind::Edge as u16 {
        (i, i + 1)
    } else if kind == FeatureKind::Vertex as u16 {
        // Faces `i - 1` and `i` meet at vertex `i`.
        let prev = if i == 0 { p.count() - 1 } else { i - 1 };
        let (fp, fi) = (Facing::of(n, prev, dir), Facing::of(n, i, dir));
        return if fp.beats(fi) { fp } else { fi };
    } else {
        (0, p.count())
    };
    (lo + 1..hi).fold(Facing::of(n, lo, dir), |best, k| {
        let c = Facing::of(n, k, dir);
        if c.beats(best) {
            c
        } else {
            best
        }
    })
}

/// A face contact for cores apart whose closest direction `normal` a face
/// holding a closest feature (`feats`, A's and B's) nearly faces (two points
/// for parallel edges, as Box2D does), when its deepest point reaches `depth`,
/// the pair's depth, to rounding. The reference face is the one facing
/// `normal` better; depths are measured along its normal.
fn aligned_face_contact(
    a: &Poly,
    b: &Poly,
    normal: Vec2,
    (fa, fb): (Feature, Feature),
    depth: f32,
    prediction: f32,
) -> Option<LocalManifold> {
    let fa = facing_face(a, fa, normal);
    let fb = facing_face(b, fb, -normal);
    let (dot, face, ref_is_a) = if fb.beats(fa) {
        (fb.dot, fb.face, false)
    } else {
        (fa.dot, fa.face, true)
    };
    let n_face = if ref_is_a {
        a.normals()[face]
    } else {
        -b.normals()[face]
    };
    if dot <= 0.0 || n_face.perp_dot(normal).abs() > FACE_ALIGN_SIN {
        return None;
    }
    let (rf, inc) = if ref_is_a { (a, b) } else { (b, a) };
    let cl = clip(rf, face, inc);
    let m = from_faces(a, b, n_face, ref_is_a, &cl, prediction);
    // Along a face normal up to FACE_ALIGN_SIN off the closest direction the
    // clipped core can miss the closest point by `dist·FACE_ALIGN_SIN`: keep
    // the face contact only when its deepest point is the pair's depth.
    let deepest = m.points[..m.len]
        .iter()
        .fold(f32::NEG_INFINITY, |x, p| x.max(p.depth));
    let tol = 4.0 * REL_EPS * a.scale().max(b.scale()).max(1.0);
    (m.len > 0 && deepest >= depth - tol).then_some(m)
}

/// The contact manifold of two rounded cores in the shared frame, when their
/// signed distance is at most `prediction`.
pub(crate) fn manifold(a: &Poly, b: &Poly, prediction: f32) -> Option<LocalManifold> {
    let (ra, rb) = (a.radius, b.radius);
    let an = analyze_within(a, b, None, prediction)?;
    let sd = core_signed_distance(&an) - ra - rb;
    if sd > prediction {
        return None;
    }
    if let Analysis::Faces {
        normal,
        ref_is_a,
        clipped,
        ..
    } = an
    {
        let m = from_faces(a, b, normal, ref_is_a, &clipped, prediction);
        if m.len > 0 {
            return Some(m);
        }
    }
    if let Analysis::Closest {
        dist,
        normal,
        fa,
        fb,
        ..
    } = an
    {
        if dist > 0.0 && a.count() >= 2 && b.count() >= 2 {
            if let Some(m) = aligned_face_contact(a, b, normal, (fa, fb), -sd, prediction) {
                return Some(m);
            }
        }
    }
    // One point: the closest (or deepest) pair.
    let (d, pa, pb, normal) = signed_distance(a, b, &an);
    let id = match an {
        Analysis::Closest { fa, fb, .. } => ContactId::new(fa, fb),
        Analysis::Faces {
            ref_is_a, clipped, ..
        } => {
            let c = clipped.points[0];
            if ref_is_a {
                ContactId::new(c.feat_ref, c.feat_inc)
            } else {
                ContactId::new(c.feat_inc, c.feat_ref)
            }
        }
    };
    let mut m = LocalManifold::new(normal);
    m.points[0] = LocalPoint {
        pa,
        pb,
        depth: -d,
        id,
    };
    m.len = 1;
    Some(m)
}
