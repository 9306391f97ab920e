// The OpenAPI document checked by tools nobody here wrote (Spectral's spectral:oas
// ruleset) and against the real server: every status an operation answers is
// documented on it, examples pass the route's own schemas, list filters validate in
// the form the server reads, and a line read from an invoice goes back unchanged.
import '../helpers/env.js';
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import net, { type Socket } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { demoPlatform } from '../helpers/platform.js';
import { startServer } from '../../src/http/app.js';
import { ADMIN } from '../helpers/sandboxes.js';
import { answerChecker, type AnswerCheck } from '../contract/validate.js';
import { allRoutes } from '../../src/http/routes/index.js';
import { openApiPath } from '../../src/http/openapi.js';
import { exampleFileName } from '../../src/http/openapi-examples.js';
import { holdWrites } from '../helpers/store.js';
import { PERMISSIONS, type Permission } from '../../src/domain/permissions.js';
import type { RouteDef } from '../../src/http/route.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const PAY_LIMIT = 40;
let s: TestServer;
let doc: Doc;
let checkAnswer: AnswerCheck;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN, settings: { payRateLimit: { points: PAY_LIMIT, durationMs: 60_000 } } });
  doc = (await s.call('GET', '/api/v1/openapi.json')).body;
  checkAnswer = answerChecker(doc);
});
after(() => s.close());

/** Everything a socket receives, as text so far. */
function collect(socket: Socket): () => string {
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString()));
  return () => text;
}

/** Wait until a condition holds (checked on each turn of the event loop). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

const visibleRoutes = () => allRoutes().filter((r) => !r.hidden);
const operation = (route: RouteDef) => doc.paths[openApiPath(route)]?.[route.method.toLowerCase()];
const documented = (route: RouteDef): string[] => Object.keys(operation(route)?.responses ?? {});
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';

/** The route's path with the demo group and unknown ids for everything else. */
function concretePath(route: RouteDef): string {
  return route.path.replace(/:([a-z_]+)/g, (_, name: string) => (name === 'group_id' ? s.demo.group_id : UNKNOWN_ID));
}

test('Spectral (spectral:oas) finds nothing in the document: no error, no warning, no hint', async () => {
  const spectral = new spectralCore.Spectral();
  spectral.setRuleset({ extends: [[oas, 'recommended']] } as never);
  const results = await spectral.run(new spectralCore.Document(JSON.stringify(doc, null, 2), spectralParsers.Json, 'openapi.json'));
  const lines = results.map((r) => `${['error', 'warn', 'info', 'hint'][r.severity]} ${r.code} ${r.path.join('.')}: ${r.message}`);
  assert.deepEqual(lines, []);
});

describe('every status the server answers is documented on its operation', () => {
  /** Every status answered per operation, over all probes. */
  const seen = new Map<RouteDef, Set<number>>();
  async function probe(route: RouteDef, init: { headers?: Record<string, string>; body?: string | Uint8Array }): Promise<Response> {
    const res = await fetch(s.url + concretePath(route), { method: route.method, headers: init.headers ?? {}, body: (init.body ?? null) as BodyInit | null });
    // The status is documented on the operation and the body (the Error object here) matches it.
    await checkAnswer(route.method, openApiPath(route), res.status, res.headers.get('content-type') ?? '', () => res.json());
    // A stream (the live event stream) stays open: its head is what is checked here.
    if (route.stream && res.ok) await res.body?.cancel();
    else if (!res.bodyUsed) await res.arrayBuffer();
    const set = seen.get(route) ?? new Set<number>();
    set.add(res.status);
    seen.set(route, set);
    return res;
  }
  const keyFor = (route: RouteDef): Record<string, string> =>
    route.auth.kind === 'key' ? { authorization: s.demo.keys[route.auth.anyOf[0]!] } : route.auth.kind === 'admin' ? { authorization: ADMIN } : {};

  test('no credentials, wrong permission, unknown ids, bad bodies, oversized and non-JSON bodies', async () => {
    for (const route of visibleRoutes()) {
      const json = { 'content-type': 'application/json' };
      if (route.auth.kind !== 'public') await probe(route, {});
      if (route.auth.kind === 'key') {
        const anyOf: readonly Permission[] = route.auth.anyOf;
        // A route every permission may call (the event log) has no wrong permission to probe.
        const other = PERMISSIONS.find((p) => !anyOf.includes(p));
        if (other) await probe(route, { headers: { authorization: s.demo.keys[other] } });
      }
      await probe(route, { headers: keyFor(route) });
      if (route.method === 'POST' || route.method === 'PUT') {
        await probe(route, { headers: { ...keyFor(route), ...json }, body: JSON.stringify({ not_a_field: 1 }) });
        await probe(route, { headers: { ...keyFor(route), ...json }, body: Buffer.alloc(1024 * 1024 + 1, 0x20) });
        await probe(route, { headers: { ...keyFor(route), 'content-type': 'text/plain' }, body: 'hello' });
      }
    }
    for (const route of visibleRoutes()) {
      const statuses = seen.get(route)!;
      if (route.upload) {
        // A file upload has no 1 MiB bound: only its content type is refused.
        assert.ok(statuses.has(415), `${route.method} ${route.path}: 415 was answered`);
      } else if (route.method === 'POST' || route.method === 'PUT') {
        assert.ok(statuses.has(413) && statuses.has(415), `${route.method} ${route.path}: 413 and 415 were answered`);
      }
      if (route.auth.kind === 'key') {
        const wrongPermission = PERMISSIONS.some((p) => !(route.auth as { anyOf: readonly Permission[] }).anyOf.includes(p));
        assert.ok(statuses.has(401) && (!wrongPermission || statuses.has(403)), `${route.method} ${route.path}: 401 and 403`);
      }
    }
  });

  test('429 with Retry-After and RateLimit-* headers, declared as headers on the 429 of each rate-limited operation', async () => {
    const limited = visibleRoutes().filter((r) => r.rateLimit);
    assert.ok(limited.length >= 2, 'both pay paths are rate limited');
    let res: Response | undefined;
    for (let i = 0; i <= PAY_LIMIT && res?.status !== 429; i++) res = await probe(limited[0]!, {});
    assert.equal(res?.status, 429);
    for (const name of ['Retry-After', 'RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
      assert.ok(res.headers.get(name), `the 429 carries ${name}`);
      for (const route of limited) {
        assert.ok(operation(route).responses['429'].headers?.[name], `${route.path}: 429 declares ${name}`);
      }
    }
  });

  test('Idempotency-Key: 409 while the first request runs, 422 with another body, the replay marked', async () => {
    const route = visibleRoutes().find((r) => r.method === 'POST' && r.path === '/api/v1/groups/:group_id/customers')!;
    const call = (body: unknown) =>
      fetch(s.url + concretePath(route), {
        method: 'POST',
        headers: { authorization: s.demo.keys.manage_customers, 'content-type': 'application/json', 'idempotency-key': 'openapi-409' },
        body: JSON.stringify(body),
      });
    // Hold the database's writes from a second connection: the first request waits
    // inside its write, so the second finds the key still running.
    const hold = await holdWrites(s.dbPath);
    const answers = [call({ first_name: 'Ada' }), call({ first_name: 'Ada' })];
    const first = await Promise.race(answers);
    await hold.release();
    const rest = await Promise.all(answers);
    assert.equal(first.status, 409, 'the request that found the key running');
    assert.deepEqual(rest.map((r) => r.status).sort(), [200, 409]);
    const replay = await call({ first_name: 'Ada' });
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    const mismatch = await call({ first_name: 'Grace' });
    assert.equal(mismatch.status, 422);
    for (const code of ['409', '422']) {
      for (const post of visibleRoutes().filter((r) => r.method === 'POST' && !r.noIdempotency)) assert.ok(documented(post).includes(code), `${post.path}: ${code}`);
    }
    assert.ok(operation(route).responses['200'].headers['Idempotent-Replayed']);
  });

  test('503 while the server shuts down: a request it has not begun is refused, as every operation documents', async () => {
    const { p, demo } = await demoPlatform();
    const server = await startServer({ platform: p, port: 0, tickMs: 0, accessLog: 'off' });
    const sockets: Socket[] = [];
    server.server.on('connection', (socket: Socket) => sockets.push(socket));
    const { port } = new URL(server.url);
    // A: a request the server has begun (it answered 100 Continue) and that waits for its body.
    const a = net.connect(Number(port), '127.0.0.1');
    const aText = collect(a);
    a.write(`POST /api/v1/groups/${demo.group_id}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${demo.keys.manage_customers}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
    await until(() => aText().includes('100 Continue'));
    // B: a request whose headers are not complete yet when the shutdown starts.
    const b = net.connect(Number(port), '127.0.0.1');
    const bText = collect(b);
    const bClosed = new Promise((resolve) => b.once('close', resolve));
    b.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n');
    await until(() => sockets.length === 2 && sockets.every((x) => x.bytesRead > 0));
    const closing = server.close();
    b.write('Connection: close\r\n\r\n');
    await bClosed;
    const aClosed = new Promise((resolve) => a.once('close', resolve));
    a.write('{}');
    await Promise.all([closing, aClosed]);
    await p.close();
    assert.match(bText(), /^HTTP\/1\.1 503 /);
    assert.match(aText(), /HTTP\/1\.1 200 /, 'the request begun before the shutdown is answered');
    for (const route of visibleRoutes()) assert.ok(documented(route).includes('503'), `${route.method} ${route.path}: 503`);
  });

  test("onboarding documents its 201 and its 202 with the result's schema", () => {
    const op = doc.paths['/api/v1/processing/signup_entry'].post;
    for (const code of ['201', '202']) assert.equal(op.responses[code].content['application/json'].schema.$ref, '#/components/schemas/SignupEntryResult');
  });
});

describe('schemas', () => {
  test('every request body and JSON response is a named component with an example that passes the route\'s own schema', () => {
    for (const route of visibleRoutes()) {
      const op = operation(route);
      const where = `${route.method} ${route.path}`;
      const checks: Array<[string, Doc, import('zod').ZodType | undefined]> = [];
      if (route.body) checks.push(['request', op.requestBody.content['application/json'], route.body]);
      if (route.response) checks.push(['response', op.responses[String(route.status ?? 200)].content['application/json'], route.response]);
      for (const [what, media, schema] of checks) {
        const ref: string = media.schema.$ref;
        assert.match(ref ?? '', /^#\/components\/schemas\/\w+$/, `${where}: the ${what} is a $ref`);
        const name = ref.split('/').pop()!;
        assert.ok(media.example !== undefined, `${where}: the ${what} has an example (data/examples/${exampleFileName(name)})`);
        const parsed = schema!.safeParse(media.example);
        assert.ok(parsed.success, `${where}: the ${what} example passes the schema: ${parsed.error?.message}`);
      }
    }
  });

  test('the resources are named components', () => {
    for (const name of ['Transaction', 'Invoice', 'InvoiceLine', 'Plan', 'Subscription', 'Product', 'Partner', 'PaymentLink', 'SignupEntry', 'Customer', 'Token', 'Error']) {
      assert.ok(doc.components.schemas[name], name);
    }
    const tx = doc.paths['/api/v1/groups/{group_id}/transaction'].post;
    assert.equal(tx.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/Transaction');
    assert.deepEqual(doc.components.schemas.ReportTable.properties.items.items, { $ref: '#/components/schemas/Transaction' });
  });

  test('formats and bounds: every timestamp is date-time, due_date a date, the tokenizer month 1-12 and year 0-9999', () => {
    const timestamps: string[] = [];
    const walk = (node: Doc, at: string) => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries<Doc>(node.properties ?? {})) {
        if (/_at$/.test(key)) {
          timestamps.push(`${at}.${key}`);
          const formats = JSON.stringify(value).match(/"format":"([^"]+)"/g) ?? [];
          assert.deepEqual(formats, ['"format":"date-time"'], `${at}.${key}`);
        }
      }
      for (const [key, value] of Object.entries<Doc>(node)) if (typeof value === 'object') walk(value, `${at}.${key}`);
    };
    walk(doc.components.schemas, 'components');
    assert.ok(timestamps.length >= 30, `${timestamps.length} timestamps`);
    for (const name of ['CreateInvoiceRequest', 'UpdateInvoiceRequest']) assert.equal(doc.components.schemas[name].properties.due_date.format, 'date');
    assert.equal(doc.components.schemas.Invoice.properties.due_date.format, 'date-time');
    const card = doc.components.schemas.CardTokenRequest.properties.card.properties;
    assert.deepEqual(card.expiration_month.anyOf[0], { type: 'integer', minimum: 1, maximum: 12 });
    assert.equal(card.expiration_month.anyOf[1].pattern, '^(0?[1-9]|1[0-2])$');
    assert.deepEqual(card.expiration_year.anyOf[0], { type: 'integer', minimum: 0, maximum: 9999 });
    assert.match(doc.components.schemas.SaleRequest.description, /included_tax_amount \+ included_shipping_amount ≤ requested_amount/);
    assert.match(doc.components.schemas.CreatePaymentLinkRequest.description, /exactly one of amount or open_amount/);
    assert.match(doc.components.schemas.CreateProductRequest.properties.included_tax_amount.description, /at most amount/);
  });

  test('paging parameters are integers on every list operation', () => {
    for (const route of visibleRoutes().filter((r) => r.query)) {
      for (const param of operation(route).parameters.filter((p: Doc) => p.name === 'limit' || p.name === 'offset')) {
        assert.equal(param.schema.type, 'integer', `${route.path} ${param.name}`);
      }
    }
  });
});

describe('reporting list filters', () => {
  const reportPath = () => `/api/v1/groups/${s.demo.group_id}/processing/${s.demo.linked_account_id}/transactions/reporting`;
  const count = async (query: string) => {
    const r = await s.call('GET', `${reportPath()}?type=count&${query}`, { key: s.demo.keys.view_transactions });
    assert.equal(r.status, 200, r.text);
    return r.body.total_count as number;
  };

  test('arrays are declared as the comma form (style form, explode false), the other forms named', () => {
    const params = doc.paths['/api/v1/groups/{group_id}/processing/{linked_account_id}/transactions/reporting'].get.parameters;
    const brands = params.find((p: Doc) => p.name === 'brands');
    assert.equal(brands.style, 'form');
    assert.equal(brands.explode, false);
    assert.match(brands.description, /brands=a&brands=b/);
    assert.match(brands.description, /brands\[\]=a/);
    for (const p of params.filter((x: Doc) => x.schema.type === 'array')) assert.equal(p.explode, false, p.name);
  });

  test('the comma, repeated and bracket forms give the same answer', async () => {
    const comma = await count('brands=Visa,Mastercard');
    assert.ok(comma > 0);
    assert.equal(await count('brands=Visa&brands=Mastercard'), comma);
    assert.equal(await count('brands[]=Visa&brands[]=Mastercard'), comma);
    assert.ok((await count('brands=Visa')) < comma || (await count('brands=Mastercard')) < comma);
  });
});

test('a line read from an invoice is sent back in an update unchanged', async () => {
  const key = s.demo.keys.manage_invoices;
  const list = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/invoices?status=pending`, { key });
  assert.equal(list.status, 200, list.text);
  const invoice = list.body.data.items[0];
  assert.ok(invoice, 'the demo has a pending invoice');
  const body = {
    note: invoice.note,
    due_date: invoice.due_date.slice(0, 10),
    processor_id: invoice.processor_id,
    card_enabled: invoice.card_enabled,
    ach_enabled: invoice.ach_enabled,
    products: invoice.products,
  };
  const r = await s.call('PUT', `/api/v1/groups/${s.demo.group_id}/invoices/${invoice.id}`, { key, body });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(
    r.body.products.map((l: Doc) => [l.id, l.quantity]),
    invoice.products.map((l: Doc) => [l.id, l.quantity]),
  );
  const read = doc.components.schemas.InvoiceLine.properties;
  const sent = doc.components.schemas.UpdateInvoiceLine.properties;
  assert.deepEqual(read.unit_of_measure.enum, sent.unit_of_measure.enum);
  for (const field of Object.keys(read)) assert.ok(sent[field], `an update line takes ${field}`);
});
