//! 3D casts: moving balls (closed form), linear casts of every convex pair
//! and nonlinear casts.
