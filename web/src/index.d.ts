// Types of peng's browser package: the collision world and the page
// component (src/index.js). The physics world's types are wasm-bindgen's,
// in pkg-physics/peng_wasm.d.ts.

/** A point or direction in the world's units (page pixels for the component). */
export interface Point {
  x: number;
  y: number;
}

/**
 * Extra reach that counts as contact: within `boundary` of the collider's
 * boundary, or its centre within `centre` of the other's (`center` is
 * accepted too). `null` for none.
 */
export type Margin = { boundary: number } | { centre: number } | { center: number } | null;

/** When a pair reports: once as its contact begins, or on every update of it. */
export type Trigger = 'once' | 'continuous';

/** One event of an update. */
export interface ContactEvent {
  kind: 'began' | 'persisted' | 'ended';
  /** The colliders' ids (a watched set's `a` group first). */
  a: number;
  b: number;
  /** The watched set reported for, or null for the pair's own event. */
  watch: number | null;
  /** Whether either collider is a sensor. */
  sensor: boolean;
  /** Whether this contact made a remove-on-contact collider leave the world. */
  removed: boolean;
  /** Time of impact within the update's motion (0..1) for a swept contact, else null. */
  toi: number | null;
  /** Contact point and normal (from `a` towards `b`); null on `ended`. */
  point: Point | null;
  normal: Point | null;
}

/**
 * Loads the WebAssembly module once (from `url`, default next to the
 * package's module); every other call waits for the same load.
 */
export function load(url?: string | URL): Promise<unknown>;

/**
 * A 2D collision world. Ids are numbers handed out in order and never
 * reused. Bad arguments throw an Error naming the argument and the
 * collider; the world stays usable. A Rust panic (a bug) throws an Error
 * with its message, after which the module must be reloaded.
 */
export class CollisionWorld {
  constructor();
  addCircle(x: number, y: number, radius: number): number;
  addBox(x: number, y: number, halfWidth: number, halfHeight: number, angle?: number): number;
  addCapsule(x: number, y: number, halfLength: number, radius: number, angle?: number): number;
  /** The convex hull of `points` (`[[x, y], ...]` or a flat list), its frame's origin at (x, y). */
  addPolygon(x: number, y: number, angle: number, points: number[][] | number[]): number;
  /** New shapes for a collider: the same id, so a contact that goes on stays one contact. */
  setCircle(id: number, radius: number): void;
  setBox(id: number, halfWidth: number, halfHeight: number): void;
  setCapsule(id: number, halfLength: number, radius: number): void;
  setPolygon(id: number, points: number[][] | number[]): void;
  remove(id: number): void;
  setPose(id: number, x: number, y: number, angle?: number): void;
  /** Moves many at once: `[id, x, y, angle, id, x, y, angle, ...]`; all or none. */
  setPoses(data: ArrayLike<number>): void;
  setMargin(id: number, margin: Margin): void;
  setTrigger(id: number, mode: Trigger): void;
  setSensor(id: number, on: boolean): void;
  /** Leaves the world at its first contact. */
  setRemoveOnContact(id: number, on: boolean): void;
  /** Swept from its last pose to the new one: a fast move cannot jump past a target. */
  setSwept(id: number, on: boolean): void;
  /** Touches only colliders whose category is in its mask, and whose mask holds its category (32 bits each). */
  setFilter(id: number, category: number, mask: number): void;
  /** Watches every pair of a collider in `a` and one in `b`; returns the set's number. */
  watch(a: Iterable<number>, b: Iterable<number>, mode?: Trigger): number;
  /** Stops a watched set; whether it existed. */
  unwatch(set: number): boolean;
  /** The number of colliders. */
  readonly size: number;
  /** Runs an update and returns its events. */
  update(): ContactEvent[];
}

/** Page elements: an element, a selector, or a list of either. */
export type Elements = Element | string | Iterable<Element | string>;

/** What the component's callbacks receive, in page coordinates. */
export interface CollisionEvent {
  type: 'collision' | 'separation';
  /** The collider and target elements of the pair. */
  collider: Element | undefined;
  target: Element | undefined;
  /** Whether this is the first report of the contact. */
  began: boolean;
  point: Point | null;
  normal: Point | null;
  /** Time of impact within the frame's motion, for a swept contact. */
  toi: number | null;
}

export interface CollisionComponentOptions {
  colliders: Elements;
  targets: Elements;
  /** Default `'once'`. */
  trigger?: Trigger;
  /** Default none. */
  margin?: Margin;
  /** Hide a collider at its first contact (default false). */
  hideOnCollision?: boolean;
  onCollision?: (event: CollisionEvent) => void;
  onSeparation?: (event: CollisionEvent) => void;
  /** Start following the elements once loaded (default true). */
  autoStart?: boolean;
}

/**
 * Two sets of page elements and what happens when one of each touch. Shapes
 * come from the elements (boxes with their CSS transforms, circles for
 * `border-radius: 50%`, or a polygon in `data-peng-polygon`), read once per
 * animation frame.
 */
export class CollisionComponent {
  constructor(options: CollisionComponentOptions);
  /** Resolves once the module is loaded and the elements are tracked. */
  readonly ready: Promise<CollisionComponent>;
  /** Starts following the elements, one update per animation frame. */
  start(): void;
  /** Stops following the elements. */
  stop(): void;
  /** Reads every element's box, updates the world and fires the callbacks. */
  step(): void;
}
