//! Scene queries of the collision world: rays, points, boxes, shapes and the
//! nearest collider, each with a [`QueryFilter`].
//!
//! Every query finds candidates in the broad phase (whose boxes hold each
//! collider's shape box, grown by its margin) and then runs
//! the exact test of [`Dim`] on each candidate that passes the filter. The
//! broad phase is kept current by every insertion, removal and pose change,
//! so a query right after [`World::set_pose`] sees the new pose, without an
//! update. Results list handles in ascending [`ColliderHandle`] order unless
//! a method says otherwise, so the same world and query give the same answer
//! bit for bit.
//!
//! Bad input (NaN or infinite points, rays or poses; NaN or negative lengths;
//! a zero ray direction) is a [`WorldError`], never a panic.
//!
//! [`World::cast_shape`] sweeps a shape along a straight motion (the linear
//! casts of [`crate::ccd`]).

use super::collider::Collider;
use super::dim::Dim;
use super::error::WorldError;
use super::handle::ColliderHandle;
use super::World;
use crate::bound::Aabb;
use crate::broad::{ProxyId, RayControl, COORD_LIMIT};
use crate::ccd::{CastHit, CastOptions, CastStatus};
use crate::math::tolerance::ZERO_LENGTH_SQ;
use crate::math::Vector;
use crate::query::types::{PointProjection, Ray, RayHit};

/// Which colliders a query sees with respect to the sensor flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SensorMode {
    /// Sensors and solid colliders alike.
    #[default]
    Include,
    /// Solid colliders only (sensors are skipped).
    Exclude,
    /// Sensors only (solid colliders are skipped).
    Only,
}

/// A ray hit on a collider of the world: its handle and the hit.
pub type ColliderRayHit<V> = (ColliderHandle, RayHit<V>);

/// The nearest collider to a point: its handle, the projection of the point
/// on its surface, and the distance (0 when the point is inside).
pub type NearestCollider<V> = (ColliderHandle, PointProjection<V>, f32);

/// A shape-cast hit on a collider of the world: its handle and the hit (A
/// is the cast shape, B the collider).
pub type ColliderCastHit<V> = (ColliderHandle, CastHit<V>);

/// A per-collider test of a query's caller: `true` keeps the candidate.
pub type QueryPredicate<'a, D> = &'a dyn Fn(ColliderHandle, &Collider<D>) -> bool;

/// Which colliders a scene query may report.
///
/// A collider passes when all of these hold:
/// - its category has a bit of [`mask`](Self::mask);
/// - when [`filter`](Self::filter) is set, that filter
///   [`allows`](super::CollisionFilter::allows) the collider's filter (bits both
///   ways and the group rule, as if the query were a collider);
/// - its handle is not in [`exclude`](Self::exclude);
/// - its sensor flag agrees with [`sensors`](Self::sensors);
/// - the [`predicate`](Self::predicate), when set, returns `true` (it is asked
///   last, only of colliders passing everything else).
///
/// The default passes every collider.
pub struct QueryFilter<'a, D: Dim> {
    /// Categories the query sees: a collider passes when
    /// `collider.filter.category & mask != 0`.
    pub mask: u64,
    /// A full collision filter the collider must agree with, or none.
    pub filter: Option<super::CollisionFilter>,
    /// Handles never reported (e.g. the collider casting the ray).
    pub exclude: &'a [ColliderHandle],
    /// Sensors included, excluded, or alone.
    pub sensors: SensorMode,
    /// The caller's own test, or none.
    pub predicate: Option<QueryPredicate<'a, D>>,
}

impl<D: Dim> Default for QueryFilter<'_, D> {
    fn default() -> Self {
        QueryFilter {
            mask: u64::MAX,
            filter: None,
            exclude: &[],
            sensors: SensorMode::Include,
            predicate: None,
        }
    }
}

// By hand: derives would ask `D: Clone` / `D: Copy` of the marker type.
impl<D: Dim> Clone for QueryFilter<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Dim> Copy for QueryFilter<'_, D> {}

impl<D: Dim> core::fmt::Debug for QueryFilter<'_, D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("QueryFilter")
            .field("mask", &self.mask)
            .field("filter", &self.filter)
            .field("exclude", &self.exclude)
            .field("sensors", &self.sensors)
            .field("predicate", &self.predicate.is_some())
            .finish()
    }
}

impl<'a, D: Dim> QueryFilter<'a, D> {
    /// The filter that passes every collider.
    pub fn new() -> Self {
        Self::default()
    }

    /// Only colliders whose category has a bit of `mask`.
    pub fn with_mask(self, mask: u64) -> Self {
        QueryFilter { mask, ..self }
    }

    /// Only colliders that `filter` allows (bits both ways, groups).
    pub fn with_filter(self, filter: super::CollisionFilter) -> Self {
        QueryFilter {
            filter: Some(filter),
            ..self
        }
    }

    /// Never these handles.
    pub fn excluding(self, exclude: &'a [ColliderHandle]) -> Self {
        QueryFilter { exclude, ..self }
    }

    /// With this sensor mode.
    pub fn with_sensors(self, sensors: SensorMode) -> Self {
        QueryFilter { sensors, ..self }
    }

    /// Only colliders for which `predicate` returns `true`.
    pub fn with_predicate(self, predicate: QueryPredicate<'a, D>) -> Self {
        QueryFilter {
            predicate: Some(predicate),
            ..self
        }
    }

    /// Whether the collider `c` with handle `h` passes (see the type's
    /// documentation).
    pub fn passes(&self, h: ColliderHandle, c: &Collider<D>) -> bool {
        if c.filter.category & self.mask == 0 {
            return false;
        }
        if let Some(f) = &self.filter {
            if !f.allows(&c.filter) {
                return false;
            }
        }
        if self.exclude.contains(&h) {
            return false;
        }
        let sensor_ok = match self.sensors {
            SensorMode::Include => true,
            SensorMode::Exclude => !c.sensor,
            SensorMode::Only => c.sensor,
        };
        sensor_ok && self.predicate.is_none_or(|p| p(h, c))
    }
}

/// Checks a ray and its length: finite origin and direction, a direction of
/// non-zero length (the degeneracy policy's rule 3), `max_toi >= 0` (may be
/// infinite).
fn check_ray<V: Vector>(ray: &Ray<V>, max_toi: f32) -> Result<(), WorldError> {
    if !ray.origin.is_finite() {
        return Err(WorldError::NonFiniteQuery("ray origin"));
    }
    if !ray.dir.is_finite() {
        return Err(WorldError::NonFiniteQuery("ray direction"));
    }
    if ray.dir.length_squared() < ZERO_LENGTH_SQ {
        return Err(WorldError::ZeroRayDirection);
    }
    check_length("ray length", max_toi)
}

/// A length must be `>= 0` (infinity allowed); NaN fails the comparison.
fn check_length(what: &'static str, len: f32) -> Result<(), WorldError> {
    if len >= 0.0 {
        Ok(())
    } else {
        Err(WorldError::NegativeQueryLength(what, len))
    }
}

fn check_point<V: Vector>(what: &'static str, p: V) -> Result<(), WorldError> {
    if p.is_finite() {
        Ok(())
    } else {
        Err(WorldError::NonFiniteQuery(what))
    }
}

/// Squared distance from `p` to the closed box `b` (0 inside).
fn box_dist_sq<V: Vector>(b: &Aabb<V>, p: V) -> f32 {
    let d = (b.min - p).max(V::ZERO).max(p - b.max);
    d.length_squared()
}

/// The search box of `nearest_within` starts at this half-size (or at
/// `max_dist` when smaller) and grows by [`NEAREST_GROWTH`] while empty.
const NEAREST_SEED: f32 = 1.0;
/// Growth factor of the empty search box of `nearest_within`.
const NEAREST_GROWTH: f32 = 4.0;

/// Orders two `(toi, handle)` answers: smaller toi first, then smaller
/// handle (tois here are never NaN: `ray_cast` returns them within
/// `[0, max_toi]`).
fn earlier(a: (f32, ColliderHandle), b: (f32, ColliderHandle)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

impl<D: Dim> World<D> {
    /// The live collider behind a broad-phase proxy's user data (its slot
    /// index), with its handle.
    #[inline]
    fn candidate(&self, slot: u64) -> Option<(ColliderHandle, &Collider<D>)> {
        let h = self.colliders.handle_at(u32::try_from(slot).ok()?)?;
        Some((h, self.colliders.get(h)?))
    }

    /// Calls `f` for every collider passing `filter` whose broad box overlaps
    /// `aabb`, in no particular order; returns how many broad boxes overlap
    /// `aabb` (filtered out or not).
    fn each_candidate_in(
        &self,
        aabb: &Aabb<D::V>,
        filter: &QueryFilter<'_, D>,
        mut f: impl FnMut(ProxyId, ColliderHandle, &Collider<D>),
    ) -> usize {
        let mut boxes = 0usize;
        self.broad.query_aabb(aabb, u64::MAX, &mut |id, slot| {
            boxes += 1;
            if let Some((h, c)) = self.candidate(slot) {
                if filter.passes(h, c) {
                    f(id, h, c);
                }
            }
            true
        });
        boxes
    }

    /// The closest hit of `ray` within `max_toi` (in units of `|ray.dir|`,
    /// may be infinite) on a collider passing `filter`; ties in `toi` go to
    /// the smaller handle. `solid`: a ray starting inside a collider hits it
    /// at 0 (else it hits the boundary on the way out).
    ///
    /// The broad phase's ray traversal is clipped to the best hit so far, so
    /// colliders whose boxes the ray enters later are never tested.
    pub fn cast_ray(
        &self,
        ray: &Ray<D::V>,
        max_toi: f32,
        solid: bool,
        filter: QueryFilter<'_, D>,
    ) -> Result<Option<ColliderRayHit<D::V>>, WorldError> {
        check_ray(ray, max_toi)?;
        let mut best: Option<ColliderRayHit<D::V>> = None;
        self.broad
            .ray_cast(ray.origin, ray.dir, max_toi, u64::MAX, &mut |_, slot, _| {
                let Some((h, c)) = self.candidate(slot) else {
                    return RayControl::Continue;
                };
                if !filter.passes(h, c) {
                    return RayControl::Continue;
                }
                let limit = best.map_or(max_toi, |(_, b)| b.toi);
                if let Some(hit) = D::ray_cast(&c.shape, &c.pose, ray, limit, solid) {
                    let better = match best {
                        None => true,
                        Some((bh, b)) => earlier((hit.toi, h), (b.toi, bh)),
                    };
                    if better && hit.toi <= max_toi {
                        best = Some((h, hit));
                    }
                }
                // Boxes entered exactly at the best toi are still visited, so
                // equal-toi hits get the handle tie-break.
                best.map_or(RayControl::Continue, |(_, b)| RayControl::Clip(b.toi))
            });
        Ok(best)
    }

    /// Every hit of `ray` within `max_toi` on colliders passing `filter`,
    /// one per collider (its first hit), sorted by `toi`, then handle.
    pub fn cast_ray_all(
        &self,
        ray: &Ray<D::V>,
        max_toi: f32,
        solid: bool,
        filter: QueryFilter<'_, D>,
    ) -> Result<Vec<ColliderRayHit<D::V>>, WorldError> {
        check_ray(ray, max_toi)?;
        let mut hits = Vec::new();
        self.broad
            .ray_cast(ray.origin, ray.dir, max_toi, u64::MAX, &mut |_, slot, _| {
                if let Some((h, c)) = self.candidate(slot) {
                    if filter.passes(h, c) {
                        if let Some(hit) = D::ray_cast(&c.shape, &c.pose, ray, max_toi, solid) {
                            hits.push((h, hit));
                        }
                    }
                }
                RayControl::Continue
            });
        crate::sort::unstable_by(&mut hits, |a, b| {
            a.1.toi.total_cmp(&b.1.toi).then(a.0.cmp(&b.0))
        });
        Ok(hits)
    }

    /// Whether `ray` hits any collider passing `filter` within `max_toi`;
    /// stops at the first hit found (not necessarily the closest).
    pub fn cast_ray_any(
        &self,
        ray: &Ray<D::V>,
        max_toi: f32,
        solid: bool,
        filter: QueryFilter<'_, D>,
    ) -> Result<bool, WorldError> {
        check_ray(ray, max_toi)?;
        let mut any = false;
        self.broad
            .ray_cast(ray.origin, ray.dir, max_toi, u64::MAX, &mut |_, slot, _| {
                if let Some((h, c)) = self.candidate(slot) {
                    if filter.passes(h, c)
                        && D::ray_cast(&c.shape, &c.pose, ray, max_toi, solid).is_some()
                    {
                        any = true;
                        return RayControl::Stop;
                    }
                }
                RayControl::Continue
            });
        Ok(any)
    }

    /// The colliders passing `filter` that contain `p` (closed: a point on
    /// the boundary counts), by handle.
    pub fn point_query(
        &self,
        p: D::V,
        filter: QueryFilter<'_, D>,
    ) -> Result<Vec<ColliderHandle>, WorldError> {
        check_point("point", p)?;
        let mut out = Vec::new();
        self.each_candidate_in(&Aabb::new(p, p), &filter, |_, h, c| {
            if D::contains_point(&c.shape, &c.pose, p) {
                out.push(h);
            }
        });
        crate::sort::unstable(&mut out);
        Ok(out)
    }

    /// The colliders passing `filter` whose shape's own box
    /// ([`Dim::aabb`], without margins) overlaps `aabb` (closed: touching
    /// counts), by handle. Bounds may be infinite (`Aabb::everything()`
    /// lists every collider); a NaN bound is an error, an empty box finds
    /// nothing.
    pub fn aabb_overlap(
        &self,
        aabb: &Aabb<D::V>,
        filter: QueryFilter<'_, D>,
    ) -> Result<Vec<ColliderHandle>, WorldError> {
        let nan = (0..D::V::DIM).any(|i| aabb.min.get(i).is_nan() || aabb.max.get(i).is_nan());
        if nan {
            return Err(WorldError::NonFiniteQuery("box"));
        }
        let mut out = Vec::new();
        if aabb.is_empty() {
            return Ok(out);
        }
        self.each_candidate_in(aabb, &filter, |_, h, c| {
            if D::aabb(&c.shape, &c.pose).overlaps(aabb) {
                out.push(h);
            }
        });
        crate::sort::unstable(&mut out);
        Ok(out)
    }

    /// The colliders passing `filter` whose shapes overlap `shape` at `pose`
    /// (exact, closed: touching counts; [`Dim::intersects`] with the query
    /// shape first), by handle.
    pub fn shape_overlap(
        &self,
        shape: &D::Shape,
        pose: &D::Pose,
        filter: QueryFilter<'_, D>,
    ) -> Result<Vec<ColliderHandle>, WorldError> {
        if !D::pose_is_finite(pose) {
            return Err(WorldError::NonFiniteQuery("shape pose"));
        }
        let mut out = Vec::new();
        let b = D::aabb(shape, pose);
        self.each_candidate_in(&b, &filter, |_, h, c| {
            if D::intersects(shape, pose, &c.shape, &c.pose) {
                out.push(h);
            }
        });
        crate::sort::unstable(&mut out);
        Ok(out)
    }

    /// The collider passing `filter` closest to `p`, if one is within
    /// `max_dist` (closed; may be infinite): its handle, the projection of
    /// `p` on its surface ([`Dim::project_point`], not solid: the closest
    /// boundary point, with `is_inside` telling whether `p` is inside), and
    /// the distance from `p` to the collider (0 when `p` is inside). Ties go
    /// to the smaller handle.
    ///
    /// Grow-by-box search over the broad phase: a box around `p` of
    /// half-size `min(max_dist, 1)` grows fourfold while it meets no
    /// candidate; once a candidate at distance `d` is known, one last query
    /// with the box of half-size `d` finds every collider that could be
    /// closer (a collider within `d` of `p` has its box within that box).
    pub fn nearest_within(
        &self,
        p: D::V,
        max_dist: f32,
        filter: QueryFilter<'_, D>,
    ) -> Result<Option<NearestCollider<D::V>>, WorldError> {
        check_point("point", p)?;
        check_length("distance", max_dist)?;
        let mut best: Option<NearestCollider<D::V>> = None;
        // Half-size of the next search box; past this every box is inside.
        let cap = max_dist.min(4.0 * COORD_LIMIT);
        let mut r = cap.min(NEAREST_SEED);
        loop {
            let search = Aabb::new(p, p).loosened(r);
            let seen = self.each_candidate_in(&search, &filter, |id, h, c| {
                // Skip candidates whose broad box is already farther than
                // the best (its shape is no closer than its box).
                if let (Some((_, _, bd)), Some(info)) = (best, self.broad.proxy(id)) {
                    if box_dist_sq(&info.aabb, p) > bd * bd {
                        return;
                    }
                }
                let proj = D::project_point(&c.shape, &c.pose, p, false);
                let d = if proj.is_inside {
                    0.0
                } else {
                    (proj.point - p).length()
                };
                if d > max_dist {
                    return;
                }
                let better = match best {
                    None => true,
                    Some((bh, _, bd)) => earlier((d, h), (bd, bh)),
                };
                if better {
                    best = Some((h, proj, d));
                }
            });
            match best {
                // Everything within `d` was a candidate of this box.
                Some((_, _, d)) if d <= r => return Ok(best),
                Some((_, _, d)) => r = d,
                // Nothing within `r`; stop when `r` covers the allowed
                // distance or every collider was already a candidate.
                None if r >= cap || seen == self.colliders.len() => return Ok(None),
                None => r = (r * NEAREST_GROWTH).min(cap),
            }
        }
    }
}

impl<D: Dim> World<D> {
    /// The first collider passing `filter` that `shape`, starting at `pose`
    /// and moving with velocity `vel` (no rotation) for `max_time` (finite,
    /// `>= 0`), touches: its handle and the cast hit (time in the units of
    /// `vel`, witness points, the normal from the shape to the collider).
    /// A collider the shape already overlaps or touches at the start is hit
    /// at time 0 with [`CastStatus::Penetrating`](crate::ccd::CastStatus) or
    /// `Touching`. Ties in time go to the smaller handle. Should the cast
    /// against a collider not decide within its step budget (a safeguard of
    /// conservative advancement; translations decide in a few steps), the
    /// answer may be that collider with
    /// [`CastStatus::Undecided`]: no
    /// collider is touched before its time, and a later contact with another
    /// one could not be certified the first. It is never taken for a contact
    /// at equal times.
    pub fn cast_shape(
        &self,
        shape: &D::Shape,
        pose: &D::Pose,
        vel: D::V,
        max_time: f32,
        filter: QueryFilter<'_, D>,
    ) -> Result<Option<ColliderCastHit<D::V>>, WorldError> {
        if !D::pose_is_finite(pose) {
            return Err(WorldError::NonFiniteQuery("shape pose"));
        }
        check_point("cast velocity", vel)?;
        if !max_time.is_finite() {
            return Err(WorldError::NonFiniteQuery("cast time"));
        }
        check_length("cast time", max_time)?;
        let end = D::translated(pose, vel * max_time);
        let swept = D::aabb(shape, pose).merged(&D::aabb(shape, &end));
        let motion = D::motion(shape, pose, &end);
        let mut best: Option<ColliderCastHit<D::V>> = None;
        let mut candidates = Vec::new();
        self.each_candidate_in(&swept, &filter, |_, h, _| candidates.push(h));
        crate::sort::unstable(&mut candidates);
        for h in candidates {
            let Ok(c) = self.get(h) else { continue };
            // Over the unit time of `motion`; later than the best is useless.
            let limit = best.map_or(1.0, |(_, b)| b.time / max_time.max(f32::MIN_POSITIVE));
            let options = CastOptions {
                max_time: limit,
                ..CastOptions::default()
            };
            let still = D::motion(&c.shape, &c.pose, &c.pose);
            if let Some(mut hit) = D::cast(shape, &motion, &c.shape, &still, &options) {
                hit.time *= max_time;
                let undecided = |s| s == CastStatus::Undecided;
                let first = best.is_none_or(|(_, b)| {
                    hit.time < b.time
                        || (hit.time == b.time && undecided(b.status) && !undecided(hit.status))
                });
                if first {
                    best = Some((h, hit));
                }
            }
        }
        Ok(best)
    }
}
