//! Where two meshes meet, classified in one pass over their BVHs.
//!
//! The hard test needs three things from the triangle pairs that meet: the
//! pairs that cross through each other (they carry one surface into the
//! other, and feed the depth probes), whether faces lie on each other facing
//! the same way (the elements may then share volume with no surface crossing),
//! and whether the surfaces meet at all (a touch). Each candidate pair (boxes
//! overlapping) is classified by the signed distances of each triangle's
//! corners to the other's plane, in f64:
//! - corners of both on both sides, by more than `eps`: the triangles cross
//!   exactly when an edge of one passes through the other (the ends of their
//!   common segment lie on edges), tested with [`segment_crossing`];
//! - one triangle wholly on one side, by more than `eps`: they do not meet;
//! - all corners of one within `eps` of the other's plane: coplanar, touching
//!   where their boxes overlap (facing the same way or back to back);
//! - otherwise they may meet at a corner or an edge: a possible touch.

use super::frame::PairFrame;
use super::segment::segment_crossing;
use super::tri64::triangle_distance;
use glam::DVec3;
use peng::mesh::TrianglePair;

/// The meeting triangle pairs of two elements, classified.
#[derive(Debug, Default)]
pub(crate) struct Contacts {
    /// Pairs that cross through each other (`a` in A, `b` in B).
    pub proper: Vec<TrianglePair>,
    /// Some faces lie on each other facing the same way.
    pub cooriented: bool,
    /// Some triangles may meet without crossing (coplanar, or at a corner or
    /// an edge); confirm with an exact distance before reporting a touch.
    pub maybe_touching: bool,
}

/// Classifies every pair of triangles whose boxes overlap.
pub(crate) fn contacts(pair: &PairFrame, eps: f64) -> Contacts {
    let (ma, mb) = (pair.mesh_a(), pair.mesh_b());
    let off = pair.pose_b.translation;
    let mut out = Contacts::default();
    ma.bvh().overlapping_leaves(
        mb.bvh(),
        // Loosened, so that triangles within `eps` of each other, boxes
        // apart, are met too.
        |b| b.transformed(&pair.pose_b).loosened(eps as f32),
        |ra, rb| {
            for sb in rb {
                let ib = mb.bvh().primitive(sb);
                let tb = mb.triangle(ib).map(|v| (v + off).as_dvec3());
                for sa in ra.clone() {
                    let ia = ma.bvh().primitive(sa);
                    let ta = ma.triangle(ia).map(|v| v.as_dvec3());
                    if !boxes_overlap(&ta, &tb, eps) {
                        continue;
                    }
                    match classify(&ta, &tb, eps) {
                        Meeting::Apart => {}
                        Meeting::Crossing => out.proper.push(TrianglePair { a: ia, b: ib }),
                        Meeting::Coplanar { same_way } => {
                            out.maybe_touching = true;
                            out.cooriented |= same_way;
                        }
                        Meeting::Touching => out.maybe_touching = true,
                    }
                }
            }
        },
    );
    out.proper.sort_unstable();
    out
}

enum Meeting {
    Apart,
    Crossing,
    Coplanar { same_way: bool },
    Touching,
}

fn boxes_overlap(a: &[DVec3; 3], b: &[DVec3; 3], eps: f64) -> bool {
    let lo = |t: &[DVec3; 3]| t[0].min(t[1]).min(t[2]);
    let hi = |t: &[DVec3; 3]| t[0].max(t[1]).max(t[2]);
    (lo(a) - DVec3::splat(eps)).cmple(hi(b)).all() && (lo(b) - DVec3::splat(eps)).cmple(hi(a)).all()
}

/// Signed distances of `t`'s corners to the plane of `p`, and the plane's
/// unit normal; `None` for a degenerate `p`.
fn sides(t: &[DVec3; 3], p: &[DVec3; 3]) -> Option<([f64; 3], DVec3)> {
    let n = (p[1] - p[0]).cross(p[2] - p[0]).try_normalize()?;
    Some((t.map(|v| n.dot(v - p[0])), n))
}

fn classify(ta: &[DVec3; 3], tb: &[DVec3; 3], eps: f64) -> Meeting {
    let (Some((da, nb)), Some((db, na))) = (sides(ta, tb), sides(tb, ta)) else {
        // A zero-area triangle bounds nothing; its neighbours decide.
        return Meeting::Apart;
    };
    let above = |d: &[f64; 3]| d.iter().all(|&x| x > eps);
    let below = |d: &[f64; 3]| d.iter().all(|&x| x < -eps);
    if above(&da) || below(&da) || above(&db) || below(&db) {
        return Meeting::Apart;
    }
    let flat = |d: &[f64; 3]| d.iter().all(|&x| x.abs() <= eps);
    if flat(&da) || flat(&db) {
        return Meeting::Coplanar {
            same_way: na.dot(nb) > 0.0,
        };
    }
    let straddles = |d: &[f64; 3]| d.iter().any(|&x| x > eps) && d.iter().any(|&x| x < -eps);
    if straddles(&da) && straddles(&db) {
        let edge_through = |t: &[DVec3; 3], other: &[DVec3; 3]| {
            (0..3).any(|k| segment_crossing(t[k], t[(k + 1) % 3], *other).is_some())
        };
        if edge_through(ta, tb) || edge_through(tb, ta) {
            return Meeting::Crossing;
        }
        // Each across the other's plane, but beside it: they meet if they
        // come within `eps` (an edge against a face, 4 µm apart, is as much a
        // touch as coplanar faces that close).
        if triangle_distance(ta, tb) > eps {
            return Meeting::Apart;
        }
    }
    Meeting::Touching
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: [DVec3; 3] = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(2.0, 0.0, 0.0),
        DVec3::new(0.0, 2.0, 0.0),
    ];

    fn kind(m: Meeting) -> &'static str {
        match m {
            Meeting::Apart => "apart",
            Meeting::Crossing => "crossing",
            Meeting::Coplanar { same_way: true } => "coplanar same",
            Meeting::Coplanar { same_way: false } => "coplanar opposite",
            Meeting::Touching => "touching",
        }
    }

    #[test]
    fn classification_of_triangle_pairs() {
        let up = |z: f64| T.map(|v| v + DVec3::Z * z);
        // Through each other: a vertical triangle piercing T.
        let vertical = [
            DVec3::new(0.5, 0.5, -1.0),
            DVec3::new(0.5, 0.5, 1.0),
            DVec3::new(0.6, 0.4, 1.0),
        ];
        assert_eq!(kind(classify(&T, &vertical, 1e-9)), "crossing");
        // Straddling each other's planes but beside each other.
        let beside = vertical.map(|v| v + DVec3::new(3.0, 3.0, 0.0));
        assert_eq!(kind(classify(&T, &beside, 1e-9)), "apart");
        // Above, on, and on facing back.
        assert_eq!(kind(classify(&T, &up(0.1), 1e-9)), "apart");
        assert_eq!(kind(classify(&T, &up(0.0), 1e-9)), "coplanar same");
        let flipped = [T[0], T[2], T[1]];
        assert_eq!(kind(classify(&T, &flipped, 1e-9)), "coplanar opposite");
        // Within eps of the plane is coplanar.
        assert_eq!(kind(classify(&T, &up(1e-7), 1e-6)), "coplanar same");
        // A corner resting on T.
        let resting = [
            DVec3::new(0.5, 0.5, 0.0),
            DVec3::new(0.5, 0.5, 1.0),
            DVec3::new(0.8, 0.2, 1.0),
        ];
        assert_eq!(kind(classify(&T, &resting, 1e-9)), "touching");
        // Degenerate triangles meet nothing.
        let flat = [DVec3::ZERO, DVec3::X, DVec3::X * 2.0];
        assert_eq!(kind(classify(&T, &flat, 1e-9)), "apart");
    }
}
