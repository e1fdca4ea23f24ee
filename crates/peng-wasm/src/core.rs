//! The collision world as the bindings see it, in plain Rust (tested
//! natively): colliders named by [`Ids`], checked input, and each update's
//! events flattened into numbers with the contact point and normal.

use crate::grid::Grid;
use crate::ids::Ids;
use crate::input::{self, InputResult};
use peng::d2::{
    distance, Capsule, Circle, Collider, ColliderHandle, ConvexPolygon, Pose2, Rect, Shape, Vec2,
    World2,
};
use peng::math::Num;
use peng::world::{EventKind, WatchId};

/// Numbers per event in [`Core::events`]: kind (0 began, 1 persisted,
/// 2 ended), the two ids, the watched set (-1 for none), sensor (0/1),
/// removed (0/1), the time of impact (NaN when not swept), the contact
/// point (x, y) and the normal from the first collider to the second
/// (x, y); point and normal are NaN on ended events.
pub const EVENT_STRIDE: usize = 11;

/// What the bindings keep of each collider besides the world: its shape and
/// its pose now and at the last update (for contacts of colliders removed
/// on contact, and at a swept contact's time).
struct Mirror {
    shape: Shape,
    pose: Pose2,
    before: Pose2,
}

/// A collider's handle, pose, margin and displacement (the world's
/// `set_placements`).
type Placement = (
    peng::d2::ColliderHandle,
    Pose2,
    peng::d2::Margin,
    peng::d2::Vec2,
);

/// The world, its ids and the last update's events.
pub(crate) struct Core {
    world: World2,
    /// The world's grid and its cell size (see `grid.rs`).
    grid: Grid,
    ids: Ids,
    mirrors: Vec<Option<Mirror>>,
    events: Vec<f64>,
    /// The watched sets (few: a list).
    watches: Vec<WatchId>,
    /// [`Core::set_poses`]'s list, kept between calls.
    placements: Vec<Placement>,
}

impl Default for Core {
    fn default() -> Self {
        let (world, grid) = Grid::world();
        Core {
            world,
            grid,
            ids: Ids::default(),
            mirrors: Vec::new(),
            events: Vec::new(),
            watches: Vec::new(),
            placements: Vec::new(),
        }
    }
}

impl Core {
    /// Adds a collider with `shape` at `pose`; returns its id.
    pub(crate) fn add(&mut self, shape: Shape, pose: Pose2) -> InputResult<u32> {
        let h = self
            .world
            .insert(Collider::new(shape.clone(), pose))
            .map_err(|e| e.to_string())?;
        let id = self.ids.add(h);
        let slot = id as usize;
        if self.mirrors.len() <= slot {
            self.mirrors.resize_with(slot + 1, || None);
        }
        self.mirrors[slot] = Some(Mirror {
            shape,
            pose,
            before: pose,
        });
        Ok(id)
    }

    /// A circle of `radius` centred at `(x, y)`.
    pub(crate) fn add_circle(&mut self, x: f64, y: f64, radius: f64) -> InputResult<u32> {
        self.add(circle(radius)?, input::pose(x, y, 0.0)?)
    }

    /// Gives collider `id` a new shape (same id, same pairs: a contact that
    /// goes on is the same contact).
    pub(crate) fn reshape(&mut self, id: f64, shape: Shape) -> InputResult<()> {
        let h = self.live(id)?;
        self.world
            .set_shape(h, shape.clone())
            .map_err(|e| format!("collider {}: {e}", Num::from(id)))?;
        if let Some(Some(m)) = self.mirrors.get_mut(id as usize) {
            m.shape = shape;
        }
        Ok(())
    }

    /// A box with half extents `(hw, hh)`, centred at `(x, y)`, turned by
    /// `angle` radians.
    pub(crate) fn add_box(
        &mut self,
        x: f64,
        y: f64,
        hw: f64,
        hh: f64,
        angle: f64,
    ) -> InputResult<u32> {
        self.add(rect(hw, hh)?, input::pose(x, y, angle)?)
    }

    /// A capsule from `(-half_length, 0)` to `(half_length, 0)` with
    /// `radius`, placed at `(x, y)` and turned by `angle`.
    pub(crate) fn add_capsule(
        &mut self,
        x: f64,
        y: f64,
        half_length: f64,
        radius: f64,
        angle: f64,
    ) -> InputResult<u32> {
        self.add(capsule(half_length, radius)?, input::pose(x, y, angle)?)
    }

    /// The convex hull of `points` (x0, y0, x1, y1, ...; the collider's
    /// frame), placed at `(x, y)` and turned by `angle`.
    pub(crate) fn add_polygon(
        &mut self,
        x: f64,
        y: f64,
        angle: f64,
        points: &[f32],
    ) -> InputResult<u32> {
        self.add(polygon(points)?, input::pose(x, y, angle)?)
    }

    /// The live collider `id`.
    fn live(&self, id: f64) -> InputResult<ColliderHandle> {
        let h = self.ids.handle(id)?;
        if self.world.contains(h) {
            Ok(h)
        } else {
            Err(format!(
                "collider {} is not in the world (removed, or never added)",
                Num::from(id)
            ))
        }
    }

    /// Removes collider `id`.
    pub(crate) fn remove(&mut self, id: f64) -> InputResult<()> {
        let h = self.live(id)?;
        self.world.remove(h).map_err(|e| e.to_string())?;
        Ok(())
    }

    /// Moves collider `id`.
    pub(crate) fn set_pose(&mut self, id: f64, x: f64, y: f64, angle: f64) -> InputResult<()> {
        let h = self.live(id)?;
        let pose = input::pose(x, y, angle)?;
        self.world
            .set_pose(h, pose)
            .map_err(|e| format!("collider {}: {e}", Num::from(id)))?;
        if let Some(Some(m)) = self.mirrors.get_mut(id as usize) {
            m.pose = pose;
        }
        Ok(())
    }

    /// Moves many colliders: `data` holds `id, x, y, angle` for each. All
    /// are checked before any moves, so on an error (naming the entry)
    /// nothing changes.
    pub(crate) fn set_poses(&mut self, data: &[f64]) -> InputResult<()> {
        if !data.len().is_multiple_of(4) {
            return Err(format!(
                "setPoses takes id, x, y, angle for each collider, got {} numbers",
                data.len()
            ));
        }
        let mut placements = core::mem::take(&mut self.placements);
        placements.clear();
        for (k, e) in data.chunks_exact(4).enumerate() {
            let checked = self.live(e[0]).and_then(|h| {
                let pose = input::pose(e[1], e[2], e[3])?;
                let c = self.world.get(h).map_err(|e| e.to_string())?;
                Ok((h, pose, c.margin, c.displacement))
            });
            match checked {
                Ok(p) => placements.push(p),
                Err(e) => {
                    self.placements = placements;
                    return Err(format!("setPoses entry {k}: {e}"));
                }
            }
        }
        let placed = self.world.set_placements(&placements);
        if placed.is_ok() {
            for (e, p) in data.chunks_exact(4).zip(&placements) {
                if let Some(Some(m)) = self.mirrors.get_mut(e[0] as usize) {
                    m.pose = p.1;
                }
            }
        }
        self.placements = placements;
        placed.map_err(|e| format!("setPoses: {e}"))
    }

    /// Changes collider `id` through `f`, naming it in the error.
    pub(crate) fn modify(
        &mut self,
        id: f64,
        mut f: impl FnMut(&mut Collider<peng::world::Dim2>),
    ) -> InputResult<()> {
        self.modify_dyn(id, &mut f)
    }

    /// [`Core::modify`] through a trait object: one copy for every setter.
    fn modify_dyn(
        &mut self,
        id: f64,
        f: &mut dyn FnMut(&mut Collider<peng::world::Dim2>),
    ) -> InputResult<()> {
        let h = self.live(id)?;
        self.world
            .modify(h, f)
            .map_err(|e| format!("collider {}: {e}", Num::from(id)))
    }

    /// Watches every pair of a collider in `a` and one in `b`.
    pub(crate) fn watch(&mut self, a: &[f64], b: &[f64], mode: &str) -> InputResult<u32> {
        let mode = input::event_mode(mode)?;
        let ha = a
            .iter()
            .map(|&id| self.live(id))
            .collect::<InputResult<Vec<_>>>()?;
        let hb = b
            .iter()
            .map(|&id| self.live(id))
            .collect::<InputResult<Vec<_>>>()?;
        let w = self.world.watch(&ha, &hb, mode);
        self.watches.push(w);
        Ok(w.index())
    }

    /// Stops watched set `set`; whether it existed.
    pub(crate) fn unwatch(&mut self, set: f64) -> bool {
        let known = set >= 0.0 && set.fract() == 0.0 && set <= u32::MAX as f64;
        let at = self
            .watches
            .iter()
            .position(|w| known && f64::from(w.index()) == set);
        match at {
            Some(at) => self.world.unwatch(self.watches.swap_remove(at)),
            None => false,
        }
    }

    /// Runs an update; returns the number of events (read by
    /// [`Core::events`]).
    pub(crate) fn update(&mut self) -> usize {
        self.grid.retune(&mut self.world);
        // Disjoint fields: the world's events are read while the rest is written.
        let events = self.world.update();
        self.events.clear();
        for e in events {
            let (Some(a), Some(b)) = (self.ids.id(e.a), self.ids.id(e.b)) else {
                continue;
            };
            let kind = match e.kind {
                EventKind::Began => 0.0,
                EventKind::Persisted => 1.0,
                EventKind::Ended => 2.0,
            };
            let (point, normal) = if e.kind == EventKind::Ended {
                (Vec2::NAN, Vec2::NAN)
            } else {
                Self::contact(&self.mirrors, a, b, e.toi)
            };
            self.events.extend_from_slice(&[
                kind,
                a as f64,
                b as f64,
                e.watch.map_or(-1.0, |w| w.index() as f64),
                f64::from(u8::from(e.sensor)),
                f64::from(u8::from(e.removed)),
                e.toi.map_or(f64::NAN, f64::from),
                point.x as f64,
                point.y as f64,
                normal.x as f64,
                normal.y as f64,
            ]);
        }
        for m in self.mirrors.iter_mut().flatten() {
            m.before = m.pose;
        }
        events.len()
    }

    /// The contact point and normal of ids `a` and `b`: the middle of their
    /// closest (or deepest) points and the normal from `a` to `b`, at the
    /// poses of the swept contact's time when there is one.
    fn contact(mirrors: &[Option<Mirror>], a: u32, b: u32, toi: Option<f32>) -> (Vec2, Vec2) {
        let (Some(Some(ma)), Some(Some(mb))) = (mirrors.get(a as usize), mirrors.get(b as usize))
        else {
            return (Vec2::NAN, Vec2::NAN);
        };
        let at = |m: &Mirror| match toi {
            Some(t) => lerp(&m.before, &m.pose, t),
            None => m.pose,
        };
        let d = distance(&ma.shape, &at(ma), &mb.shape, &at(mb));
        ((d.point_a + d.point_b) * 0.5, d.normal)
    }

    /// The last update's events, [`EVENT_STRIDE`] numbers each.
    pub(crate) fn events(&self) -> &[f64] {
        &self.events
    }

    /// The number of colliders.
    pub(crate) fn len(&self) -> usize {
        self.world.len()
    }

    /// Sets collider `id`'s margin from its JavaScript words (tests).
    #[cfg(test)]
    pub(crate) fn set_margin_for_test(&mut self, id: u32, kind: &str, value: f64) {
        let m = input::margin(kind, value).unwrap();
        self.modify(id as f64, |c| c.margin = m).unwrap();
    }
}

/// A circle from JavaScript's radius.
pub(crate) fn circle(radius: f64) -> InputResult<Shape> {
    let r = input::positive("radius", radius)?;
    Ok(Circle::new(r).map_err(|e| e.to_string())?.into())
}

/// A box from JavaScript's half extents.
pub(crate) fn rect(hw: f64, hh: f64) -> InputResult<Shape> {
    let h = Vec2::new(
        input::positive("half width", hw)?,
        input::positive("half height", hh)?,
    );
    Ok(Rect::new(h).map_err(|e| e.to_string())?.into())
}

/// A capsule along x from JavaScript's half length and radius.
pub(crate) fn capsule(half_length: f64, radius: f64) -> InputResult<Shape> {
    let l = input::non_negative("half length", half_length)?;
    let r = input::positive("radius", radius)?;
    let c = Capsule::new(Vec2::new(-l, 0.0), Vec2::new(l, 0.0), r).map_err(|e| e.to_string())?;
    Ok(c.into())
}

/// The convex hull of x, y pairs.
pub(crate) fn polygon(points: &[f32]) -> InputResult<Shape> {
    if !points.len().is_multiple_of(2) {
        return Err(format!(
            "polygon points must be x, y pairs, got {} numbers",
            points.len()
        ));
    }
    let mut pts = Vec::with_capacity(points.len() / 2);
    for (i, p) in points.chunks_exact(2).enumerate() {
        let v = Vec2::new(p[0], p[1]);
        if !v.is_finite() {
            return Err(format!(
                "polygon point {i} is not finite: ({}, {})",
                Num::from(v.x),
                Num::from(v.y)
            ));
        }
        pts.push(v);
    }
    let shape = ConvexPolygon::from_points(&pts).map_err(|e| format!("polygon: {e}"))?;
    Ok(shape.into())
}

/// The pose a fraction `t` of the way from `a` to `b` (position linearly,
/// the angle the short way round).
fn lerp(a: &Pose2, b: &Pose2, t: f32) -> Pose2 {
    let turn = b.rotation.mul(a.rotation.inverse()).angle();
    Pose2::new(
        a.translation.lerp(b.translation, t),
        a.rotation.angle() + turn * t,
    )
}

#[cfg(test)]
#[path = "core_tests.rs"]
mod tests;
