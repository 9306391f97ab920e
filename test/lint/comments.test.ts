// Comments speak of the code: they say why it is shaped as it is, never which issue or
// ticket asked for it (that history belongs to git, and goes stale in the source).
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';

const REFERENCE = /\b(issue|ticket|bug)\s*#?\d+\b|\(#\d+\)|(^|\s)#\d+:|\bGH-\d+\b/i;

/** The generated API types (spec text) and this file (its own examples). */
const SKIP = new Set(['schema.ts', 'comments.test.ts']);

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(p);
    else if (/\.(ts|tsx|js|html|css)$/.test(entry.name) && !SKIP.has(entry.name)) yield p;
  }
}

test('no source, command or test file refers to an issue number', () => {
  const found: string[] = [];
  for (const top of ['src', 'commands', 'test']) {
    for (const file of sources(path.join(packageRoot, top))) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (REFERENCE.test(line)) found.push(`${path.relative(packageRoot, file)}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  assert.deepEqual(found, []);
});

test('the pattern finds the usual ways of naming an issue', () => {
  for (const line of ['// see issue 18', '// Issue #7: split the wizard', '/* fixes (#12) */', ' * #4: the old shape', '// GH-31']) assert.match(line, REFERENCE);
  for (const line of ['fill="#111"', 'issued by the platform', 'ctx.addIssue({ code })', '// spec 9']) assert.doesNotMatch(line, REFERENCE);
});
