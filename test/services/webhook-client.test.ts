// The webhook HTTP/1.1 client and signing against real servers on real ports: what a
// delivery keeps of every kind of answer (Content-Length, chunked, close-delimited, no
// body, interim 100, too long to read), keep-alive reuse and a receiver that closed an
// idle connection, a receiver that never answers (a bounded timeout), nobody listening;
// signatures verified by the standardwebhooks package (a verifier nobody here wrote).
import '../helpers/env.js';
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { RECEIVER_LIMITS } from '../../src/domain/webhooks.js';
import { post, type PostOptions } from '../../src/lib/http1.js';
import { signatureHeader } from '../../src/services/webhooks/signing.js';
import { eventBody } from '../../src/services/webhooks/event-body.js';

const opts: PostOptions = { limits: RECEIVER_LIMITS, timeoutMs: 5_000, keepBytes: 1024, bodyMaxBytes: 64 * 1024 };

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  socket: net.Socket;
}

let server: http.Server;
let base = '';
const seen: Seen[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString(), socket: req.socket });
      const kind = new URL(req.url!, 'http://x').pathname.slice(1);
      if (kind === 'length') return void res.writeHead(201, { 'content-length': 5 }).end('hello');
      if (kind === 'chunked') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.write('é'.repeat(400)); // 800 bytes
        res.write('x'.repeat(600));
        return void res.end();
      }
      if (kind === 'empty') return void res.writeHead(204).end();
      if (kind === 'close') return void res.writeHead(200, { connection: 'close', 'content-length': 2 }).end('ok');
      if (kind === 'huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const piece = 'y'.repeat(16 * 1024);
        let n = 0;
        const more = () => {
          while (n < 64 && res.write(piece)) n++;
          if (n < 64) res.once('drain', () => (n++, more()));
          else res.end();
        };
        return more();
      }
      if (kind === 'silent') return; // never answers
      res.writeHead(200, { 'content-length': 2 }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

test('a POST carries the body and headers; each kind of answer keeps its status and the first 1 KiB', async () => {
  const body = JSON.stringify({ hello: 'wörld' });
  const r = await post(`${base}/length?x=1`, body, { 'webhook-id': 'evt_1' }, opts);
  assert.deepEqual(r, { status: 201, body: 'hello' });
  const got = seen.at(-1)!;
  assert.equal(got.method, 'POST');
  assert.equal(got.url, '/length?x=1');
  assert.equal(got.body, body);
  assert.equal(got.headers['webhook-id'], 'evt_1');
  assert.equal(got.headers['content-type'], 'application/json');
  assert.equal(got.headers['user-agent'], 'payctl-webhooks/1');

  const chunked = await post(`${base}/chunked`, '{}', {}, opts);
  assert.equal(chunked.status, 500);
  assert.equal(Buffer.byteLength(chunked.body!), 1024);
  assert.equal(chunked.body, 'é'.repeat(400) + 'x'.repeat(224));

  assert.deepEqual(await post(`${base}/empty`, '{}', {}, opts), { status: 204, body: '' });
  assert.deepEqual(await post(`${base}/close`, '{}', {}, opts), { status: 200, body: 'ok' });
  // Past the body's bound the answer is not read further: a failure that says so, with what was kept.
  const huge = await post(`${base}/huge`, '{}', {}, opts);
  assert.equal(huge.status, 200);
  assert.equal(huge.body, 'y'.repeat(1024));
  assert.equal(huge.error, 'receiver limit: the body is over 64 KiB (not read further)');
});

test('keep-alive: sequential requests share one connection; a connection the receiver closed while idle is replaced', async () => {
  await post(`${base}/ok`, '{}', {}, opts);
  const first = seen.at(-1)!.socket;
  await post(`${base}/ok`, '{}', {}, opts);
  assert.equal(seen.at(-1)!.socket, first, 'the second request came on the same connection');
  // The receiver closes the idle connection; the next request still gets through.
  first.destroy();
  await new Promise<void>((r) => (first.destroyed && first.readyState === 'closed' ? r() : first.once('close', () => r())));
  assert.deepEqual(await post(`${base}/ok`, '{}', {}, opts), { status: 200, body: 'ok' });
  assert.notEqual(seen.at(-1)!.socket, first);
  // Many at once: every one answered.
  const all = await Promise.all(Array.from({ length: 100 }, (_, i) => post(`${base}/ok`, `{"n":${i}}`, {}, opts)));
  assert.ok(all.every((r) => r.status === 200));
});

test('raw answers: close-delimited body, interim 100 head, garbage, a receiver that closes after each answer', async () => {
  const answers = [
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\nContent-Length: 3\r\n\r\nyes',
    'HTTP/1.0 200 OK\r\n\r\nuntil the end',
    'SMTP ready\r\n\r\n',
  ];
  const raw = net.createServer((socket) => {
    let buf = '';
    socket.on('error', () => undefined);
    socket.on('data', (d) => {
      if (!socket.writable) return; // a request on a connection this side closed: the client sends it again
      buf += d.toString();
      if (!buf.includes('\r\n\r\n') || !buf.endsWith('{}')) return;
      buf = '';
      const a = answers.shift()!;
      socket.end(a);
    });
  });
  await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/raw`;
  try {
    assert.deepEqual(await post(url, '{}', {}, opts), { status: 202, body: 'yes' });
    assert.deepEqual(await post(url, '{}', {}, opts), { status: 200, body: 'until the end' });
    const bad = await post(url, '{}', {}, opts);
    assert.equal(bad.status, undefined);
    assert.match(bad.error!, /not HTTP\/1\.1/);
  } finally {
    await new Promise<void>((r) => raw.close(() => r()));
  }
});

test('a receiver that never answers times out within the bound; nobody listening is an error naming the code', async () => {
  const silent = await post(`${base}/silent`, '{}', {}, { ...opts, timeoutMs: 200 });
  assert.deepEqual(silent, { body: null, error: 'timed out after 200 ms waiting for the answer' });
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const refused = await post(`http://127.0.0.1:${port}/x`, '{}', {}, opts);
  assert.equal(refused.status, undefined);
  assert.match(refused.error!, /^ECONNREFUSED/);
  assert.match((await post('ftp://127.0.0.1/x', '{}', {}, opts)).error!, /cannot send: unsupported protocol ftp:/);
});

test('signatures: one per secret, each verified by the standardwebhooks package; the body is the event exactly', () => {
  const a = `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`;
  const b = `whsec_${Buffer.from('b'.repeat(32)).toString('base64')}`;
  const row = {
    event_id: '0190a000-0000-7000-8000-000000000001',
    type: 'customer.created',
    created_at: '2026-11-23T10:00:00.000Z',
    group_id: 'g1',
    request_id: 'req_1',
    idempotency_key: null,
    data: JSON.stringify({ object: { id: 'c1', name: 'Ädä "q"' } }),
  };
  const body = eventBody(row);
  assert.equal(
    body,
    JSON.stringify({ id: row.event_id, type: row.type, created_at: row.created_at, group_id: 'g1', data: JSON.parse(row.data), request: { id: 'req_1', idempotency_key: null } }),
  );
  const ts = Math.floor(Date.now() / 1000);
  const headers = (secrets: string[]) => ({ 'webhook-id': row.event_id, 'webhook-timestamp': String(ts), 'webhook-signature': signatureHeader(secrets, row.event_id, ts, body) });
  assert.match(headers([a])['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/);
  assert.deepEqual(new Webhook(a).verify(body, headers([a])), JSON.parse(body));
  const both = headers([b, a]);
  assert.equal(both['webhook-signature'].split(' ').length, 2);
  assert.ok(new Webhook(a).verify(body, both));
  assert.ok(new Webhook(b).verify(body, both));
  assert.throws(() => new Webhook(b).verify(body, headers([a])));
  assert.throws(() => new Webhook(a).verify(body.replace('c1', 'c2'), both));
});
