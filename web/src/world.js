// The collision world of peng's WebAssembly module, with events as objects
// and a Rust panic turned into an Error carrying its message.
import init, { CollisionWorld as Raw, lastPanic } from '../pkg/peng_wasm.js';

let ready = null;

/** Loads the WebAssembly module once; every other call waits for it. */
export function load(url) {
  ready ??= init(url === undefined ? undefined : { module_or_path: url });
  return ready;
}

const KINDS = ['began', 'persisted', 'ended'];

/**
 * Runs `f`; a trap of the WebAssembly instance (a Rust panic) becomes an
 * Error with the panic's message. The module's state is lost then: reload
 * the page (or the module) to go on.
 */
function guarded(f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      const message = lastPanic();
      throw new Error(`peng failed: ${message ?? e.message}`, { cause: e });
    }
    throw e;
  }
}

/** A 2D collision world; ids are numbers, units are yours (page pixels). */
export class CollisionWorld {
  constructor() {
    this.raw = guarded(() => new Raw());
  }

  addCircle(x, y, radius) { return guarded(() => this.raw.addCircle(x, y, radius)); }
  addBox(x, y, halfWidth, halfHeight, angle = 0) {
    return guarded(() => this.raw.addBox(x, y, halfWidth, halfHeight, angle));
  }
  addCapsule(x, y, halfLength, radius, angle = 0) {
    return guarded(() => this.raw.addCapsule(x, y, halfLength, radius, angle));
  }
  /** The convex hull of `points` ([[x, y], ...] or a flat list), its frame's origin at (x, y). */
  addPolygon(x, y, angle, points) {
    const flat = new Float32Array(points.flat());
    return guarded(() => this.raw.addPolygon(x, y, angle, flat));
  }
  // New shapes for a collider: the same id, so a contact that goes on stays one contact.
  setCircle(id, radius) { guarded(() => this.raw.setCircle(id, radius)); }
  setBox(id, halfWidth, halfHeight) { guarded(() => this.raw.setBox(id, halfWidth, halfHeight)); }
  setCapsule(id, halfLength, radius) { guarded(() => this.raw.setCapsule(id, halfLength, radius)); }
  setPolygon(id, points) { guarded(() => this.raw.setPolygon(id, new Float32Array(points.flat()))); }
  remove(id) { guarded(() => this.raw.remove(id)); }
  setPose(id, x, y, angle = 0) { guarded(() => this.raw.setPose(id, x, y, angle)); }
  /** Moves many at once: `data` is `[id, x, y, angle, id, x, y, angle, ...]`; all or none. */
  setPoses(data) {
    const flat = data instanceof Float64Array ? data : Float64Array.from(data);
    guarded(() => this.raw.setPoses(flat));
  }
  /** `margin`: `{ boundary: px }`, `{ centre: px }` or `null`. */
  setMargin(id, margin) {
    const [kind, value] = marginWords(margin);
    guarded(() => this.raw.setMargin(id, kind, value));
  }
  setTrigger(id, mode) { guarded(() => this.raw.setTrigger(id, mode)); }
  setSensor(id, on) { guarded(() => this.raw.setSensor(id, on)); }
  setRemoveOnContact(id, on) { guarded(() => this.raw.setRemoveOnContact(id, on)); }
  setSwept(id, on) { guarded(() => this.raw.setSwept(id, on)); }
  /** Touches only colliders whose category is in its mask, and whose mask holds its category (32 bits each). */
  setFilter(id, category, mask) { guarded(() => this.raw.setFilter(id, category >>> 0, mask >>> 0)); }
  watch(a, b, mode = 'once') {
    return guarded(() => this.raw.watch(Float64Array.from(a), Float64Array.from(b), mode));
  }
  /** Stops a watched set; whether it existed. */
  unwatch(set) { return guarded(() => this.raw.unwatch(set)); }
  get size() { return this.raw.size; }

  /**
   * Runs an update and returns its events: `{ kind, a, b, watch, sensor,
   * removed, toi, point, normal }` (`watch` null for a pair's own events,
   * `toi` null unless swept, `point` and `normal` null on `ended`).
   */
  update() {
    const n = guarded(() => this.raw.update());
    if (n === 0) return [];
    const flat = this.raw.events();
    const stride = Raw.eventStride;
    const out = [];
    for (let i = 0; i < flat.length; i += stride) {
      const ended = flat[i] === 2;
      out.push({
        kind: KINDS[flat[i]],
        a: flat[i + 1],
        b: flat[i + 2],
        watch: flat[i + 3] < 0 ? null : flat[i + 3],
        sensor: flat[i + 4] === 1,
        removed: flat[i + 5] === 1,
        toi: Number.isNaN(flat[i + 6]) ? null : flat[i + 6],
        point: ended ? null : { x: flat[i + 7], y: flat[i + 8] },
        normal: ended ? null : { x: flat[i + 9], y: flat[i + 10] },
      });
    }
    return out;
  }
}

/** `{ boundary: px }` / `{ centre: px }` / null as the module's words. */
export function marginWords(margin) {
  if (margin == null) return ['none', 0];
  const keys = Object.keys(margin);
  if (keys.length !== 1 || !['boundary', 'centre', 'center'].includes(keys[0])) {
    throw new Error(`margin must be { boundary: px } or { centre: px }, got ${JSON.stringify(margin)}`);
  }
  return [keys[0], Number(margin[keys[0]])];
}
