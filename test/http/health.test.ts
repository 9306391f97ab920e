// The probes: /health answers while the process does, /ready only while the store
// answers at the schema version this payctl needs (503 naming why otherwise). Both are
// in the OpenAPI document and take no key.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { LATEST_VERSION } from '../../src/store/migrations/latest.js';
import { readiness } from '../../src/services/health.js';
import type { AppError } from '../../src/errors.js';
import type { Platform } from '../../src/services/platform.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

test('GET /health: 200 {"status":"ok"} without a key', async () => {
  const r = await s.call('GET', '/health');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { status: 'ok' });
  assert.match(r.headers.get('request-id') ?? '', /^[0-9a-f-]{36}$/);
});

test('GET /ready: 200 with the store and its schema version, without a key', async () => {
  const r = await s.call('GET', '/ready');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { status: 'ready', store: s.p.db.dialect.name, schema_version: LATEST_VERSION });
});

test('GET /ready: 503 naming the versions when the schema is not current; /health stays 200', async () => {
  const row = await s.p.db.get<{ name: string; applied_at: string }>('SELECT name, applied_at FROM schema_migrations WHERE version = ?', [LATEST_VERSION]);
  assert.ok(row);
  await s.p.db.write((tx) => tx.run('DELETE FROM schema_migrations WHERE version = ?', [LATEST_VERSION]));
  try {
    const r = await s.call('GET', '/ready');
    assert.equal(r.status, 503);
    assert.equal(r.body.error.type, 'unavailable');
    assert.equal(r.body.error.message, `not ready: the database is at schema version ${LATEST_VERSION - 1}, this payctl needs ${LATEST_VERSION}`);
    assert.equal((await s.call('GET', '/health')).status, 200);
  } finally {
    await s.p.db.write((tx) => tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [LATEST_VERSION, row.name, row.applied_at]));
  }
  assert.equal((await s.call('GET', '/ready')).status, 200);
});

test('readiness: a store whose read fails or never answers is not ready, with the reason', async () => {
  const withRead = (schema: () => Promise<number>) => ({ ...s.p, db: { ...s.p.db, dialect: s.p.db.dialect, repos: { ...s.p.db.repos, versions: { ...s.p.db.repos.versions, schema } } } }) as Platform;
  await assert.rejects(readiness(withRead(() => new Promise<number>(() => undefined)), 50), (err: AppError) => {
    assert.equal(err.status, 503);
    assert.equal(err.message, `not ready: the ${s.p.db.dialect.name} store does not answer (no answer within 50 ms)`);
    return true;
  });
  await assert.rejects(readiness(withRead(() => Promise.reject(new Error('connection refused'))), 50), {
    message: `not ready: the ${s.p.db.dialect.name} store does not answer (connection refused)`,
  });
  assert.equal((await readiness(s.p)).schema_version, LATEST_VERSION);
});

test('both probes are in the OpenAPI document, public, with their 200 and 503 answers', async () => {
  const doc = (await s.call('GET', '/api/v1/openapi.json')).body;
  for (const path of ['/health', '/ready']) {
    const op = doc.paths[path]?.get;
    assert.ok(op, path);
    assert.deepEqual(op.security, []);
    assert.ok(op.responses['200'] && op.responses['503'], path);
  }
  assert.match(doc.paths['/ready'].get.responses['503'].description, /^Not ready: the store does not answer/);
  assert.equal(doc.paths['/ready'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/Readiness');
});
