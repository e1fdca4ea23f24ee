#!/usr/bin/env python3
"""Shared volume of element pairs, measured on IfcOpenShell's own meshes:
independent evidence for clashes where peng and ifcclash disagree.

    python3 tools/overlap_volume.py MODEL.ifc GUID_A GUID_B [GUID_A GUID_B ...]

For each pair: the two elements are tessellated by IfcOpenShell (world
coordinates), a 48^3 grid of points over the overlap of their bounding boxes is
tested for lying inside each mesh (ray parity along a skewed direction,
Moeller-Trumbore in numpy), and the volume inside both is printed with the
overlap box's size. A shared volume well above zero is a real clash; touching
elements share none.
"""
import sys

import ifcopenshell
import ifcopenshell.geom
import numpy as np

DIR = np.array([0.5773, 0.6183, -0.5331])
DIR /= np.linalg.norm(DIR)


def mesh(model, settings, guid):
    shape = ifcopenshell.geom.create_shape(settings, model.by_guid(guid))
    v = np.array(shape.geometry.verts, dtype=float).reshape(-1, 3)
    f = np.array(shape.geometry.faces, dtype=int).reshape(-1, 3)
    return v[f]  # (n, 3, 3) triangle corners


def inside(tris, pts):
    """Ray parity: number of triangles a ray from each point crosses, odd = inside."""
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    e1, e2 = b - a, c - a
    pvec = np.cross(DIR, e2)
    det = np.einsum("ij,ij->i", e1, pvec)
    ok = np.abs(det) > 1e-14
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    count = np.zeros(len(pts), dtype=int)
    for start in range(0, len(pts), 4096):
        p = pts[start:start + 4096][:, None, :]  # (m, 1, 3)
        s = p - a[None]
        u = np.einsum("mnj,nj->mn", s, pvec) * inv
        q = np.cross(s, e1[None])
        v = np.einsum("j,mnj->mn", DIR, q) * inv
        t = np.einsum("nj,mnj->mn", e2, q) * inv
        hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
        count[start:start + 4096] = hit.sum(axis=1)
    return count % 2 == 1


def main():
    model = ifcopenshell.open(sys.argv[1])
    settings = ifcopenshell.geom.settings()
    settings.set("use-world-coords", True)
    guids = sys.argv[2:]
    n = 48
    for ga, gb in zip(guids[::2], guids[1::2]):
        ta, tb = mesh(model, settings, ga), mesh(model, settings, gb)
        lo = np.maximum(ta.reshape(-1, 3).min(0), tb.reshape(-1, 3).min(0))
        hi = np.minimum(ta.reshape(-1, 3).max(0), tb.reshape(-1, 3).max(0))
        if np.any(lo > hi):
            print(f"{ga} {gb} 0 (boxes apart)")
            continue
        step = (hi - lo) / n
        axes = [lo[k] + step[k] * (np.arange(n) + 0.5) for k in range(3)]
        pts = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, 3)
        both = inside(ta, pts) & inside(tb, pts)
        vol = both.sum() * np.prod(step)
        print(f"{ga} {gb} {vol:.3e} m3 (overlap box {hi[0]-lo[0]:.3f} x {hi[1]-lo[1]:.3f} x {hi[2]-lo[2]:.3f} m)")


if __name__ == "__main__":
    main()
