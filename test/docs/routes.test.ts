// Every `curl` in README.md and docs/*.md, in any block (```text too), names a route the
// server has: its method (-X, else POST with a body, else GET) is one the path answers.
// Examples with placeholders (GROUP_ID, $G, 0193…) cannot run as written; this is what keeps
// them true (a README whose first API call was a 404 is the case it was written for).
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { allRoutes } from '../../src/http/routes/index.js';
import { allowedMethods } from '../../src/http/pipeline/no-route.js';
import { METRICS_PATH } from '../../src/http/metrics.js';
import { docFiles } from './extract.js';

/** The curl commands of a Markdown text, continuation lines joined, with their 1-based line. */
export function curlCommands(markdown: string): { line: number; method: string; path: string }[] {
  const out: { line: number; method: string; path: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/(^|[\s$(`])curl\s/.test(lines[i]!)) continue;
    let cmd = lines[i]!;
    for (let j = i; /\\\s*$/.test(lines[j]!) && j + 1 < lines.length; j++) cmd = `${cmd.replace(/\\\s*$/, ' ')}${lines[j + 1]}`;
    const url = /https?:\/\/[^\s"'`/]+(\/[^\s"'`?]*)|\$\{?\w+\}?(\/api\/[^\s"'`?]*)/.exec(cmd);
    if (!url) continue;
    const explicit = /(?:-X|--request)\s+([A-Z]+)/.exec(cmd)?.[1];
    const method = explicit ?? (/\s(-d|--data\S*|-F|--json)\s/.test(cmd) ? 'POST' : 'GET');
    out.push({ line: i + 1, method, path: (url[1] ?? url[2])! });
  }
  return out;
}

test('curlCommands reads the method and path of one-line and continued commands', () => {
  assert.deepEqual(curlCommands('curl -s http://h:4000/api/v1/x?y=1\ncurl -X DELETE "$API/api/v1/a/b"\ncurl -s \\\n  http://h/api/v1/t \\\n  -d \'{}\''), [
    { line: 1, method: 'GET', path: '/api/v1/x' },
    { line: 2, method: 'DELETE', path: '/api/v1/a/b' },
    { line: 3, method: 'POST', path: '/api/v1/t' },
  ]);
});

test('every curl in README.md and docs/ names a route of the server, with a method it answers', () => {
  const allowed = allowedMethods(allRoutes());
  const wrong: string[] = [];
  let count = 0;
  for (const file of docFiles(packageRoot)) {
    for (const c of curlCommands(readFileSync(path.join(packageRoot, file), 'utf8'))) {
      count++;
      // /metrics (serve --metrics) is answered before the route table.
      const methods = c.path === METRICS_PATH ? ['GET'] : allowed(c.path);
      if (!methods.includes(c.method)) wrong.push(`${file}:${c.line} ${c.method} ${c.path} (${methods.length ? `answers ${methods.join(', ')}` : 'no such route'})`);
    }
  }
  assert.ok(count >= 5, `${count} curl commands found`);
  assert.deepEqual(wrong, []);
});
