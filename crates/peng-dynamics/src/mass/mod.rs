//! Mass properties: mass, centre of mass and inertia tensor of shapes.
