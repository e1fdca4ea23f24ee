"""Pinocchio's self-collision checks per second on the Panda, one thread, on
the reference configurations (best of 5), for peng-robot's panda_rate example:

    /tmp/pinenv/bin/python data/robots/reference/panda_rate.py
"""
import csv
import os
import time

import numpy as np
import pinocchio as pin

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "example-robot-data", "robots", "panda_description")
URDF = os.path.join(ROOT, "urdf", "panda.urdf")
model = pin.buildModelFromUrdf(URDF)
data = model.createData()
geom = pin.buildGeomFromUrdf(model, URDF, pin.GeometryType.COLLISION, package_dirs=[os.path.join(HERE, "..")])
geom.addAllCollisionPairs()
pin.removeCollisionPairs(model, geom, os.path.join(ROOT, "srdf", "panda.srdf"))
gdata = pin.GeometryData(geom)
with open(os.path.join(HERE, "panda_collisions.csv")) as f:
    rows = list(csv.reader(f))[1:]
qs = [np.array([float(v) for v in r[1:9]] + [float(r[8])]) for r in rows]
best = float("inf")
for _ in range(5):
    t = time.perf_counter()
    for q in qs:
        pin.computeCollisions(model, data, geom, gdata, q, True)
    best = min(best, time.perf_counter() - t)
print(f"pinocchio+coal: {len(qs) / best:.0f} configurations/s (best of 5 over {len(qs)})")
