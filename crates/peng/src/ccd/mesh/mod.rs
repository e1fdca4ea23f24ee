//! Vertex–face and edge–edge continuous collision detection between two time
//! steps of deforming triangle meshes, in `f64`, conservative.
