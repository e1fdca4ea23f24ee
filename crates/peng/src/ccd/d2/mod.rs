//! 2D casts: moving circles (closed form), the swept separating-axis test for
//! polygons, linear casts of every convex pair and nonlinear casts.
