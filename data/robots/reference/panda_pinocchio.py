"""Reference forward kinematics and self-collision verdicts of the Panda,
computed by Pinocchio (with coal) for peng-robot's tests.

    python3 -m venv /tmp/pinenv && /tmp/pinenv/bin/pip install pin==4.1.0
    /tmp/pinenv/bin/python data/robots/reference/panda_pinocchio.py

Writes, next to this script:
- panda_fk.csv: for 100 random configurations (seeded), every link's
  placement in the root frame: `config,link,x,y,z,qx,qy,qz,qw` (the
  configuration itself is in panda_configs.csv);
- panda_configs.csv: `config,q1..q7,finger` (the second finger mimics the
  first);
- panda_collisions.csv: for 2,000 random configurations, `config,colliding`
  with the SRDF's disabled pairs removed (Pinocchio's meshes are the STL
  triangles, checked by coal).
"""
import csv
import os

import numpy as np
import pinocchio as pin

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "example-robot-data", "robots", "panda_description")
URDF = os.path.join(ROOT, "urdf", "panda.urdf")
SRDF = os.path.join(ROOT, "srdf", "panda.srdf")
PACKAGE_DIRS = [os.path.join(HERE, "..")]

model = pin.buildModelFromUrdf(URDF)
data = model.createData()
rng = np.random.default_rng(20261130)


def random_q():
    lo, hi = model.lowerPositionLimit, model.upperPositionLimit
    q = lo + (hi - lo) * rng.random(model.nq)
    q[model.nq - 1] = q[model.nq - 2]  # the second finger mimics the first
    return q


with open(os.path.join(HERE, "panda_configs.csv"), "w", newline="") as fc, open(
    os.path.join(HERE, "panda_fk.csv"), "w", newline=""
) as ff:
    wc, wf = csv.writer(fc), csv.writer(ff)
    wc.writerow(["config"] + [f"q{i}" for i in range(1, 8)] + ["finger"])
    wf.writerow(["config", "link", "x", "y", "z", "qx", "qy", "qz", "qw"])
    for k in range(100):
        q = random_q()
        wc.writerow([k] + [repr(float(v)) for v in q[:8]])
        pin.forwardKinematics(model, data, q)
        pin.updateFramePlacements(model, data)
        for fid, frame in enumerate(model.frames):
            if frame.type != pin.FrameType.BODY:
                continue
            m = data.oMf[fid]
            quat = pin.Quaternion(m.rotation)
            wf.writerow(
                [k, frame.name]
                + [repr(float(v)) for v in m.translation]
                + [repr(float(v)) for v in (quat.x, quat.y, quat.z, quat.w)]
            )

geom = pin.buildGeomFromUrdf(model, URDF, pin.GeometryType.COLLISION, package_dirs=PACKAGE_DIRS)
geom.addAllCollisionPairs()
pin.removeCollisionPairs(model, geom, SRDF)
gdata = pin.GeometryData(geom)
with open(os.path.join(HERE, "panda_collisions.csv"), "w", newline="") as fv:
    w = csv.writer(fv)
    w.writerow(["config", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "finger", "colliding"])
    for k in range(2000):
        q = random_q()
        hit = pin.computeCollisions(model, data, geom, gdata, q, False)
        w.writerow([k] + [repr(float(v)) for v in q[:8]] + [int(hit)])
print("pairs checked:", len(geom.collisionPairs))
