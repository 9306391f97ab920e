// Recording a sandbox as a scenario, over the real server: every example scenario run
// with --record gives a file that replays on a fresh sandbox with every expectation
// holding (the round trip); what a recording never holds (API keys, webhook secrets,
// card numbers, CVVs: a card appears as the fixed test token of the same card); how ids
// become references and clock moves and fault rules steps; who may start, stop and read
// one; payctl scenario record.
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox } from '../helpers/sandboxes.js';
import { packageRoot } from '../../src/lib/paths.js';
import { parseScenario } from '../../src/dev/scenario-file.js';
import { redact } from '../../src/domain/recording.js';
import { saleBody } from '../helpers/bodies.js';

let s: TestServer;
let signupFormId: string;
const dir = mkdtempSync(path.join(tmpdir(), 'payctl-recordings-'));
const examples = path.join(packageRoot, 'examples/scenarios');

before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
  signupFormId = JSON.parse((await runCli(['signup-form', 'create', '--name', 'Recorded signups', '--json'], { db: s.dbPath })).stdout).id;
});
after(() => s.close());

const run = (args: string[]) => runCli(['scenario', 'run', ...args, '--url', s.url, '--admin-token', ADMIN, '--env', 'SIGNUP_FORM_ID'], { db: s.dbPath, env: { SIGNUP_FORM_ID: signupFormId } });
const SECRETS = /sk_test_|sk_live_|whsec_|padm_|4111111111111111|4111 1111|"cvv": ?"\d{3,4}"|cvv: "?\d{3,4}/;

for (const file of readdirSync(examples).filter((f) => f.endsWith('.yaml'))) {
  test(`round trip: ${file} recorded, replayed on a fresh sandbox, every expectation holds`, async () => {
    const out = path.join(dir, `recorded-${file}`);
    const first = await run([path.join(examples, file), '--record', out]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const text = readFileSync(out, 'utf8');
    assert.doesNotMatch(text, SECRETS, 'no secret in a recording');
    const loaded = parseScenario(text, out);
    const requests = loaded.scenario.steps.filter((st) => 'request' in st);
    assert.ok(requests.length > 0, text);
    for (const st of requests) assert.equal(typeof (st as { expect?: { status?: number } }).expect?.status, 'number', 'each recorded status is an expect');
    assert.doesNotMatch(text, /\/events\b/, "the runner's own polling is not recorded");
    const replay = await run([out]);
    assert.equal(replay.code, 0, `${text}\n${replay.stdout}${replay.stderr}`);
    assert.match(replay.stdout, /^passed: .* 0 failed/m);
  });
}

test('a recording: ids become references to the step that made them, clock moves and fault rules are steps, no secret is kept', async () => {
  const sb = await newSandbox(s, { clock: '2030-01-01T00:00:00Z' });
  const call = (method: string, p: string, body?: unknown, key = sb.keys.manage_transactions!, headers: Record<string, string> = {}) => s.call(method, p, { key, body, headers });
  const rec = `/api/v1/sandboxes/${sb.group_id}/recording`;
  assert.equal((await call('GET', rec)).status, 404, 'nothing recorded yet');
  assert.equal((await call('POST', rec, undefined, sb.keys.view_transactions!)).status, 403, 'a key without manage_transactions');
  const started = await call('POST', rec);
  assert.equal(started.status, 201, started.text);
  assert.equal(started.body.recording, true);

  const hook = await call('POST', `/api/v1/groups/${sb.group_id}/webhook_endpoints`, { url: 'http://127.0.0.1:9/hooks', enabled_events: ['*'] }, sb.keys.manage_webhooks!);
  assert.equal(hook.status, 200, hook.text);
  const tok = await s.call('POST', '/api/v1/tokens', {
    body: { card: { number: '4111111111111111', expiration_month: 12, expiration_year: 2034, cvv: '123', holder_name: 'Ada Lovelace' } },
    headers: { 'Payctl-Sandbox': sb.group_id },
  });
  assert.equal(tok.status, 200, tok.text);
  const sale = await call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { ...saleBody(sb.processor_id), payment_details: { token: tok.body.token } }, undefined, { 'Idempotency-Key': 'order-1' });
  assert.equal(sale.status, 200, sale.text);
  assert.equal((await call('POST', `/api/v1/sandboxes/${sb.group_id}/faults`, { operation: 'refund', action: 'error', status: 503, first: 1 })).status, 201);
  assert.equal((await call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { advance: '1d' })).status, 200);
  assert.equal((await call('POST', `/api/v1/groups/${sb.group_id}/transaction/${sale.body.id}/refund`, { amount: 100 })).status, 503);
  assert.equal((await call('GET', `/api/v1/groups/${sb.group_id}/transaction/${sale.body.id}`, undefined, sb.keys.view_transactions!)).status, 200);

  const stopped = await call('DELETE', rec);
  assert.equal(stopped.status, 200, stopped.text);
  assert.equal(stopped.body.calls, 7);
  assert.equal((await call('DELETE', rec)).status, 400, 'not recording any more');
  const json = await call('GET', rec);
  assert.equal(json.status, 200);
  assert.doesNotMatch(json.text, SECRETS, json.text);
  assert.equal(json.body.data[1].body, null, 'a tokenize call keeps no body');
  assert.equal(json.body.data[0].answer.secret, '[redacted]');

  const yaml = await call('GET', `${rec}?format=scenario`);
  assert.equal(yaml.status, 200);
  assert.match(yaml.headers.get('content-type')!, /application\/yaml/);
  assert.doesNotMatch(yaml.text, SECRETS);
  const scenario = parse(yaml.text);
  assert.equal(scenario.sandbox.clock.slice(0, 10), '2030-01-01');
  assert.deepEqual(scenario.steps.map((st: Record<string, unknown>) => Object.keys(st).find((k) => ['request', 'clock', 'fault'].includes(k))), ['request', 'request', 'fault', 'clock', 'request', 'request']);
  const [, saleStep, fault, clock, refund, get] = scenario.steps;
  assert.equal(saleStep.request, 'POST /api/v1/groups/{group_id}/transaction');
  assert.equal(saleStep.body.payment_details.token, 'tok_visa', 'the minted token appears as the fixed test token of the same card');
  assert.equal(saleStep.body.processor_id, '${sandbox.processor_id}');
  assert.deepEqual(saleStep.headers, { 'Idempotency-Key': 'order-1' });
  assert.equal(saleStep.save, 'transaction');
  assert.deepEqual(fault.fault, { operation: 'refund', action: 'error', status: 503, first: 1 });
  assert.deepEqual(clock.clock, { advance: '1d' });
  assert.equal(refund.request, 'POST /api/v1/groups/{group_id}/transaction/${transaction.id}/refund');
  assert.deepEqual(refund.expect, { status: 503 });
  assert.equal(get.request, 'GET /api/v1/groups/{group_id}/transaction/${transaction.id}');

  // payctl scenario record writes the same file; its replay holds on a fresh sandbox.
  const file = path.join(dir, 'by-cli.yaml');
  const cli = await runCli(['scenario', 'record', '--group', sb.group_id, '--out', file], { db: s.dbPath });
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal(readFileSync(file, 'utf8'), yaml.text);
  const replay = await run([file]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

test('redact: keys, secrets, card numbers and CVVs go; an SSN keeps its last four, as the store keeps it; the rest stays', () => {
  assert.deepEqual(
    redact({ secret: 'whsec_x', key: 'sk_test_abc', card: { number: '4111 1111 1111 1111', cvv: '123', expiration_month: 12 }, note: '5555555555554444', phone: { number: '2065550199' }, result: { cvv: 'M', avs: 'Y' }, ssn: '123-45-6789', token: 'tok_visa', amount: 100 }),
    { secret: '[redacted]', key: '[redacted]', card: { number: '[redacted]', cvv: '[redacted]', expiration_month: 12 }, note: '[redacted]', phone: { number: '2065550199' }, result: { cvv: 'M', avs: 'Y' }, ssn: '•••••6789', token: 'tok_visa', amount: 100 },
  );
});
