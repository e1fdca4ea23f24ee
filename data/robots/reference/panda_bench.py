"""Pinocchio (with coal) on the Panda, one thread, the side of the comparison
that `cargo bench -p peng-robot --bench panda_bench` prints for
peng on the same configurations and scene.

    python3 -m venv /tmp/pinenv && /tmp/pinenv/bin/pip install pin==4.1.0
    /tmp/pinenv/bin/python data/robots/reference/panda_bench.py

The configurations are those of `panda_hulls.py` (SplitMix64 from seed
20261130). The cell: 20 boxes around the arm from `panda_boxes.csv` (written
here on the first run from SplitMix64 seed 7: centres within 0.85 m of the
base, off the base column, half sides 0.02 to 0.08 m, turned about z). Each
row printed: what was timed, configurations a second (best of 3), and the
count of colliding configurations, which peng's side must match. Also
writes `panda_bench_verdicts.txt` (the verdicts with the boxes, in the
format of `panda_hull_verdicts.txt`) for the test that compares them.
"""
import math
import os
import time

import coal
import numpy as np
import pinocchio as pin
from panda_common import configs, draw
from splitmix import SplitMix64

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "example-robot-data", "robots", "panda_description")
URDF = os.path.join(ROOT, "urdf", "panda.urdf")
SRDF = os.path.join(ROOT, "srdf", "panda.srdf")
PACKAGE_DIRS = [os.path.join(HERE, "..")]
BOXES = os.path.join(HERE, "panda_boxes.csv")
COUNT = 20_000


def write_boxes():
    rng = SplitMix64(7)
    rows = []
    while len(rows) < 20:
        x, y = (rng.unit() * 1.7 - 0.85 for _ in range(2))
        z = rng.unit() * 1.0
        h = [0.02 + 0.06 * rng.unit() for _ in range(3)]
        yaw = rng.unit() * math.pi
        if math.hypot(x, y) > 0.85 or math.hypot(x, y) < 0.25:
            continue
        rows.append([x, y, z] + h + [yaw])
    with open(BOXES, "w") as f:
        f.write("x,y,z,hx,hy,hz,yaw\n")
        for r in rows:
            f.write(",".join(f"{v:.6f}" for v in r) + "\n")


def read_boxes():
    with open(BOXES) as f:
        return [[float(v) for v in line.split(",")] for line in f.read().split("\n")[1:] if line]


def robot(hulls, boxes):
    model = pin.buildModelFromUrdf(URDF)
    geom = pin.buildGeomFromUrdf(model, URDF, pin.GeometryType.COLLISION, package_dirs=PACKAGE_DIRS)
    if hulls:
        for g in geom.geometryObjects:
            if hasattr(g.geometry, "buildConvexHull"):
                g.geometry.buildConvexHull(True, "Qt")
                g.geometry = g.geometry.convex
    geom.addAllCollisionPairs()
    pin.removeCollisionPairs(model, geom, SRDF)
    links = geom.ngeoms
    for k, (x, y, z, hx, hy, hz, yaw) in enumerate(boxes):
        placement = pin.SE3(pin.utils.rpyToMatrix(0.0, 0.0, yaw), np.array([x, y, z]))
        box = pin.GeometryObject(f"box{k}", 0, 0, placement, coal.Box(2 * hx, 2 * hy, 2 * hz))
        b = geom.addGeometryObject(box)
        for g in range(links):
            geom.addCollisionPair(pin.CollisionPair(g, b))
    return model, model.createData(), geom, pin.GeometryData(geom)


def segments(model, count):
    rng = SplitMix64(99)
    lo, hi = model.lowerPositionLimit, model.upperPositionLimit
    out = []
    for _ in range(count):
        q0 = draw(model, rng)
        d = [rng.unit() * 2.0 - 1.0 for _ in range(8)]
        length = 0.005 + 0.145 * rng.unit()
        m = max(abs(v) for v in d)
        q1 = np.zeros(model.nq)
        for i in range(8):
            q1[i] = min(max(q0[i] + d[i] / m * length, lo[i]), hi[i])
        q1[8] = q1[7]
        out.append((q0, q1))
    return out


def rate(f, qs):
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        result = [f(q) for q in qs]
        best = min(best, time.perf_counter() - t)
    return len(qs) / best, result


def main():
    if not os.path.exists(BOXES):
        write_boxes()
    boxes = read_boxes()
    for name, hulls, env in [
        ("self, meshes", False, []),
        ("self, hulls", True, []),
        ("self + 20 boxes, meshes", False, boxes),
        ("self + 20 boxes, hulls", True, boxes),
    ]:
        model, data, geom, gdata = robot(hulls, env)
        qs = configs(model, COUNT)
        r, hits = rate(lambda q: pin.computeCollisions(model, data, geom, gdata, q, True), qs)
        print(f"collisions, {name} ({len(geom.collisionPairs)} pairs): {r:,.0f} configurations/s, {sum(hits)} colliding")
        if env and hulls:
            # MoveIt's default: configurations 0.005 of the joint space's
            # diagonal apart, both ends included.
            step = 0.005 * math.sqrt(sum((hi - lo) ** 2 for lo, hi in zip(model.lowerPositionLimit[:8], model.upperPositionLimit[:8])))

            def discrete(seg):
                q0, q1 = seg
                n = max(1, math.ceil(max(abs(q1 - q0)) / step))
                return any(
                    pin.computeCollisions(model, data, geom, gdata, q0 + (q1 - q0) * (k / n), True)
                    for k in range(n + 1)
                )

            r, segs = rate(discrete, segments(model, 2000))
            print(f"motions, {name}, discrete at MoveIt's resolution ({step:.4f} rad): {r:,.0f} segments/s, {sum(segs)} in contact")
            bits = [bool(h) for h in hits]
            digits = []
            for k in range(0, len(bits), 4):
                v = 0
                for b in bits[k : k + 4]:
                    v = (v << 1) | int(b)
                digits.append(f"{v:x}")
            with open(os.path.join(HERE, "panda_bench_verdicts.txt"), "w") as f:
                for k in range(0, len(digits), 100):
                    f.write("".join(digits[k : k + 100]) + "\n")
        if not env:
            qd = qs[:200] if not hulls else qs[:2000]
            r, _ = rate(lambda q: pin.computeDistances(model, data, geom, gdata, q), qd)
            print(f"distances, {name} (every pair): {r:,.0f} configurations/s")


main()
