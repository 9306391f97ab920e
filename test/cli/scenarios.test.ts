// payctl scenario run against a real server: every example in examples/scenarios passes
// on a fresh sandbox each; a failed expectation prints expected against got with the
// step's line and exits 1, the run stopping there; --json and --reporter junit carry
// the same steps; a malformed file is refused with its problems before anything runs
// (no sandbox is made); the schema is served.
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN } from '../helpers/sandboxes.js';
import { packageRoot } from '../../src/lib/paths.js';
import { scenarioJsonSchema } from '../../src/domain/scenarios.js';

let s: TestServer;
let signupFormId: string;
const dir = mkdtempSync(path.join(tmpdir(), 'payctl-scenarios-'));
const examples = path.join(packageRoot, 'examples/scenarios');

before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
  const form = await runCli(['signup-form', 'create', '--name', 'Scenario signups', '--json'], { db: s.dbPath });
  signupFormId = JSON.parse(form.stdout).id;
});
after(() => s.close());

const run = (args: string[]) => runCli(['scenario', 'run', ...args, '--url', s.url, '--admin-token', ADMIN, '--env', 'SIGNUP_FORM_ID'], { db: s.dbPath, env: { SIGNUP_FORM_ID: signupFormId } });
const sandboxCount = async () => (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.length;

for (const file of readdirSync(examples).filter((f) => /\.ya?ml$/.test(f))) {
  test(`examples/scenarios/${file} passes on a fresh sandbox`, async () => {
    const r = await run([path.join(examples, file)]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^passed: .* 0 failed/m);
    assert.doesNotMatch(r.stdout, /✗/);
  });
}

test('five example scenarios ship', () => {
  assert.ok(readdirSync(examples).filter((f) => f.endsWith('.yaml')).length >= 5);
});

test('a failed expectation shows expected against got and the step\'s line; exit 1; the run stops there; --json and junit say the same', async () => {
  const file = path.join(dir, 'fails.yaml');
  writeFileSync(
    file,
    [
      'name: a sale that is not what we expect',
      'steps:',
      '  - request: POST /api/v1/groups/{group_id}/transaction',
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
      '    expect:',
      '      status: 200',
      '      body: { status: settled, amounts: { requested_amount: 1000 } }',
      '  - clock: { advance: 1d }',
    ].join('\n'),
  );
  const r = await run([file]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /✗ request +POST \/api\/v1\/groups\/\{group_id\}\/transaction answered 200, not the expected body/);
  assert.match(r.stdout, new RegExp(`at ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3 \\(steps\\.0\\)`));
  assert.match(r.stdout, /status:\n\s+- expected "settled"\n\s+\+ got\s+"pending"/);
  assert.doesNotMatch(r.stdout, /clock advance/, 'the run stops at the failed step');
  assert.match(r.stdout, /FAILED: .* 1 step run, 1 failed/);

  const json = await run([file, '--json']);
  assert.equal(json.code, 1);
  const [result] = JSON.parse(json.stdout);
  assert.equal(result.ok, false);
  assert.deepEqual(result.steps[0].mismatches, [{ path: 'status', expected: 'settled', got: 'pending' }]);
  assert.equal(result.steps[0].line, 3);

  const report = path.join(dir, 'report.xml');
  const junit = await run([file, '--reporter', 'junit', '--reporter-file', report]);
  assert.equal(junit.code, 1);
  const xml = readFileSync(report, 'utf8');
  assert.match(xml, /<testsuites tests="1" failures="1">/);
  assert.match(xml, /<testcase classname="[^"]*fails\.yaml" name="request \(steps\.0, line 3\)" time="[\d.]+">\n\s+<failure message="POST/);
});

test('a run\'s sandbox is frozen at 2030-01-15T12:00:00.000Z: what it makes carries that instant, a clock step moves it exactly', async () => {
  const file = path.join(dir, 'frozen.yaml');
  const sale = [
    '    request: POST /api/v1/groups/{group_id}/transaction',
    '    body:',
    '      type: sale',
    '      source: api',
    '      currency: USD',
    '      email_address: ada@example.com',
    '      email_receipt: false',
    '      processor_id: "${sandbox.processor_id}"',
    '      amounts: { requested_amount: 1500 }',
    '      billing_address: { first_name: Ada, last_name: Lovelace, line_1: 1 Main St, city: Springfield, subdivision: IL, postal_code: "62701", country: US, email: ada@example.com }',
    '      payment_details: { token: tok_visa }',
  ];
  writeFileSync(
    file,
    [
      'name: the default clock of a scenario run',
      'steps:',
      '  - name: at the anchor',
      ...sale,
      '    expect: { status: 200, body: { status: pending, created_at: "2030-01-15T12:00:00.000Z" } }',
      '    save: first',
      '  - clock: { advance: 1d }',
      '  - name: a day later, to the millisecond',
      ...sale,
      '    expect: { status: 200, body: { created_at: "2030-01-16T12:00:00.000Z" } }',
      '  - request: GET /api/v1/groups/{group_id}/transaction/${first.id}',
      '    expect: { status: 200, body: { status: settled } }',
    ].join('\n'),
  );
  const r = await run([file]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^passed: .* 0 failed/m);
});

test('expect_webhooks: the run\'s verifying receiver gets the sandbox\'s signed webhooks; a missing one fails with what arrived', async () => {
  const file = path.join(dir, 'webhooks.yaml');
  writeFileSync(
    file,
    [
      'name: a sale is delivered as a webhook',
      'steps:',
      '  - expect_webhooks: [{ type: "*", count: 0, timeout: 1s }]',
      '  - request: POST /api/v1/groups/{group_id}/transaction',
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
      '    save: sale',
      '  - expect_webhooks: [{ type: transaction.approved, count: 1, match: { data.object.id: "${sale.id}" }, timeout: 30s }]',
      '  - expect_webhooks: [{ type: transaction.refunded, timeout: 1s }]',
    ].join('\n'),
  );
  const r = await run([file]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /✓ expect_webhooks +webhooks transaction\.approved ×1/);
  assert.match(r.stdout, /✗ expect_webhooks +webhooks: at least 1 transaction\.refunded expected, 0 seen \(0 of that type; \d+ in all\) after waiting 1s/);
});

test('a malformed file is refused with each problem\'s line and column before anything runs: no sandbox is made', async () => {
  const file = path.join(dir, 'bad.yaml');
  writeFileSync(file, 'name: bad\nsteps:\n  - request: GET /api/v1/groups/{group_id}/customers/${nobody.id}\n  - clock: { advance: soon }\n');
  const before = await sandboxCount();
  const r = await run([file]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const said = r.stderr.replace(/\s*›\s*/g, ' ');
  assert.match(said, /bad\.yaml:3:5 steps\.0: refers to \$\{nobody…\}/);
  assert.match(said, /bad\.yaml:4:23 steps\.1\.clock\.advance: must be a duration/);
  assert.match(said, /Nothing was run/);
  assert.equal(await sandboxCount(), before);
});

test('the JSON Schema is served, and is the shipped one', async () => {
  const r = await s.call('GET', '/api/v1/scenario.schema.json');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, scenarioJsonSchema());
  assert.deepEqual(r.body, JSON.parse(readFileSync(path.join(packageRoot, 'data/scenario.schema.json'), 'utf8')));
});
