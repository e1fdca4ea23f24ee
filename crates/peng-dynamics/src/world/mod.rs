//! [`PhysicsWorld`]: bodies with colliders, stepped in time.
//!
//! The world owns its bodies (by [`BodyHandle`]) and a collision
//! [`World`] that holds every collider (by [`ColliderHandle`]), placed at
//! its body's pose. A [`step`](PhysicsWorld::step):
//!
//! 1. places the colliders at their bodies' poses, each with a speculative
//!    margin of half the settings' speculative distance plus how far it can
//!    move in the step (`dt·(|v| + |ω|·reach)`), so that fast bodies find
//!    their contacts before they reach them and do not tunnel;
//! 2. updates the collision world (broad phase, manifolds with stable
//!    feature ids, contact events);
//! 3. turns each manifold into a contact constraint, warm-started from the
//!    impulses its points had in the last step (matched by feature id);
//! 4. runs the solver's substeps (the crate's `solver` module) and writes the bodies
//!    back.
//!
//! Contact events are the collision world's: a pair begins when its
//! surfaces come within the pair's speculative margin.

mod awake;
mod contacts;
mod desc;
mod joints;
mod profile;
mod settings;
mod sleep;
mod step;

pub use desc::{BodyDesc, ColliderDesc};
pub use profile::StepProfile;
pub use settings::StepSettings;

use peng::math::Vector;
use peng::world::{Collider, ColliderHandle, ContactEvent, Margin, World};

use crate::body::{Body, BodyKind};
use crate::determinism::Kernels;
use crate::dim::DynDim;
use crate::solver::body::SolverBody;
use crate::DynamicsError;

/// A physics world in 2D.
pub type PhysicsWorld2 = PhysicsWorld<peng::world::Dim2>;
/// A physics world in 3D.
pub type PhysicsWorld3 = PhysicsWorld<peng::world::Dim3>;

/// A body of a [`PhysicsWorld`], generation-checked: a handle of a removed
/// body names nothing, even when its slot is reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BodyHandle {
    index: u32,
    generation: u32,
}

impl BodyHandle {
    /// The slot index (dense, reused after removal).
    pub fn index(self) -> u32 {
        self.index
    }
}

/// A collider's placement in the collision world: pose, margin and
/// displacement (`World::set_placements`).
type Placement<D> = (
    ColliderHandle,
    <D as peng::world::Dim>::Pose,
    Margin,
    <D as peng::world::Dim>::V,
);

struct BodySlot<D: DynDim> {
    generation: u32,
    body: Option<Body<D>>,
    colliders: Vec<ColliderHandle>,
}

/// What the dynamics keeps about a collider.
#[derive(Debug, Clone)]
pub(crate) struct ColliderInfo<D: DynDim> {
    pub body: BodyHandle,
    pub local_pose: D::Pose,
    pub friction: f32,
    pub restitution: f32,
    /// Mass properties in the body frame (zero for sensors).
    pub mass: D::Mass,
    /// Distance from the body origin to the farthest point of the collider
    /// (0 for unbounded shapes).
    pub reach: f32,
}

/// The last step's contacts, for warm starting: each contact's key
/// (collider pair and parts, sorted by pair as the touching pairs are),
/// its first point in `impulses` (then the total), and each point's
/// feature id, normal impulse and friction impulse as a world vector (the
/// tangent basis of the next step may differ: 3D tangents come from the
/// normal, which turns). The step's own lists, kept by swapping, not
/// copied.
pub(crate) struct WarmStart<V> {
    /// Each contact's key, in pair order.
    pub keys: Vec<contacts::ContactKey>,
    /// Each contact's first point in `impulses`, then the total.
    pub points: Vec<u32>,
    /// Each point's feature id and impulses.
    pub impulses: Vec<crate::solver::PointImpulse<V>>,
}

impl<V> Default for WarmStart<V> {
    fn default() -> Self {
        WarmStart {
            keys: Vec::new(),
            points: Vec::new(),
            impulses: Vec::new(),
        }
    }
}

/// Rigid bodies with colliders, contacts and gravity. See the module
/// documentation.
pub struct PhysicsWorld<D: DynDim> {
    settings: StepSettings<D>,
    bodies: Vec<BodySlot<D>>,
    free: Vec<u32>,
    collision: World<D>,
    colliders: Vec<Option<ColliderInfo<D>>>,
    /// The last step's contacts and impulses.
    warm: WarmStart<D::V>,
    // Buffers reused from step to step.
    solver_bodies: Vec<SolverBody<D>>,
    /// The step's contacts: bodies, collider-pair keys, and each one's
    /// first point in `impulses` (then the total).
    contact_pairs: Vec<(u32, u32)>,
    contact_keys: Vec<contacts::ContactKey>,
    contact_points: Vec<u32>,
    /// The threaded contact build's chunk buffers.
    contact_chunks: Vec<contacts::ChunkBuffer<D>>,
    /// Scratch for `sync_colliders`: the colliders' new placements.
    placements: Vec<Placement<D>>,
    impulses: Vec<crate::solver::PointImpulse<D::V>>,
    lanes: crate::solver::Lanes<D>,
    /// The bodies' centres of mass in the world, for the contact anchors.
    coms: Vec<D::V>,
    joints: crate::joint::JointSet<D>,
    steps: u64,
    profile: StepProfile,
    /// A test's hook: the exact kernels in the baseline build, as on a
    /// processor without AVX2 ([`Kernels::ExactBaseline`]).
    #[cfg(test)]
    pub(crate) baseline_kernels: bool,
}

impl<D: DynDim> Default for PhysicsWorld<D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D: DynDim> core::fmt::Debug for PhysicsWorld<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PhysicsWorld")
            .field("bodies", &(self.bodies.len() - self.free.len()))
            .field("colliders", &self.collision.len())
            .field("steps", &self.steps)
            .finish_non_exhaustive()
    }
}

/// Checks a material value: finite and `>= 0`.
fn check_material(name: &'static str, v: f32) -> Result<(), DynamicsError> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(DynamicsError::InvalidMaterial(name, v))
    }
}

impl<D: DynDim> PhysicsWorld<D> {
    /// The lane kernels and scalar math of a step, from
    /// [`StepSettings::determinism`].
    pub(crate) fn kernels(&self) -> Kernels {
        #[cfg(test)]
        let baseline = self.baseline_kernels;
        #[cfg(not(test))]
        let baseline = false;
        Kernels::of(self.settings.determinism, baseline)
    }
}

impl<D: DynDim> PhysicsWorld<D> {
    /// An empty world with the default settings (Earth gravity down the y
    /// axis, 60 Hz, 4 substeps).
    pub fn new() -> Self {
        let mut collision = World::new();
        // Colliders of one body never collide with each other.
        collision.set_pair_filter(Some(Box::new(|_, a: &Collider<D>, _, b: &Collider<D>| {
            a.user_data != b.user_data
        })));
        PhysicsWorld {
            settings: StepSettings::default(),
            bodies: Vec::new(),
            free: Vec::new(),
            collision,
            colliders: Vec::new(),
            warm: WarmStart::default(),
            solver_bodies: Vec::new(),
            contact_pairs: Vec::new(),
            contact_keys: Vec::new(),
            contact_points: Vec::new(),
            contact_chunks: Vec::new(),
            placements: Vec::new(),
            impulses: Vec::new(),
            lanes: Default::default(),
            coms: Vec::new(),
            joints: Default::default(),
            steps: 0,
            profile: StepProfile::default(),
            #[cfg(test)]
            baseline_kernels: false,
        }
    }

    /// The step settings.
    pub fn settings(&self) -> &StepSettings<D> {
        &self.settings
    }

    /// Where the last step's time went, phase by phase (zero before the
    /// first step).
    pub fn profile(&self) -> StepProfile {
        self.profile
    }

    /// The step settings, to change (checked at the next step).
    pub fn settings_mut(&mut self) -> &mut StepSettings<D> {
        &mut self.settings
    }

    /// Adds a body (without colliders it has no mass: add colliders next).
    pub fn add_body(&mut self, desc: BodyDesc<D>) -> BodyHandle {
        let mut body = Body::new(desc.kind, desc.pose, D::Mass::default());
        body.linvel = desc.linvel;
        body.angvel = desc.angvel;
        body.linear_damping = desc.linear_damping;
        body.angular_damping = desc.angular_damping;
        body.gravity_scale = desc.gravity_scale;
        body.can_sleep = desc.can_sleep;
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.bodies.push(BodySlot {
                    generation: 0,
                    body: None,
                    colliders: Vec::new(),
                });
                (self.bodies.len() - 1) as u32
            }
        };
        let slot = &mut self.bodies[index as usize];
        slot.body = Some(body);
        slot.colliders.clear();
        BodyHandle {
            index,
            generation: slot.generation,
        }
    }

    fn slot(&self, h: BodyHandle) -> Option<&BodySlot<D>> {
        self.bodies
            .get(h.index as usize)
            .filter(|s| s.generation == h.generation && s.body.is_some())
    }

    /// The body of a live handle.
    pub fn body(&self, h: BodyHandle) -> Option<&Body<D>> {
        self.slot(h).and_then(|s| s.body.as_ref())
    }

    /// The body of a live handle, to change its pose, velocities, forces or
    /// damping (checked at the next step). A sleeping body (and its island)
    /// wakes up.
    pub fn body_mut(&mut self, h: BodyHandle) -> Option<&mut Body<D>> {
        let island = self.body(h).filter(|b| b.sleeping).map(|b| b.island);
        if let Some(i) = island {
            self.wake_island(i);
        }
        self.bodies
            .get_mut(h.index as usize)
            .filter(|s| s.generation == h.generation)
            .and_then(|s| s.body.as_mut())
    }

    /// The live bodies with their handles, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyHandle, &Body<D>)> {
        self.bodies.iter().enumerate().filter_map(|(i, s)| {
            let b = s.body.as_ref()?;
            Some((
                BodyHandle {
                    index: i as u32,
                    generation: s.generation,
                },
                b,
            ))
        })
    }

    /// Number of live bodies.
    pub fn body_count(&self) -> usize {
        self.bodies.len() - self.free.len()
    }

    /// The colliders of a body.
    pub fn body_colliders(&self, h: BodyHandle) -> &[ColliderHandle] {
        self.slot(h).map_or(&[], |s| &s.colliders)
    }

    /// The body a collider is attached to.
    pub fn collider_body(&self, c: ColliderHandle) -> Option<BodyHandle> {
        self.info(c).map(|i| i.body)
    }

    /// A collider as the collision world has it: shape, world pose (as of
    /// the last step), filter, flags.
    pub fn collider(&self, c: ColliderHandle) -> Option<&Collider<D>> {
        self.collision.get(c).ok()
    }

    /// A collider's pose in its body's frame.
    pub fn collider_local_pose(&self, c: ColliderHandle) -> Option<D::Pose> {
        self.info(c).map(|i| i.local_pose)
    }

    pub(crate) fn info(&self, c: ColliderHandle) -> Option<&ColliderInfo<D>> {
        if !self.collision.contains(c) {
            return None;
        }
        self.colliders.get(c.index() as usize)?.as_ref()
    }

    /// Attaches a collider to a body; the body's mass properties become the
    /// sum of its solid colliders'. A dynamic body's collider must have a
    /// mass (a closed mesh, a bounded shape); static and kinematic bodies
    /// take any shape.
    pub fn add_collider(
        &mut self,
        body: BodyHandle,
        desc: ColliderDesc<D>,
    ) -> Result<ColliderHandle, DynamicsError> {
        check_material("density", desc.density)?;
        check_material("friction", desc.friction)?;
        check_material("restitution", desc.restitution)?;
        let b = self.body(body).ok_or(DynamicsError::StaleBody(body))?;
        let pose = D::pose_mul(&b.pose, &desc.local_pose);
        // Static and kinematic bodies need no mass: an open mesh or a
        // half-space is a fine floor (its mass error matters only on a
        // dynamic body).
        let mass = match (desc.sensor, D::mass_of(&desc.shape, desc.density)) {
            (true, _) => D::Mass::default(),
            (false, Ok(m)) => D::mass_transformed(&m, &desc.local_pose),
            (false, Err(e)) if b.kind == BodyKind::Dynamic => return Err(e.into()),
            (false, Err(_)) => D::Mass::default(),
        };
        let local_box = D::aabb(&desc.shape, &desc.local_pose);
        let reach = {
            let c = local_box.center();
            let r = c.length() + (local_box.max - local_box.min).length() * 0.5;
            if r.is_finite() {
                r
            } else {
                0.0
            }
        };
        let collider = Collider::new(desc.shape, pose)
            .with_filter(desc.filter)
            .with_sensor(desc.sensor)
            .with_margin(Margin::Offset(0.5 * self.settings.speculative_distance))
            .with_user_data(body.index as u64);
        let h = self.collision.insert(collider)?;
        let i = h.index() as usize;
        if self.colliders.len() <= i {
            self.colliders.resize_with(i + 1, || None);
        }
        self.colliders[i] = Some(ColliderInfo {
            body,
            local_pose: desc.local_pose,
            friction: desc.friction,
            restitution: desc.restitution,
            mass,
            reach,
        });
        self.bodies[body.index as usize].colliders.push(h);
        self.update_mass(body);
        Ok(h)
    }

    /// Recomputes a body's mass properties from its colliders.
    fn update_mass(&mut self, body: BodyHandle) {
        let slot = &self.bodies[body.index as usize];
        let total = slot
            .colliders
            .iter()
            .filter_map(|c| self.colliders.get(c.index() as usize)?.as_ref())
            .fold(D::Mass::default(), |acc, i| D::mass_add(&acc, &i.mass));
        if let Some(b) = self.bodies[body.index as usize].body.as_mut() {
            b.set_mass_properties(total);
        }
    }

    /// Removes a collider from its body (the body's mass is recomputed).
    pub fn remove_collider(&mut self, c: ColliderHandle) -> Result<(), DynamicsError> {
        let body = self
            .info(c)
            .map(|i| i.body)
            .ok_or(DynamicsError::StaleCollider(c))?;
        self.collision.remove(c)?;
        self.colliders[c.index() as usize] = None;
        self.bodies[body.index as usize]
            .colliders
            .retain(|&x| x != c);
        self.update_mass(body);
        Ok(())
    }

    /// Removes a body and its colliders, and returns it.
    pub fn remove_body(&mut self, h: BodyHandle) -> Result<Body<D>, DynamicsError> {
        if self.slot(h).is_none() {
            return Err(DynamicsError::StaleBody(h));
        }
        let slot = &mut self.bodies[h.index as usize];
        let colliders = core::mem::take(&mut slot.colliders);
        let body = slot.body.take().ok_or(DynamicsError::StaleBody(h))?;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(h.index);
        // Whatever rested on it must fall.
        self.wake_all();
        for c in colliders {
            let _ = self.collision.remove(c);
            self.colliders[c.index() as usize] = None;
        }
        self.remove_joints_of(h);
        Ok(body)
    }

    /// The collision world (for scene queries: rays, shape casts,
    /// overlaps; its colliders' `user_data` is the body slot index).
    pub fn collision_world(&self) -> &World<D> {
        &self.collision
    }

    /// The contact events of the last step (began, ended; persisted for
    /// continuous colliders), in pair order.
    pub fn contact_events(&self) -> &[ContactEvent] {
        self.collision.events()
    }

    /// Number of steps taken.
    pub fn step_count(&self) -> u64 {
        self.steps
    }

    /// The contact manifolds between two colliders at the last step (see
    /// [`World::contact_manifolds`]).
    pub fn contact_manifolds(
        &self,
        a: ColliderHandle,
        b: ColliderHandle,
    ) -> Option<&[D::Manifold]> {
        self.collision.contact_manifolds(a, b)
    }

    /// Whether the body kind responds to contacts.
    pub(crate) fn is_dynamic(&self, i: usize) -> bool {
        self.bodies[i]
            .body
            .as_ref()
            .is_some_and(|b| b.kind == BodyKind::Dynamic)
    }
}
