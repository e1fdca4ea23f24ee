//! The collision world's broad phase: a spatial hash (uniform grid) whose
//! cell size follows the colliders' sizes.
//!
//! Page elements moving a little each frame are the grid's best case: a
//! move mostly stays in the same cells, and each cell holds a few
//! elements. With cells about twice an element's size the update does
//! the least work (in the browser benchmark, 1,000 elements of 16-32 px,
//! anything from 1 to 4 times their size is within 10 % of the best), so
//! the size is picked from the elements themselves: twice their geometric
//! mean size, which a few page-sized containers do not drag up the way
//! they would the arithmetic mean. Boxes spanning more than 64 cells sit
//! in the grid's side list, tested against every mover.

use peng::broad::SpatialHash;
use peng::d2::{Pose2, Shape, World2};

/// The cell size before any collider is seen: a few times a small page
/// element, in CSS pixels.
const FIRST_CELL: f32 = 64.0;

/// Cells are never smaller than this (a world of points would otherwise
/// get cells of zero size).
const MIN_CELL: f32 = 1e-3;

/// A collider's size: the longer side of its box.
fn size(shape: &Shape) -> f32 {
    let b = shape.aabb(&Pose2::IDENTITY);
    let e = b.max - b.min;
    e.x.max(e.y)
}

/// The cell size for colliders of these shapes: twice their geometric mean
/// size; `None` for no colliders.
fn cell_for<'a>(shapes: impl Iterator<Item = &'a Shape>) -> Option<f32> {
    let (mut sum, mut n) = (0.0f64, 0usize);
    for s in shapes {
        sum += f64::from(size(s).max(MIN_CELL)).ln();
        n += 1;
    }
    (n > 0).then(|| (2.0 * (sum / n as f64).exp()) as f32)
}

/// The grid of a world and when to pick its cell size again.
pub(crate) struct Grid {
    /// The grid's cell size.
    cell: f32,
    /// The collider count at the last pick (0: none yet).
    picked_at: usize,
}

impl Grid {
    /// A world with an empty grid of the first cell size.
    pub(crate) fn world() -> (World2, Grid) {
        // (No `expect`: formatting the error would link float formatting.)
        let Ok(world) = World2::with_broad_phase(grid(FIRST_CELL)) else {
            unreachable!("a new grid is empty");
        };
        let grid = Grid {
            cell: FIRST_CELL,
            picked_at: 0,
        };
        (world, grid)
    }

    /// Picks the cell size again when the collider count has doubled or
    /// halved since the last pick (or on the first update with colliders),
    /// and moves the colliders to a new grid when the best size is more
    /// than twice or less than half the current one. Amortized O(1) per
    /// collider added or removed.
    pub(crate) fn retune(&mut self, world: &mut World2) {
        let n = world.len();
        let due =
            n > 0 && (self.picked_at == 0 || n >= 2 * self.picked_at || 2 * n <= self.picked_at);
        if !due {
            return;
        }
        self.picked_at = n;
        let Some(best) = cell_for(world.iter().map(|(_, c)| &c.shape)) else {
            return;
        };
        if best > 2.0 * self.cell || 2.0 * best < self.cell {
            // Cannot fail: the new grid is empty and takes any finite box.
            if world.set_broad_phase(grid(best)).is_ok() {
                self.cell = best;
            }
        }
    }

    /// The current cell size.
    #[cfg(test)]
    pub(crate) fn cell(&self) -> f32 {
        self.cell
    }
}

/// An empty grid with cells of `cell` (clamped to a usable size).
fn grid(cell: f32) -> SpatialHash<peng::d2::Vec2> {
    let cell = if cell.is_finite() {
        cell.max(MIN_CELL)
    } else {
        FIRST_CELL
    };
    let Ok(hash) = SpatialHash::new(cell) else {
        unreachable!("a positive finite cell size");
    };
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use peng::d2::{Circle, Collider, Rect, Vec2};

    fn circle(r: f32) -> Shape {
        Circle::new(r).expect("valid radius").into()
    }

    #[test]
    fn the_cell_is_twice_the_geometric_mean_size() {
        // Sizes 10 and 40: geometric mean 20.
        let shapes = [circle(5.0), circle(20.0)];
        let cell = cell_for(shapes.iter()).expect("shapes");
        assert!((cell - 40.0).abs() < 1e-3, "{cell}");
        assert_eq!(cell_for([].iter()), None);
        // A box's longer side.
        let r: Shape = Rect::new(Vec2::new(3.0, 8.0)).expect("valid").into();
        assert!((cell_for([r].iter()).expect("one") - 32.0).abs() < 1e-4);
    }

    #[test]
    fn a_few_page_sized_containers_barely_move_the_cell() {
        // 100 elements of 20 px and two of 5,000 px: the arithmetic mean
        // would be 118 px, the geometric one is 22.
        let mut shapes: Vec<Shape> = (0..100).map(|_| circle(10.0)).collect();
        shapes.push(Rect::new(Vec2::new(2500.0, 2500.0)).expect("valid").into());
        shapes.push(Rect::new(Vec2::new(2500.0, 2500.0)).expect("valid").into());
        let cell = cell_for(shapes.iter()).expect("shapes");
        assert!((40.0..50.0).contains(&cell), "{cell}");
    }

    #[test]
    fn retune_follows_the_colliders_and_keeps_the_pairs() {
        let (mut world, mut grid) = Grid::world();
        // Balls of 400 px, overlapping in pairs: the first cell (64) is
        // far too small.
        for i in 0..10 {
            let x = (i / 2) as f32 * 1000.0 + (i % 2) as f32 * 300.0;
            world
                .insert(Collider::new(
                    circle(200.0),
                    Pose2::from_translation(Vec2::new(x, 0.0)),
                ))
                .expect("valid");
        }
        grid.retune(&mut world);
        assert!((grid.cell() - 800.0).abs() < 0.1, "{}", grid.cell());
        assert_eq!(world.update().len(), 5, "each pair began");
        // One more collider of the same size: no new pick (the count has
        // not doubled), and the grid keeps its pairs.
        world
            .insert(Collider::new(
                circle(200.0),
                Pose2::from_translation(Vec2::new(4650.0, 0.0)),
            ))
            .expect("valid");
        grid.retune(&mut world);
        assert!((grid.cell() - 800.0).abs() < 0.1);
        assert_eq!(world.update().len(), 1, "the new pair began");
        // Twenty small ones: the count has doubled, the mean fell past
        // half the cell, so a new grid; the touching pairs persist
        // without events.
        for i in 0..20 {
            world
                .insert(Collider::new(
                    circle(2.0),
                    Pose2::from_translation(Vec2::new(i as f32 * 10.0, 5000.0)),
                ))
                .expect("valid");
        }
        grid.retune(&mut world);
        assert!(grid.cell() < 100.0, "{}", grid.cell());
        assert!(world.update().is_empty(), "nothing began or ended");
        assert_eq!(world.touching_pairs().count(), 6);
    }
}
