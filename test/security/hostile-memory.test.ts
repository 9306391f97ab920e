// Resource-consumption attacks on a real `payctl serve` (OWASP API4): bodies nested
// 100,000 levels deep, arrays of hundreds of thousands of items, 100,000-character
// strings in every string field, a 100,000-character query, and a streamed body that
// never stops at 1 MiB — sent to every route that reads a body. Each is refused (4xx,
// error shape of docs/decisions.md#errors) and the server's resident memory stays bounded; it keeps
// serving afterwards.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { allRoutes } from '../../src/http/routes/index.js';
import type { RouteDef } from '../../src/http/route.js';
import { buildBody, buildWorld, bodyBuilder, fillPath, type World } from './support/fixtures.js';
import { fieldsOf, setAt, toJsonSchema } from './support/json-schema-arb.js';
import { assertWellFormed, sendTo, Sessions, type Outgoing } from './support/requests.js';
import { spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { report } from '../helpers/report.js';

const MiB = 1024 * 1024;
/** Generous: the server may keep some freed heap, but must not grow with what it was sent. */
const RSS_GROWTH_LIMIT = 192 * MiB;
/** A hang detector, not a speed test: a refusal that takes this long is a bug (e.g. a regex). */
const SLOW_MS = 10_000;

let w: World;
let sessions: Sessions;
let srv: ServeProcess;
before(async () => {
  w = await buildWorld();
  sessions = new Sessions(w);
  srv = await spawnServe({ db: w.s.p.db.location, args: ['--tick', '0', '--access-log', 'off', '--pay-rate-limit', '1000000/60s'] });
});
after(async () => {
  srv.child.kill('SIGTERM');
  await srv.exited;
  await w.s.close();
});

const routes = allRoutes().filter((r) => r.method === 'POST' || r.method === 'PUT');
const stats = { requests: 0, bytes: 0, slowestMs: 0, statuses: new Map<number, number>() };

const deepArrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObjects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const DEEP = 100_000;
const LONG = 'z'.repeat(100_000);
const DEEP_MARK = '"__DEEP__"';

async function hostile(route: RouteDef, out: Outgoing, label: string): Promise<void> {
  const started = performance.now();
  const r = await sendTo(w, sessions, route, out, srv.url);
  const ms = performance.now() - started;
  stats.requests++;
  stats.bytes += (out.raw ?? '').length;
  stats.slowestMs = Math.max(stats.slowestMs, ms);
  stats.statuses.set(r.status, (stats.statuses.get(r.status) ?? 0) + 1);
  assertWellFormed(route, r, `${label} (${(out.raw ?? '').length} bytes)`);
  // Routes without a body schema (void, cancel, deactivate) ignore a body; the rest refuse these.
  if (route.body) assert.ok(r.status >= 400, `${label}: accepted with ${r.status}`);
  assert.ok(ms < SLOW_MS, `${label}: took ${Math.round(ms)} ms`);
}

test('hostile bodies to every body route: refused, memory bounded, server alive', async () => {
  // Warm up (lazy imports, statement caches) before the baseline.
  for (const route of routes) await sendTo(w, sessions, route, { json: {} }, srv.url);
  const rssBefore = srv.rss();
  let rssPeak = rssBefore;

  for (const route of routes) {
    const builder = bodyBuilder(route);
    const base = builder ? ((await buildBody(w, builder, w.a.ids)).body as Record<string, unknown>) : {};
    const fields = route.body ? fieldsOf(toJsonSchema(route.body)) : [];
    const name = `${route.method} ${route.path}`;

    await hostile(route, { raw: deepArrays(DEEP) }, `${name}: 100k nested arrays`);
    await hostile(route, { raw: deepObjects(DEEP) }, `${name}: 100k nested objects`);
    await hostile(route, { raw: `[${'0,'.repeat(400_000)}0]` }, `${name}: 400k-item top-level array`);
    // 100k-deep nesting in each field (first eight), one at a time.
    for (const f of fields.slice(0, 8)) {
      const raw = JSON.stringify(setAt(base, f.path, '__DEEP__')).replace(DEEP_MARK, deepArrays(DEEP));
      await hostile(route, { raw }, `${name}: 100k nesting in ${f.path.join('.')}`);
    }
    // Every array field (and every object field) made huge.
    const containers = new Set(fields.filter((f) => f.path.includes('0')).map((f) => f.path.slice(0, f.path.indexOf('0')).join('.')));
    for (const c of containers) {
      const raw = JSON.stringify(setAt(base, c.split('.'), '__DEEP__')).replace(DEEP_MARK, `[${'{},'.repeat(250_000)}{}]`);
      await hostile(route, { raw }, `${name}: 250k items in ${c}`);
    }
    // 100k-character strings in up to nine string fields at once (under 1 MiB).
    const strings = fields.filter((f) => f.schema.type === 'string' && !f.path.includes('0')).slice(0, 9);
    if (strings.length > 0) {
      let body: unknown = base;
      for (const f of strings) body = setAt(body, f.path, LONG);
      await hostile(route, { json: body }, `${name}: 100k-character strings in ${strings.map((f) => f.path.join('.')).join(', ')}`);
    }
    // A 100k-character unknown field name.
    await hostile(route, { raw: JSON.stringify({ ...base, [LONG]: 1 }) }, `${name}: 100k-character field name`);
    rssPeak = Math.max(rssPeak, srv.rss());
  }

  const rssAfter = srv.rss();
  const growth = rssAfter - rssBefore;
  report('hostile-memory', {
    routes: routes.length,
    requests: stats.requests,
    mib_sent: Math.round(stats.bytes / MiB),
    statuses: Object.fromEntries(stats.statuses),
    slowest_ms: Math.round(stats.slowestMs),
    rss_before_mib: Math.round(rssBefore / MiB),
    rss_peak_mib: Math.round(rssPeak / MiB),
    rss_after_mib: Math.round(rssAfter / MiB),
  });
  assert.ok(growth < RSS_GROWTH_LIMIT, `RSS grew by ${Math.round(growth / MiB)} MiB`);
  const alive = await fetch(`${srv.url}/api/v1/openapi.json`);
  assert.equal(alive.status, 200);
});

test('a 100,000-character query string is refused without a 5xx', async () => {
  const route = allRoutes().find((r) => r.method === 'GET' && r.query)!;
  const res = await fetch(`${srv.url}${fillPath(route, w.a.ids)}?name=${LONG}`, { headers: { authorization: w.a.allKey } });
  assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
});

test('a streamed body that does not stop at 1 MiB: 413 on public routes too, and the server keeps serving', async () => {
  for (const route of allRoutes().filter((r) => r.method === 'POST' && r.auth.kind === 'public')) {
    let sent = 0;
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ >= 48) return controller.close(); // 3 MiB
        controller.enqueue(chunk);
      },
    });
    const params: Record<string, string> = { ...w.a.ids };
    const res = await fetch(srv.url + fillPath(route, params), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413, `${route.path}: ${res.status}`);
    await res.text();
  }
  assert.equal(srv.child.exitCode, null, `the server stopped: ${srv.stderr()}`);
  assert.equal((await fetch(`${srv.url}/api/v1/openapi.json`)).status, 200);
});
