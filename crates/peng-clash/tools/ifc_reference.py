#!/usr/bin/env python3
"""Reference geometry for peng-clash's IFC reader, made with IfcOpenShell.

For every model in data/ifc (at the top of the repository) this runs
IfcOpenShell's geometry iterator the way ifcclash does: the elements are
IfcElement minus IfcFeatureElement, passed as `include`, with the default
settings (openings subtracted) plus use-world-coords, so vertices are world
metres. It writes, per file and in file order, each element the iterator yields:

    {id, global_id, class, name, storey, parent,
     bbox_min, bbox_max, triangles, volume, solid_volume, closed}

`id` is the STEP instance number; `storey` the name of the building storey
containing the element (or the whole it is part of); `parent` the GlobalId of
the element it is aggregated or nested into; `volume` the mesh's signed volume
(m3) as IfcOpenShell computes it, which shows that openings were cut;
`solid_volume` the volume of the solid the mesh bounds: per shell (triangles
joined through edges), the volume it encloses when it is closed (every edge met
by two of its triangles, which can be wound to agree), whatever way its
triangles are wound, else its signed volume as wound; `closed` whether every
shell is closed. Per file it also lists the included
elements the iterator does not yield (`not_yielded`: no body geometry) and the
products the unfiltered iterator yields that ifcclash leaves out
(`default_only`: openings, spaces, sites...).

Rerun from the repository root, with `pip install ifcopenshell` (0.9):

    python3 crates/peng-clash/tools/ifc_reference.py

It rewrites crates/peng-clash/tests/data/ifc_reference.json, which
crates/peng-clash/tests/ifc_reference.rs compares the Rust reader against.
"""

import json
import multiprocessing
import os
import sys

import ifcopenshell
import ifcopenshell.geom
import ifcopenshell.util.element as element_util
import ifcopenshell.util.shape as shape_util

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
MODELS = os.path.normpath(os.path.join(REPO, "data", "ifc"))
FILES = [
    "Architectural.ifc",
    "MEP.ifc",
    "IfcOpenHouse_IFC4.ifc",
    "duplex.ifc",
    "ISSUE_171_IfcSurfaceCurveSweptAreaSolid.ifc",
]
OUT = os.path.join(HERE, "..", "tests", "data", "ifc_reference.json")


def shapes(model, include=None):
    """The iterator's shapes (world coordinates, metres)."""
    settings = ifcopenshell.geom.settings()
    settings.set("use-world-coords", True)
    kwargs = {"include": include} if include is not None else {}
    it = ifcopenshell.geom.iterator(settings, model, multiprocessing.cpu_count(), **kwargs)
    if not it.initialize():
        return
    while True:
        yield it.get()
        if not it.next():
            break


def whole(product):
    """The object this one is aggregated or nested into, if any."""
    return element_util.get_aggregate(product) or element_util.get_nest(product)


def storey(product):
    """Name of the storey containing the product or the whole it is part of."""
    for _ in range(64):
        container = element_util.get_container(product)
        if container is not None:
            while container is not None and not container.is_a("IfcBuildingStorey"):
                container = element_util.get_aggregate(container)
            return None if container is None else (container.Name or "")
        product = whole(product)
        if product is None:
            return None
    return None


def parent(product):
    """GlobalId of the element the product is part of, if that is an element."""
    up = whole(product)
    return up.GlobalId if up is not None and up.is_a("IfcElement") else None


def shells(verts, faces):
    """The mesh's shells (triangles joined through edges), each as
    (closed, volume): `closed` when every edge of it is met by exactly two of
    its triangles and they can be wound to agree; `volume` is then the
    volume it encloses (positive), else its signed volume as wound. Vertices
    at the same position are one (IfcOpenShell may repeat them per face)."""
    key = {}
    ids = []
    for k in range(len(verts) // 3):
        p = (verts[3 * k], verts[3 * k + 1], verts[3 * k + 2])
        ids.append(key.setdefault(p, len(key)))
    points = [None] * len(key)
    for k, i in enumerate(ids):
        points[i] = (verts[3 * k], verts[3 * k + 1], verts[3 * k + 2])
    tris = [tuple(ids[faces[3 * t + j]] for j in range(3)) for t in range(len(faces) // 3)]
    tris = [t for t in tris if len(set(t)) == 3]
    edges = {}
    for t, tri in enumerate(tris):
        for j in range(3):
            a, b = tri[j], tri[(j + 1) % 3]
            edges.setdefault((min(a, b), max(a, b)), []).append(t)

    def forward(tri, a, b):
        return any(tri[j] == a and tri[(j + 1) % 3] == b for j in range(3))

    def signed6(tri, o):
        p, q, r = ([points[i][c] - o[c] for c in range(3)] for i in tri)
        return (p[0] * (q[1] * r[2] - q[2] * r[1]) - p[1] * (q[0] * r[2] - q[2] * r[0])
                + p[2] * (q[0] * r[1] - q[1] * r[0]))

    seen, flip, out = [False] * len(tris), [False] * len(tris), []
    for seed in range(len(tris)):
        if seen[seed]:
            continue
        seen[seed], stack, members = True, [seed], []
        closed = True
        while stack:
            t = stack.pop()
            members.append(t)
            tri = tris[t]
            for j in range(3):
                a, b = tri[j], tri[(j + 1) % 3]
                e = edges[(min(a, b), max(a, b))]
                if len(e) != 2:
                    closed = False
                    continue
                u = e[0] if e[1] == t else e[1]
                want = forward(tri, a, b) != flip[t]
                u_flip = forward(tris[u], a, b) == want
                if seen[u]:
                    closed &= flip[u] == u_flip
                else:
                    seen[u], flip[u] = True, u_flip
                    stack.append(u)
        o = points[tris[members[0]][0]]
        if closed:
            v = sum(-signed6(tris[t], o) if flip[t] else signed6(tris[t], o) for t in members)
            out.append((True, abs(v) / 6.0))
        else:
            origin = (0.0, 0.0, 0.0)
            out.append((False, sum(signed6(tris[t], origin) for t in members) / 6.0))
    return out


def record(model, shape):
    """One element: identity, bounding box, triangle count, volume."""
    product = model.by_id(shape.id)
    verts = shape.geometry.verts
    parts = shells(verts, shape.geometry.faces)
    xs, ys, zs = verts[0::3], verts[1::3], verts[2::3]
    return {
        "id": product.id(),
        "global_id": product.GlobalId,
        "class": product.is_a(),
        "name": product.Name or "",
        "storey": storey(product),
        "parent": parent(product),
        "bbox_min": [min(xs), min(ys), min(zs)],
        "bbox_max": [max(xs), max(ys), max(zs)],
        "triangles": len(shape.geometry.faces) // 3,
        "volume": round(shape_util.get_volume(shape.geometry), 9),
        "solid_volume": round(sum(v for _, v in parts), 9),
        "closed": all(c for c, _ in parts),
    }


def brief(product):
    return {"id": product.id(), "global_id": product.GlobalId, "class": product.is_a()}


def reference(path):
    model = ifcopenshell.open(path)
    # ifcclash's default selection (Clasher.add_collision_objects).
    elements = set(model.by_type("IfcElement")) - set(model.by_type("IfcFeatureElement"))
    rows = sorted((record(model, s) for s in shapes(model, include=elements)), key=lambda r: r["id"])
    yielded = {r["id"] for r in rows}
    skipped = sorted((brief(e) for e in elements if e.id() not in yielded), key=lambda r: r["id"])
    default = [model.by_id(s.id) for s in shapes(model)]
    extra = sorted((brief(p) for p in default if p.id() not in yielded), key=lambda r: r["id"])
    return {"schema": model.schema, "elements": rows, "not_yielded": skipped, "default_only": extra}


def dump(out):
    """JSON with one element per line."""
    lines = ["{", f' "generator": {json.dumps(out["generator"])},', ' "files": {']
    files = list(out["files"].items())
    for i, (name, data) in enumerate(files):
        lines.append(f"  {json.dumps(name)}: {{")
        lines.append(f'   "schema": {json.dumps(data["schema"])},')
        for key in ["elements", "not_yielded", "default_only"]:
            rows = data[key]
            lines.append(f'   "{key}": [')
            lines += [f"    {json.dumps(r)}{',' if j + 1 < len(rows) else ''}" for j, r in enumerate(rows)]
            lines.append("   ]" + ("," if key != "default_only" else ""))
        lines.append("  }" + ("," if i + 1 < len(files) else ""))
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def main():
    out = {"generator": f"IfcOpenShell {ifcopenshell.version}, tools/ifc_reference.py", "files": {}}
    for name in FILES:
        path = os.path.join(MODELS, name)
        if not os.path.exists(path):
            sys.exit(f"missing model {path}")
        data = reference(path)
        out["files"][name] = data
        print(f"{name}: {len(data['elements'])} elements, {len(data['not_yielded'])} without geometry, "
              f"{len(data['default_only'])} more in the unfiltered iterator")
    text = dump(out)
    json.loads(text)  # well-formed
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write(text)


if __name__ == "__main__":
    main()
