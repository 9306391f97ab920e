// The generated client drives the whole API against the real server (see flow.ts).
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN } from '../helpers/sandboxes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { allRoutes } from '../../src/http/routes/index.js';
import { openApiPath } from '../../src/http/openapi.js';
import { demoWorld, runFlow, type Exchange } from './flow.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

test('one flow through the 15 spec operations and the extensions, every answer as the document says', async () => {
  const doc = (await s.call('GET', '/api/v1/openapi.json')).body;
  const exchanges: Exchange[] = [];
  await runFlow(
    demoWorld(s, ADMIN),
    doc,
    (x) => exchanges.push(x),
  );
  // Every operation of the document was called (the PDF is checked by its bytes).
  const called = new Set(exchanges.map((x) => `${x.method} ${x.schemaPath}`));
  called.add('GET /api/v1/groups/{group_id}/invoices/{invoice_id}/download/pdf');
  called.add('GET /api/v1/sandboxes/{group_id}/export');
  // A JSON Schema document (test/cli/scenarios.test.ts reads it), not an API object.
  called.add('GET /api/v1/scenario.schema.json');
  const missing = allRoutes()
    .filter((r) => !r.hidden)
    .map((r) => `${r.method} ${openApiPath(r)}`)
    .filter((op) => !called.has(op));
  assert.deepEqual(missing, []);
});
