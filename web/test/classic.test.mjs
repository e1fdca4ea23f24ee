// The classic scene in a real browser: the ball caught by the block sets off
// one trigger per contact; a ball that misses sets off none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { open } from './browser.mjs';

let browser;
before(async () => { browser = await open(); });
after(async () => { await browser?.close(); });

/** Drags the block so that its centre is at page x `x`. */
async function dragBlockTo(page, x) {
  const box = await page.locator('#block').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(x, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
}

test('a caught ball triggers once per contact and goes back up', async () => {
  const page = await browser.page('pages/classic.html');
  await page.waitForFunction(() => window.component?.world !== undefined);
  const ball = await page.locator('#ball').boundingBox();
  await dragBlockTo(page, ball.x + ball.width / 2);
  await page.waitForTimeout(4500);
  const log = await page.evaluate(() => window.log);
  const catches = log.filter((e) => e.type === 'collision').length;
  assert.ok(catches >= 2, `caught ${catches} times in 4.5 s: ${JSON.stringify(log)}`);
  // Once mode: collisions and separations alternate, starting with a collision.
  log.forEach((e, i) => assert.equal(e.type, i % 2 === 0 ? 'collision' : 'separation', JSON.stringify(log)));
  assert.equal(Number(await page.locator('#catches').textContent()), catches);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a ball that misses the block triggers nothing', async () => {
  const page = await browser.page('pages/classic.html');
  await page.waitForFunction(() => window.component?.world !== undefined);
  const ball = await page.locator('#ball').boundingBox();
  await dragBlockTo(page, ball.x + ball.width / 2 + 200);
  await page.waitForTimeout(2500);
  assert.deepEqual(await page.evaluate(() => window.log), []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the settings page: dragging the ball onto the wall logs one collision', async () => {
  const page = await browser.page('pages/settings.html');
  await page.waitForFunction(() => window.component?.world !== undefined);
  const ball = await page.locator('#ball').boundingBox();
  const wall = await page.locator('#wall').boundingBox();
  await page.mouse.move(ball.x + ball.width / 2, ball.y + ball.height / 2);
  await page.mouse.down();
  await page.mouse.move(wall.x + wall.width / 2, wall.y + wall.height / 2, { steps: 10 });
  await page.waitForTimeout(200);
  await page.mouse.up();
  const log = await page.evaluate(() => window.log);
  assert.deepEqual(log.filter((e) => e.type === 'collision').map((e) => [e.collider, e.target]), [['ball', 'wall']]);
  assert.deepEqual(page.errors, []);
  await page.close();
});
