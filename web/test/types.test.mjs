// The package's TypeScript declarations (src/index.d.ts): they type-check a
// page's use and reject misuse (tsc, strict), and they declare exactly the
// methods the JavaScript classes have.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CollisionWorld } from '../src/world.js';
import { CollisionComponent } from '../src/component.js';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

test('the declarations type-check a page and reject misuse', () => {
  const tsc = here('../node_modules/.bin/tsc');
  const args = ['--noEmit', '--strict', '--target', 'es2022', '--lib', 'es2022,dom',
    '--module', 'esnext', '--moduleResolution', 'bundler', here('types/usage.ts')];
  try {
    execFileSync(tsc, args, { encoding: 'utf8' });
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
});

/** The members declared in `class name { ... }` of the declarations. */
function declared(name) {
  const text = readFileSync(here('../src/index.d.ts'), 'utf8');
  const body = text.split(`export class ${name} {`)[1].split('\n}')[0];
  const names = [...body.matchAll(/^ {2}(?:readonly )?([A-Za-z]\w*)[(:?]/gm)].map((m) => m[1]);
  return new Set(names.filter((n) => n !== 'constructor'));
}

/** The public members of a class: its prototype's methods and getters. */
function defined(cls, fields = []) {
  const names = Object.getOwnPropertyNames(cls.prototype).filter((n) => n !== 'constructor');
  return new Set([...names, ...fields]);
}

test('every method of the classes is declared, and nothing else', () => {
  assert.deepEqual(declared('CollisionWorld'), defined(CollisionWorld));
  // `ready` is set by the constructor.
  assert.deepEqual(declared('CollisionComponent'), defined(CollisionComponent, ['ready']));
});
