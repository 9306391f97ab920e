// Property-based fuzzing of every route (OWASP API3/API4): bodies and queries generated
// from the route's own zod schema (via z.toJSONSchema) and from a known-good body, then
// damaged (fields dropped, unknown fields added, values swapped for hostile ones, values
// wrapped in arrays); raw bodies that are not JSON or not objects; hostile path
// parameters. Property: never a 5xx, and every /api error has the shape of docs/decisions.md#errors with
// validation errors naming their fields. Seeds are fixed (FUZZ_SEED to change them) so a
// failure reproduces; FUZZ_RUNS sets the runs per route.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { allRoutes } from '../../src/http/routes/index.js';
import type { RouteDef } from '../../src/http/route.js';
import { ADMIN_TOKEN, buildBody, buildWorld, bodyBuilder, paramsOf, type World } from './support/fixtures.js';
import { arbFromJsonSchema, mutated, toJsonSchema, UNKNOWN_KEYS } from './support/json-schema-arb.js';
import { answerText, assertWellFormed, sendTo, Sessions, type Outgoing } from './support/requests.js';
import { report } from '../helpers/report.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20261121);

let w: World;
let sessions: Sessions;
before(async () => {
  w = await buildWorld();
  sessions = new Sessions(w);
});
after(() => w.s.close());

const routes = allRoutes();
const tally = { requests: 0, statuses: new Map<number, number>() };

const seedFor = (what: string) => BASE_SEED ^ createHash('sha256').update(what).digest().readInt32LE(0);

async function check(route: RouteDef, out: Outgoing, input: unknown): Promise<void> {
  const r = await sendTo(w, sessions, route, out);
  tally.requests++;
  tally.statuses.set(r.status, (tally.statuses.get(r.status) ?? 0) + 1);
  assertWellFormed(route, r, input);
}

const RAW_BODIES: fc.Arbitrary<Outgoing> = fc.oneof(
  fc.string({ maxLength: 200 }).map((raw) => ({ raw })),
  fc.constantFrom('null', '1', '"str"', '[]', 'true', '{', '{"a":}', '{"a":1,}', "{'a':1}", '\uFEFF{}', '{"a":1}{"b":2}', ' ', 'NaN', '[1,2', '{"__proto__":{"x":1}}').map((raw) => ({ raw })),
  fc.record({
    raw: fc.constantFrom('{}', 'a=1&b=2', '<xml/>'),
    contentType: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/vnd.api+json', 'multipart/form-data; boundary=x', 'application/xml'),
  }),
);

const IDEMPOTENCY = fc.option(fc.string({ minLength: 0, maxLength: 300 }).filter((s) => s.trim() === s), { freq: 4 });

for (const route of routes) {
  const hasBody = route.method === 'POST' || route.method === 'PUT';
  if (hasBody) {
    test(`fuzz body: ${route.method} ${route.path}`, async () => {
      const jsonArbs: Array<fc.Arbitrary<unknown>> = [];
      if (route.body) jsonArbs.push(mutated(arbFromJsonSchema(toJsonSchema(route.body))));
      const builder = bodyBuilder(route);
      if (builder) jsonArbs.push(mutated(fc.constant((await buildBody(w, builder, w.a.ids)).body)));
      jsonArbs.push(mutated(fc.jsonValue({ maxDepth: 3 })));
      const outgoing: fc.Arbitrary<Outgoing> = fc.oneof(
        { weight: 6, arbitrary: fc.oneof(...jsonArbs).map((json) => ({ json: json === undefined ? null : json })) },
        { weight: 1, arbitrary: RAW_BODIES },
      );
      await fc.assert(
        fc.asyncProperty(outgoing, IDEMPOTENCY, async (out, idem) => {
          await check(route, idem === null ? out : { ...out, headers: { 'idempotency-key': idem } }, out.json ?? out.raw);
        }),
        { numRuns: RUNS, seed: seedFor(`body ${route.method} ${route.path}`), includeErrorInReport: true },
      );
    });
  }

  test(`fuzz query: ${route.method} ${route.path}`, async () => {
    const schemaArb = route.query ? arbFromJsonSchema(toJsonSchema(route.query)) : fc.constant({});
    const extra = fc.dictionary(fc.oneof(fc.constantFrom(...UNKNOWN_KEYS, 'limit', 'offset', 'statuses[]', 'a[b]'), fc.string({ maxLength: 10 })), fc.oneof(
      fc.constantFrom('-1', '1.5', '1e21', '18446744073709551616', '100000', '', 'null', '[]', '%00', 'x'.repeat(6000), '0x10', ' 5'),
      fc.string({ maxLength: 20 }),
    ), { maxKeys: 3 });
    const queryArb = fc.tuple(mutated(schemaArb), extra).map(([base, more]) => {
      const q = new URLSearchParams();
      const add = (k: string, v: unknown) => {
        if (Array.isArray(v)) v.forEach((x) => q.append(k, typeof x === 'string' ? x : JSON.stringify(x)));
        else q.append(k, typeof v === 'string' ? v : JSON.stringify(v));
      };
      if (base && typeof base === 'object' && !Array.isArray(base)) for (const [k, v] of Object.entries(base)) add(k, v);
      for (const [k, v] of Object.entries(more)) add(k, v);
      return q.toString();
    });
    await fc.assert(
      fc.asyncProperty(queryArb, async (query) => {
        await check(route, { query, json: hasBody ? {} : undefined }, query);
      }),
      { numRuns: route.query ? RUNS : Math.ceil(RUNS / 4), seed: seedFor(`query ${route.method} ${route.path}`), includeErrorInReport: true },
    );
  });

  const params = paramsOf(route.path);
  if (params.length > 0) {
    test(`hostile path parameters: ${route.method} ${route.path}`, async () => {
      const hostile = [
        '0', '-1', 'null', 'undefined', '..', '%2e%2e%2f%2e%2e', "'%20OR%201%3D1%20--", '%00', '%E0%A4%A', '%', 'x'.repeat(3000),
        '%F0%9F%98%80', '00000000-0000-0000-0000-000000000000', 'tok_visa', '__proto__', 'constructor',
      ];
      for (const p of params) {
        for (const h of hostile) {
          // Already URL-encoded: fill the path by hand so the hostile text reaches the server verbatim.
          const path = route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => (name === p ? h : encodeURIComponent(w.a.ids[name] ?? 'x')));
          const headers: Record<string, string> = {};
          if (route.auth.kind === 'key') headers.authorization = w.a.allKey;
          if (route.auth.kind === 'admin') headers.authorization = ADMIN_TOKEN;
          if (route.auth.kind === 'session') headers.authorization = (await sessions.get()).token;
          const res = await fetch(w.s.url + path, {
            method: route.method,
            headers: { ...headers, 'content-type': 'application/json' },
            body: route.method === 'GET' ? undefined : '{}',
          });
          const text = await answerText(res);
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          tally.requests++;
          tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
          assertWellFormed(route, { status: res.status, headers: res.headers, body, text }, `:${p}=${h}`);
        }
      }
    });
  }
}

test('fuzz tally: no 5xx in any run', () => {
  const statuses = Object.fromEntries([...tally.statuses].sort((x, y) => x[0] - y[0]));
  report('fuzz', { routes: routes.length, runs_per_route: RUNS, requests: tally.requests, statuses, server_errors: 0 });
  assert.ok(tally.requests > routes.length * 5);
  assert.ok(![...tally.statuses.keys()].some((s) => s >= 500));
});
