// payctl listen against a real `payctl serve` (a child process on a real port): each
// event is printed and forwarded to a real HTTP receiver, which verifies it with the
// standardwebhooks package (a verifier nobody here wrote); the server is killed and
// restarted on the same port while another process commits an event, and listen
// resumes with Last-Event-ID without losing or repeating one. Without a server, or with
// a key lacking manage_webhooks, it says what to do in one line.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { packageRoot } from '../../src/lib/paths.js';
import { childEnv, runCli, runCliJson } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { httpJson, killHard, spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { saleBody } from '../helpers/bodies.js';
import { fixedPort } from '../helpers/fixed-port.js';
import { newListenSecret } from '../../src/dev/listen.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  verified: boolean;
}

let db: string;
let demo: { group_id: string; processor_id: string; keys: Record<string, string> };
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
const receiveWaiters: Array<() => void> = [];
const secret = newListenSecret();

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
  // A tiny webhook receiver: verifies each delivery with standardwebhooks, answers 200 (400 when it fails).
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      let verified = true;
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      received.push({ headers: req.headers, body, verified });
      for (const w of receiveWaiters.splice(0)) w();
      res.writeHead(verified ? 200 : 400).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
after(() => new Promise<void>((r) => receiver.close(() => r())));

async function receivedAtLeast(n: number) {
  while (received.length < n) await new Promise<void>((r) => receiveWaiters.push(r));
}

/** `payctl listen` as a child process, with its output collected and awaitable. */
function spawnListen(args: string[], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), 'listen', ...args], {
    env: childEnv(args, db, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  child.stdout!.on('data', (d: Buffer) => ((out += d.toString()), wake()));
  child.stderr!.on('data', (d: Buffer) => ((err += d.toString()), wake()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => (r(code), wake())));
  const until = async (done: () => boolean, what: string) => {
    let gone = false;
    void exited.then(() => (gone = true));
    while (!done()) {
      if (gone) throw new Error(`listen exited while waiting for ${what}: ${err}${out}`);
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { child, out: () => out, err: () => err, exited, until };
}

test('listen prints and forwards each event, signed so standardwebhooks verifies it; a server restart loses none', async () => {
  // Below the ephemeral range: the server restarted on it gets it back (fixed-port.ts).
  const port = await fixedPort();
  let serve: ServeProcess = await spawnServe({ db, port });
  const l = spawnListen([
    '--group', demo.group_id,
    '--api-url', serve.url,
    '--events', 'transaction.*,product.*',
    '--forward-to', receiverUrl,
    '--secret', secret,
  ], { PAYCTL_API_KEY: demo.keys.manage_webhooks! });
  try {
    await l.until(() => /Ready: listening/.test(l.err()) && /Forwarding to/.test(l.err()), 'ready');
    assert.match(l.err(), new RegExp(`signed \\(Standard Webhooks\\) with the secret ${secret.replace(/[+/]/g, '\\$&')}`));
    const sale = await httpJson(`${serve.url}/api/v1/groups/${demo.group_id}/transaction`, 'POST', { key: demo.keys.manage_transactions, body: saleBody(demo.processor_id, { orderId: 'listen-1' }) });
    assert.equal(sale.status, 200, sale.text);
    await receivedAtLeast(1);
    await l.until(() => /\[200\]/.test(l.out()), 'the printed line');
    const first = received[0]!;
    assert.equal(first.verified, true, 'standardwebhooks verifies the signature');
    const event = JSON.parse(first.body);
    assert.equal(event.type, 'transaction.approved');
    assert.equal(event.data.object.id, sale.body.id);
    assert.equal(first.headers['webhook-id'], event.id);
    assert.match(String(first.headers['webhook-signature']), /^v1,[A-Za-z0-9+/=]+$/);
    // The request that caused it: the same id as the answer's Request-Id.
    assert.equal(event.request.id, sale.headers.get('request-id'));
    // One line: time, type, event id, object id, the forward's status.
    assert.match(l.out(), new RegExp(`transaction\\.approved\\s+${event.id}\\s+${sale.body.id}\\s+\\[200\\]`));
    // A tampered body or an old timestamp fails the same verifier.
    assert.throws(() => new Webhook(secret).verify(first.body.replace('approved', 'declined'), first.headers as Record<string, string>));
    assert.throws(() =>
      new Webhook(secret).verify(first.body, { ...(first.headers as Record<string, string>), 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) }),
    );

    // The server dies; another process commits events meanwhile; the server comes back on its port.
    await killHard(serve);
    await l.until(() => /lost the connection/.test(l.err()), 'the lost connection');
    const product = await runCliJson(['product', 'create', '--group', demo.group_id, '--name', 'While down', '--description', 'made while the server was down', '--amount', '1.00'], { db });
    serve = await spawnServe({ db, port });
    await l.until(() => /reconnected: resuming after/.test(l.err()), 'the reconnect');
    await receivedAtLeast(2);
    const second = JSON.parse(received[1]!.body);
    assert.equal(second.type, 'product.created');
    assert.equal(second.data.object.id, product.id);
    assert.equal(received[1]!.verified, true);
    // And the live stream goes on after the resume.
    const sale2 = await httpJson(`${serve.url}/api/v1/groups/${demo.group_id}/transaction`, 'POST', { key: demo.keys.manage_transactions, body: saleBody(demo.processor_id, { orderId: 'listen-2' }) });
    await receivedAtLeast(3);
    assert.equal(JSON.parse(received[2]!.body).data.object.id, sale2.body.id);
    const ids = received.map((r) => JSON.parse(r.body).id);
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
  } finally {
    l.child.kill('SIGINT');
    assert.equal(await l.exited, 0, 'Ctrl-C stops it cleanly');
    await killHard(serve);
  }
});

test('a 5xx at start or on a reconnect: listen says so, keeps trying with backoff, and resumes without losing an event', async () => {
  const serve = await spawnServe({ db });
  // A proxy in front of the real server: passes requests through, or answers 503 while `failing`.
  const upstream = new URL(serve.url);
  let failing = false;
  const sockets = new Set<Socket>();
  const proxy = http.createServer((req, res) => {
    if (failing) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"type":"api_error","message":"down for maintenance"}}');
      return;
    }
    const up = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  proxy.on('connection', (c: Socket) => (sockets.add(c), c.on('close', () => sockets.delete(c))));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  // At start too: a 503 is said and tried again, not the end.
  failing = true;
  const l = spawnListen(['--group', demo.group_id, '--api-url', proxyUrl, '--api-key', demo.keys.manage_webhooks!, '--events', 'product.*', '--json']);
  try {
    await l.until(() => /refused the event stream \(503\): down for maintenance; trying again in 1 s/.test(l.err()), 'the retry at start');
    failing = false;
    await l.until(() => /Ready/.test(l.err()), 'ready');
    failing = true;
    for (const c of sockets) c.destroy(); // the stream drops; the client's own reconnect gets a 503
    await l.until(() => /answered the reconnect with 503; trying again in 1 s/.test(l.err()), 'the first retry');
    await l.until(() => /answered the reconnect with 503; trying again in 2 s/.test(l.err()), 'the backoff');
    // Committed while the stream is refused: delivered after the resume.
    const product = await runCliJson(['product', 'create', '--group', demo.group_id, '--name', 'While refused', '--description', 'made during the 503s', '--amount', '1.00'], { db });
    failing = false;
    await l.until(() => /reconnected: resuming after/.test(l.err()), 'the reconnect');
    await l.until(() => l.out().includes(product.id), 'the event committed meanwhile');
    const e = JSON.parse(l.out().trim().split('\n').at(-1)!);
    assert.equal(e.type, 'product.created');
    assert.equal(e.data.object.id, product.id);
    assert.equal(l.child.exitCode, null, 'still running');
  } finally {
    l.child.kill('SIGINT');
    assert.equal(await l.exited, 0);
    proxy.closeAllConnections();
    await new Promise<void>((r) => proxy.close(() => r()));
    await killHard(serve);
  }
});

test('listen --json prints each event object on its own line; in the demo group it needs neither --group nor --api-key', async () => {
  const serve = await spawnServe({ db });
  // init --demo made the demo group the default and a manage_webhooks key listen finds by itself.
  const l = spawnListen(['--api-url', serve.url, '--events', 'customer.created', '--json'], { PAYCTL_API_KEY: '', PAYCTL_GROUP: '' });
  try {
    await l.until(() => /Ready/.test(l.err()), 'ready');
    const c = await httpJson(`${serve.url}/api/v1/groups/${demo.group_id}/customers`, 'POST', { key: demo.keys.manage_customers, body: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' } });
    await l.until(() => l.out().includes('\n'), 'a line');
    const e = JSON.parse(l.out().split('\n')[0]!);
    assert.equal(e.type, 'customer.created');
    assert.deepEqual(e.data.object, c.body);
  } finally {
    l.child.kill('SIGINT');
    await l.exited;
    await killHard(serve);
  }
});

test('without a server it says how to start one; a key without manage_webhooks is named; no stack trace', async () => {
  const port = await fixedPort();
  const none = await runCli(['listen', '--group', demo.group_id, '--api-url', `http://127.0.0.1:${port}`, '--api-key', demo.keys.manage_webhooks!], { db });
  assert.equal(none.code, 1, none.stderr);
  assert.match(oneLine(none.stderr), /no payctl server answers at http:\/\/127\.0\.0\.1:\d+: start one with `payctl serve`/);
  assert.doesNotMatch(none.stderr, /\n\s+at .+:\d+:\d+/);
  const serve = await spawnServe({ db });
  try {
    const wrong = await runCli(['listen', '--group', demo.group_id, '--api-url', serve.url, '--api-key', demo.keys.manage_transactions!], { db });
    assert.equal(wrong.code, 1);
    assert.match(oneLine(wrong.stderr), /refused the event stream \(403\): this API key lacks the manage_webhooks permission/);
    // A group the demo did not make has no stored key: listen asks for one.
    const other = (await runCliJson(['group', 'create', '--name', 'Other'], { db })).id as string;
    const noKey = await runCli(['listen', '--group', other, '--api-url', serve.url], { db, env: { PAYCTL_API_KEY: '' } });
    assert.equal(noKey.code, 2);
    assert.match(oneLine(noKey.stderr), /give an API key of the group with the manage_webhooks permission: --api-key KEY or PAYCTL_API_KEY/);
    const badType = await runCli(['listen', '--group', demo.group_id, '--api-url', serve.url, '--api-key', 'x', '--events', 'nope'], { db });
    assert.equal(badType.code, 2);
    assert.match(oneLine(badType.stderr), /--events: "nope" is not an event type/);
  } finally {
    await killHard(serve);
  }
});

/** oclif wraps an error message over lines prefixed with ›: the message as one line. */
function oneLine(stderr: string): string {
  return stderr.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ').replace(/^ Error: /, '');
}

test('listen names the group\'s active fault rules at start when its key may read them', async () => {
  const serve = await spawnServe({ db });
  const key = await runCliJson(['key', 'create', '--group', demo.group_id, '--permission', 'manage_webhooks', '--permission', 'manage_transactions'], { db });
  const rule = await runCliJson(['fault', 'add', '--group', demo.group_id, '--operation', 'sale', '--action', 'decline', '--response-code', '91', '--count', '1'], { db });
  const l = spawnListen(['--api-url', serve.url, '--group', demo.group_id, '--api-key', key.key, '--events', 'transaction.declined']);
  try {
    await l.until(() => /Ready/.test(l.err()) && /Faults are on/.test(l.err()), 'the fault notice');
    assert.match(l.err(), new RegExp(`Faults are on in group ${demo.group_id}: 1 API rule\\(s\\) \\(${rule.id}: sale decline 91\\)`));
    const sale = await httpJson(`${serve.url}/api/v1/groups/${demo.group_id}/transaction`, 'POST', { key: demo.keys.manage_transactions, body: saleBody(demo.processor_id, { token: 'tok_visa' }) });
    assert.equal(sale.body.status, 'declined');
    await l.until(() => /transaction\.declined/.test(l.out()), 'the declined event of the faulted sale');
  } finally {
    l.child.kill('SIGINT');
    await l.exited;
    await killHard(serve);
    await runCli(['fault', 'remove', '--group', demo.group_id, rule.id], { db });
  }
});
