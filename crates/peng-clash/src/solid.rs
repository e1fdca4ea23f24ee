//! Closed triangle meshes of simple solids, for tests, examples and
//! generated models: boxes and round or square bars between two points.

use glam::DVec3;

/// A closed triangle mesh in world coordinates (f64 metres), triangles
/// counter-clockwise seen from outside.
#[derive(Debug, Clone, PartialEq)]
pub struct Solid {
    /// The vertices.
    pub vertices: Vec<DVec3>,
    /// The triangles, as indices into `vertices`.
    pub triangles: Vec<[u32; 3]>,
}

impl Solid {
    /// The box between corners `min` and `max` (12 triangles).
    pub fn cuboid(min: DVec3, max: DVec3) -> Solid {
        let vertices: Vec<DVec3> = (0..8)
            .map(|i| {
                DVec3::new(
                    if i & 1 == 0 { min.x } else { max.x },
                    if i & 2 == 0 { min.y } else { max.y },
                    if i & 4 == 0 { min.z } else { max.z },
                )
            })
            .collect();
        // Each face as a quad of corner bits, walked in either order; the
        // orientation is fixed below.
        let quads = [
            [0, 2, 6, 4],
            [1, 3, 7, 5],
            [0, 1, 5, 4],
            [2, 3, 7, 6],
            [0, 1, 3, 2],
            [4, 5, 7, 6],
        ];
        let mut triangles = Vec::with_capacity(12);
        for q in quads {
            triangles.push([q[0], q[1], q[2]]);
            triangles.push([q[0], q[2], q[3]]);
        }
        let mut s = Solid {
            vertices,
            triangles,
        };
        s.orient_convex();
        s
    }

    /// A bar of `sides` flat sides (at least 3) and circumradius `radius`
    /// from `from` to `to`: a pipe or duct of polygonal section. Zero length
    /// or radius gives a flat (zero-volume) solid.
    pub fn bar(from: DVec3, to: DVec3, radius: f64, sides: u32) -> Solid {
        let sides = sides.max(3);
        let axis = (to - from).try_normalize().unwrap_or(DVec3::Z);
        let u = axis.any_orthonormal_vector();
        let w = axis.cross(u);
        let mut vertices = Vec::with_capacity(2 * sides as usize + 2);
        for end in [from, to] {
            for k in 0..sides {
                let a = std::f64::consts::TAU * f64::from(k) / f64::from(sides);
                vertices.push(end + (u * a.cos() + w * a.sin()) * radius);
            }
        }
        vertices.push(from);
        vertices.push(to);
        let (c0, c1) = (2 * sides, 2 * sides + 1);
        let mut triangles = Vec::new();
        for k in 0..sides {
            let k1 = (k + 1) % sides;
            triangles.push([k, k1, sides + k1]);
            triangles.push([k, sides + k1, sides + k]);
            triangles.push([c0, k1, k]);
            triangles.push([c1, sides + k, sides + k1]);
        }
        let mut s = Solid {
            vertices,
            triangles,
        };
        s.orient_convex();
        s
    }

    /// Turns each triangle to face away from the centroid: right for convex
    /// solids, which all of these are.
    fn orient_convex(&mut self) {
        let c = self.vertices.iter().copied().sum::<DVec3>() / self.vertices.len() as f64;
        for t in &mut self.triangles {
            let [a, b, d] = t.map(|i| self.vertices[i as usize]);
            if (b - a).cross(d - a).dot(a - c) < 0.0 {
                t.swap(1, 2);
            }
        }
    }

    /// The enclosed volume (divergence theorem over the triangles).
    pub fn volume(&self) -> f64 {
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| self.vertices[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuboid_volume_and_orientation() {
        let s = Solid::cuboid(DVec3::new(1.0, 2.0, 3.0), DVec3::new(3.0, 3.0, 7.0));
        assert!((s.volume() - 8.0).abs() < 1e-12);
    }

    #[test]
    fn bar_volume_is_the_prism_volume() {
        // A regular n-gon of circumradius r has area n r² sin(2π/n) / 2.
        let (r, n, len) = (0.1, 12u32, 3.0);
        let s = Solid::bar(
            DVec3::new(5.0, 1.0, 0.0),
            DVec3::new(5.0, 1.0, 0.0) + DVec3::new(1.0, 2.0, 2.0),
            r,
            n,
        );
        let area = f64::from(n) * r * r * (std::f64::consts::TAU / f64::from(n)).sin() / 2.0;
        assert!((s.volume() - area * len).abs() < 1e-12, "{}", s.volume());
    }
}
