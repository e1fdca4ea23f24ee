//! Engine-neutral scene descriptions: bodies, their shapes and joints, as
//! plain data that any physics engine (peng-dynamics, rapier) can build.
//!
//! Conventions:
//! - Units are metres, kilograms and seconds; angles are radians.
//! - A body's `position` is the world position of its origin (its frame),
//!   not of its centre of mass; each shape sits at `offset`/`angle` in that
//!   frame. Engines compute mass, centre of mass and inertia from the shapes
//!   and their densities (kinematic and static bodies ignore densities).
//! - A body's `linvel` is the velocity of its origin. Every scene here
//!   starts dynamic bodies at rest, and its moving kinematic bodies turn
//!   about their origin, which is also their centre of mass, so engines that
//!   take the centre of mass's velocity read the same numbers.
//! - Joint anchors are given once, in world space, at the scene's start;
//!   adapters convert them into each body's local frame.

use glam::{Quat, Vec2, Vec3};

/// Box2D's default friction coefficient (`b2DefaultShapeDef`), used by every
/// shape of Box2D's benchmark scenes unless a scene says otherwise.
pub const DEFAULT_FRICTION: f32 = 0.6;

/// Box2D's default density, in kg/m² (2D) or kg/m³ (3D).
pub const DEFAULT_DENSITY: f32 = 1.0;

/// How a body moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Moved by gravity, contacts and joints.
    Dynamic,
    /// Moved only by its own velocity (infinite mass; pushes dynamic bodies).
    Kinematic,
    /// Never moves.
    Static,
}

/// Which shapes may touch: two shapes collide when each one's `category`
/// shares a bit with the other's `mask` (Box2D's `b2Filter`; rapier's
/// `InteractionGroups` with memberships = category, filter = mask).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// The groups this shape belongs to.
    pub category: u32,
    /// The groups this shape may touch.
    pub mask: u32,
}

impl Default for Filter {
    /// Box2D's default: category 1, touches everything.
    fn default() -> Self {
        Filter {
            category: 1,
            mask: u32::MAX,
        }
    }
}

impl Filter {
    /// Whether shapes with these two filters may touch.
    pub fn allows(&self, other: &Filter) -> bool {
        (self.category & other.mask) != 0 && (other.category & self.mask) != 0
    }
}

/// Surface and mass parameters shared by 2D and 3D shapes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Material {
    /// Mass per unit area (2D) or volume (3D).
    pub density: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// Coefficient of restitution (0: no bounce).
    pub restitution: f32,
}

impl Default for Material {
    /// Box2D's defaults: density 1, friction 0.6, restitution 0.
    fn default() -> Self {
        Material {
            density: DEFAULT_DENSITY,
            friction: DEFAULT_FRICTION,
            restitution: 0.0,
        }
    }
}

// ---------------------------------------------------------------- 2D

/// A 2D shape's geometry, in the shape's own frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry2 {
    /// A disc centred on the shape's origin.
    Circle {
        /// Radius.
        radius: f32,
    },
    /// An axis-aligned box (in the shape's frame) centred on its origin.
    Box {
        /// Half width and half height.
        half_extents: Vec2,
    },
    /// The convex hull of `points`, optionally rounded by `radius`.
    Polygon {
        /// The polygon's points (counter-clockwise, convex).
        points: Vec<Vec2>,
        /// Rounding radius (0 for a sharp polygon).
        radius: f32,
    },
    /// A line segment (zero thickness), typically for static ground.
    Segment {
        /// First end point.
        a: Vec2,
        /// Second end point.
        b: Vec2,
    },
}

/// One shape attached to a 2D body.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeSpec2 {
    /// The geometry, in the shape's frame.
    pub geometry: Geometry2,
    /// The shape frame's origin in the body frame.
    pub offset: Vec2,
    /// The shape frame's rotation in the body frame.
    pub angle: f32,
    /// Density, friction and restitution.
    pub material: Material,
    /// Which shapes this one may touch.
    pub filter: Filter,
}

impl ShapeSpec2 {
    /// A shape at the body's origin with Box2D's default material and filter.
    pub fn new(geometry: Geometry2) -> Self {
        ShapeSpec2 {
            geometry,
            offset: Vec2::ZERO,
            angle: 0.0,
            material: Material::default(),
            filter: Filter::default(),
        }
    }

    /// A box of the given half extents with default material.
    pub fn cuboid(half_extents: Vec2) -> Self {
        Self::new(Geometry2::Box { half_extents })
    }

    /// A circle of the given radius with default material.
    pub fn circle(radius: f32) -> Self {
        Self::new(Geometry2::Circle { radius })
    }

    /// This shape moved to `offset` in the body frame.
    pub fn with_offset(mut self, offset: Vec2) -> Self {
        self.offset = offset;
        self
    }

    /// This shape with another density.
    pub fn with_density(mut self, density: f32) -> Self {
        self.material.density = density;
        self
    }

    /// This shape with another filter.
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }
}

/// A 2D rigid body.
#[derive(Clone, Debug, PartialEq)]
pub struct BodySpec2 {
    /// How the body moves.
    pub kind: Kind,
    /// World position of the body's origin.
    pub position: Vec2,
    /// World rotation of the body.
    pub angle: f32,
    /// Initial linear velocity.
    pub linvel: Vec2,
    /// Initial angular velocity (counter-clockwise positive).
    pub angvel: f32,
    /// The body's shapes (at least one for every body of these scenes).
    pub shapes: Vec<ShapeSpec2>,
}

impl BodySpec2 {
    /// A body at rest at `position`, unrotated, with one shape.
    pub fn new(kind: Kind, position: Vec2, shape: ShapeSpec2) -> Self {
        Self::with_shapes(kind, position, vec![shape])
    }

    /// A body at rest at `position`, unrotated, with several shapes.
    pub fn with_shapes(kind: Kind, position: Vec2, shapes: Vec<ShapeSpec2>) -> Self {
        BodySpec2 {
            kind,
            position,
            angle: 0.0,
            linvel: Vec2::ZERO,
            angvel: 0.0,
            shapes,
        }
    }
}

/// A 2D joint between two bodies of the same scene.
#[derive(Clone, Debug, PartialEq)]
pub enum JointSpec2 {
    /// A hinge: the two bodies share the point `anchor` and turn freely
    /// about it. The connected bodies do not collide with each other
    /// (Box2D's default `collideConnected = false`).
    Revolute {
        /// Index of the first body in [`Scene2::bodies`].
        body_a: usize,
        /// Index of the second body in [`Scene2::bodies`].
        body_b: usize,
        /// The shared point, in world space at the scene's start.
        anchor: Vec2,
    },
}

/// A complete 2D scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene2 {
    /// Gravity acceleration.
    pub gravity: Vec2,
    /// Every body, static ground included.
    pub bodies: Vec<BodySpec2>,
    /// Joints between bodies, by index.
    pub joints: Vec<JointSpec2>,
    /// Whether resting bodies may fall asleep. Box2D turns sleeping off in
    /// its benchmarks (except the tumbler, which never rests), so that the
    /// step time measures the whole scene.
    pub allow_sleep: bool,
}

impl Scene2 {
    /// The number of bodies of the given kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.bodies.iter().filter(|b| b.kind == kind).count()
    }

    /// The number of shapes over all bodies.
    pub fn shape_count(&self) -> usize {
        self.bodies.iter().map(|b| b.shapes.len()).sum()
    }
}

// ---------------------------------------------------------------- 3D

/// A 3D shape's geometry, in the shape's own frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry3 {
    /// A ball centred on the shape's origin.
    Ball {
        /// Radius.
        radius: f32,
    },
    /// A box centred on the shape's origin, axis-aligned in its frame.
    Cuboid {
        /// Half extents along x, y and z.
        half_extents: Vec3,
    },
    /// The convex hull of a point cloud (engines compute the hull).
    ConvexHull {
        /// The points (not necessarily all on the hull).
        points: Vec<Vec3>,
    },
    /// A triangle mesh, typically static ground; triangles are
    /// counter-clockwise seen from their front (outward) side.
    TriMesh {
        /// Vertex positions.
        vertices: Vec<Vec3>,
        /// Vertex indices, three per triangle.
        indices: Vec<[u32; 3]>,
    },
}

/// One shape attached to a 3D body.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeSpec3 {
    /// The geometry, in the shape's frame.
    pub geometry: Geometry3,
    /// The shape frame's origin in the body frame.
    pub offset: Vec3,
    /// The shape frame's rotation in the body frame.
    pub rotation: Quat,
    /// Density, friction and restitution.
    pub material: Material,
    /// Which shapes this one may touch.
    pub filter: Filter,
}

impl ShapeSpec3 {
    /// A shape at the body's origin with default material and filter.
    pub fn new(geometry: Geometry3) -> Self {
        ShapeSpec3 {
            geometry,
            offset: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            material: Material::default(),
            filter: Filter::default(),
        }
    }

    /// A box of the given half extents with default material.
    pub fn cuboid(half_extents: Vec3) -> Self {
        Self::new(Geometry3::Cuboid { half_extents })
    }
}

/// A 3D rigid body.
#[derive(Clone, Debug, PartialEq)]
pub struct BodySpec3 {
    /// How the body moves.
    pub kind: Kind,
    /// World position of the body's origin.
    pub position: Vec3,
    /// World rotation of the body.
    pub rotation: Quat,
    /// Initial linear velocity.
    pub linvel: Vec3,
    /// Initial angular velocity (world axis times rad/s).
    pub angvel: Vec3,
    /// The body's shapes.
    pub shapes: Vec<ShapeSpec3>,
}

impl BodySpec3 {
    /// A body at rest at `position` with rotation `rotation` and one shape.
    pub fn new(kind: Kind, position: Vec3, rotation: Quat, shape: ShapeSpec3) -> Self {
        BodySpec3 {
            kind,
            position,
            rotation,
            linvel: Vec3::ZERO,
            angvel: Vec3::ZERO,
            shapes: vec![shape],
        }
    }
}

/// A 3D joint between two bodies of the same scene.
#[derive(Clone, Debug, PartialEq)]
pub enum JointSpec3 {
    /// A hinge: the bodies share `anchor` and turn about `axis` through it.
    /// The connected bodies do not collide with each other.
    Revolute {
        /// Index of the first body in [`Scene3::bodies`].
        body_a: usize,
        /// Index of the second body in [`Scene3::bodies`].
        body_b: usize,
        /// The shared point, in world space at the scene's start.
        anchor: Vec3,
        /// The hinge axis (unit), in world space at the scene's start.
        axis: Vec3,
    },
}

/// A complete 3D scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene3 {
    /// Gravity acceleration.
    pub gravity: Vec3,
    /// Every body, static ground included.
    pub bodies: Vec<BodySpec3>,
    /// Joints between bodies, by index.
    pub joints: Vec<JointSpec3>,
    /// Whether resting bodies may fall asleep (off in every benchmark scene,
    /// so that the step time measures the whole scene).
    pub allow_sleep: bool,
}

impl Scene3 {
    /// The number of bodies of the given kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.bodies.iter().filter(|b| b.kind == kind).count()
    }

    /// The number of shapes over all bodies.
    pub fn shape_count(&self) -> usize {
        self.bodies.iter().map(|b| b.shapes.len()).sum()
    }
}
