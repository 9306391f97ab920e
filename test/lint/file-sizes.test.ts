// Files stay small enough to read whole: the server's composition (src/http/app.ts; the
// request pipeline and the runtime have rooms of their own) and every service module.
// A file over its limit is split by what it does (as webhooks/ is: sender, delivery,
// delivery-loop), not trimmed of comments.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { typescriptFiles } from './sources.js';

const APP_MAX = 250;
const SERVICE_MAX = 450;

const lines = (file: string) => readFileSync(path.join(packageRoot, file), 'utf8').split('\n').length - 1;

test(`src/http/app.ts has at most ${APP_MAX} lines`, () => {
  assert.ok(lines('src/http/app.ts') <= APP_MAX, `src/http/app.ts: ${lines('src/http/app.ts')} lines`);
});

test(`no service module has more than ${SERVICE_MAX} lines`, () => {
  const over = [...typescriptFiles('src/services')].map((f) => ({ f, n: lines(f) })).filter(({ n }) => n > SERVICE_MAX);
  assert.deepEqual(over.map(({ f, n }) => `${f}: ${n} lines`), []);
});
