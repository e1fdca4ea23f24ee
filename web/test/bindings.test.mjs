// The WebAssembly bindings of the collision world, in Node (web/pkg-node,
// built by web/build.sh): ids, triggers, margins and errors as a page sees
// them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { CollisionWorld, lastPanic } = require('../pkg-node/peng_wasm.js');

/** The last update's events as objects. */
function events(world) {
  const n = CollisionWorld.eventStride;
  const flat = world.events();
  const out = [];
  for (let i = 0; i < flat.length; i += n) {
    out.push({
      kind: ['began', 'persisted', 'ended'][flat[i]],
      a: flat[i + 1], b: flat[i + 2], watch: flat[i + 3],
      removed: flat[i + 5] === 1, toi: flat[i + 6],
      point: [flat[i + 7], flat[i + 8]], normal: [flat[i + 9], flat[i + 10]],
    });
  }
  return out;
}

test('a ball dropped on a block triggers once, then ends', () => {
  const w = new CollisionWorld();
  const ball = w.addCircle(0, -100, 10);
  const block = w.addBox(0, 0, 50, 10, 0);
  const set = w.watch([ball], [block], 'once');
  assert.equal(w.update(), 0);
  w.setPose(ball, 0, -15, 0);
  w.update();
  const began = events(w).filter((e) => e.watch === set);
  assert.equal(began.length, 1);
  assert.equal(began[0].kind, 'began');
  assert.deepEqual([began[0].a, began[0].b], [ball, block]);
  assert.ok(Math.abs(began[0].point[1] + 7.5) < 1e-4, `${began[0].point}`);
  assert.ok(Math.abs(began[0].normal[1] - 1) < 1e-6, `${began[0].normal}`);
  w.setPose(ball, 1, -15, 0);
  w.update();
  assert.equal(events(w).filter((e) => e.watch === set).length, 0);
  w.setPose(ball, 0, -100, 0);
  w.update();
  assert.deepEqual(events(w).filter((e) => e.watch === set).map((e) => e.kind), ['ended']);
  assert.equal(w.size, 2);
});

test('a boundary margin of 10 triggers at a gap of 10, not 11', () => {
  const w = new CollisionWorld();
  const a = w.addBox(0, 0, 20, 20, 0);
  const b = w.addBox(51, 0, 20, 20, 0);
  w.setMargin(a, 'boundary', 10);
  assert.equal(w.update(), 0);
  w.setPose(b, 50, 0, 0);
  w.update();
  assert.deepEqual(events(w).map((e) => e.kind), ['began']);
});

test('bad input is an Error naming it, and the world goes on', () => {
  const w = new CollisionWorld();
  assert.throws(() => w.addCircle(NaN, 0, 1), { message: 'x must be a finite number, got NaN' });
  assert.throws(() => w.addBox(0, 0, 0, 5, 0), /half width must be above zero/);
  const a = w.addCircle(0, 0, 5);
  assert.throws(() => w.setTrigger(a, 'twice'), /trigger must be "once" or "continuous", got "twice"/);
  assert.throws(() => w.setMargin(a, 'inside', 1), /margin must be/);
  assert.throws(() => w.setPose(42, 0, 0, 0), /collider 42 is not in the world/);
  const b = w.addCircle(8, 0, 5);
  assert.equal(w.update(), 1);
  assert.deepEqual(events(w).map((e) => [e.kind, e.a, e.b]), [['began', a, b]]);
  assert.equal(lastPanic(), undefined);
});

test('a swept block three widths a frame does not jump past a target', () => {
  const w = new CollisionWorld();
  const block = w.addBox(-100, 0, 10, 10, 0);
  const target = w.addCircle(0, 0, 3);
  w.setSwept(block, true);
  w.update();
  w.setPose(block, 60, 0, 0);
  w.update();
  const e = events(w);
  assert.deepEqual(e.map((x) => [x.kind, x.a, x.b]), [['began', block, target]]);
  assert.ok(Math.abs(e[0].toi - 87 / 160) < 1e-3, `${e[0].toi}`);
});
