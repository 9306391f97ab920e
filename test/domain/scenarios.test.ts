// Scenario files as pure rules: a malformed file is refused with every problem at its
// line and column (syntax, shape, unknown fields, references to names no earlier step
// saves); references fill values (a whole-string reference keeps its type); a body
// subset names each path that differs; the shipped JSON Schema is the one the zod schema makes.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseScenario, ScenarioFileError, missingEnv } from '../../src/dev/scenario-file.js';
import { resolveRefs, scenarioJsonSchema, subsetMismatches, typeMatches } from '../../src/domain/scenarios.js';
import { packageRoot } from '../../src/lib/paths.js';

const problemsOf = (text: string) => {
  try {
    parseScenario(text, 'f.yaml');
  } catch (err) {
    assert.ok(err instanceof ScenarioFileError, String(err));
    return err.problems.map((p) => `${p.line}:${p.column} ${p.path} ${p.message}`);
  }
  assert.fail('the file was accepted');
};

test('every problem of a malformed file is listed with its line and column', () => {
  const problems = problemsOf(
    [
      'name: bad file', //                                        1
      'colour: red', //                                           2
      'steps:', //                                                3
      '  - request: FETCH /api/v1/x', //                          4
      '    save: 1st', //                                         5
      '  - clock: { advance: 3 weeks }', //                       6
      '  - request: GET /api/v1/groups/{group_id}/transaction/${sale.id}', // 7
      '  - expect_event: [{ type: x }]', //                       8
      '  - repeat: 0', //                                         9
      '    steps: [{ clock: { set: 2031-01-01T00:00:00Z }, request: GET /x }]', // 10
    ].join('\n'),
  );
  const has = (re: RegExp) => assert.ok(problems.some((p) => re.test(p)), `${re} in\n${problems.join('\n')}`);
  has(/^2:1 colour is not a field here/);
  has(/^4:14 steps\.0\.request must be a method and a path/);
  has(/^5:11 steps\.0\.save must be a name/);
  has(/^6:23 steps\.1\.clock\.advance must be a duration/);
  has(/^7:5 steps\.2 refers to \$\{sale…\}, which no step before it saves/);
  has(/^8:5 steps\.3 must have one of request, clock.*\(did you mean expect_events\?\)/);
  has(/^9:13 steps\.4\.repeat must be at least 1/);
  has(/^10:13 steps\.4\.steps\.0 has request and clock: one kind per step/);
  assert.equal(problems.length, 8, problems.join('\n'));
});

test('a YAML syntax error is placed too, and a later saved name is not visible before it', () => {
  assert.match(problemsOf('name: x\nsteps:\n  - request: GET /a\n   body: [1, 2\n')[0]!, /^\d+:\d+ /);
  const ok = parseScenario('name: x\nsteps:\n  - request: GET /a\n    save: a\n  - request: GET /b/${a.id}\n');
  assert.deepEqual([...ok.lines.entries()], [['steps.0', 3], ['steps.1', 5]]);
  assert.deepEqual(missingEnv(parseScenario('name: x\nsteps:\n  - request: GET /a/${env.NOPE_X}\n', 'f.yaml', { allowEnv: ['NOPE_X'] }), {}), ['NOPE_X']);
});

test('references: a whole-string reference keeps its type, inside text it is written in; a missing one names what the answer has', () => {
  const scope = { sale: { id: 't1', amounts: { requested_amount: 4200 }, tags: ['a'] }, env: { ORDER: '17' } };
  assert.deepEqual(resolveRefs({ amount: '${sale.amounts.requested_amount}', path: '/x/${sale.id}/y', first: '${sale.tags.0}', order: 'o-${env.ORDER}' }, scope), {
    amount: 4200,
    path: '/x/t1/y',
    first: 'a',
    order: 'o-17',
  });
  assert.throws(() => resolveRefs('${sale.card_id}', scope), /sale\.card_id is not in the saved answer \(it has id, amounts, tags\)/);
  assert.throws(() => resolveRefs('${plan.id}', scope), /nothing is saved as plan/);
});

test('a body subset names every path that differs; dotted keys read paths; type globs', () => {
  const got = { status: 'pending', amounts: { requested_amount: 4200 }, lines: [{ q: 1 }, { q: 2 }], data: { object: { id: 'x' } } };
  assert.deepEqual(subsetMismatches({ status: 'pending', amounts: { requested_amount: 4200 }, lines: [{ q: 1 }] }, got), []);
  assert.deepEqual(subsetMismatches({ 'data.object.id': 'x' }, got), []);
  assert.deepEqual(subsetMismatches({ status: 'settled', amounts: { requested_amount: 1 }, lines: [{ q: 1 }, { q: 3 }, { q: 4 }] }, got), [
    { path: 'status', expected: 'settled', got: 'pending' },
    { path: 'amounts.requested_amount', expected: 1, got: 4200 },
    { path: 'lines.1.q', expected: 3, got: 2 },
    { path: 'lines.2', expected: { q: 4 }, got: undefined },
  ]);
  assert.ok(typeMatches('transaction.*', 'transaction.captured'));
  assert.ok(typeMatches('*', 'invoice.paid'));
  assert.ok(!typeMatches('transaction.*', 'subscription.charged'));
  assert.ok(typeMatches('subscription.charged', 'subscription.charged'));
});

test('data/scenario.schema.json is the JSON Schema the zod schema makes (regenerate: see docs/scenarios.md)', () => {
  const shipped = JSON.parse(readFileSync(path.join(packageRoot, 'data/scenario.schema.json'), 'utf8'));
  assert.deepEqual(shipped, scenarioJsonSchema());
});

test('every example scenario file is valid', () => {
  for (const f of ['checkout', 'auth-capture-refund', 'subscription-retries', 'invoice-payment-link', 'onboarding-referred']) {
    const loaded = parseScenario(readFileSync(path.join(packageRoot, 'examples/scenarios', `${f}.yaml`), 'utf8'), f, { allowEnv: ['SIGNUP_FORM_ID'] });
    assert.ok(loaded.scenario.steps.length >= 2, f);
  }
});
