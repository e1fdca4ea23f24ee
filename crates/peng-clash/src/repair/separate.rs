//! Separating shells that meet along an edge, so that each can close.

use super::edges::sides;
use glam::Vec3;
use std::collections::HashMap;

/// A separated mesh: its vertices, triangles, and how many vertex copies
/// were made.
pub(super) type Separated = (Vec<Vec3>, Vec<[u32; 3]>, usize);

/// Where closed pieces of one body touch along an edge (a window's frame and
/// its sash, a door and its lining), that edge is met by four triangles and
/// the body reads as open. Shells are the sets of triangles joined through
/// edges met by exactly two; a vertex used by several shells is given a copy
/// per shell after the first (appended to the vertices), so that each
/// shell's edges are its own. Returns the separated mesh, `None` (and no
/// copy made) when no edge is met by three or more triangles.
pub(super) fn separate_shells(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Option<Separated> {
    let all = sides(triangles);
    let groups: Vec<&[super::edges::Side]> = all.chunk_by(|x, y| x.key == y.key).collect();
    if groups.iter().all(|g| g.len() <= 2) {
        return None;
    }
    let (mut vertices, mut triangles) = (vertices.to_vec(), triangles.to_vec());
    let mut parent: Vec<u32> = (0..triangles.len() as u32).collect();
    fn root(parent: &mut [u32], mut t: u32) -> u32 {
        while parent[t as usize] != t {
            let up = parent[parent[t as usize] as usize];
            parent[t as usize] = up;
            t = up;
        }
        t
    }
    for g in &groups {
        if let [s, u] = g {
            let (a, b) = (root(&mut parent, s.tri), root(&mut parent, u.tri));
            if a != b {
                parent[a.max(b) as usize] = a.min(b);
            }
        }
    }
    // The first shell (in triangle order) to use a vertex keeps it.
    let mut owner: HashMap<u32, u32> = HashMap::new();
    let mut copies: HashMap<(u32, u32), u32> = HashMap::new();
    for (t, tri) in triangles.iter_mut().enumerate() {
        let shell = root(&mut parent, t as u32);
        for i in tri.iter_mut() {
            let v = *i;
            let first = *owner.entry(v).or_insert(shell);
            if first != shell {
                *i = *copies.entry((v, shell)).or_insert_with(|| {
                    vertices.push(vertices[v as usize]);
                    vertices.len() as u32 - 1
                });
            }
        }
    }
    let made = copies.len();
    Some((vertices, triangles, made))
}
