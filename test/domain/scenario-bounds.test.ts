// The bounds a scenario file is held to before anything runs, as pure rules: a request's
// path stays on the server under test (absolute URLs, //host, /\host, encoded slashes and
// whatever a reference could add are refused or made harmless); ${env.NAME} reads only
// allowed names; `$${` is a literal `${` and a recording escapes what it writes; nested
// repeats are bounded by their product and a file by the steps it runs; a step's timeout
// is bounded; an unknown key names the nearest known one.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { parseScenario, ScenarioFileError } from '../../src/dev/scenario-file.js';
import { parseEventStream } from '../../src/dev/scenario-stream.js';
import { pathTemplate, referencedNames, resolvePath, resolveRefs, stepTimeoutMs } from '../../src/domain/scenarios.js';
import { requestPathProblem, urlOnServer } from '../../src/domain/scenario-paths.js';
import { escapeText } from '../../src/domain/scenario-text.js';
import { recordingToScenario, type CallRecord } from '../../src/domain/recording.js';

const problemsOf = (text: string, allowEnv: string[] = []) => {
  try {
    parseScenario(text, 'f.yaml', { allowEnv });
  } catch (err) {
    assert.ok(err instanceof ScenarioFileError, String(err));
    return err.problems.map((p) => `${p.line}:${p.column} ${p.path} ${p.message}`);
  }
  return [];
};
const file = (...steps: string[]) => ['name: x', 'steps:', ...steps].join('\n');

test("a request's path that could leave the server under test is refused with its line, before anything runs", () => {
  const bad = ['//127.0.0.1:9/collect?v=${env.PAYCTL_SCENARIO_SECRET}', 'http://127.0.0.1:9/collect', 'HTTPS://evil.example/x', '/\\127.0.0.1:9/x', '/\\\\evil/x', '/api/..\\evil', '/%2F%2Fevil/x', '/api/v1/%5cx', 'mailto:x', 'api/v1/x'];
  for (const path of bad) {
    const problems = problemsOf(file('  - clock: { advance: 1d }', `  - request: GET ${path}`));
    assert.equal(problems.length, 1, `${path}: ${problems.join('\n')}`);
    assert.match(problems[0]!, /^4:14 steps\.1\.request .*a request's path is a path on the server under test/, path);
  }
  for (const path of ['/api/v1/groups/{group_id}/transaction/${sale.id}', '/api/v1/x?return_url=https%3A%2F%2Fshop.example%2Fdone', '/api/v1/x/..//y', '/a?b=//c']) {
    assert.equal(requestPathProblem(pathTemplate(path)), undefined, path);
  }
  // Tabs and newlines are dropped by the URL parser, so they could hide a //.
  assert.match(requestPathProblem('/\t/evil')!, /control character/);
});

test('a reference in a path fills one segment or query value: whatever it holds, the request stays on the server', () => {
  const scope = { hop: { to: '/127.0.0.1:9/collect', back: '\\\\evil.example/x', q: 'a b&c=d#e' } };
  const base = 'http://127.0.0.1:4000';
  for (const path of ['/${hop.to}', '/${hop.back}', '/api/v1/x/${hop.to}', '/api/v1/x?v=${hop.q}']) {
    const filled = resolvePath(path, scope);
    const url = urlOnServer(filled, base);
    assert.ok(url instanceof URL, `${path} → ${filled}: ${JSON.stringify(url)}`);
    assert.equal(url.origin, base);
  }
  assert.equal(resolvePath('/api/v1/x?v=${hop.q}', scope), '/api/v1/x?v=a%20b%26c%3Dd%23e');
  assert.ok(!(urlOnServer('//127.0.0.1:9/x', base) instanceof URL), 'checked again at send time');
});

test('${env.NAME} reads only names passed with --env or carrying PAYCTL_SCENARIO_; the admin token only by name', () => {
  const text = file('  - request: GET /api/v1/x?h=${env.HOME}', '  - request: GET /api/v1/x?t=${env.PAYCTL_ADMIN_TOKEN}', '  - request: GET /api/v1/x?s=${env.PAYCTL_SCENARIO_ORDER}', '  - request: POST /api/v1/x', '    body: { all: "${env}", deep: "${env.A.B}" }');
  const problems = problemsOf(text);
  assert.equal(problems.length, 4, problems.join('\n'));
  assert.match(problems[0]!, /^3:5 steps\.0 refers to \$\{env\.HOME\}, which this run may not read: pass --env HOME to allow it, or name the variable PAYCTL_SCENARIO_HOME/);
  assert.match(problems[1]!, /^4:5 steps\.1 refers to \$\{env\.PAYCTL_ADMIN_TOKEN\}, which this run may not read: pass --env PAYCTL_ADMIN_TOKEN/);
  assert.match(problems[2]!, /^6:5 steps\.3 refers to \$\{env\}: an environment variable is read by its name alone/);
  assert.match(problems[3]!, /^6:5 steps\.3 refers to \$\{env\.A\.B\}/);
  assert.deepEqual(problemsOf(file('  - request: GET /api/v1/x?h=${env.HOME}&t=${env.PAYCTL_ADMIN_TOKEN}'), ['HOME', 'PAYCTL_ADMIN_TOKEN']), []);
});

test('$${ is a literal ${: never a reference, written as ${; escapeText makes any text replay as itself', () => {
  const scope = { env: { HOME: '/root' }, sale: { id: 't1' } };
  assert.equal(resolveRefs('order $${env.HOME}', scope), 'order ${env.HOME}');
  assert.equal(resolveRefs('$${sale.id}', scope), '${sale.id}', 'not a whole reference');
  assert.equal(resolveRefs('${sale.id}/$${sale.id}', scope), 't1/${sale.id}');
  assert.deepEqual([...referencedNames({ a: 'order $${env.HOME}', b: '${sale.id}' })], ['sale']);
  assert.equal(resolvePath('/x/$${a}', scope), '/x/${a}');
  for (const text of ['order ${env.HOME}', '$${x}', '$$${x}', '${a}${b}', '$', '$$', '${', 'a$b{c}', '${nobody}']) {
    assert.equal(resolveRefs(escapeText(text), {}), text, text);
  }
});

test('recordingToScenario escapes recorded text (bodies, headers, paths), so a replay sends what was recorded; a stream call is left out', () => {
  const calls: CallRecord[] = [
    { method: 'POST', path: '/api/v1/groups/g1/transaction', route: '/api/v1/groups/:group_id/transaction', headers: { 'Idempotency-Key': 'k-${env.HOME}' }, body: { description: 'order ${env.HOME}', processor_id: 'p1' }, status: 200, answer: { id: 'txn_00000001' } },
    { method: 'GET', path: '/api/v1/groups/g1/events/stream', route: '/api/v1/groups/:group_id/events/stream', headers: null, body: null, status: 200, answer: null },
    { method: 'GET', path: '/api/v1/groups/g1/customers/%E0%A4%A', route: '/api/v1/groups/:group_id/customers/:customer_id', headers: null, body: null, status: 404, answer: null },
  ];
  const made = recordingToScenario(calls, { name: 'r', group_id: 'g1', processor_id: 'p1', linked_account_id: 'l1', demo: null, started_at: '2030-01-15T12:00:00.000Z', test_cards: [] });
  const loaded = parseScenario(stringify(made), 'r.yaml');
  assert.equal(loaded.scenario.steps.length, 2, 'the stream call is not a step');
  const step = loaded.scenario.steps[0] as { body: Record<string, unknown>; headers: Record<string, string> };
  assert.deepEqual(resolveRefs(step.body, { sandbox: { processor_id: 'p2' } }), { description: 'order ${env.HOME}', processor_id: 'p2' });
  assert.deepEqual(resolveRefs(step.headers, {}), { 'Idempotency-Key': 'k-${env.HOME}' });
});

test('nested repeats are bounded by their product, a file by the steps it runs; each refused at its line', () => {
  const cube = file('  - repeat: 1000', '    steps:', '      - repeat: 1000', '        steps:', '          - repeat: 1000', '            steps: [{ clock: { advance: 1s } }]');
  const problems = problemsOf(cube);
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0]!, /^5:17 steps\.0\.steps\.0\.repeat runs its steps 1000000 times with the repeats around it; nested repeats run at most 10000 times in product/);
  assert.deepEqual(problemsOf(file('  - repeat: 100', '    steps:', '      - repeat: 100', '        steps: [{ clock: { advance: 1s } }]')), []);
  const wide = file('  - repeat: 10000', '    steps: [{ clock: { advance: 1s } }]');
  assert.match(problemsOf(wide)[0]!, /repeat must be at most 1000/);
  const many = file('  - repeat: 1000', '    steps:', '      - repeat: 10', '        steps:', ...Array.from({ length: 11 }, () => '          - clock: { advance: 1s }'));
  const total = problemsOf(many);
  assert.equal(total.length, 1, total.join('\n'));
  assert.match(total[0]!, /^17:13 steps\.0\.steps\.0\.steps\.10 makes the file run more than 100000 steps \(repeats counted out\)/);
});

test("a step's timeout is a duration from 1s to 10m, on request, clock and fault steps", () => {
  assert.deepEqual(problemsOf(file('  - clock: { advance: 1d }', '    timeout: 2m', '  - request: GET /api/v1/x', '    timeout: 5s')), []);
  const problems = problemsOf(file('  - request: GET /api/v1/x', '    timeout: 11m', '  - clock: { advance: 1d }', '    timeout: 0s', '  - expect_events: [{ type: "*" }]', '    timeout: 5s'));
  assert.equal(problems.length, 3, problems.join('\n'));
  assert.match(problems[0]!, /^4:14 steps\.0\.timeout must be a duration from 1s to 10m/);
  assert.match(problems[1]!, /^6:14 steps\.1\.timeout must be a duration from 1s to 10m/);
  assert.match(problems[2]!, /^8:5 steps\.2\.timeout is not a field here/);
  assert.equal(stepTimeoutMs('30s'), 30_000);
  assert.deepEqual(stepTimeoutMs('1h'), { error: 'must be a duration from 1s to 10m, like 10s or 2m' });
});

test('an unknown key gets "did you mean" the nearest known one, at every level of a step', () => {
  const problems = problemsOf(file('  - reqest: GET /api/v1/x', '  - request: GET /api/v1/x', '    bdy: {}', '    expect: { statsu: 200 }', '  - clock: { advance: 1d }', '    timout: 1s', '  - request: GET /api/v1/x', '    zzzzzz: 1'));
  const has = (re: RegExp) => assert.ok(problems.some((p) => re.test(p)), `${re} in\n${problems.join('\n')}`);
  has(/^3:5 steps\.0 must have one of .* \(did you mean request\?\)/);
  has(/^5:5 steps\.1\.bdy is not a field here \(did you mean body\?\)/);
  has(/^6:15 steps\.1\.expect\.statsu is not a field here \(did you mean status\?\)/);
  has(/^8:5 steps\.2\.timout is not a field here \(did you mean timeout\?\)/);
  has(/^10:5 steps\.3\.zzzzzz is not a field here$/);
});

test('an event stream is read as messages: comments, retry and a partial last message left out', () => {
  const text = 'retry: 1000\n\nid: 41\nevent: ready\ndata: {"last_event_id":"41"}\n\n:\n\nid: 42\nevent: transaction.approved\ndata: {"id":"e1"}\n\nid: 43\nevent: trans';
  assert.deepEqual(parseEventStream(text), [
    { id: '41', event: 'ready', data: { last_event_id: '41' } },
    { id: '42', event: 'transaction.approved', data: { id: 'e1' } },
  ]);
});
