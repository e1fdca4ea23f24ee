//! Graph colouring of the contact constraints (Box2D v3's constraint graph,
//! Catto, "Solver2D", 2024): constraints of one colour share no dynamic
//! body, so within a colour their solves are independent.
//!
//! Solving colour after colour changes only the Gauss-Seidel order, yet it
//! is what makes the solve fast: consecutive constraints of a colour touch
//! different bodies, so the processor overlaps their dependency chains
//! (a body's velocity is read, updated and read again by the next
//! constraint on it), and a colour can be split across lanes or threads.
//!
//! Static, kinematic and sleeping bodies take no impulse, so they do not
//! count: any number of constraints on the ground share a colour.

/// Number of colours searched before a constraint goes to the overflow
/// colour (solved last, in order; Box2D uses 24 as well).
pub(crate) const COLORS: usize = 24;

/// The overflow colour's index.
pub(crate) const OVERFLOW: u8 = COLORS as u8;

/// Greedy colouring with one body bitset per colour.
#[derive(Debug, Default, Clone)]
pub(crate) struct Coloring {
    /// `COLORS` bitsets of `words` 64-bit words each, one after another.
    bits: Vec<u64>,
    words: usize,
    /// Constraints per colour (`COLORS + 1` entries, the overflow last).
    pub counts: Vec<u32>,
}

impl Coloring {
    /// Clears the colouring for `bodies` bodies.
    pub fn reset(&mut self, bodies: usize) {
        self.words = bodies.div_ceil(64);
        self.bits.clear();
        self.bits.resize(self.words * COLORS, 0);
        self.counts.clear();
        self.counts.resize(COLORS + 1, 0);
    }

    fn has(&self, color: usize, body: usize) -> bool {
        self.bits[color * self.words + body / 64] & (1 << (body % 64)) != 0
    }

    fn set(&mut self, color: usize, body: usize) {
        self.bits[color * self.words + body / 64] |= 1 << (body % 64);
    }

    /// The first colour free for a constraint between bodies `a` and `b`,
    /// of which only the `*_moves` ones take impulses; marks it taken.
    ///
    /// A constraint between two dynamic bodies searches from colour 0;
    /// one against a fixed body from colour 1, which leaves colour 0 to
    /// the (more constrained) dynamic pairs, as Box2D does.
    pub fn assign(&mut self, a: usize, a_moves: bool, b: usize, b_moves: bool) -> u8 {
        let first = if a_moves && b_moves { 0 } else { 1 };
        for color in first..COLORS {
            if (a_moves && self.has(color, a)) || (b_moves && self.has(color, b)) {
                continue;
            }
            if a_moves {
                self.set(color, a);
            }
            if b_moves {
                self.set(color, b);
            }
            self.counts[color] += 1;
            return color as u8;
        }
        self.counts[COLORS] += 1;
        OVERFLOW
    }

    /// The first index of each colour in colour order (`COLORS + 2`
    /// entries: the overflow colour's start, then the total).
    pub fn offsets(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.counts.len() + 1);
        let mut sum = 0;
        out.push(0);
        for &c in &self.counts {
            sum += c;
            out.push(sum);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No two constraints of a colour (other than the overflow) share a
    /// body that moves; fixed bodies are shared freely.
    #[test]
    fn a_colour_never_repeats_a_moving_body() {
        let mut c = Coloring::default();
        let n = 50;
        c.reset(n + 1);
        let fixed = n; // body n is the ground
        let mut pairs = Vec::new();
        let mut seed = 7u32;
        for _ in 0..400 {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            let a = (seed >> 8) as usize % n;
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            let b = (seed >> 8) as usize % (n + 1);
            if a == b {
                continue;
            }
            let color = c.assign(a, true, b, b != fixed);
            pairs.push((a, b, color));
        }
        let mut ground_colors = std::collections::HashSet::new();
        for (i, &(a, b, ci)) in pairs.iter().enumerate() {
            if b == fixed {
                assert_ne!(ci, 0, "colour 0 is left to dynamic pairs");
                ground_colors.insert(ci);
            }
            if ci == OVERFLOW {
                continue;
            }
            for &(a2, b2, cj) in &pairs[i + 1..] {
                if cj != ci {
                    continue;
                }
                for x in [a, b] {
                    if x != fixed {
                        assert!(x != a2 && x != b2, "body {x} twice in colour {ci}");
                    }
                }
            }
        }
        let offsets = c.offsets();
        assert_eq!(*offsets.last().unwrap() as usize, pairs.len());
        assert!(
            ground_colors.len() < pairs.len(),
            "ground pairs share colours"
        );
    }
}
