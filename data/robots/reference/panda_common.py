"""What the Panda reference scripts share: the random configurations they draw,
and the least distance per pair of links from Pinocchio's per-shape results."""

import numpy as np
from splitmix import SplitMix64


def configs(model, count, seed=20261130):
    """`count` configurations by SplitMix64 from `seed`, the rule peng-robot's
    tests regenerate: for each of q1..q7 and the finger, in that order,
    `q = lower + (upper - lower) * unit()`; the second finger mimics the first."""
    rng = SplitMix64(seed)
    return [draw(model, rng) for _ in range(count)]


def draw(model, rng):
    """One configuration from `rng`: q1..q7 and the finger uniform within their
    limits, in that order; the second finger mimics the first."""
    lo, hi = model.lowerPositionLimit, model.upperPositionLimit
    q = np.zeros(model.nq)
    for i in range(8):
        q[i] = lo[i] + (hi[i] - lo[i]) * rng.unit()
    q[8] = q[7]
    return q


def least_by_link_pair(model, geom, gdata):
    """After `computeDistances`: {(link_a, link_b): the least `min_distance`
    over their shapes' pairs}, in the order of the collision pairs."""
    least = {}
    for p, r in zip(geom.collisionPairs, gdata.distanceResults):
        a = model.frames[geom.geometryObjects[p.first].parentFrame].name
        b = model.frames[geom.geometryObjects[p.second].parentFrame].name
        least[(a, b)] = min(least.get((a, b), np.inf), r.min_distance)
    return least
