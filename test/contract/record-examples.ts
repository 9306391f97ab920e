// `npm run examples:record`: runs the contract flow against a fresh demo server and
// keeps the first request body and answer of each component as its example
// (data/examples/<component>.json), so every example in the document is something the
// server really took or gave. Existing files are kept unless --force.
import '../helpers/env.js';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN } from '../helpers/sandboxes.js';
import { startTestServer } from '../helpers/server.js';
import { examplePath } from '../../src/http/openapi-examples.js';
import { demoWorld, runFlow, type Exchange } from './flow.js';

const force = process.argv.includes('--force');
const s = await startTestServer({ adminToken: ADMIN });
try {
  const doc = (await s.call('GET', '/api/v1/openapi.json')).body;
  const found = new Map<string, unknown>();
  const keep = (ref: string | undefined, value: unknown) => {
    const name = ref?.split('/').pop();
    if (name && value !== undefined && !found.has(name)) found.set(name, value);
  };
  const observe = (x: Exchange) => {
    if (x.status >= 300) return; // examples are of requests the server took
    const op = doc.paths[x.schemaPath][x.method.toLowerCase()];
    keep(op.requestBody?.content['application/json']?.schema.$ref, x.requestBody);
    keep(op.responses[String(x.status)]?.content?.['application/json']?.schema.$ref, x.responseBody);
  };
  await runFlow(
    demoWorld(s, ADMIN),
    doc,
    observe,
  );
  for (const [name, value] of found) {
    if (name === 'OpenApiDocument' || name === 'Error') continue;
    const file = examplePath(name);
    if (existsSync(file) && !force) continue;
    await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
    process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
  }
} finally {
  await s.close();
}
