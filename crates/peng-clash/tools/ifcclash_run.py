#!/usr/bin/env python3
"""Run IfcOpenShell's ifcclash (the reference clash checker) and print what it
finds, as JSON, with its time split into loading, tessellation and checking.

    pip install ifcclash ifcopenshell
    python3 tools/ifcclash_run.py --a A.ifc [--b B.ifc] --mode intersection \
        [--tolerance 0.002] [--clearance 0.05] [--allow-touching] [--check-all]

Output: {"pairs": [[a_global_id, b_global_id, type, distance], ...] (sorted,
each unordered pair once), "raw": n (ifcclash's own count, which lists a
self-test pair in both orders), "seconds": {"load", "tessellate", "check"}}.

The clash set is built as ifcclash builds it (IfcElement minus
IfcFeatureElement, one geometry tree, clash_*_many); only the timing is ours.
"""
import argparse
import json
import logging
import time

import ifcclash.ifcclash as ic
import ifcopenshell


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--a", nargs="+", required=True)
    p.add_argument("--b", nargs="*", default=[])
    p.add_argument("--mode", choices=["intersection", "collision", "clearance"], required=True)
    p.add_argument("--tolerance", type=float, default=0.002)
    p.add_argument("--clearance", type=float, default=0.05)
    p.add_argument("--allow-touching", action="store_true")
    p.add_argument("--check-all", action="store_true")
    args = p.parse_args()

    settings = ic.ClashSettings()
    settings.logger = logging.getLogger("ifcclash")
    clasher = ic.Clasher(settings)
    times = {"load": 0.0, "tessellate": 0.0, "check": 0.0}

    def timed(fn, key):
        def wrapper(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                times[key] += time.perf_counter() - t
        return wrapper

    clasher.load_ifc = timed(clasher.load_ifc, "load")
    clasher.add_collision_objects = timed(clasher.add_collision_objects, "tessellate")
    clash_set = {
        "name": "peng-compare",
        "a": [{"file": f} for f in args.a],
        "b": [{"file": f} for f in args.b],
        "mode": args.mode,
        "tolerance": args.tolerance,
        "check_all": args.check_all,
        "allow_touching": args.allow_touching,
        "clearance": args.clearance,
    }
    total = time.perf_counter()
    clasher.process_clash_set(clash_set)
    total = time.perf_counter() - total
    times["check"] = total - times["load"] - times["tessellate"]

    seen = {}
    for c in clash_set["clashes"].values():
        a, b = c["a_global_id"], c["b_global_id"]
        key = (a, b) if args.b else tuple(sorted((a, b)))
        seen.setdefault(key, [key[0], key[1], c["type"], c["distance"]])
    print(json.dumps({"pairs": sorted(seen.values()), "raw": len(clash_set["clashes"]), "seconds": times}))


if __name__ == "__main__":
    main()
