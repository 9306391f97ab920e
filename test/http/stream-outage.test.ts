// The live event stream across a store outage (docs/decisions.md#store-outage: back by itself): a real server,
// a real SSE client (the eventsource package) and `payctl listen` (the CLI, a child
// process) follow a group; sales are made before, the store goes away (PostgreSQL: a TCP
// proxy closes, and another server that still reaches the database sells meanwhile;
// SQLite: another connection holds the write lock past the busy timeout, so the server's
// sales are 503), then sales after. Both clients see every event exactly once, in log
// order, and the SSE client's connection is never given up (an EventSource gives up on
// a non-200 answer to a reconnect: the stream must not need one). Both stores
// (test/postgres-suite.ts).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { EventSource } from 'eventsource';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/dev/demo.js';
import { startServer, type RunningServer } from '../../src/http/app.js';
import { saleBody } from '../helpers/bodies.js';
import { childEnv } from '../helpers/cli.js';
import { packageRoot } from '../../src/lib/paths.js';
import { shortenBusyTimeout, storeOutage, type StoreOutage } from '../helpers/outage.js';
import { testStore } from '../helpers/platform.js';

let o: StoreOutage;
let p: Platform;
let demo: DemoOutput;
let server: RunningServer;

before(async () => {
  o = await storeOutage();
  p = await openPlatform({ db: o.target });
  await shortenBusyTimeout(p.db);
  demo = await seedDemo(p);
  // The stream's defaults (poll, heartbeat) as `payctl serve` runs them.
  server = await startServer({ platform: p, port: 0, tickMs: 0, accessLog: 'off' });
});
after(async () => {
  await server.close();
  await p.close();
  await o.close();
});

const waitFor = async (done: () => boolean, what: string, ms = 30_000) => {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

async function sell(url: string, orderId: string): Promise<{ status: number; id?: string }> {
  const res = await fetch(`${url}/api/v1/groups/${demo.group_id}/transaction`, {
    method: 'POST',
    headers: { authorization: demo.keys.manage_transactions, 'content-type': 'application/json', 'idempotency-key': orderId },
    body: JSON.stringify(saleBody(demo.processor_id, { orderId })),
  });
  const body = (await res.json()) as { id?: string };
  return { status: res.status, id: body.id };
}

/** A sale that must go through: a 503 (the store not back yet for this server) is retried with the same key. */
async function sale(url: string, orderId: string): Promise<string> {
  for (;;) {
    const r = await sell(url, orderId);
    if (r.status === 200) return r.id!;
    assert.equal(r.status, 503, `only 200 or 503: ${r.status}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

test(`SSE and payctl listen across a store outage (${testStore}): every event once, in order`, async () => {
  const url = `${server.url}/api/v1/groups/${demo.group_id}/events/stream?types=transaction.*`;
  // The SSE client: object ids of transaction events as received, and its connections (ready messages).
  const seen: string[] = [];
  const positions: number[] = [];
  let readies = 0;
  const es = new EventSource(url, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: demo.keys.manage_webhooks } }),
  });
  es.addEventListener('ready', () => readies++);
  es.addEventListener('transaction.approved', (m: MessageEvent) => {
    seen.push((JSON.parse(m.data as string) as { data: { object: { id: string } } }).data.object.id);
    positions.push(Number(m.lastEventId));
  });
  // payctl listen, the CLI, on the same stream.
  const args = ['listen', '--api-url', server.url, '--group', demo.group_id, '--api-key', demo.keys.manage_webhooks, '--events', 'transaction.*', '--json'];
  const listen = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), ...args], { env: childEnv(args, o.db), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  listen.stdout.on('data', (d: Buffer) => (out += d.toString()));
  listen.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const listened = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { data: { object: { id: string } } }).data.object.id);
  const exited = new Promise<number | null>((r) => listen.once('exit', r));
  let second: { p: Platform; server: RunningServer } | undefined;
  try {
    await waitFor(() => readies === 1 && /Ready: listening/.test(err), 'both clients ready');
    const expected: string[] = [];
    for (let i = 0; i < 3; i++) expected.push(await sale(server.url, `before-${i}`));
    await waitFor(() => seen.length === 3 && listened().length === 3, 'the events made before');

    await o.cut();
    // The server's own sales fail as an outage (503 store_unavailable), never with a 500.
    const refused = await sell(server.url, 'refused');
    assert.equal(refused.status, 503);
    if (testStore === 'postgres') {
      // Another server still reaches the database and sells meanwhile: its events come after the outage.
      const other = await openPlatform({ db: o.db });
      second = { p: other, server: await startServer({ platform: other, port: 0, tickMs: 0, accessLog: 'off' }) };
      for (let i = 0; i < 2; i++) expected.push(await sale(second.server.url, `during-${i}`));
    }
    // Long enough for the streams to meet the outage: reads of the log fail, heartbeats go on.
    await new Promise((r) => setTimeout(r, 3_000));
    assert.notEqual(es.readyState, es.CLOSED, 'the SSE connection is not given up');
    await o.restore();

    for (let i = 0; i < 3; i++) expected.push(await sale(server.url, `after-${i}`));
    await waitFor(() => seen.length >= expected.length && listened().length >= expected.length, `all ${expected.length} events (SSE ${seen.length}, listen ${listened().length})`);
    await new Promise((r) => setTimeout(r, 300)); // nothing more (no repeat) comes
    assert.deepEqual(seen, expected, 'the SSE client: every event once, in order');
    assert.deepEqual(listened(), expected, 'payctl listen: every event once, in order');
    assert.deepEqual([...positions].sort((a, b) => a - b), positions, 'positions ascending');
    assert.notEqual(es.readyState, es.CLOSED);
    assert.equal(listen.exitCode, null, `listen still running: ${err}`);
    assert.doesNotMatch(err, /refused the event stream \(4\d\d\)|Error/);
  } finally {
    es.close();
    listen.kill('SIGINT');
    await exited;
    if (second) {
      await second.server.close();
      await second.p.close();
    }
  }
});
