// The collision component: two sets of page elements, a trigger that fires
// once per contact or on every frame of it, a boundary or centre margin, and
// hiding the collider on contact. It reads the elements' boxes once per
// animation frame (so it follows CSS animations, scripts and drags), and
// sweeps each element from its last position to the new one, so a fast drag
// past a target between two frames still triggers.
import { CollisionWorld, load, marginWords } from './world.js';
import { addShape, reshape, sameForm, shapeOf } from './shapes.js';

const OPTIONS = ['colliders', 'targets', 'trigger', 'margin', 'hideOnCollision',
  'onCollision', 'onSeparation', 'autoStart'];

/** Elements from a selector, an element, or a list of either. */
function elements(what, name) {
  if (what == null) throw new Error(`${name} must be given (elements or a selector)`);
  const list = typeof what === 'string' || what instanceof Element ? [what] : [...what];
  const out = [];
  for (const w of list) {
    if (typeof w === 'string') {
      const found = document.querySelectorAll(w);
      if (found.length === 0) throw new Error(`${name}: no element matches "${w}"`);
      out.push(...found);
    } else if (w instanceof Element) {
      out.push(w);
    } else {
      throw new Error(`${name} must hold elements or selectors, got ${String(w)}`);
    }
  }
  return out;
}

export class CollisionComponent {
  /**
   * @param {object} options
   * @param {Element|string|Iterable<Element|string>} options.colliders
   * @param {Element|string|Iterable<Element|string>} options.targets
   * @param {'once'|'continuous'} [options.trigger='once']
   * @param {{boundary:number}|{centre:number}} [options.margin]
   * @param {boolean} [options.hideOnCollision=false]
   * @param {(e:object)=>void} [options.onCollision]
   * @param {(e:object)=>void} [options.onSeparation]
   */
  constructor(options) {
    for (const key of Object.keys(options ?? {})) {
      if (!OPTIONS.includes(key)) throw new Error(`unknown option "${key}" (known: ${OPTIONS.join(', ')})`);
    }
    const o = { trigger: 'once', margin: null, hideOnCollision: false, autoStart: true, ...options };
    if (o.trigger !== 'once' && o.trigger !== 'continuous') {
      throw new Error(`trigger must be "once" or "continuous", got ${JSON.stringify(o.trigger)}`);
    }
    marginWords(o.margin);
    this.options = o;
    this.colliders = elements(o.colliders, 'colliders');
    this.targets = elements(o.targets, 'targets');
    this.frame = 0;
    this.running = false;
    this.ready = load().then(() => this.#build());
  }

  #build() {
    this.world = new CollisionWorld();
    this.tracked = new Map(); // element -> { id, shape }
    this.byId = new Map(); // id -> element
    for (const el of [...this.colliders, ...this.targets]) this.#track(el);
    const ids = (els) => els.map((el) => this.tracked.get(el).id);
    this.watchId = this.world.watch(ids(this.colliders), ids(this.targets), this.options.trigger);
    this.world.update();
    if (this.options.autoStart) this.start();
    return this;
  }

  #track(el) {
    if (this.tracked.has(el)) return;
    const shape = shapeOf(el);
    const id = this.#add(el, shape);
    this.tracked.set(el, { id, shape });
  }

  #add(el, shape) {
    const id = addShape(this.world, shape);
    this.world.setSwept(id, true);
    // Colliders (category 1) touch targets (category 2) only.
    const collider = this.colliders.includes(el);
    const target = this.targets.includes(el);
    this.world.setFilter(id, (collider ? 1 : 0) | (target ? 2 : 0), (collider ? 2 : 0) | (target ? 1 : 0));
    if (collider) {
      this.world.setMargin(id, this.options.margin);
      if (this.options.hideOnCollision) this.world.setRemoveOnContact(id, true);
    }
    this.byId.set(id, el);
    return id;
  }

  /** Starts following the elements, one update per animation frame. */
  start() {
    if (this.running) return;
    this.running = true;
    const tick = () => {
      if (!this.running) return;
      this.step();
      this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  /** Stops following the elements. */
  stop() {
    this.running = false;
    cancelAnimationFrame(this.frame);
  }

  /** Reads every element's box, updates the world and fires the callbacks. */
  step() {
    // The moved elements' poses, given to the world in one call.
    const moves = [];
    for (const [el, t] of this.tracked) {
      const s = shapeOf(el);
      if (!sameForm(s, t.shape)) {
        // Resized or reshaped: the same collider, so a contact that goes on
        // is still one contact.
        reshape(this.world, t.id, s);
      } else if (s.x !== t.shape.x || s.y !== t.shape.y || s.angle !== t.shape.angle) {
        moves.push(t.id, s.x, s.y, s.angle);
      }
      t.shape = s;
    }
    if (moves.length) this.world.setPoses(moves);
    for (const e of this.world.update()) {
      if (e.watch !== this.watchId) continue;
      const collider = this.byId.get(e.a);
      const target = this.byId.get(e.b);
      const event = {
        type: e.kind === 'ended' ? 'separation' : 'collision',
        collider, target,
        began: e.kind === 'began',
        point: e.point, normal: e.normal, toi: e.toi,
      };
      if (e.removed && collider) this.#hide(collider);
      if (e.kind === 'ended') this.options.onSeparation?.(event);
      else this.options.onCollision?.(event);
    }
  }

  #hide(el) {
    el.style.visibility = 'hidden';
    const t = this.tracked.get(el);
    if (t) this.byId.delete(t.id);
    this.tracked.delete(el);
  }
}
