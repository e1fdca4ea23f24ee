// Runs the browser benchmarks in headless Chromium and prints their tables:
// `node bench/run.mjs` from web/ (after web/build.sh).
import { open } from '../test/browser.mjs';

const browser = await open();
const query = process.argv[2] ?? '';
const page = await browser.page(`bench/collision.html${query}`);
await page.waitForFunction(() => window.results !== undefined, null, { timeout: 300000 });
const r = await page.evaluate(() => window.results);
if (page.errors.length) throw page.errors[0];
await browser.close();
const row = (name, x) => `| ${name} | ${x.mean.toFixed(3)} | ${(x.mean / r.peng.mean).toFixed(2)}x | ${x.events} |`;
console.log(`Collision update, ${r.n} elements, a tenth moving each frame, ${r.frames} frames (headless Chromium)`);
console.log('| engine | ms a frame | time / peng | events |');
console.log('| --- | ---: | ---: | ---: |');
for (const name of ['peng', 'rapier', 'matter']) console.log(row(name, r[name]));
