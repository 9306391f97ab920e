// Comments speak of the code: they say why it is shaped as it is, never which issue or
// ticket asked for it (that history belongs to git, and goes stale in the source), and
// the record they cite is in the repository (docs/decisions.md, docs/architecture.md),
// never a design brief outside it.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';

const REFERENCE = /\b(issue|ticket|bug)\s*#?\d+\b|\(#\d+\)|(^|\s)#\d+:|\bGH-\d+\b/i;

/** A design document outside the repository (the team's brief), by name. */
const OUTSIDE = /\bDESIGN\b/;

/** The generated API types (spec text) and this file (its own examples). */
const SKIP = new Set(['schema.ts', 'comments.test.ts']);

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(p);
    else if (/\.(ts|tsx|js|html|css)$/.test(entry.name) && !SKIP.has(entry.name)) yield p;
  }
}

/** `file:line: text` of every line of src/, commands/, test/ and bin/ that `pattern` matches. */
function linesMatching(pattern: RegExp, tops = ['src', 'commands', 'test']): string[] {
  const found: string[] = [];
  for (const top of tops) {
    for (const file of sources(path.join(packageRoot, top))) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (pattern.test(line)) found.push(`${path.relative(packageRoot, file)}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  return found;
}

test('no source, command or test file refers to an issue number', () => {
  assert.deepEqual(linesMatching(REFERENCE), []);
});

test('no source, command, test or bin file points at DESIGN.md: the decisions are docs/decisions.md', () => {
  assert.deepEqual(linesMatching(OUTSIDE, ['src', 'commands', 'test', 'bin']), []);
  for (const line of ['// (DESIGN.md "Bounds")', '// DESIGN "Bounds: clock moves"', '/** see DESIGN: arrays are bounded */']) assert.match(line, OUTSIDE);
  for (const line of ['// docs/decisions.md#amounts', '// the design of the pipeline', 'const DESIGNER = 1;']) assert.doesNotMatch(line, OUTSIDE);
});

test('the pattern finds the usual ways of naming an issue', () => {
  for (const line of ['// see issue 18', '// Issue #7: split the wizard', '/* fixes (#12) */', ' * #4: the old shape', '// GH-31']) assert.match(line, REFERENCE);
  for (const line of ['fill="#111"', 'issued by the platform', 'ctx.addIssue({ code })', '// spec 9']) assert.doesNotMatch(line, REFERENCE);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-');

test('every docs/decisions.md#anchor a source, command or test cites is a heading of the page', () => {
  const headings = new Set(
    readFileSync(path.join(packageRoot, 'docs', 'decisions.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('## '))
      .map((l) => anchorOf(l.slice(3))),
  );
  const cited = linesMatching(/docs\/decisions\.md#/, ['src', 'commands', 'test', 'bin']).flatMap((line) => [...line.matchAll(/docs\/decisions\.md#([a-z0-9-]+)/g)].map((m) => ({ line, anchor: m[1]! })));
  assert.ok(cited.length > 0);
  assert.deepEqual(cited.filter((c) => !headings.has(c.anchor)).map((c) => c.line), []);
  assert.equal(anchorOf('Tokens and card data'), 'tokens-and-card-data');
  assert.equal(anchorOf('E-mail'), 'e-mail');
});
