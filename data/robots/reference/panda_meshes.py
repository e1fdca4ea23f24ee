"""Reference distances of the Panda with its triangle meshes, computed by
Pinocchio (with coal) for peng-robot's tests.

    python3 -m venv /tmp/pinenv && /tmp/pinenv/bin/pip install pin==4.1.0
    /tmp/pinenv/bin/python data/robots/reference/panda_meshes.py

The collision geometry as the URDF gives it: the STL meshes as coal's
BVH models (triangles, OBBRSS boxes), the fingers' boxes; the SRDF's
disabled pairs removed. The configurations are the first 1,000 of those
`panda_hulls.py` draws (SplitMix64 from seed 20261130, the same rule).

Writes panda_mesh_distances.csv next to this script: for each configuration,
every checked pair of links and their distance (the least over their shapes,
in m to 7 decimals; coal's `min_distance`, zero or negative when the
surfaces cross): `config,link_a,link_b,distance`.
"""
import os

import pinocchio as pin
from panda_common import configs, least_by_link_pair

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "example-robot-data", "robots", "panda_description")
URDF = os.path.join(ROOT, "urdf", "panda.urdf")
SRDF = os.path.join(ROOT, "srdf", "panda.srdf")
PACKAGE_DIRS = [os.path.join(HERE, "..")]
COUNT = 1_000

model = pin.buildModelFromUrdf(URDF)
data = model.createData()
geom = pin.buildGeomFromUrdf(model, URDF, pin.GeometryType.COLLISION, package_dirs=PACKAGE_DIRS)
geom.addAllCollisionPairs()
pin.removeCollisionPairs(model, geom, SRDF)
gdata = pin.GeometryData(geom)

rows = []
for k, q in enumerate(configs(model, COUNT)):
    pin.computeDistances(model, data, geom, gdata, q)
    least = least_by_link_pair(model, geom, gdata)
    rows += [f"{k},{a},{b},{d:.7f}" for (a, b), d in least.items()]

with open(os.path.join(HERE, "panda_mesh_distances.csv"), "w") as f:
    f.write("config,link_a,link_b,distance\n")
    f.write("\n".join(rows) + "\n")
print(f"{COUNT} configurations, {len(rows)} link pairs")
