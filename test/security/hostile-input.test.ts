// Targeted hostile input for every route of the table (OWASP API3 mass assignment,
// API4 resource consumption): unknown fields such as status / group_id /
// captured_amount are refused by name; every amount field takes exactly what docs/decisions.md
// #amounts allows (0..2^53-1 integers, digit strings only where the spec says "as
// string") and names the field otherwise; bodies over 1 MiB are 413 (declared or
// streamed); list limits over the maximum are refused or clamped.
import '../helpers/env.js';
import { MAX_AMOUNT } from '../../src/domain/money.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { allRoutes } from '../../src/http/routes/index.js';
import type { RouteDef } from '../../src/http/route.js';
import { authFor, baselineQuery, buildBody, buildWorld, bodyBuilder, fillPath, type World } from './support/fixtures.js';
import { fieldsOf, setAt, toJsonSchema, type JsonSchema } from './support/json-schema-arb.js';
import { assertWellFormed, fieldPaths, sendTo, Sessions, type Outgoing, type Reply } from './support/requests.js';
import { report } from '../helpers/report.js';

let w: World;
let sessions: Sessions;
before(async () => {
  w = await buildWorld();
  sessions = new Sessions(w);
});
after(() => w.s.close());

const routes = allRoutes();
const bodyRoutes = routes.filter((r) => r.body);
const tally = { unknownField: 0, amount: 0, tooLarge: 0, limit: 0 };

async function baseline(route: RouteDef): Promise<Record<string, unknown>> {
  const builder = bodyBuilder(route);
  return builder ? ((await buildBody(w, builder, w.a.ids)).body as Record<string, unknown>) : {};
}

async function send(route: RouteDef, out: Outgoing, input: unknown): Promise<Reply> {
  const r = await sendTo(w, sessions, route, out);
  assertWellFormed(route, r, input);
  return r;
}

/** Property names defined at the top level of a body schema (any union branch). */
function topLevelFields(schema: JsonSchema): Set<string> {
  const names = new Set<string>();
  const visit = (s: JsonSchema) => {
    for (const k of Object.keys(s.properties ?? {})) names.add(k);
    for (const alt of (s.anyOf ?? s.oneOf ?? []) as JsonSchema[]) visit(alt);
  };
  visit(schema);
  return names;
}

test('there are body routes to check', () => assert.ok(bodyRoutes.length >= 10));

for (const route of bodyRoutes) {
  test(`unknown fields refused by name: ${route.method} ${route.path}`, async () => {
    const schema = toJsonSchema(route.body!);
    const defined = topLevelFields(schema);
    const base = await baseline(route);
    for (const unknown of ['status', 'group_id', 'captured_amount', 'id', 'created_at', 'settled', '__proto__']) {
      if (defined.has(unknown)) continue;
      const body = structuredClone(base);
      Object.defineProperty(body, unknown, { value: unknown === '__proto__' ? { admin: true } : 'settled', enumerable: true });
      const r = await send(route, { json: body }, body);
      assert.equal(r.status, 400, `${unknown}: ${r.text}`);
      assert.ok(fieldPaths(r).includes(unknown), `${unknown} not named: ${r.text}`);
      tally.unknownField++;
    }
    // One level down, inside the first nested object of the known-good body.
    const nested = Object.entries(base).find(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v));
    if (nested) {
      const body = setAt(base, [nested[0], 'status'], 'settled');
      const r = await send(route, { json: body }, body);
      assert.equal(r.status, 400, r.text);
      assert.ok(fieldPaths(r).includes(`${nested[0]}.status`), `${nested[0]}.status not named: ${r.text}`);
      tally.unknownField++;
    }
  });

  // Amounts (0 or 1 to MAX_AMOUNT, docs/decisions.md#amounts) and uint64 whole numbers (to 2^53-1);
  // z.int() alone starts below 0 and is neither.
  const amountFields = fieldsOf(toJsonSchema(route.body!)).filter(
    (f) => f.schema.type === 'integer' && (f.schema.maximum === Number.MAX_SAFE_INTEGER || f.schema.maximum === MAX_AMOUNT) && (f.schema.minimum ?? -1) >= 0,
  );
  if (amountFields.length === 0) continue;
  test(`amounts per docs/decisions.md#amounts: ${route.method} ${route.path}`, async () => {
    const base = await baseline(route);
    const seen = new Set<string>();
    for (const field of amountFields) {
      const dotted = field.path.join('.');
      if (seen.has(dotted)) continue;
      seen.add(dotted);
      const BIG = '__2_POW_64__';
      const cases: Array<{ value: unknown; refused: boolean; label: string }> = [
        { value: -1, refused: true, label: '-1' },
        { value: 1.5, refused: true, label: '1.5' },
        { value: 1e21, refused: true, label: '1e21' },
        { value: BIG, refused: true, label: '2^64' },
        { value: 9007199254740992, refused: true, label: '2^53' },
        { value: field.schema.maximum! + 1, refused: true, label: `its maximum + 1 (${field.schema.maximum! + 1})` },
        // A digit string of a value the field accepts (the known-good body's, else 1).
        { value: String(valueAt(base, field.path) ?? 1), refused: !field.loose, label: 'digit string' },
        { value: '-5', refused: true, label: '"-5"' },
        { value: '1e3', refused: true, label: '"1e3"' },
        { value: true, refused: true, label: 'true' },
      ];
      for (const c of cases) {
        const body = setAt(base, field.path, c.value);
        const raw = JSON.stringify(body).replace(`"${BIG}"`, '18446744073709551616');
        const r = await send(route, { raw }, raw);
        tally.amount++;
        if (c.refused === true) {
          assert.equal(r.status, 400, `${dotted}=${c.label}: ${r.text}`);
          assert.ok(namesField(r, field.path), `${dotted}=${c.label} not named: ${r.text}`);
        } else if (c.refused === false) {
          assert.ok(!fieldPaths(r).includes(dotted), `${dotted}=${c.label} should be accepted: ${r.text}`);
        }
      }
      // 0 is a valid uint64; a field with a minimum of 1 refuses it by name.
      const zero = await send(route, { json: setAt(base, field.path, 0) }, `${dotted}=0`);
      if ((field.schema.minimum ?? 0) >= 1) {
        assert.equal(zero.status, 400, `${dotted}=0: ${zero.text}`);
        assert.ok(namesField(zero, field.path), `${dotted}=0 not named: ${zero.text}`);
      }
      // The largest allowed value is not a 5xx either (refused by business rules at most).
      await send(route, { json: setAt(base, field.path, field.schema.maximum) }, `${dotted}=${field.schema.maximum}`);
      tally.amount += 2;
    }
  });
}

// An upload route (a sandbox file) streams bodies far over 1 MiB by design, with a type of its own.
for (const route of routes.filter((r) => (r.method === 'POST' || r.method === 'PUT') && !r.upload)) {
  test(`bodies over 1 MiB are 413: ${route.method} ${route.path}`, async () => {
    const over = `{"pad":"${'x'.repeat(1024 * 1024)}"}`;
    const r = await send(route, { raw: over }, 'over 1 MiB');
    assert.equal(r.status, 413, r.text.slice(0, 200));
    assert.equal(r.body.error.type, 'invalid_request');
    tally.tooLarge++;
  });
}

test('a streamed (chunked, no Content-Length) body over 1 MiB is 413 too', async () => {
  const route = routes.find((r) => r.method === 'POST' && r.path === '/api/v1/groups/:group_id/customers')!;
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) controller.enqueue(new TextEncoder().encode('{"first_name":"'));
      if (sent >= 40) return controller.close(); // 2.5 MiB in all
      sent++;
      controller.enqueue(chunk);
    },
  });
  const res = await fetch(w.s.url + fillPath(route, w.a.ids), {
    method: 'POST',
    headers: { authorization: authFor(route, w) ?? '', 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  assert.equal(res.status, 413);
  assert.equal(((await res.json()) as { error: { type: string } }).error.type, 'invalid_request');
});

test('a body of exactly 1 MiB is read (not 413)', async () => {
  const route = routes.find((r) => r.method === 'POST' && r.path === '/api/v1/groups/:group_id/customers')!;
  const prefix = '{"first_name":"';
  const exact = prefix + 'x'.repeat(1024 * 1024 - prefix.length - 2) + '"}';
  assert.equal(Buffer.byteLength(exact), 1024 * 1024);
  const r = await send(route, { raw: exact }, '1 MiB');
  assert.equal(r.status, 400);
  assert.deepEqual(fieldPaths(r), ['first_name']);
});

for (const route of routes.filter((r) => r.query && 'limit' in ((toJsonSchema(r.query).properties ?? {}) as object))) {
  test(`limit=100000 is refused or clamped, and paging values per docs/decisions.md#reporting-queries: ${route.method} ${route.path}`, async () => {
    const q = (extra: string) => [baselineQuery(route), extra].filter(Boolean).join('&');
    const r = await send(route, { query: q('limit=100000') }, 'limit=100000');
    if (r.status === 400) assert.ok(fieldPaths(r).includes('limit'), r.text);
    else {
      assert.equal(r.status, 200, r.text);
      const items = findArray(r.body);
      assert.ok(items && items.length <= 1000, 'clamped to at most 1000 rows');
    }
    const max = await send(route, { query: q('limit=1000') }, 'limit=1000');
    assert.equal(max.status, 200, max.text);
    for (const bad of ['limit=-1', 'limit=1.5', 'limit=1e21', 'limit=18446744073709551616', 'limit=abc', 'offset=-1', 'offset=1e3']) {
      const x = await send(route, { query: q(bad) }, bad);
      assert.equal(x.status, 400, `${bad}: ${x.text}`);
      assert.ok(fieldPaths(x).includes(bad.split('=')[0]!), `${bad} not named: ${x.text}`);
    }
    tally.limit++;
  });
}

/** The error names the field, or refuses an enclosing field as not part of the shape the body took (capture A vs B). */
function namesField(r: Reply, path: string[]): boolean {
  const problems = (r.body?.error?.fields ?? []) as Array<{ path: string; message: string }>;
  return problems.some(
    (f) => f.path === path.join('.') || (/not a field/.test(f.message) && path.slice(0, -1).some((_, i) => path.slice(0, i + 1).join('.') === f.path)),
  );
}

function valueAt(body: unknown, path: string[]): unknown {
  let node: unknown = body;
  for (const k of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined;
  return typeof node === 'number' ? node : undefined;
}

function findArray(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) {
      const found = findArray(x);
      if (found) return found;
    }
  }
  return undefined;
}

test('hostile input tally', () => {
  report('hostile-input', { body_routes: bodyRoutes.length, unknown_field_requests: tally.unknownField, amount_requests: tally.amount, over_1mib_413: tally.tooLarge, limit_routes: tally.limit });
  assert.ok(tally.unknownField > 0 && tally.amount > 0 && tally.tooLarge > 0);
});
