// Request-Id on every answer, shared with the access log, and `payctl logs tail` following
// the log of a real server on a real port.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { runCli, assertUserError } from '../helpers/cli.js';
import { packageRoot } from '../../src/lib/paths.js';
import { parseStatusFilter, pathPattern } from '../../src/dev/log-tail.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-logs-'));
const logFile = path.join(dir, 'access.log');
let s: TestServer;
before(async () => {
  s = await startTestServer({ accessLog: logFile });
});
after(() => s.close());

const logLines = async () =>
  (await readFile(logFile, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

test('every answer carries a Request-Id that its access log line records, with the idempotency key and error type', async () => {
  const ok = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/customers/${s.demo.customer_id}`, { key: s.demo.keys.manage_customers });
  const bad = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/customers`, {
    key: s.demo.keys.manage_customers,
    body: { email: 'not-an-email' },
    headers: { 'idempotency-key': 'tail-test-1' },
  });
  const unauth = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/customers/${s.demo.customer_id}`);
  const noRoute = await s.call('GET', '/api/v1/nowhere');
  const ids = [ok, bad, unauth, noRoute].map((r) => r.headers.get('request-id'));
  for (const id of ids) assert.match(id ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(new Set(ids).size, 4, 'one id per request');
  assert.equal(ok.status, 200);
  assert.equal(bad.status, 400);
  const lines = await logLines();
  const byId = (id: string | null) => lines.find((l) => l.request_id === id);
  assert.deepEqual(
    [byId(ids[0]).status, byId(ids[0]).error_type, byId(ids[0]).idempotency_key],
    [200, null, null],
  );
  assert.deepEqual([byId(ids[1]).status, byId(ids[1]).error_type, byId(ids[1]).idempotency_key], [400, 'validation_error', 'tail-test-1']);
  assert.deepEqual([byId(ids[2]).status, byId(ids[2]).error_type], [401, 'authentication_error']);
  assert.deepEqual([byId(ids[3]).status, byId(ids[3]).error_type], [404, 'not_found']);
  // An idempotent replay is a request of its own: a new id, the same answer.
  const replay = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/customers`, {
    key: s.demo.keys.manage_customers,
    body: { email: 'not-an-email' },
    headers: { 'idempotency-key': 'tail-test-1' },
  });
  assert.equal(replay.status, 400);
  assert.notEqual(replay.headers.get('request-id'), ids[1]);
});

test('payctl logs tail streams new requests live, filtered by --status and --path', { timeout: 30_000 }, async () => {
  const child = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), 'logs', 'tail', '--file', logFile, '--status', '4xx', '--path', '/api/v1/groups/*/customers'], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    waiters.splice(0).forEach((w) => w());
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    waiters.splice(0).forEach((w) => w());
  });
  const until = async (cond: () => boolean) => {
    while (!cond()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  try {
    await until(() => err.includes('following'));
    const ok = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/customers/${s.demo.customer_id}`, { key: s.demo.keys.manage_customers });
    const otherPath = await s.call('GET', '/api/v1/nowhere');
    const bad = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/customers`, {
      key: s.demo.keys.manage_customers,
      body: { email: 'nope' },
      headers: { 'idempotency-key': 'tail-live-1' },
    });
    const badId = bad.headers.get('request-id')!;
    await until(() => out.includes(badId));
    const line = out.split('\n').find((l) => l.includes(badId))!;
    assert.match(line, /POST\s+\/api\/v1\/groups\/[^ ]+\/customers {2}400 {2}[\d.]+ms/);
    assert.match(line, /idempotency_key=tail-live-1/);
    assert.match(line, /validation_error/);
    assert.ok(!out.includes(ok.headers.get('request-id')!), 'a 200 is filtered out by --status 4xx');
    assert.ok(!out.includes(otherPath.headers.get('request-id')!), 'another path is filtered out by --path');
  } finally {
    child.kill('SIGINT');
  }
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  assert.equal(code, 0, 'Ctrl-C ends it cleanly');
});

test('logs tail --lines N first prints the last N matching requests', { timeout: 30_000 }, async () => {
  const r = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), 'logs', 'tail', '--file', logFile, '--status', '401', '--lines', '1', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) child.kill('SIGINT');
    });
    child.once('exit', () => resolve(out));
  });
  const entry = JSON.parse(r.trim());
  assert.equal(entry.status, 401);
  assert.equal(entry.error_type, 'authentication_error');
});

test('logs tail without a server log says how to start one; a bad --status is a usage error', async () => {
  const missing = await runCli(['logs', 'tail'], { db: path.join(dir, 'none', 'payctl.db'), env: { PAYCTL_ACCESS_LOG: '' } });
  assertUserError(missing, /no access log at [^]*access\.log: start the[^]*server with `payctl serve`/);
  const bad = await runCli(['logs', 'tail', '--file', logFile, '--status', '4x']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--status: '4x' is not a status class \(4xx\) or code \(404\)/);
});

test('status and path filters parse as documented', () => {
  assert.deepEqual(parseStatusFilter('4xx, 500'), { statusClasses: [4], statuses: [500] });
  assert.throws(() => parseStatusFilter('600'), /--status: '600'/);
  assert.ok(pathPattern('/api/v1/groups/*/customers').test('/api/v1/groups/abc/customers'));
  assert.ok(!pathPattern('/api/v1/groups/*/customers').test('/api/v1/groups/abc/customers/x'));
  assert.ok(pathPattern('/api/v1/sandboxes').test('/api/v1/sandboxes/x'));
});
