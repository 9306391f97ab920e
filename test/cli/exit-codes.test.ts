// Exit codes over every command (docs/decisions.md#cli-conventions): a command line that is
// wrong — an unknown flag or option value, a missing argument, flags that cannot go
// together, a value that is not money — exits 2; a request the platform refuses exits 1.
// Either way: one message on stderr, no stack trace; under --json one error object.
// The table runs the commands in this process (oclif's runCommand: the exit code is the
// one the thrown error carries, as bin/run.js would exit with); the --json cases spawn
// the binary, end to end.
import '../helpers/env.js';
import { test, before } from 'node:test';
import { Config } from '@oclif/core';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, runCliJson, type CliResult } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { packageRoot } from '../../src/lib/paths.js';

let db: string;
let g: string;
let config: Config;
const NO_ID = '01900000-0000-7000-8000-000000000000';
before(async () => {
  db = tempDbPath();
  g = (await runCliJson(['init', '--demo'], { db })).group_id;
  process.env.PAYCTL_DB = db;
  config = await Config.load(packageRoot);
});

/**
 * Run a command here: its exit code (0, or the code its error carries) and the message it
 * ends with. Rows are errors, which are thrown rather than printed, so nothing reaches
 * stdout (the test runner's channel).
 */
async function runHere(command: string, args: string[]): Promise<CliResult> {
  const exitCode = process.exitCode;
  try {
    await config.runCommand(command, args);
    return { code: 0, stdout: '', stderr: '' };
  } catch (err) {
    const e = err as Error & { oclif?: { exit?: number } };
    return { code: e.oclif?.exit ?? 1, stdout: '', stderr: `${e.message}\n${e.oclif ? '' : (e.stack ?? '')}` };
  } finally {
    process.exitCode = exitCode;
  }
}

type Row = [command: string, args: (group: string) => string[], exit: 1 | 2, stderr: RegExp];

const G = (group: string) => ['--group', group];
const missingArg = /Missing 1 required arg/;
const unknownFlag = /unknown flag --bogus/;
const missingFlag = /missing required flag/;
const notOneOf = /to be one of/;
const notMoney = /is not an amount of money/;
const both = /cannot also be provided when using/;

/** One row or more per command: the command's id (as the manifest names it), its arguments, the exit code, what stderr says. */
const ROWS: Row[] = [
  ['auth', (x) => [...G(x), '--amount', 'ten'], 2, notMoney],
  ['capture', (x) => G(x), 2, missingArg],
  ['capture', (x) => [NO_ID, ...G(x), '--amount-cents', '1.5'], 2, /is not a whole number of cents/],
  ['card:add', (x) => [...G(x), '--customer', NO_ID, '--file', '/no/such/card.json'], 2, /cannot read --file/],
  ['clock:advance', () => ['soon'], 2, /is not a duration/],
  ['clock:set', () => ['tomorrow'], 2, /tomorrow/],
  ['clock:show', () => ['--bogus'], 2, unknownFlag],
  ['config:list', () => ['--bogus'], 2, unknownFlag],
  ['config:set', () => ['colour', 'red'], 2, notOneOf],
  ['config:unset', () => [], 2, missingArg],
  ['customer:create', (x) => [...G(x), '--file', '/no/such/customer.json'], 2, /cannot read --file/],
  ['customer:get', (x) => G(x), 2, missingArg],
  ['fault:add', (x) => [...G(x), '--operation', 'sale', '--action', 'explode'], 2, notOneOf],
  ['fault:add', (x) => [...G(x), '--operation', 'sale', '--action', 'error', '--status', '418'], 2, notOneOf],
  ['fault:list', (x) => [...G(x), '--bogus'], 2, unknownFlag],
  ['fault:remove', (x) => G(x), 2, missingArg],
  ['customer:list', (x) => [...G(x), '--limit', '0'], 2, /greater than or equal to 1/],
  ['card:list', (x) => G(x), 2, missingFlag],
  ['card:list', (x) => [...G(x), '--customer', NO_ID], 1, /customer not found/],
  ['transaction:list', (x) => [...G(x), '--status', 'setled'], 2, notOneOf],
  ['transaction:list', (x) => [...G(x), '--customer', 'nope'], 1, /--customer: "nope" is not a UUID/],
  ['customer:get', (x) => [NO_ID, ...G(x)], 1, /customer not found/],
  ['db:copy', () => [], 2, missingFlag],
  ['db:copy', () => ['--to', 'mysql://db/payctl'], 1, /--to mysql:\/\/db\/payctl: mysql:\/\/ is not a database payctl opens/],
  ['db:copy', () => ['--to', './other.db'], 1, /--to: must be a postgres:\/\/ URL/],
  ['db:copy', () => ['--to', 'postgres://127.0.0.1:1/x', '--batch-rows', '0'], 2, /greater than or equal to 1/],
  ['dev:seed', () => [], 2, missingFlag],
  ['dev:seed', () => ['--transactions', '0'], 2, /greater than or equal to 1/],
  ['group:create', () => ['--name', 'x', '--pricing', 'cheap'], 2, notOneOf],
  ['group:list', () => ['--bogus'], 2, unknownFlag],
  ['init', () => ['--bogus'], 2, unknownFlag],
  ['invoice:archive', (x) => G(x), 2, missingArg],
  ['invoice:create', (x) => [...G(x), '--partner', NO_ID, '--processor', NO_ID, '--due-date', '2027-01-31', '--product', ':3'], 2, /must be ID or ID:QUANTITY/],
  ['invoice:create', (x) => [...G(x), '--product', NO_ID], 2, /missing required flags: --due-date, --partner, --processor/],
  ['invoice:create', (x) => [...G(x), '--partner', NO_ID, '--processor', NO_ID, '--due-date', '2027-01-31', '--product', NO_ID], 1, /--partner: must be an existing partner/],
  ['invoice:get', (x) => G(x), 2, missingArg],
  ['invoice:list', (x) => [...G(x), '--status', 'lost'], 2, notOneOf],
  ['invoice:list', (x) => [...G(x), '--limit', '1001'], 2, /less than or equal to 1000/],
  ['invoice:pdf', (x) => G(x), 2, missingArg],
  ['invoice:pdf', (x) => [NO_ID, ...G(x)], 1, /invoice not found/],
  ['invoice:update', (x) => [NO_ID, ...G(x), '--quantity', 'line:x'], 2, /must be ID or ID:QUANTITY/],
  ['key:create', (x) => G(x), 2, missingFlag],
  ['key:create', (x) => [...G(x), '--permission', 'everything'], 2, notOneOf],
  ['key:list', () => ['--bogus'], 2, unknownFlag],
  ['key:revoke', () => [], 2, missingArg],
  ['key:revoke', () => [NO_ID], 1, /not found/],
  ['link:create', (x) => [...G(x), '--amount', '1', '--open-amount'], 2, both],
  ['link:create', (x) => [...G(x), '--amount', '1'], 2, /missing required flag: --description/],
  ['link:create', (x) => [...G(x), '--amount', '1', '--description', 'x'.repeat(300)], 1, /--description: /],
  ['link:deactivate', (x) => G(x), 2, missingArg],
  ['link:get', (x) => G(x), 2, missingArg],
  ['link:list', (x) => [...G(x), '--limit', '0'], 2, /greater than or equal to 1/],
  ['linked-account:create', (x) => G(x), 2, missingFlag],
  ['linked-account:list', (x) => [...G(x), '--bogus'], 2, unknownFlag],
  ['logs:tail', () => ['--status', '6xx'], 2, /6xx/],
  ['onboard', () => ['--dry-run'], 2, /--file/],
  ['onboard', () => [], 2, /needs an interactive terminal/],
  ['outbox:list', () => ['--offset', '-1'], 2, /greater than or equal to 0/],
  ['outbox:get', () => [], 2, missingArg],
  ['outbox:get', () => ['nope'], 1, /e-mail not found/],
  ['partner:create', (x) => [...G(x), '--file', '/no/such/partner.json'], 2, /cannot read --file/],
  ['partner:list', (x) => [...G(x), '--limit', '0'], 2, /greater than or equal to 1/],
  ['plan:create', (x) => [...G(x), '--name', 'x', '--amount', '1', '--billing-cycle', 'monthly', '--duration', '0', '--retry-delays', 'a,b'], 2, /must be whole days/],
  ['plan:create', (x) => [...G(x), '--name', 'x', '--amount', '1', '--amount-cents', '100'], 2, both],
  ['plan:get', (x) => G(x), 2, missingArg],
  ['plan:list', (x) => [...G(x), '--limit', '5000'], 2, /less than or equal to 1000/],
  ['plan:update', (x) => [NO_ID, ...G(x), '--billing-cycle', 'fortnightly'], 2, notOneOf],
  ['processor:create', (x) => [...G(x), '--type', 'magic'], 2, notOneOf],
  ['processor:list', (x) => [...G(x), '--bogus'], 2, unknownFlag],
  ['product:create', (x) => [...G(x), '--name', 'x', '--tax', '1.234'], 2, notMoney],
  ['product:create', (x) => [...G(x), '--name', 'x'], 2, /missing required flags: --amount \(or --amount-cents\), --description/],
  ['product:create', (x) => [...G(x), '--name', 'x', '--description', 'd', '--amount', '1', '--tax', '2'], 1, /--tax|--amount/],
  ['product:get', (x) => G(x), 2, missingArg],
  ['product:list', (x) => [...G(x), '--offset', '-5'], 2, /greater than or equal to 0/],
  ['product:update', (x) => [NO_ID, ...G(x), '--amount', '1', '--amount-cents', '100'], 2, both],
  ['refund', (x) => [NO_ID, ...G(x), '--amount', 'all'], 2, notMoney],
  ['refund', (x) => [NO_ID, ...G(x)], 1, /transaction not found/],
  ['events:list', (x) => [...G(x), '--type', 'nope.*'], 2, /--type: "nope\.\*" is not an event type/],
  ['events:list', (x) => [...G(x), '--starting-after', 'x'], 1, /--starting-after: must be a UUID/],
  ['events:get', (x) => G(x), 2, missingArg],
  ['events:get', (x) => [NO_ID, ...G(x)], 1, /event not found/],
  ['listen', (x) => [...G(x), '--api-key', 'k', '--events', 'nope'], 2, /--events: "nope" is not an event type/],
  ['listen', (x) => [...G(x), '--api-key', 'k', '--api-url', 'ftp://x'], 2, /--api-url: "ftp:\/\/x" is not an http or https URL/],
  ['report', (x) => [...G(x), '--summary', '--chart', 'volume.gif'], 2, /must end in \.svg or \.png/],
  ['report', (x) => [...G(x), '--output', 'xml'], 2, notOneOf],
  ['report', (x) => [...G(x), '--summary', '--type', 'count'], 2, both],
  ['report', (x) => [...G(x), '--output', 'csv', '--limit', 'many'], 2, /--limit many: must be a whole number/],
  ['sale', (x) => [...G(x), '--amount', '1', '--amount-cents', '100'], 2, both],
  ['sale', (x) => [...G(x), '--source', 'phone'], 2, notOneOf],
  ['sale', (x) => [...G(x), '--amount', '1', '--token', 'tok_visa', '--email', 'ada@example.com'], 1, /billing_address \(--first-name, .*\): is required when paying with a token/],
  ['sale', () => ['--group', NO_ID, '--amount', '1', '--email', 'ada@example.com'], 1, /group \S+ not found/],
  ['sandbox:create', () => ['--bogus'], 2, unknownFlag],
  ['sandbox:delete', () => [], 2, missingArg],
  ['sandbox:delete', () => [NO_ID], 1, /sandbox not found/],
  ['sandbox:fork', () => [], 2, missingArg],
  ['sandbox:list', () => ['--bogus'], 2, unknownFlag],
  ['sandbox:export', () => ['--bogus'], 2, unknownFlag],
  ['sandbox:import', () => ['--bogus'], 2, unknownFlag],
  ['scenario:run', () => ['--bogus'], 2, unknownFlag],
  ['scenario:record', () => ['--bogus'], 2, unknownFlag],
  ['serve', () => ['--port', '70000'], 2, /less than or equal to 65535/],
  ['signup-form:create', () => [], 2, missingFlag],
  ['signup-form:list', () => ['--bogus'], 2, unknownFlag],
  ['subscription:cancel', (x) => G(x), 2, missingArg],
  ['subscription:create', (x) => [...G(x), '--amount', 'x'], 2, notMoney],
  ['subscription:get', (x) => G(x), 2, missingArg],
  ['subscription:list', (x) => [...G(x), '--status', 'sleeping'], 2, notOneOf],
  ['subscription:update', (x) => [NO_ID, ...G(x), '--proration-behavior', 'later'], 2, notOneOf],
  ['token:create', () => [], 2, /give --card with --exp and --cvv/],
  ['token:create', () => ['--exp', '12/30'], 2, /--card/],
  ['token:create', () => ['--card', '4111111111111112', '--exp', '12/30', '--cvv', '123'], 1, /number/],
  ['trigger', (x) => ['transaction.exploded', ...G(x)], 2, /unknown event type "transaction\.exploded": give one of/],
  ['trigger', (x) => G(x), 2, missingArg],
  ['transaction:get', (x) => G(x), 2, missingArg],
  ['transaction:get', (x) => [NO_ID, ...G(x)], 1, /transaction not found/],
  ['void', (x) => G(x), 2, missingArg],
  ['webhook:create', (x) => [...G(x), '--url', 'https://example.com/hooks'], 2, missingFlag],
  ['webhook:create', (x) => [...G(x), '--url', 'ftp://example.com', '--events', '*'], 1, /url: must be an http/],
  ['webhook:list', (x) => [...G(x), '--limit', '0'], 2, /greater than or equal to 1/],
  ['webhook:delete', (x) => G(x), 2, missingArg],
  ['webhook:delete', (x) => [NO_ID, ...G(x)], 1, /webhook endpoint not found/],
  ['webhook:rotate-secret', (x) => [NO_ID, ...G(x)], 1, /webhook endpoint not found/],
  ['webhook:deliveries', (x) => [NO_ID, ...G(x), '--limit', '5000'], 2, /less than or equal to 1000/],
  ['fault:add', (x) => [...G(x), '--operation', 'sale', '--action', 'explode'], 2, notOneOf],
  ['fault:add', (x) => [...G(x), '--operation', 'sale', '--action', 'error'], 1, /required with action error/],
  ['fault:list', () => ['--bogus'], 2, unknownFlag],
  ['fault:remove', (x) => G(x), 2, missingArg],
  ['fault:remove', (x) => [NO_ID, ...G(x)], 1, /fault rule not found/],
  ['webhook:fault:add', (x) => [NO_ID, ...G(x), '--action', 'drop'], 1, /webhook endpoint not found/],
  ['webhook:fault:add', (x) => [NO_ID, ...G(x), '--action', 'explode'], 2, notOneOf],
  ['webhook:fault:list', (x) => G(x), 2, missingArg],
  ['webhook:fault:remove', (x) => [NO_ID, ...G(x)], 2, missingFlag],
  ['events:resend', (x) => G(x), 2, missingArg],
  ['events:resend', (x) => [NO_ID, ...G(x)], 1, /event not found/],
];

async function runAll(rows: Row[]): Promise<CliResult[]> {
  const out: CliResult[] = [];
  for (const [command, args] of rows) out.push(await runHere(command, args(g)));
  return out;
}

test('every command of the manifest has a row', () => {
  const manifest = JSON.parse(readFileSync(path.join(packageRoot, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, unknown> };
  const covered = new Set(ROWS.map(([c]) => c));
  assert.deepEqual(Object.keys(manifest.commands).filter((id) => !covered.has(id)), []);
});

test('usage errors exit 2, user errors exit 1: one message, no stack trace', async () => {
  const results = await runAll(ROWS);
  const wrong = ROWS.flatMap(([command, args, exit, stderr], i) => {
    const r = results[i]!;
    const line = `payctl ${[...command.split(':'), ...args('G')].join(' ')}`;
    if (r.code !== exit) return [`${line}: exit ${r.code}, expected ${exit}: ${r.stderr.trim().split('\n')[0]}`];
    if (!stderr.test(r.stderr)) return [`${line}: the message does not match ${stderr}: ${r.stderr.trim()}`];
    if (/\n\s+at .+:\d+:\d+/.test(r.stderr)) return [`${line}: a stack trace`];
    return [];
  });
  assert.deepEqual(wrong, []);
});

test('under --json a usage error is one usage_error object on stdout, exit 2', async () => {
  const unknown = await runCli(['sale', '--group', g, '--bogus', '--json'], { db });
  assert.equal(unknown.code, 2);
  assert.deepEqual(JSON.parse(unknown.stdout), { error: { type: 'usage_error', message: 'unknown flag --bogus' } });
  const combined = await runCli(['refund', NO_ID, '--group', g, '--amount', '1', '--amount-cents', '1', '--json'], { db });
  assert.equal(combined.code, 2);
  const body = JSON.parse(combined.stdout) as { error: { type: string; message: string } };
  assert.equal(body.error.type, 'usage_error');
  assert.match(body.error.message, /--amount-cents=1 cannot also be provided when using --amount/);
  const pdf = await runCli(['invoice', 'pdf', NO_ID, '--group', g, '-o', '-', '--json'], { db });
  assert.equal(pdf.code, 2, 'checked before any work');
  assert.match(JSON.parse(pdf.stdout).error.message, /cannot be combined with --json/);
  const user = await runCli(['transaction', 'get', NO_ID, '--group', g, '--json'], { db });
  assert.equal(user.code, 1);
  assert.equal(JSON.parse(user.stdout).error.type, 'not_found');
});
