//! GJK (distance, closest points, overlap) and EPA (penetration) on support
//! functions in 3D.
