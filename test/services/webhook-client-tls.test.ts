// The delivery client over TLS, against a real https receiver with the self-signed certificate of
// test/fixtures/tls: refused while the certificate is not trusted (as node:https would), delivered
// over one kept-alive TLS connection once it is (trusted through NODE_EXTRA_CA_CERTS, which node
// reads only at start, hence a child process for that half).
import '../helpers/env.js';
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { packageRoot } from '../../src/lib/paths.js';
import { RECEIVER_LIMITS } from '../../src/domain/webhooks.js';
import { post, type PostOptions, type PostResult } from '../../src/lib/http1.js';

const tlsDir = path.join(packageRoot, 'test', 'fixtures', 'tls');
const opts: PostOptions = { limits: RECEIVER_LIMITS, timeoutMs: 5_000, keepBytes: 1024, bodyMaxBytes: 64 * 1024 };
const clientModule = pathToFileURL(path.join(packageRoot, 'dist', 'src', 'lib', 'http1.js')).href;

let server: https.Server;
let port = 0;
const seen: { body: string; signature: string | undefined; socket: unknown }[] = [];

before(async () => {
  server = https.createServer({ key: readFileSync(path.join(tlsDir, 'localhost.key')), cert: readFileSync(path.join(tlsDir, 'localhost.crt')) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ body: Buffer.concat(chunks).toString(), signature: req.headers['webhook-signature'] as string | undefined, socket: req.socket });
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 8 }).end('received');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** Two POSTs from a fresh node whose trusted roots include the fixture certificate. */
function postTwiceTrusting(url: string): Promise<PostResult[]> {
  const script = `
    const { post } = await import(${JSON.stringify(clientModule)});
    const o = ${JSON.stringify(opts)};
    const a = await post(${JSON.stringify(url)}, '{"n":1}', { 'Content-Type': 'application/json', 'webhook-signature': 'v1,one' }, o);
    const b = await post(${JSON.stringify(url)}, '{"n":2}', { 'Content-Type': 'application/json', 'webhook-signature': 'v1,two' }, o);
    console.log(JSON.stringify([a, b]));
    process.exit(0);`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(tlsDir, 'localhost.crt') }, timeout: 30_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as PostResult[])),
    );
  });
}

test('an https receiver whose certificate is not trusted is an error naming the certificate, not an answer', async () => {
  const before = seen.length;
  const r = await post(`https://localhost:${port}/hook`, '{}', { 'Content-Type': 'application/json' }, opts);
  assert.equal(r.status, undefined);
  assert.match(r.error ?? '', /certificate/i);
  assert.equal(seen.length, before, 'nothing reached the receiver');
});

for (const host of ['localhost', '127.0.0.1']) {
  test(`https://${host}: trusted certificate, both POSTs delivered over one kept-alive TLS connection`, async () => {
    const from = seen.length;
    const [a, b] = await postTwiceTrusting(`https://${host}:${port}/hook`);
    assert.deepEqual([a.status, a.body, a.error], [200, 'received', undefined]);
    assert.deepEqual([b.status, b.body, b.error], [200, 'received', undefined]);
    const got = seen.slice(from);
    assert.deepEqual(got.map((s) => [s.body, s.signature]), [['{"n":1}', 'v1,one'], ['{"n":2}', 'v1,two']]);
    assert.equal(got[0].socket, got[1].socket, 'the second POST reused the TLS connection');
  });
}
