// Page elements as collision shapes: their layout boxes with their own CSS
// transform (rotation, scale) applied; a circle for a round element, a
// capsule for a pill, a polygon from `data-peng-polygon`.

/** A short name of an element for error messages: `#id`, else `tag.class`. */
export function describe(el) {
  if (el.id) return `#${el.id}`;
  const cls = [...(el.classList ?? [])].slice(0, 2).map((c) => `.${c}`).join('');
  return `${el.tagName?.toLowerCase() ?? 'element'}${cls}`;
}

/** The rotation (radians) and scales of an element's own CSS transform. */
function transformOf(style) {
  if (!style.transform || style.transform === 'none') return { angle: 0, sx: 1, sy: 1 };
  const m = new DOMMatrixReadOnly(style.transform);
  const sx = Math.hypot(m.a, m.b);
  const det = m.a * m.d - m.b * m.c;
  const sy = sx === 0 ? 0 : det / sx;
  return { angle: Math.atan2(m.b, m.a), sx, sy: Math.abs(sy) };
}

/** Whether a corner radius (computed style) is at least `half` pixels. */
function roundTo(radius, half, size) {
  const v = parseFloat(radius);
  if (Number.isNaN(v)) return false;
  return radius.trim().endsWith('%') ? (v / 100) * size >= half - 0.5 : v >= half - 0.5;
}

/**
 * The shape and pose of `el` in page coordinates: `{ kind, ..., x, y, angle }`
 * with kind `circle` (radius), `capsule` (halfLength, radius), `box`
 * (halfWidth, halfHeight) or `polygon` (points around the centre). Errors
 * name the element when it is detached or has no size.
 */
export function shapeOf(el) {
  if (!el.isConnected) throw new Error(`${describe(el)} is not in the document`);
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  if (!(w > 0 && h > 0)) {
    throw new Error(`${describe(el)} has no size (${w} × ${h} px): it cannot collide`);
  }
  const style = getComputedStyle(el);
  const { angle, sx, sy } = transformOf(style);
  if (!(sx > 0 && sy > 0)) throw new Error(`${describe(el)} is scaled to nothing`);
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2 + window.scrollX;
  const y = r.top + r.height / 2 + window.scrollY;
  const polygon = el.dataset?.pengPolygon;
  if (polygon) {
    const nums = polygon.split(/[\s,]+/).filter((s) => s !== '').map(Number);
    if (nums.length < 6 || nums.length % 2 !== 0 || nums.some((n) => !Number.isFinite(n))) {
      throw new Error(`${describe(el)}: data-peng-polygon must be x y pairs (three or more), got "${polygon}"`);
    }
    // Element pixels from its top-left corner, moved to its centre and scaled.
    const points = [];
    for (let i = 0; i < nums.length; i += 2) {
      points.push([(nums[i] - w / 2) * sx, (nums[i + 1] - h / 2) * sy]);
    }
    return { kind: 'polygon', points, x, y, angle };
  }
  const half = Math.min(w, h) / 2;
  const corners = [style.borderTopLeftRadius, style.borderTopRightRadius,
    style.borderBottomRightRadius, style.borderBottomLeftRadius];
  const round = corners.every((c) => roundTo(c, half, Math.min(w, h)));
  if (round && Math.abs(w * sx - h * sy) < 0.5) return { kind: 'circle', radius: (w / 2) * sx, x, y, angle };
  if (round) {
    // A pill: a capsule along its longer side.
    const [lw, lh] = [w * sx, h * sy];
    const radius = Math.min(lw, lh) / 2;
    const along = lw >= lh ? angle : angle + Math.PI / 2;
    return { kind: 'capsule', halfLength: Math.abs(lw - lh) / 2, radius, x, y, angle: along };
  }
  return { kind: 'box', halfWidth: (w / 2) * sx, halfHeight: (h / 2) * sy, x, y, angle };
}

/** Whether two shapes differ in anything but their pose. */
export function sameForm(a, b) {
  if (a.kind !== b.kind) return false;
  const near = (p, q) => Math.abs(p - q) < 1e-3;
  switch (a.kind) {
    case 'circle': return near(a.radius, b.radius);
    case 'capsule': return near(a.radius, b.radius) && near(a.halfLength, b.halfLength);
    case 'box': return near(a.halfWidth, b.halfWidth) && near(a.halfHeight, b.halfHeight);
    default: return JSON.stringify(a.points) === JSON.stringify(b.points);
  }
}

/** Adds shape `s` to `world`; returns its id. */
export function addShape(world, s) {
  switch (s.kind) {
    case 'circle': return world.addCircle(s.x, s.y, s.radius);
    case 'capsule': return world.addCapsule(s.x, s.y, s.halfLength, s.radius, s.angle);
    case 'box': return world.addBox(s.x, s.y, s.halfWidth, s.halfHeight, s.angle);
    default: return world.addPolygon(s.x, s.y, s.angle, s.points);
  }
}

/** Gives collider `id` the form and pose of shape `s` (same id, same contacts). */
export function reshape(world, id, s) {
  switch (s.kind) {
    case 'circle': world.setCircle(id, s.radius); break;
    case 'capsule': world.setCapsule(id, s.halfLength, s.radius); break;
    case 'box': world.setBox(id, s.halfWidth, s.halfHeight); break;
    default: world.setPolygon(id, s.points);
  }
  world.setPose(id, s.x, s.y, s.angle);
}
