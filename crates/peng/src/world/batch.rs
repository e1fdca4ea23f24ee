//! Moving many colliders at once: a physics step places every collider of
//! every moving body before each update. The checks and the new broad-phase
//! boxes (a shape's box at its pose, the costly part) are computed on
//! rayon's threads; the broad phase then takes the boxes in list order.

use rayon::prelude::*;

use super::{broad_box_at, check_placement, has_centre_radius, World, WorldError};
use super::{ColliderHandle, Margin};
use crate::bound::Aabb;
use crate::broad::BroadPhase;

/// Below this many moves, the calling thread plans them alone.
const PARALLEL_MIN: usize = 256;

/// What a move does, decided before anything changes.
enum Plan<V> {
    /// The collider already has that pose and margin.
    Same,
    /// A new broad-phase box, and the translation it moved by.
    Place(Aabb<V>, V),
    /// Through [`World::modify`]: a bullet (its box is swept from its last
    /// pose, which `modify` reads).
    Modify,
    /// A margin that becomes or stops being a centre radius, which may
    /// change every box: every move then goes through `modify`.
    Recount,
}

impl<D: super::Dim> World<D> {
    /// Gives each listed collider its pose and margin, as
    /// [`modify`](Self::modify) setting both would one after another, with
    /// the checks and the new broad-phase boxes computed on rayon's threads.
    /// A collider that already has its listed pose and margin is left
    /// unchanged (not marked as moved). A handle listed twice takes its last
    /// entry.
    ///
    /// Fails, changing nothing, on the first entry (in list order) with a
    /// stale handle, a pose that is not finite or too far from the origin,
    /// or an invalid margin.
    pub fn set_poses_and_margins(
        &mut self,
        moves: &[(ColliderHandle, D::Pose, Margin)],
    ) -> Result<(), WorldError> {
        let plan = |&(h, pose, margin): &(ColliderHandle, D::Pose, Margin)| {
            let c = self.colliders.get(h).ok_or(WorldError::StaleHandle(h))?;
            check_placement::<D>(&pose, margin)?;
            if c.pose == pose && c.margin == margin {
                return Ok(Plan::Same);
            }
            if matches!(margin, Margin::CenterRadius(_)) != has_centre_radius(c) {
                return Ok(Plan::Recount);
            }
            if c.ccd {
                return Ok(Plan::Modify);
            }
            let b = broad_box_at::<D>(&c.shape, &pose, margin, self.centre_radii > 0);
            Ok(Plan::Place(
                b,
                D::translation(&pose) - D::translation(&c.pose),
            ))
        };
        let plans: Vec<Plan<D::V>> = if moves.len() >= PARALLEL_MIN {
            moves.par_iter().map(plan).collect::<Result<_, _>>()?
        } else {
            moves.iter().map(plan).collect::<Result<_, _>>()?
        };
        // A margin that changes kind may change every box planned above:
        // then each move goes through `modify`, in order.
        if plans.iter().any(|p| matches!(p, Plan::Recount)) {
            for &(h, pose, margin) in moves {
                self.modify_if_moved(h, pose, margin)?;
            }
            return Ok(());
        }
        for (&(h, pose, margin), plan) in moves.iter().zip(plans) {
            match plan {
                Plan::Place(b, moved_by) => {
                    if let Some(c) = self.colliders.get_mut(h) {
                        c.pose = pose;
                        c.margin = margin;
                    }
                    let _ = self
                        .broad
                        .move_proxy(self.proxies[h.index() as usize], b, moved_by);
                    self.mark_changed(h);
                }
                // A bullet, or planned against the collider as it was
                // before an earlier entry for the same handle.
                Plan::Same | Plan::Modify | Plan::Recount => {
                    self.modify_if_moved(h, pose, margin)?;
                }
            }
        }
        Ok(())
    }

    /// [`modify`](Self::modify) setting `pose` and `margin`, unless the
    /// collider has them already.
    fn modify_if_moved(
        &mut self,
        h: ColliderHandle,
        pose: D::Pose,
        margin: Margin,
    ) -> Result<(), WorldError> {
        let c = self.colliders.get(h).ok_or(WorldError::StaleHandle(h))?;
        if c.pose == pose && c.margin == margin {
            return Ok(());
        }
        self.modify(h, |c| {
            c.pose = pose;
            c.margin = margin;
        })
    }
}
