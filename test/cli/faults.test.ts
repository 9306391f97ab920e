// payctl fault add / list / remove on the real binary, against the database of a running
// server: a rule added from another process applies to the server's next request, and
// removing it ends it (rules are reloaded when config_version moves).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliJson, assertUserError } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';
import { tempDbPath } from '../helpers/platform.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

test('fault add / list / remove from the CLI, seen by the running server', async () => {
  const sb = await newSandbox(s);
  const db = s.dbPath;
  const sale = () => s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id) });
  assert.equal((await sale()).status, 200, 'no rule yet');

  const rule = await runCliJson(['fault', 'add', '--group', sb.group_id, '--operation', 'sale', '--action', 'error', '--status', '502', '--rate', '1', '--seed', '9'], { db });
  assert.equal(rule.seed, 9);
  assert.equal(rule.rate, 1);
  const human = await runCli(['fault', 'add', '--group', sb.group_id, '--operation', 'refund', '--action', 'latency', '--ms', '100', '--ms-max', '200'], { db });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /Added fault rule .+: refund, every call: latency 100–200ms \(seed \d+\)/);

  const faulted = await sale();
  assert.equal(faulted.status, 502);
  assert.match(faulted.headers.get('payctl-fault') ?? '', new RegExp(`rule=${rule.id}; call=1`));

  const list = await runCli(['fault', 'list', '--group', sb.group_id], { db });
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, new RegExp(`${rule.id}.*sale.*rate 1.*error 502.*9.*1.*1`));
  assert.equal((await runCliJson(['fault', 'list', '--group', sb.group_id], { db })).data.length, 2);

  assertUserError(await runCli(['fault', 'add', '--group', sb.group_id, '--operation', 'sale', '--action', 'error'], { db }), /status.*required with action error/);
  assertUserError(await runCli(['fault', 'add', '--group', sb.group_id, '--operation', 'sale', '--action', 'latency', '--ms', 'soon'], { db }), /ms/);
  assertUserError(await runCli(['fault', 'remove', 'nope', '--group', sb.group_id], { db }), /fault rule not found/);

  const removed = await runCliJson(['fault', 'remove', rule.id, '--group', sb.group_id], { db });
  assert.deepEqual(removed, { id: rule.id, deleted: true });
  assert.equal((await sale()).status, 200, 'removed in another process: the server stops at once');
});

test('payctl trigger names the faults its calls got; payctl webhook fault add / list / remove', async () => {
  const db = tempDbPath();
  const demo = await runCliJson(['init', '--demo'], { db });
  await runCliJson(['fault', 'add', '--operation', 'sale', '--action', 'latency', '--ms', '1', '--count', '1'], { db });
  const triggered = await runCli(['trigger', 'transaction.approved'], { db });
  assert.equal(triggered.code, 0, triggered.stderr);
  assert.match(triggered.stdout, new RegExp(`Injected fault: POST /api/v1/groups/${demo.group_id}/transaction: latency; ms=1; rule=`));

  const endpoint = await runCliJson(['webhook', 'create', '--url', 'http://127.0.0.1:9/hooks', '--events', 'transaction.*'], { db });
  const rule = await runCliJson(['webhook', 'fault', 'add', endpoint.id, '--action', 'delay', '--delay', '2h', '--first', '1', '--seed', '5'], { db });
  assert.equal(rule.endpoint_id, endpoint.id);
  assert.equal(rule.seed, 5);
  const human = await runCli(['webhook', 'fault', 'list', endpoint.id], { db });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, new RegExp(`${rule.id}.*first 1.*delay 2h.*5`));
  assertUserError(await runCli(['webhook', 'fault', 'add', endpoint.id, '--action', 'reorder'], { db }), /window.*required with action reorder/);
  const removed = await runCliJson(['webhook', 'fault', 'remove', rule.id, '--endpoint', endpoint.id], { db });
  assert.deepEqual(removed, { id: rule.id, deleted: true });
});
