"""Reference self-collision verdicts and distances of the Panda with convex
link shapes, computed by Pinocchio (with coal) for peng-robot's tests.

    python3 -m venv /tmp/pinenv && /tmp/pinenv/bin/pip install pin==4.1.0
    /tmp/pinenv/bin/python data/robots/reference/panda_hulls.py

Every mesh of the Panda's collision geometry is replaced by its convex hull
(coal's `buildConvexHull`, qhull); the fingers' boxes stay boxes; the SRDF's
disabled pairs are removed. The configurations are drawn by SplitMix64
(Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
2014) from seed 20261130, so the tests regenerate them bit for bit instead of
reading them: for each of q1..q7 and the finger, in that order,
`u = (next() >> 11) * 2**-53` and `q = lower + (upper - lower) * u`; the
second finger mimics the first.

Writes, next to this script:
- panda_hull_verdicts.txt: whether configuration k collides (any pair
  within coal's default tolerance), for k = 0..100,000, as hexadecimal
  digits of 4 configurations each (bit 3 of digit k // 4 is configuration
  4 (k // 4), bit 0 the last), 100 digits a line;
- panda_hull_distances.csv: for the first 1,000 configurations, every
  checked pair of links and their distance (the least over their shapes, in
  m to 7 decimals; negative inside, as coal reports it):
  `config,link_a,link_b,distance`.
"""
import os
import time

import pinocchio as pin
from panda_common import configs, least_by_link_pair

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "example-robot-data", "robots", "panda_description")
URDF = os.path.join(ROOT, "urdf", "panda.urdf")
SRDF = os.path.join(ROOT, "srdf", "panda.srdf")
PACKAGE_DIRS = [os.path.join(HERE, "..")]
COUNT = 100_000
DISTANCES = 1_000


model = pin.buildModelFromUrdf(URDF)
data = model.createData()
geom = pin.buildGeomFromUrdf(model, URDF, pin.GeometryType.COLLISION, package_dirs=PACKAGE_DIRS)
for g in geom.geometryObjects:
    if hasattr(g.geometry, "buildConvexHull"):
        g.geometry.buildConvexHull(True, "Qt")
        g.geometry = g.geometry.convex
geom.addAllCollisionPairs()
pin.removeCollisionPairs(model, geom, SRDF)
gdata = pin.GeometryData(geom)

bits = []
rows = []
start = time.perf_counter()
for k, q in enumerate(configs(model, COUNT)):
    bits.append(pin.computeCollisions(model, data, geom, gdata, q, False))
    if k < DISTANCES:
        pin.computeDistances(model, data, geom, gdata, q)
        least = least_by_link_pair(model, geom, gdata)
        rows += [f"{k},{a},{b},{d:.7f}" for (a, b), d in least.items()]
print(f"{COUNT} configurations in {time.perf_counter() - start:.1f} s, {sum(bits)} colliding")

digits = []
for k in range(0, COUNT, 4):
    v = 0
    for b in bits[k : k + 4]:
        v = (v << 1) | int(b)
    digits.append(f"{v:x}")
with open(os.path.join(HERE, "panda_hull_verdicts.txt"), "w") as f:
    for k in range(0, len(digits), 100):
        f.write("".join(digits[k : k + 100]) + "\n")
with open(os.path.join(HERE, "panda_hull_distances.csv"), "w") as f:
    f.write("config,link_a,link_b,distance\n")
    f.write("\n".join(rows) + "\n")
print("pairs checked:", len(geom.collisionPairs))
