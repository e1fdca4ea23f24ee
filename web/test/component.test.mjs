// The collision component on scripted page elements in a real browser,
// stepped one frame at a time: trigger modes, margins, hiding, rotation,
// fast drags, and errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { open } from './browser.mjs';

let browser;
let page;
before(async () => {
  browser = await open();
});
after(async () => { await browser?.close(); });

/** A fresh fixture page. */
async function fixture() {
  page?.close();
  page = await browser.page('test/fixture.html');
  await page.waitForFunction(() => window.fixtureReady === true);
  return page;
}

/** Places elements, then steps the component once; returns the new log entries. */
async function frame(placements = []) {
  return page.evaluate((ps) => {
    const before = window.log.length;
    for (const p of ps) window.place(p);
    window.component.step();
    return window.log.slice(before);
  }, placements);
}

test('once: one trigger per contact; continuous: one per frame of contact', async () => {
  for (const trigger of ['once', 'continuous']) {
    await fixture();
    await page.evaluate(async (trigger) => {
      window.place({ id: 'a', x: 0, y: 0 });
      window.place({ id: 'b', x: 200, y: 0 });
      await window.make({ colliders: '#a', targets: '#b', trigger });
    }, trigger);
    assert.deepEqual(await frame(), []);
    const touching = [];
    for (let i = 0; i < 4; i++) touching.push(...(await frame([{ id: 'a', x: 170 + i, y: 0 }])));
    const collisions = touching.filter((e) => e.type === 'collision');
    assert.equal(collisions.length, trigger === 'once' ? 1 : 4, JSON.stringify(touching));
    assert.equal(collisions[0].began, true);
    const apart = await frame([{ id: 'a', x: 0, y: 0 }]);
    assert.deepEqual(apart.map((e) => e.type), ['separation']);
  }
});

test('a boundary margin of 10 px triggers at a 10 px gap and not at 11', async () => {
  await fixture();
  await page.evaluate(async () => {
    window.place({ id: 'a', x: 0, y: 0 });
    window.place({ id: 'b', x: 91, y: 0 });
    await window.make({ colliders: '#a', targets: '#b', margin: { boundary: 10 } });
  });
  // a spans 0-40; b starts at 91: a gap of 51.
  assert.deepEqual(await frame([{ id: 'a', x: 40, y: 0 }]), []); // gap 11
  const at10 = await frame([{ id: 'a', x: 41, y: 0 }]); // gap 10
  assert.deepEqual(at10.map((e) => e.type), ['collision']);
  assert.deepEqual((await frame([{ id: 'a', x: 40, y: 0 }])).map((e) => e.type), ['separation']);
});

test('a centre margin of 60 px triggers with centres 60 apart and not 61', async () => {
  await fixture();
  await page.evaluate(async () => {
    window.place({ id: 'a', x: 0, y: 0, w: 20, h: 20, round: true });
    window.place({ id: 'b', x: 200, y: 0, w: 20, h: 20, round: true });
    await window.make({ colliders: '#a', targets: '#b', margin: { centre: 60 } });
  });
  assert.deepEqual(await frame([{ id: 'a', x: 139, y: 0, w: 20, h: 20, round: true }]), []); // 61
  const at60 = await frame([{ id: 'a', x: 140, y: 0, w: 20, h: 20, round: true }]);
  assert.deepEqual(at60.map((e) => e.type), ['collision']);
});

test('hide on contact hides the collider and fires once', async () => {
  await fixture();
  await page.evaluate(async () => {
    window.place({ id: 'a', x: 0, y: 0 });
    window.place({ id: 'b', x: 200, y: 0 });
    await window.make({ colliders: '#a', targets: '#b', hideOnCollision: true, trigger: 'continuous' });
  });
  const hit = await frame([{ id: 'a', x: 180, y: 0 }]);
  assert.deepEqual(hit.map((e) => e.type), ['collision']);
  assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('a')).visibility), 'hidden');
  for (let i = 0; i < 3; i++) assert.deepEqual(await frame([{ id: 'a', x: 181 + i, y: 0 }]), []);
});

test('rotated elements collide as their rotated shapes', async () => {
  await fixture();
  // A 100 × 10 bar turned 90°: upright, 10 wide and 100 tall about its centre (50, 50).
  await page.evaluate(async () => {
    window.place({ id: 'bar', x: 0, y: 45, w: 100, h: 10, transform: 'rotate(90deg)' });
    window.place({ id: 'dot', x: 200, y: 0, w: 10, h: 10 });
    await window.make({ colliders: '#dot', targets: '#bar' });
  });
  // Beside the upright bar's top end (x 45-55, y 0-100): at x 56 apart, 54 touching.
  assert.deepEqual(await frame([{ id: 'dot', x: 56, y: 5, w: 10, h: 10 }]), []);
  assert.deepEqual(await frame([{ id: 'dot', x: 60, y: 48, w: 10, h: 10 }]), []); // unturned bar would touch
  const hit = await frame([{ id: 'dot', x: 54, y: 5, w: 10, h: 10 }]);
  assert.deepEqual(hit.map((e) => e.type), ['collision']);
});

test('1,000 fast drags past a small target miss no contact', async () => {
  await fixture();
  await page.evaluate(async () => {
    window.place({ id: 'block', x: -400, y: 100, w: 60, h: 20 });
    window.place({ id: 'target', x: 300, y: 105, w: 8, h: 8, round: true });
    await window.make({ colliders: '#block', targets: '#target' });
  });
  const missed = await page.evaluate(() => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    let misses = 0;
    for (let i = 0; i < 1000; i++) {
      // Start left of the target, end right of it: up to three block widths a frame.
      const y = 100 + rand() * 6 - 3;
      const from = 300 - 60 - 8 - rand() * 180;
      const to = 300 + 8 + rand() * 180;
      window.place({ id: 'block', x: from, y, w: 60, h: 20 });
      window.component.step();
      const before = window.log.length;
      window.place({ id: 'block', x: to, y, w: 60, h: 20 });
      window.component.step();
      if (!window.log.slice(before).some((e) => e.type === 'collision' && e.toi !== null)) misses += 1;
      // Away again before the next drag.
      window.place({ id: 'block', x: -400, y: 100, w: 60, h: 20 });
      window.component.step();
    }
    return misses;
  });
  assert.equal(missed, 0);
});

test('bad options and elements give errors that name them', async () => {
  await fixture();
  const errors = await page.evaluate(async () => {
    window.place({ id: 'a', x: 0, y: 0 });
    window.place({ id: 'flat', x: 0, y: 0, w: 0, h: 10 });
    const tries = [
      { colliders: '#a', targets: '#nothing' },
      { colliders: '#a', targets: '#a', trigger: 'twice' },
      { colliders: '#a', targets: '#a', margin: { inside: 3 } },
      { colliders: '#a', targets: '#a', colour: 'red' },
      { colliders: '#a', targets: '#flat' },
    ];
    const out = [];
    for (const t of tries) {
      try {
        await window.make(t);
        out.push('no error');
      } catch (e) {
        out.push(e.message);
      }
    }
    return out;
  });
  assert.match(errors[0], /targets: no element matches "#nothing"/);
  assert.match(errors[1], /trigger must be "once" or "continuous"/);
  assert.match(errors[2], /margin must be/);
  assert.match(errors[3], /unknown option "colour"/);
  assert.match(errors[4], /#flat has no size/);
});

test('an element resized during a contact keeps one contact', async () => {
  await fixture();
  await page.evaluate(async () => {
    window.place({ id: 'a', x: 0, y: 0 });
    window.place({ id: 'b', x: 200, y: 0 });
    await window.make({ colliders: '#a', targets: '#b' });
  });
  assert.deepEqual((await frame([{ id: 'a', x: 170, y: 0 }])).map((e) => e.type), ['collision']);
  // Wider, still touching: no new trigger; then apart: one separation.
  assert.deepEqual(await frame([{ id: 'a', x: 150, y: 0, w: 70 }]), []);
  assert.deepEqual((await frame([{ id: 'a', x: 0, y: 0, w: 70 }])).map((e) => e.type), ['separation']);
});
