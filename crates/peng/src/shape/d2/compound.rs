use super::Shape;
use crate::math::policy::GeometryError;
use crate::math::Pose2;

/// Several shapes, each placed by a pose relative to the compound's frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Compound {
    parts: Vec<(Pose2, Shape)>,
}

impl Compound {
    /// A compound of at least one part; poses must be finite.
    pub fn new(parts: Vec<(Pose2, Shape)>) -> Result<Self, GeometryError> {
        if parts.is_empty() {
            return Err(GeometryError::TooFew {
                what: "compound",
                needed: 1,
                got: 0,
            });
        }
        if parts.iter().any(|(p, _)| !p.is_finite()) {
            return Err(GeometryError::NonFinite {
                what: "compound part pose",
            });
        }
        Ok(Compound { parts })
    }

    /// The parts and their poses relative to the compound.
    #[inline]
    pub fn parts(&self) -> &[(Pose2, Shape)] {
        &self.parts
    }
}
