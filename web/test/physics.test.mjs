// The physics playground in a real browser: every scene steps without an
// error; the pyramid stands, and no bullet passes the thin wall.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { open } from './browser.mjs';

let browser;
before(async () => { browser = await open(); });
after(async () => { await browser?.close(); });

/** Loads a scene and waits for `steps` steps; returns the playground's state. */
async function run(scene, steps) {
  const page = await browser.page(`pages/physics.html?scene=${scene}`);
  await page.waitForFunction((n) => window.playground?.steps >= n, steps, { timeout: 60000 });
  const state = await page.evaluate(() => ({ ...window.playground, poses: [...window.playground.poses] }));
  assert.deepEqual(page.errors, []);
  await page.close();
  return state;
}

test('the pyramid of base 40 stands', async () => {
  const { poses } = await run('pyramid', 60);
  // Body 0 is the ground; the last body is the top box, placed at y 39.5.
  // The 40 contacts below it settle by a few millimetres each (soft
  // contacts); a falling pyramid would drop it by metres.
  const top = poses.length / 3 - 1;
  const [x, y] = [poses[3 * top], poses[3 * top + 1]];
  assert.ok(Math.abs(x) < 0.2 && Math.abs(y - 39.5) < 0.5, `top box at (${x}, ${y})`);
});

test('bullets at 400 m/s stop at a wall 0.1 thick', async () => {
  const { poses } = await run('bullets', 60);
  // Bodies 0 and 1 are the ground and the wall (x 9.95 to 10.05).
  for (let i = 2; i < poses.length / 3; i++) {
    assert.ok(poses[3 * i] < 10, `bullet ${i} at x ${poses[3 * i]}`);
  }
});

test('the tumbler and the chain step', async () => {
  for (const scene of ['tumbler', 'chain']) {
    const { poses } = await run(scene, 30);
    assert.ok(poses.every(Number.isFinite), scene);
  }
});
