// Isolation matrix (OWASP API1 broken object-level / API5 function-level authorization),
// generated from the route table: a new route is covered without editing this file, and
// a route whose parameters have no fixture fails here until one is added.
//
// For every API-key route: group A's key with group B's object ids on A's path → 404
// (each id alone and all at once), on B's path → 403; A's key without the route's
// permission → 403; no key, a malformed key, an unknown key, a revoked key → 401; a body
// that references B's objects (processor, customer, card, plan, …) on A's path → refused.
// The database is byte-for-byte unchanged after every refused request. Session routes
// (payment-link pay): no token → 401, another link's token → 403, another group's path → 404.
import '../helpers/env.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { allRoutes } from '../../src/http/routes/index.js';
import type { RouteDef } from '../../src/http/route.js';
import { createKey } from '../../src/services/groups/keys.js';
import {
  baselineQuery,
  buildBody,
  buildWorld,
  bodyBuilder,
  fillPath as fillRoutePath,
  idFor,
  paramsOf,
  permissionsWithout,
  type World,
} from './support/fixtures.js';
import { changedTables, dbState } from './support/db-state.js';
import { deliveriesSettled } from '../../src/services/webhooks/delivery-loop.js';
import { report } from '../helpers/report.js';

let w: World;
before(async () => {
  w = await buildWorld();
});
after(() => w.s.close());

const routes = allRoutes();
const keyRoutes = routes.filter((r) => r.auth.kind === 'key');
const sessionRoutes = routes.filter((r) => r.auth.kind === 'session');
const tally = { routes: 0, refused: 0, controls: 0 };
const controlOutcomes: string[] = [];

/** Send a request that must be refused with `status`/`type`, and leave the database as it was. */
async function expectRefused(
  what: string,
  route: RouteDef,
  path: string,
  opts: { key?: string; body?: unknown },
  expected: { status: number | number[]; type?: string | string[] },
): Promise<void> {
  // Webhook attempts of earlier controls (a resend) are recorded after their answer: let them finish first.
  await deliveriesSettled(w.s.p);
  const before = await dbState(w.s.p.db);
  const r = await w.s.call(route.method, path, { key: opts.key, body: opts.body });
  const statuses = ([] as number[]).concat(expected.status);
  assert.ok(statuses.includes(r.status), `${what}: ${route.method} ${path} answered ${r.status} (expected ${statuses.join('/')}): ${r.text.slice(0, 300)}`);
  if (expected.type) {
    const types = ([] as string[]).concat(expected.type);
    assert.ok(types.includes(r.body?.error?.type), `${what}: error type ${r.body?.error?.type} (expected ${types.join('/')})`);
  }
  const changed = changedTables(before, await dbState(w.s.p.db));
  assert.deepEqual(changed, [], `${what}: the refused request ${route.method} ${path} changed ${changed.join(', ')}`);
  tally.refused++;
}

test('the route table has API-key routes to check', () => {
  assert.ok(keyRoutes.length >= 10, `only ${keyRoutes.length} key routes`);
});

for (const route of keyRoutes) {
  test(`isolation: ${route.method} ${route.path}`, async () => {
    tally.routes++;
    const { a, b } = w;
    const anyOf = route.auth.kind === 'key' ? route.auth.anyOf : [];
    const keyA = a.keys[anyOf[0]!];
    const params = paramsOf(route.path);
    const objectParams = params.filter((p) => p !== 'group_id');
    // Every parameter needs an object of each group (fails loudly when a fixture is missing).
    const idsA: Record<string, string> = { ...a.ids };
    const idsB: Record<string, string> = { ...b.ids };
    for (const p of params) {
      idFor(a, p, route);
      idFor(b, p, route);
    }
    // Required query parameters (e.g. reporting's type) ride along on every request.
    const q = baselineQuery(route);
    const fillPath = (r: RouteDef, ids: Record<string, string>) => fillRoutePath(r, ids) + (q ? `?${q}` : '');
    const builder = bodyBuilder(route);
    if (route.body && objectParams.length > 0) {
      assert.ok(builder, `route ${route.method} ${route.path} needs a valid body in test/security/support/fixtures.ts (validBodies)`);
    }
    const bodyFor = async (ids: Record<string, string>) => (builder ? (await buildBody(w, builder, ids)).body : route.body ? {} : undefined);
    const ownBody = await bodyFor(idsA);

    // Group A's key, group B's objects, group A's path: not found (never revealed).
    if (objectParams.length > 0) {
      const allB = { ...idsA };
      for (const p of objectParams) allB[p] = idsB[p]!;
      await expectRefused('B objects on A path', route, fillPath(route, allB), { key: keyA, body: ownBody }, { status: 404, type: 'not_found' });
      if (objectParams.length > 1) {
        for (const p of objectParams) {
          await expectRefused(`B ${p} on A path`, route, fillPath(route, { ...idsA, [p]: idsB[p]! }), { key: keyA, body: ownBody }, { status: 404, type: 'not_found' });
        }
      }
    }
    // Group A's key on group B's path: forbidden.
    if (params.includes('group_id')) {
      await expectRefused('A key on B path', route, fillPath(route, idsB), { key: keyA, body: await bodyFor(idsB) }, { status: 403, type: 'permission_error' });
    } else {
      await expectRefused('A key, B objects', route, fillPath(route, idsB), { key: keyA, body: ownBody }, { status: 404, type: 'not_found' });
    }
    // A key of the right group without the route's permission kind.
    const others = permissionsWithout(route);
    if (others.length > 0) {
      const weak = (await execute(createKey, w.s.p, contextFor(w.s.p, a.groupId), { permissions: others, name: 'lacks permission' })).key;
      await expectRefused('key without the permission', route, fillPath(route, idsA), { key: weak, body: ownBody }, { status: 403, type: 'permission_error' });
    }
    // No, malformed, unknown and revoked keys.
    const ownPath = fillPath(route, idsA);
    for (const [what, key] of [
      ['no key', undefined],
      ['malformed key', 'not-a-key'],
      ['empty Bearer', 'Bearer '],
      ['unknown key', `sk_test_${'0'.repeat(32)}`],
      ['revoked key', w.revokedKey],
    ] as Array<[string, string | undefined]>) {
      await expectRefused(what, route, ownPath, { key, body: ownBody }, { status: 401, type: 'authentication_error' });
    }
    // References to group B's objects inside the body (one at a time, then all at once).
    if (builder) {
      const { refs } = await buildBody(w, builder, idsA);
      const bodyRefs = refs.filter((r) => !params.includes(r) && idsB[r]);
      for (const ref of bodyRefs) {
        const body = await bodyFor({ ...idsA, [ref]: idsB[ref]! });
        await expectRefused(`body ${ref} of group B`, route, ownPath, { key: keyA, body }, { status: [400, 404], type: ['validation_error', 'invalid_request', 'not_found'] });
      }
      if (bodyRefs.length > 1) {
        const swapped = { ...idsA };
        for (const ref of bodyRefs) swapped[ref] = idsB[ref]!;
        await expectRefused('every body reference of group B', route, ownPath, { key: keyA, body: await bodyFor(swapped) }, { status: [400, 404], type: ['validation_error', 'invalid_request', 'not_found'] });
      }
    }
    // Control: the same request with group A's own objects gets past authorization and
    // validation (success, or a state rule such as "already captured").
    const control = await w.s.call(route.method, ownPath, { key: keyA, body: ownBody });
    assert.ok(
      control.status < 300 || (control.status === 400 && control.body?.error?.type === 'invalid_request'),
      `control ${route.method} ${ownPath}: ${control.status} ${control.text.slice(0, 300)}`,
    );
    // Nothing of group B ever shows in group A's answers (lists and reports included).
    for (const [param, id] of Object.entries(b.ids)) {
      if (param === 'file') continue;
      assert.ok(!control.text.includes(id), `control ${route.method} ${ownPath} reveals group B's ${param} ${id}`);
    }
    tally.controls++;
    controlOutcomes.push(`${control.status} ${route.method} ${route.path}`);
  });
}

for (const route of sessionRoutes) {
  test(`isolation (session): ${route.method} ${route.path}`, async () => {
    const { a, b } = w;
    const params = paramsOf(route.path);
    const linkParam = params.find((p) => p !== 'group_id');
    assert.equal(linkParam, 'payment_link_id', `session route ${route.path}: no fixture for :${linkParam} sessions`);
    const session = async (linkId: string) => {
      const r = await w.s.call('GET', `/api/v1/payment-links/${linkId}`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.session_token, `link ${linkId} is not available for paying`);
      return r.body.session_token as string;
    };
    // Fresh links: the key-route controls may have deactivated the demo's.
    const newLink = async (g: typeof a) => {
      const r = await w.s.call('POST', `/api/v1/groups/${g.groupId}/payment-links`, { key: g.allKey, body: { amount: 1500, description: 'session isolation' } });
      assert.equal(r.status, 200, r.text);
      return r.body.id as string;
    };
    const [linkA, linkB] = [await newLink(a), await newLink(b)];
    const [sessionA, sessionB] = [await session(linkA), await session(linkB)];
    const body = (await buildBody(w, bodyBuilder(route)!, a.ids)).body;
    const pathA = fillRoutePath(route, { ...a.ids, payment_link_id: linkA });
    await expectRefused('no session token', route, pathA, { body }, { status: 401, type: 'authentication_error' });
    await expectRefused('unknown session token', route, pathA, { key: 'x'.repeat(40), body }, { status: 401, type: 'authentication_error' });
    await expectRefused('API key as session token', route, pathA, { key: a.allKey, body }, { status: 401, type: 'authentication_error' });
    await expectRefused('session of another link', route, pathA, { key: sessionB, body }, { status: 403, type: 'permission_error' });
    if (params.includes('group_id')) {
      await expectRefused('link of A on B group path', route, fillRoutePath(route, { ...a.ids, payment_link_id: linkA, group_id: b.groupId }), { key: sessionA, body }, { status: 404, type: 'not_found' });
    }
    tally.routes++;
  });
}

test('isolation tally', () => {
  console.log(controlOutcomes.join('\n'));
  report('isolation', { key_routes: keyRoutes.length, session_routes: sessionRoutes.length, refused_requests_checked: tally.refused, controls: tally.controls });
  assert.equal(tally.routes, keyRoutes.length + sessionRoutes.length);
});
