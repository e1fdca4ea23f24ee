// Shared set-up of the browser tests: a static server on a free port and
// Debian's Chromium driven by playwright-core.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { serve } from '../serve.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Starts the server and the browser; returns `{ page(path), close() }`. */
export async function open() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM} (install Debian's chromium, or set CHROMIUM)`);
  }
  const server = await serve(0);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    async page(path) {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e));
      await page.goto(`${base}/${path}`);
      page.errors = errors;
      return page;
    },
    async close() {
      await browser.close();
      server.close();
    },
  };
}
