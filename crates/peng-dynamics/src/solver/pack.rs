//! Placing contacts into lanes ([`Packer`]) and the lanes' data that the
//! solver passes do not touch ([`Cold`]), shared by [`super::wide2`] and
//! [`super::wide3`].

use super::contact::ContactC;
use super::lanes::{F8, LANES};
use crate::dim::DynDim;

/// A lane with no body or contact.
pub(crate) const NONE: u32 = u32::MAX;

/// Open blocks [`Packer`] fills at once.
const WINDOW: usize = 8;

/// Places contacts, taken in order, into blocks of lanes: each contact goes
/// to the oldest open block whose lanes hold neither of its dynamic bodies;
/// a block closes when full, or, partly filled, when all [`WINDOW`] blocks
/// are open and none takes the next contact.
///
/// A block's lanes are independent, and blocks are solved one after
/// another (Gauss-Seidel), so no colouring of the whole contact graph is
/// needed; and the lanes stay close to the contacts' own order. (A greedy
/// colouring, Box2D v3's, was tried first: walking the contacts colour by
/// colour scattered the reads of their data over memory.)
#[derive(Debug, Default, Clone)]
pub(crate) struct Packer {
    /// Open blocks: index, a filter of their bodies (bit `body % 64`),
    /// the dynamic bodies of their lanes (`NONE` where there is none),
    /// lanes used.
    open: Vec<(usize, u64, [u32; 2 * LANES], usize)>,
}

impl Packer {
    /// Closes every block.
    pub fn clear(&mut self) {
        self.open.clear();
    }

    /// The block and lane for a contact between the dynamic bodies `a` and
    /// `b` (`None`: a body that takes no impulse); `open_block` adds an
    /// empty block and returns its index.
    pub fn place(
        &mut self,
        a: Option<u32>,
        b: Option<u32>,
        open_block: impl FnOnce() -> usize,
    ) -> (usize, usize) {
        let bit = |x: Option<u32>| x.map_or(0, |x| 1u64 << (x % 64));
        let wanted = bit(a) | bit(b);
        // The filter rules most blocks in without looking at their bodies.
        let clash = |filter: u64, bodies: &[u32; 2 * LANES]| {
            filter & wanted != 0
                && bodies
                    .iter()
                    .any(|&x| x != NONE && (Some(x) == a || Some(x) == b))
        };
        let k = match self
            .open
            .iter()
            .position(|(_, filter, bodies, _)| !clash(*filter, bodies))
        {
            Some(k) => k,
            None => {
                if self.open.len() == WINDOW {
                    self.open.remove(0);
                }
                self.open.push((open_block(), 0, [NONE; 2 * LANES], 0));
                self.open.len() - 1
            }
        };
        let (block, filter, bodies, len) = &mut self.open[k];
        let (block, lane) = (*block, *len);
        *filter |= wanted;
        bodies[2 * lane] = a.unwrap_or(NONE);
        bodies[2 * lane + 1] = b.unwrap_or(NONE);
        *len += 1;
        if *len == LANES {
            self.open.remove(k);
        }
        (block, lane)
    }

    /// [`place`](Self::place) for a solver's `blocks` and their `cold`
    /// data: a block that opens starts as `empty` with empty cold data.
    pub fn place_in<B: Copy, const P: usize>(
        &mut self,
        blocks: &mut Vec<B>,
        cold: &mut Vec<Cold<P>>,
        empty: B,
        a: Option<u32>,
        b: Option<u32>,
    ) -> (usize, usize) {
        self.place(a, b, || {
            blocks.push(empty);
            cold.push(Cold::EMPTY);
            blocks.len() - 1
        })
    }
}

/// A block's data read once or twice a step, kept apart from the data
/// every solver pass reads: which contact each lane holds, where its
/// points' impulses go, and the restitution inputs (`P` points).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cold<const P: usize> {
    /// Each lane's contact (its index in the step's contact list), `NONE`
    /// for an empty lane.
    pub ids: [u32; LANES],
    /// Each lane's first point in the step's impulse list.
    pub slot: [u32; LANES],
    /// Each point's feature id (`ContactId.0`).
    pub point_ids: [[u32; LANES]; P],
    /// Restitution coefficient.
    pub restitution: F8,
    /// The normal velocity at impact (see `contact::impact_velocity`).
    pub relative_velocity: [F8; P],
    /// `−a_n h / 2`, added to the restitution's target velocity.
    pub restitution_bias: [F8; P],
    /// `1 / K_ii`.
    pub normal_mass: [F8; P],
}

impl<const P: usize> Cold<P> {
    /// Empty lanes.
    pub const EMPTY: Self = Cold {
        ids: [NONE; LANES],
        slot: [0; LANES],
        point_ids: [[0; LANES]; P],
        restitution: F8::ZERO,
        relative_velocity: [F8::ZERO; P],
        restitution_bias: [F8::ZERO; P],
        normal_mass: [F8::ZERO; P],
    };

    /// Fills `lane` with contact `id` (its points' impulses from `slot`
    /// on).
    pub fn set<D: DynDim>(&mut self, lane: usize, con: &ContactC<D>, id: u32, slot: u32) {
        self.ids[lane] = id;
        self.slot[lane] = slot;
        self.restitution.0[lane] = con.restitution;
        for (i, q) in con.points[..(con.len as usize).min(P)].iter().enumerate() {
            self.point_ids[i][lane] = q.id.0;
            self.relative_velocity[i].0[lane] = q.relative_velocity;
            self.restitution_bias[i].0[lane] = q.restitution_bias;
            self.normal_mass[i].0[lane] = q.normal_mass;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every contact gets a lane; no block holds a dynamic body twice;
    /// fixed bodies (`None`) are shared freely; blocks fill up.
    #[test]
    fn lanes_of_a_block_share_no_dynamic_body() {
        let mut packer = Packer::default();
        let mut blocks: Vec<Vec<(Option<u32>, Option<u32>)>> = Vec::new();
        let mut seed = 5u32;
        let mut next = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) % 60
        };
        let n = 2000;
        for _ in 0..n {
            let a = Some(next());
            let b = match next() {
                x if x < 20 => None,
                x => Some(x),
            };
            if a == b {
                continue;
            }
            let (k, lane) = packer.place(a, b, || {
                blocks.push(Vec::new());
                blocks.len() - 1
            });
            assert_eq!(blocks[k].len(), lane, "lanes fill in order");
            blocks[k].push((a, b));
        }
        let placed: usize = blocks.iter().map(Vec::len).sum();
        assert!(placed > n * 9 / 10);
        for block in &blocks {
            assert!(block.len() <= LANES);
            let mut bodies: Vec<u32> = block.iter().flat_map(|&(a, b)| [a, b]).flatten().collect();
            let total = bodies.len();
            bodies.sort_unstable();
            bodies.dedup();
            assert_eq!(bodies.len(), total, "a dynamic body twice in {block:?}");
        }
        assert!(
            placed as f32 / blocks.len() as f32 > 0.75 * LANES as f32,
            "blocks mostly full: {} contacts in {} blocks",
            placed,
            blocks.len()
        );
    }
}
