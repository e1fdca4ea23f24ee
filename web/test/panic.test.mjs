// A Rust panic reaches JavaScript as an Error carrying its message: in Node
// through the raw bindings (a trap, then `lastPanic`), and in a real browser
// through the package's wrapper. Its own file: after a panic the module's
// state is lost, so no other test may share the instance.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { open } from './browser.mjs';

const require = createRequire(import.meta.url);

test('a panic traps, and lastPanic gives its message', () => {
  const { panicForTests, lastPanic } = require('../pkg-node/peng_wasm.js');
  assert.equal(lastPanic(), undefined);
  assert.throws(() => panicForTests('the floor is lava'), WebAssembly.RuntimeError);
  assert.match(lastPanic(), /the floor is lava/);
});

let browser;
before(async () => { browser = await open(); });
after(async () => { await browser?.close(); });

test('in the browser the wrapper throws an Error with the message', async () => {
  const page = await browser.page('test/fixture.html');
  await page.waitForFunction(() => window.fixtureReady === true);
  const thrown = await page.evaluate(async () => {
    const { CollisionWorld, load } = await import('../src/world.js');
    const raw = await import('../pkg/peng_wasm.js');
    await load();
    const w = new CollisionWorld();
    // A world whose update panics inside the module.
    w.raw = { update: () => raw.panicForTests('the floor is lava') };
    try {
      w.update();
      return null;
    } catch (e) {
      return { name: e.name, message: e.message, cause: e.cause?.constructor?.name };
    }
  });
  assert.equal(thrown?.name, 'Error');
  assert.equal(thrown.cause, 'RuntimeError');
  assert.match(thrown.message, /^peng failed: .*the floor is lava/s);
  await page.close();
});
