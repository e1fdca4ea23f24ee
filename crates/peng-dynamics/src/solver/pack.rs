//! Placing contacts into lanes ([`Packer`]) and the lanes' data that the
//! solver passes do not touch ([`Cold`]), shared by [`super::wide2`] and
//! [`super::wide3`].

use core::ops::Range;

use super::colour::Shared;
use super::contact::ContactC;
use super::lanes::{F8, LANES};
use crate::dim::DynDim;

/// A lane with no body or contact.
pub(crate) const NONE: u32 = u32::MAX;

/// Open blocks [`Packer`] fills at once.
const OPEN: usize = 32;

/// Open blocks of the overflow colour.
const OPEN_OVERFLOW: usize = 8;

/// Fewest blocks [`Coloured::par_for_each`] hands a thread at once.
const PAR_MIN_BLOCKS: usize = 64;

/// Colours a body can be in (the bits of a `u64`).
pub(crate) const COLOURS: usize = 64;

/// The first colour of contacts with a fixed body (40), as a bit: the
/// colours below are for contacts between two dynamic bodies.
const FIXED_COLOURS: u64 = 1 << 40;

/// The colour of contacts that found every colour taken by one of their
/// bodies: its blocks may share bodies, so it is solved on one thread,
/// after the others.
pub(crate) const OVERFLOW: usize = COLOURS;

/// Places contacts, taken in order, into blocks of lanes and the blocks
/// into colours (after Box2D v3's graph colouring, `constraint_graph.c`):
/// no two lanes of a colour, in one block or two, hold the same dynamic
/// body.
///
/// Each contact goes to the oldest open block whose colour neither of its
/// dynamic bodies is in yet; when none takes it, a block opens in the
/// lowest colour free for both. A block closes when full, or, partly
/// filled, when all [`OPEN`] blocks are open and none takes the next
/// contact. So the lanes stay close to the contacts' own order (a pure
/// greedy colouring, each contact in its lowest free colour, let the
/// 100-base pyramid's top box sway 12 cm instead of 1.3 in the stacking
/// test), and a pass can solve one colour after another, the blocks of a
/// colour at once on several threads, with the same result on any number
/// of threads: each block reads and writes only its own dynamic bodies
/// (and reads fixed ones, which no block writes).
///
/// Contacts of a body in every colour go to the overflow, whose blocks
/// only keep their own lanes apart, [`OPEN_OVERFLOW`] blocks open at once.
///
/// A block opens only in a colour free for its first contact's bodies,
/// and that contact would have gone to an open block of the colour had
/// there been one: so each colour has at most one open block, and the
/// open blocks are kept per colour, with a bit mask of the colours that
/// have one. The oldest open block free for a contact is then the oldest
/// among the set bits of `open & !taken`, usually one or two.
#[derive(Debug, Clone)]
pub(crate) struct Packer {
    /// Per body, the colours it is in (bit `c`).
    used: Vec<u64>,
    /// The colours with an open block (bit `c`).
    open: u64,
    /// Per colour, its open block (meaningful where `open` has its bit).
    blocks: [OpenBlock; COLOURS],
    /// Blocks opened so far: the next block's age.
    opened: u64,
    /// The overflow's open blocks: index, lanes used, their dynamic
    /// bodies (`NONE` where there is none).
    overflow: Vec<(usize, usize, [u32; 2 * LANES])>,
}

/// A colour's open block: its index in the colour, lanes used, and when
/// it opened (lower is older).
#[derive(Debug, Clone, Copy, Default)]
struct OpenBlock {
    index: usize,
    len: usize,
    age: u64,
}

impl Default for Packer {
    fn default() -> Self {
        Packer {
            used: Vec::new(),
            open: 0,
            blocks: [OpenBlock::default(); COLOURS],
            opened: 0,
            overflow: Vec::new(),
        }
    }
}

impl Packer {
    /// Closes every block and frees every colour.
    pub fn clear(&mut self) {
        self.open = 0;
        self.opened = 0;
        self.overflow.clear();
        self.used.fill(0);
    }

    /// The colours body `x` (if any) is in, growing the table to hold it.
    #[inline]
    fn colours_of(&mut self, x: Option<u32>) -> u64 {
        let Some(x) = x else { return 0 };
        let x = x as usize;
        if x >= self.used.len() {
            self.used.resize(x + 1, 0);
        }
        self.used[x]
    }

    /// The colour of the oldest open block among the colours `mask` (not
    /// empty).
    #[inline]
    fn oldest(&self, mask: u64) -> usize {
        let mut rest = mask;
        let mut best = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.blocks[c].age < self.blocks[best].age {
                best = c;
            }
        }
        best
    }

    /// The colour, block and lane for a contact between the dynamic bodies
    /// `a` and `b` (`None`: a body that takes no impulse); `open_block(c)`
    /// adds an empty block to colour `c` and returns its index there.
    #[inline]
    pub fn place(
        &mut self,
        a: Option<u32>,
        b: Option<u32>,
        open_block: impl FnOnce(usize) -> usize,
    ) -> (usize, usize, usize) {
        // Contacts with a fixed body take the upper colours, so each pass
        // solves them after the contacts between dynamic bodies: the
        // ground has the last word. (Solved in among the others, a hull
        // of the 1,000-hull pile was pressed through the one-sided mesh
        // floor by the hulls above it.)
        let below_fixed = FIXED_COLOURS - 1;
        let taken = self.colours_of(a)
            | self.colours_of(b)
            | if a.is_none() || b.is_none() {
                below_fixed
            } else {
                !below_fixed
            };
        let free = self.open & !taken;
        let colour = if free != 0 {
            self.oldest(free)
        } else {
            // `COLOURS` (the overflow) when every bit is taken.
            let colour = (!taken).trailing_zeros() as usize;
            if colour == OVERFLOW {
                let (block, lane) = self.place_overflow(a, b, || open_block(OVERFLOW));
                return (OVERFLOW, block, lane);
            }
            if self.open.count_ones() as usize == OPEN {
                // Every block is open: the oldest closes, partly filled.
                self.open &= !(1 << self.oldest(self.open));
            }
            self.blocks[colour] = OpenBlock {
                index: open_block(colour),
                len: 0,
                age: self.opened,
            };
            self.opened += 1;
            self.open |= 1 << colour;
            colour
        };
        let open = &mut self.blocks[colour];
        let (block, lane) = (open.index, open.len);
        open.len += 1;
        if open.len == LANES {
            self.open &= !(1 << colour);
        }
        for x in [a, b].into_iter().flatten() {
            self.used[x as usize] |= 1 << colour;
        }
        (colour, block, lane)
    }

    /// The overflow's block and lane for a contact between `a` and `b`.
    fn place_overflow(
        &mut self,
        a: Option<u32>,
        b: Option<u32>,
        open_block: impl FnOnce() -> usize,
    ) -> (usize, usize) {
        let clash = |bodies: &[u32; 2 * LANES]| {
            bodies
                .iter()
                .any(|&x| x != NONE && (Some(x) == a || Some(x) == b))
        };
        let k = match self
            .overflow
            .iter()
            .position(|(_, _, bodies)| !clash(bodies))
        {
            Some(k) => k,
            None => {
                if self.overflow.len() == OPEN_OVERFLOW {
                    self.overflow.remove(0);
                }
                self.overflow.push((open_block(), 0, [NONE; 2 * LANES]));
                self.overflow.len() - 1
            }
        };
        let (block, len, bodies) = &mut self.overflow[k];
        let (block, lane) = (*block, *len);
        bodies[2 * lane] = a.unwrap_or(NONE);
        bodies[2 * lane + 1] = b.unwrap_or(NONE);
        *len += 1;
        if *len == LANES {
            self.overflow.remove(k);
        }
        (block, lane)
    }
}

/// The step's blocks of lanes (`B`) with their [`Cold`] data (`P` points),
/// by colour ([`Packer`]).
#[derive(Debug, Clone)]
pub(crate) struct Coloured<B, const P: usize> {
    /// Per colour (the last: [`OVERFLOW`]), its blocks and their cold data.
    pub colours: Vec<(Vec<B>, Vec<Cold<P>>)>,
    packer: Packer,
}

impl<B, const P: usize> Default for Coloured<B, P> {
    fn default() -> Self {
        Coloured {
            colours: (0..=OVERFLOW).map(|_| (Vec::new(), Vec::new())).collect(),
            packer: Packer::default(),
        }
    }
}

impl<B: Copy, const P: usize> Coloured<B, P> {
    /// Removes every block (the start of a step).
    pub fn clear(&mut self) {
        for (blocks, cold) in &mut self.colours {
            blocks.clear();
            cold.clear();
        }
        self.packer.clear();
    }

    /// A lane for a contact between the dynamic bodies `a` and `b`
    /// (see [`Packer::place`]): its block, the block's cold data, and the
    /// lane. A block that opens starts as `empty()` with empty cold data
    /// (a closure: a block is kilobytes, and most contacts open none).
    pub fn place(
        &mut self,
        empty: impl FnOnce() -> B,
        a: Option<u32>,
        b: Option<u32>,
    ) -> (&mut B, &mut Cold<P>, usize) {
        let colours = &mut self.colours;
        let (colour, block, lane) = self.packer.place(a, b, |c| {
            let (blocks, cold) = &mut colours[c];
            blocks.push(empty());
            cold.push(Cold::EMPTY);
            blocks.len() - 1
        });
        let (blocks, cold) = &mut self.colours[colour];
        (&mut blocks[block], &mut cold[block], lane)
    }

    /// Runs `f` on every block, colour after colour, handing it the
    /// colour's blocks and a run of them; the runs of a colour other than
    /// the overflow may run at once on rayon's threads
    /// ([`super::colour::run`]), and their blocks share no dynamic body.
    pub fn run(&self, f: impl Fn(&[B], Range<usize>) + Sync)
    where
        B: Sync,
    {
        for (colour, (blocks, _)) in self.colours.iter().enumerate() {
            super::colour::run(blocks.len(), colour != OVERFLOW, |run| f(blocks, run));
        }
    }

    /// [`run`](Self::run) for passes that write the blocks: `f` may write
    /// the blocks of its run, which no other run holds.
    pub fn run_mut(&mut self, f: impl Fn(&Shared<B>, Range<usize>) + Sync)
    where
        B: Send,
    {
        for (colour, (blocks, _)) in self.colours.iter_mut().enumerate() {
            let blocks = Shared::new(blocks);
            super::colour::run(blocks.len(), colour != OVERFLOW, |run| f(&blocks, run));
        }
    }

    /// Calls `f` on every block with its cold data, the blocks on rayon's
    /// threads (runs of at least [`PAR_MIN_BLOCKS`]) when there are several
    /// threads and enough blocks, in no set order.
    pub fn par_for_each(&self, f: impl Fn(&B, &Cold<P>) + Sync)
    where
        B: Sync,
    {
        use rayon::prelude::*;
        let blocks: usize = self.colours.iter().map(|(b, _)| b.len()).sum();
        if rayon::current_num_threads() == 1 || blocks < 2 * PAR_MIN_BLOCKS {
            for (blocks, cold) in &self.colours {
                blocks.iter().zip(cold).for_each(|(b, c)| f(b, c));
            }
            return;
        }
        self.colours.par_iter().for_each(|(blocks, cold)| {
            blocks
                .par_iter()
                .zip(cold.par_iter())
                .with_min_len(PAR_MIN_BLOCKS)
                .for_each(|(b, c)| f(b, c));
        });
    }

    /// Every block with its cold data, colour after colour (the order the
    /// passes solve them in).
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = (&B, &Cold<P>)> {
        self.colours.iter().flat_map(|(b, c)| b.iter().zip(c))
    }

    /// [`iter`](Self::iter), the blocks to write.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&mut B, &Cold<P>)> {
        self.colours
            .iter_mut()
            .flat_map(|(b, c)| b.iter_mut().zip(&*c))
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every contact gets a lane; no colour holds a dynamic body in two
    /// lanes (of one block or two), except that the overflow's blocks are
    /// apart only within themselves; fixed bodies (`None`) are shared
    /// freely; blocks fill up.
    #[test]
    fn blocks_of_a_colour_share_no_dynamic_body() {
        let mut packer = Packer::default();
        type Block = Vec<(Option<u32>, Option<u32>)>;
        let mut colours: Vec<Vec<Block>> = vec![Vec::new(); OVERFLOW + 1];
        let mut seed = 5u32;
        let mut next = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) % 300
        };
        let n = 2000;
        for _ in 0..n {
            let a = Some(next());
            let b = match next() {
                x if x < 100 => None,
                x => Some(x),
            };
            if a == b {
                continue;
            }
            let (c, k, lane) = packer.place(a, b, |c| {
                colours[c].push(Vec::new());
                colours[c].len() - 1
            });
            assert_eq!(colours[c][k].len(), lane, "lanes fill in order");
            colours[c][k].push((a, b));
        }
        let all = || colours.iter().flatten();
        let placed: usize = all().map(Vec::len).sum();
        assert!(placed > n * 9 / 10);
        let distinct = |lanes: &mut dyn Iterator<Item = &(Option<u32>, Option<u32>)>| {
            let mut bodies: Vec<u32> = lanes.flat_map(|&(a, b)| [a, b]).flatten().collect();
            let total = bodies.len();
            bodies.sort_unstable();
            bodies.dedup();
            bodies.len() == total
        };
        for (c, blocks) in colours.iter().enumerate() {
            for block in blocks {
                assert!(block.len() <= LANES);
                assert!(distinct(&mut block.iter()), "a body twice in {block:?}");
            }
            if c < OVERFLOW {
                assert!(
                    distinct(&mut blocks.iter().flatten()),
                    "a body twice in colour {c}"
                );
            }
        }
        assert!(
            colours[OVERFLOW].is_empty(),
            "bodies in a dozen contacts need no overflow"
        );
        let used = colours.iter().filter(|b| !b.is_empty()).count();
        assert!(used > 1, "several colours");
        assert!(
            placed as f32 / all().count() as f32 > 0.75 * LANES as f32,
            "blocks mostly full: {} contacts in {} blocks",
            placed,
            all().count()
        );
    }

    /// The rule of [`Packer::place`] as written: a list of open blocks,
    /// oldest first, searched in order.
    struct WindowPacker {
        used: Vec<u64>,
        window: Vec<(usize, usize, usize)>,
        blocks: Vec<usize>,
        /// Blocks closed early, all blocks being open.
        evicted: usize,
    }

    impl WindowPacker {
        fn place(&mut self, a: Option<u32>, b: Option<u32>) -> (usize, usize, usize) {
            for x in [a, b].into_iter().flatten() {
                if x as usize >= self.used.len() {
                    self.used.resize(x as usize + 1, 0);
                }
            }
            let of = |x: Option<u32>| x.map_or(0, |x| self.used[x as usize]);
            let below_fixed = FIXED_COLOURS - 1;
            let side = if a.is_none() || b.is_none() {
                below_fixed
            } else {
                !below_fixed
            };
            let taken = of(a) | of(b) | side;
            let k = match self.window.iter().position(|w| taken & (1 << w.0) == 0) {
                Some(k) => k,
                None => {
                    let colour = (!taken).trailing_zeros() as usize;
                    assert!(colour < OVERFLOW, "the test stays out of the overflow");
                    if self.window.len() == OPEN {
                        self.window.remove(0);
                        self.evicted += 1;
                    }
                    self.blocks[colour] += 1;
                    self.window.push((colour, self.blocks[colour] - 1, 0));
                    self.window.len() - 1
                }
            };
            let (colour, block, lane) = self.window[k];
            self.window[k].2 += 1;
            if lane + 1 == LANES {
                self.window.remove(k);
            }
            for x in [a, b].into_iter().flatten() {
                self.used[x as usize] |= 1 << colour;
            }
            (colour, block, lane)
        }
    }

    /// The packer places every contact where a plain search of the open
    /// blocks, oldest first, does: with few colours (a pyramid's), with
    /// more than [`OPEN`] colours open at once (the oldest block closes
    /// early), and with fixed bodies; across `clear`.
    #[test]
    fn places_as_the_oldest_first_search_does() {
        let mut seed = 11u32;
        let mut next = |n: u32| {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) % n
        };
        let mut packer = Packer::default();
        for (bodies, degree) in [(400u32, 3u32), (60, 30), (2000, 2), (45, 40)] {
            packer.clear();
            let mut plain = WindowPacker {
                used: Vec::new(),
                window: Vec::new(),
                blocks: vec![0; COLOURS],
                evicted: 0,
            };
            let mut blocks = vec![0usize; OVERFLOW + 1];
            for _ in 0..3000 {
                let a = next(bodies);
                // Each body meets a few others near it (stacking), or many.
                let b = (a + 1 + next(degree)) % bodies;
                let b = if next(8) == 0 { None } else { Some(b) };
                // Contacts that would reach the overflow are left out: it
                // has a rule of its own (tested below).
                let colours = |x: u32| plain.used.get(x as usize).copied().unwrap_or(0);
                let mask = match b {
                    Some(_) => FIXED_COLOURS - 1,
                    None => !(FIXED_COLOURS - 1),
                };
                if (colours(a) | b.map_or(0, colours)) & mask == mask {
                    continue;
                }
                let a = Some(a);
                let want = plain.place(a, b);
                let got = packer.place(a, b, |c| {
                    blocks[c] += 1;
                    blocks[c] - 1
                });
                assert_eq!(got, want, "bodies {a:?} {b:?}");
            }
            if degree == 40 {
                assert!(plain.evicted > 0, "more than OPEN colours were open");
            }
        }
    }

    /// A body in contacts with 100 other dynamic bodies fills the 40
    /// colours of such contacts and sends the rest to the overflow, one
    /// block per contact there (they all share the body); its contacts
    /// with fixed bodies take colours from 40 on.
    #[test]
    fn a_body_in_every_contact_overflows() {
        let mut packer = Packer::default();
        let mut per_colour = vec![0usize; OVERFLOW + 1];
        let mut blocks = 0usize;
        let dynamic = FIXED_COLOURS.trailing_zeros();
        for i in 0..100u32 {
            let (c, _, lane) = packer.place(Some(0), Some(1 + i), |c| {
                per_colour[c] += 1;
                blocks += 1;
                0
            });
            assert_eq!(lane, 0, "the shared body keeps each contact alone");
            assert_eq!(c, if i < dynamic { i as usize } else { OVERFLOW });
        }
        assert_eq!(blocks, 100);
        assert_eq!(per_colour[OVERFLOW], 100 - dynamic as usize);
        let (c, _, _) = packer.place(Some(0), None, |_| 0);
        assert_eq!(
            c, dynamic as usize,
            "a fixed contact after the dynamic ones"
        );
        let (c, _, lane) = packer.place(None, Some(200), |_| 0);
        assert_eq!(
            (c, lane),
            (dynamic as usize, 1),
            "the next lane of that block"
        );
    }
}
