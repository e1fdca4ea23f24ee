//! Warm starting GJK from the previous frame's simplex.

use crate::math::Vec3;

/// The last GJK simplex of a pair, kept as the search directions (in A's frame)
/// of its vertices. On the next query the support points along these directions
/// are re-evaluated at the new poses and form the starting simplex, so a pair
/// that moved a little converges in one or two iterations (the warm start of
/// Bullet's and Box2D's `b2SimplexCache`, which keep vertex indices; directions
/// work for any support map, round shapes included).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GjkCache {
    dirs: [Vec3; 4],
    len: u8,
    /// Number of GJK iterations the last query using this cache took.
    pub last_iterations: u32,
}

impl GjkCache {
    /// An empty cache (the first query starts cold).
    pub fn new() -> Self {
        Self::default()
    }

    /// The stored search directions.
    #[inline]
    pub fn directions(&self) -> &[Vec3] {
        &self.dirs[..self.len as usize]
    }

    /// Forgets the stored simplex.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Stores the search directions of a simplex (non-finite ones are dropped).
    pub fn store(&mut self, dirs: impl IntoIterator<Item = Vec3>) {
        self.len = 0;
        for d in dirs {
            if (self.len as usize) < 4 && d.is_finite() && d.length_squared() > 0.0 {
                self.dirs[self.len as usize] = d;
                self.len += 1;
            }
        }
    }
}
