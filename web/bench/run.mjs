// Runs the browser benchmarks in headless Chromium and prints their tables:
// `node bench/run.mjs` from web/ (after web/build.sh). An argument picks one
// (`collision` or `physics`); a second is the page's query string.
import { open } from '../test/browser.mjs';

const which = process.argv[2] ?? 'all';
const browser = await open();

async function results(page, query) {
  const p = await browser.page(`bench/${page}.html${query}`);
  await p.waitForFunction(() => window.results !== undefined, null, { timeout: 600000 });
  const r = await p.evaluate(() => window.results);
  if (p.errors.length) throw p.errors[0];
  return r;
}

if (which === 'all' || which === 'collision') {
  // Warm-up frames let the JavaScript engines and the WebAssembly tiers settle:
  // after 300 frames (30 ms) the optimizing tier had not always replaced the
  // baseline code, and peng's time varied twofold between runs.
  const r = await results('collision', process.argv[3] ?? '?warm=3000&frames=3000');
  const row = (name, x) => `| ${name} | ${x.mean.toFixed(3)} | ${(x.mean / r.peng.mean).toFixed(2)}x | ${x.events} |`;
  console.log(`Collision update, ${r.n} elements, a tenth moving each frame, ${r.frames} frames (headless Chromium)`);
  console.log('| engine | ms a frame | time / peng | events |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const name of ['peng', 'rapier', 'matter']) console.log(row(name, r[name]));
}
if (which === 'all' || which === 'physics') {
  const r = await results('physics', process.argv[3] ?? '');
  const row = (name, x) => `| ${name} | ${x.mean.toFixed(3)} | ${(x.mean / r.peng.mean).toFixed(2)}x | ${x.top.toFixed(2)} |`;
  console.log(`\nPyramid, base ${r.base} (${r.bodies} boxes), ${r.steps} steps after ${r.warm} (headless Chromium)`);
  console.log('| engine | ms a step | time / peng | top box height (m) |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const name of ['peng', 'rapier']) console.log(row(name, r[name]));
}
await browser.close();
