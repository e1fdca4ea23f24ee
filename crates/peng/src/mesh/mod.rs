//! Triangle meshes (3D) and polylines (2D) with static bounding-volume hierarchies.
