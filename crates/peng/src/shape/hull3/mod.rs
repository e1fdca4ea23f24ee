//! Convex hull of a 3D point set.
//!
//! Two stages:
//! 1. `quickhull`: Quickhull (Barber, Dobkin, Huhdanpaa, "The Quickhull
//!    Algorithm for Convex Hulls", ACM TOMS 1996) builds a triangulated hull, with
//!    the robustness measures of Gregorius ("Implementing Quickhull", GDC 2014):
//!    fat planes (a point within `eps` of a face is on it, not outside), an
//!    initial simplex from extreme points, and a scale-relative `eps`.
//! 2. `merge`: adjacent triangles whose vertices lie within tolerance of one
//!    plane are merged into one convex polygon, and vertices left on only two faces
//!    (collinear along a merged boundary) are dropped.
//!
//! All arithmetic is in f64 on the (exactly representable) f32 input, so the only
//! tolerance that matters is the one chosen for the f32 input's own precision.

mod merge;
mod quickhull;

use crate::math::policy::GeometryError;
use crate::math::tolerance::REL_EPS;
use crate::math::Vec3;
use glam::DVec3;

const WHAT: &str = "convex hull";

/// How far, in units of the hull tolerance, a hull vertex or input point may
/// be in front of a face plane before the hull is rejected as inconsistent
/// (only for point sets barely thicker than the tolerance). Below the 8 units that
/// [`ConvexPolyhedron::from_faces`](crate::shape::d3::ConvexPolyhedron::from_faces)
/// accepts, leaving room for its f32 planes.
const CONVEX_EPS: f64 = 6.0;

/// Most hull rebuilds after dropping points on weak corners (see
/// [`convex_hull`]); one is the common case.
const MAX_ROUNDS: usize = 8;

/// The convex hull of `points`: its vertices (only those used, in input order)
/// and its faces as vertex loops, counter-clockwise seen from outside, with
/// coplanar faces merged into one convex polygon per plane.
///
/// Points closer than a scale-relative tolerance to a face plane count as on it
/// (see [`crate::math::policy`] rule 4), so duplicates, points on edges and points
/// on faces are not hull vertices.
///
/// # Errors
/// - [`GeometryError::NonFinite`] if a coordinate is NaN or infinite,
///   [`GeometryError::TooLarge`] if one exceeds
///   [`MAX_MAGNITUDE`](crate::math::policy::MAX_MAGNITUDE);
/// - [`GeometryError::TooFew`] for fewer than 4 points;
/// - [`GeometryError::Degenerate`] if the points are coincident, collinear or
///   coplanar within tolerance, or so thin (a few tolerances) that the result
///   would not be convex within tolerance: every returned hull has each vertex
///   and each input point behind each face plane within a few tolerances
///   (checked in full up to 2^22 point-face pairs, then vertex-face pairs, then
///   at each edge).
pub fn convex_hull(points: &[Vec3]) -> Result<(Vec<Vec3>, Vec<Vec<u32>>), GeometryError> {
    crate::math::policy::check_points("convex hull input point", points)?;
    if points.len() < 4 {
        return Err(GeometryError::TooFew {
            what: WHAT,
            needed: 4,
            got: points.len(),
        });
    }
    let pts: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
    let eps = hull_eps(&pts);
    let tol = 2.0 * eps;

    // A merged face may come out with a corner that is reflex or straight within
    // tolerance: a vertex within `tol` of a face plane and of the line through its
    // loop neighbours, i.e. a point on that face in all but rounding. Such points
    // are dropped (with every point within `eps` of them) and the hull rebuilt;
    // they stay within tolerance of the new hull. Rare, so rebuilding is cheap.
    let mut keep: Vec<u32> = (0..pts.len() as u32).collect();
    let mut round = 0;
    let loops = loop {
        if keep.len() < 4 {
            return Err(GeometryError::Degenerate {
                what: WHAT,
                why: "all points are coplanar",
            });
        }
        let sub: Vec<DVec3> = keep.iter().map(|&i| pts[i as usize]).collect();
        let tris = quickhull::build(&sub, eps)?;
        let loops = merge::merge_coplanar(&sub, &tris, tol)?;
        let weak = merge::weak_corners(&sub, &loops, tol);
        round += 1;
        if weak.is_empty() || round >= MAX_ROUNDS {
            break loops
                .into_iter()
                .map(|lp| {
                    lp.into_iter()
                        .map(|v| keep[v as usize])
                        .collect::<Vec<u32>>()
                })
                .collect::<Vec<_>>();
        }
        let weak: Vec<DVec3> = weak.iter().map(|&v| sub[v as usize]).collect();
        keep.retain(|&i| weak.iter().all(|w| w.distance(pts[i as usize]) > eps));
    };

    merge::check_convex(&pts, &loops, CONVEX_EPS * eps)?;

    // Keep only the vertices used, in input order, and renumber the loops.
    let mut remap = vec![u32::MAX; points.len()];
    for lp in &loops {
        for &v in lp {
            remap[v as usize] = 0;
        }
    }
    let mut vertices = Vec::new();
    for (i, r) in remap.iter_mut().enumerate() {
        if *r == 0 {
            *r = vertices.len() as u32;
            vertices.push(points[i]);
        }
    }
    let faces = loops
        .into_iter()
        .map(|lp| lp.into_iter().map(|v| remap[v as usize]).collect())
        .collect();
    Ok((vertices, faces))
}

/// The distance tolerance of the hull: `REL_EPS` times the sum over the axes of
/// the largest absolute coordinate. Gregorius (GDC 2014) uses the same scale with
/// `3 * FLT_EPSILON`; the coordinate magnitudes (not the extent) set the rounding
/// error of f32 input, so shapes far from the origin get a larger tolerance.
fn hull_eps(pts: &[DVec3]) -> f64 {
    let m = pts.iter().fold(DVec3::ZERO, |m, p| m.max(p.abs()));
    REL_EPS as f64 * (m.x + m.y + m.z)
}

/// A triangle of the hull under construction: vertices counter-clockwise seen
/// from outside, `adj[k]` the triangle across edge `v[k] → v[(k + 1) % 3]`.
#[derive(Debug, Clone)]
pub(crate) struct Tri {
    /// Input point indices.
    pub v: [u32; 3],
    /// Neighbouring triangles across each edge.
    pub adj: [u32; 3],
    /// Outward unit normal.
    pub n: DVec3,
    /// Plane offset: `n · x = d` on the plane.
    pub d: f64,
    /// How far behind the plane a point may be and still count as coplanar
    /// when deciding visibility (beyond `eps`; large for thin triangles).
    pub slack: f64,
}

impl Tri {
    #[inline]
    pub(crate) fn dist(&self, p: DVec3) -> f64 {
        self.n.dot(p) - self.d
    }
}
