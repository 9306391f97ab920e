// The command line speaks in flags (docs/decisions.md#cli-conventions): a misspelled flag gets
// a suggestion and the usage line (exit 2), every flag with a fixed set of values refuses
// a value outside it (exit 2, naming the set). The enum check runs over the manifest, so
// a flag added later with `options` is covered without a new row.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Config } from '@oclif/core';
import { runCli, runCliJson } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { packageRoot } from '../../src/lib/paths.js';
import { closestFlag } from '../../src/cli/suggest.js';
import { editDistance } from '../../src/lib/closest.js';

interface ManifestFlag { type: string; options?: string[]; multiple?: boolean; aliases?: string[]; required?: boolean; hidden?: boolean }
interface ManifestCommand { args: Record<string, { required?: boolean }>; flags: Record<string, ManifestFlag> }
const manifest = JSON.parse(readFileSync(path.join(packageRoot, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, ManifestCommand> };

let db: string;
const NO_ID = '01900000-0000-7000-8000-000000000000';
before(async () => {
  db = tempDbPath();
  await runCliJson(['init', '--demo'], { db });
});

/** oclif wraps error lines at the terminal width behind " ›": the message as one line. */
const oneLine = (stderr: string) => stderr.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ').replace(/^ ?Error: /, '');

test('closestFlag: typos, swaps and prefixes of a flag are found; unrelated words are not', () => {
  const names = ['amount', 'amount-cents', 'description', 'first-name', 'state', 'zip'];
  assert.equal(closestFlag('ammount', names), 'amount');
  assert.equal(closestFlag('amuont', names), 'amount');
  assert.equal(closestFlag('descripton', names), 'description');
  assert.equal(closestFlag('desc', names), 'description');
  assert.equal(closestFlag('firstname', names), 'first-name');
  assert.equal(closestFlag('bogus', names), undefined);
  assert.equal(editDistance('ab', 'ba'), 1);
  // A name cut short ranks before one a few edits away: --tok is --token, not --tax (two edits).
  assert.equal(closestFlag('tok', ['tax', 'token', 'total']), 'token');
  assert.equal(closestFlag('am', names), 'amount', 'the shortest name it begins');
});

test('a misspelled flag: "did you mean", the usage line, exit 2; not the whole help', async () => {
  const r = await runCli(['sale', '--ammount', '100'], { db });
  assert.equal(r.code, 2, r.stderr);
  const line = oneLine(r.stderr);
  assert.match(line, /unknown flag --ammount: did you mean --amount\?/);
  assert.match(line, /Usage: payctl sale \[--group <value>\] \(--amount <value> \| --amount-cents <value>\) --email <value> \[FLAGS\]/);
  assert.doesNotMatch(r.stderr, /Nonexistent flag|FLAGS\n|DESCRIPTION/);
  assert.ok(r.stderr.trim().split('\n').length <= 6, r.stderr);
  // --json: one usage_error object with the suggestion.
  const j = await runCli(['product', 'create', '--descripton', 'x', '--json'], { db });
  assert.equal(j.code, 2);
  assert.deepEqual(JSON.parse(j.stdout), { error: { type: 'usage_error', message: 'unknown flag --descripton: did you mean --description?' } });
  // A missing argument: the message and the usage line, no help either.
  const arg = await runCli(['capture'], { db });
  assert.equal(arg.code, 2);
  assert.match(oneLine(arg.stderr), /Missing 1 required arg: id .* Usage: payctl capture ID \[--group <value>\] \[FLAGS\]/);
  assert.doesNotMatch(arg.stderr, /DESCRIPTION|EXAMPLES/);
});

test('a flag the profile can supply (--group) shows as optional, with the default noted; without one, the error says how to set it', async () => {
  const profile = await runCliJson<{ settings: { group: { value: string; source: string } } }>(['config', 'list'], { db, env: { PAYCTL_GROUP: '' } });
  assert.equal(profile.settings.group.source, 'profile');
  const group = profile.settings.group.value;
  // The demo set a default: usage names it, and the command runs without --group.
  const r = await runCli(['events', 'list', '--bogus'], { db, env: { PAYCTL_GROUP: '' } });
  assert.equal(r.code, 2);
  const line = oneLine(r.stderr);
  assert.match(line, /Usage: payctl events list \[--group <value>\] \[FLAGS\]/);
  assert.ok(line.replace(/\s/g, '').includes(`--groupdefaultsto${group}(theprofile's)`), line);
  const fromEnv = oneLine((await runCli(['events', 'list', '--bogus'], { db, env: { PAYCTL_GROUP: group } })).stderr);
  assert.ok(fromEnv.replace(/\s/g, '').includes(`--groupdefaultsto${group}(PAYCTL_GROUP)`), fromEnv);
  assert.equal((await runCli(['events', 'list'], { db, env: { PAYCTL_GROUP: '' } })).code, 0);
  // Help agrees: optional, the default named in its description.
  const help = await runCli(['events', 'list', '--help'], { db });
  const usageSection = help.stdout.slice(help.stdout.indexOf('USAGE'), help.stdout.indexOf('FLAGS'));
  assert.match(usageSection, /\[--group <value>\]/);
  assert.doesNotMatch(usageSection.replace('[--group <value>]', ''), /--group/);
  assert.match(help.stdout.replace(/\s+/g, ' '), /--group=<value> group id \[default: PAYCTL_GROUP, else `payctl config set group`/);
  // No default anywhere: the usage line says none is set, the error how to set one (exit 2).
  const fresh = tempDbPath();
  await runCliJson(['init'], { db: fresh });
  const none = await runCli(['capture'], { db: fresh, env: { PAYCTL_GROUP: '' } });
  assert.equal(none.code, 2);
  assert.match(oneLine(none.stderr), /Usage: payctl capture ID \[--group <value>\] \[FLAGS\] \(--group: none set, `payctl config set group …` sets a default/);
  const missing = await runCli(['events', 'list'], { db: fresh, env: { PAYCTL_GROUP: '' } });
  assert.equal(missing.code, 2);
  assert.match(oneLine(missing.stderr), /no group given: pass --group GROUP_ID, or set a default with `payctl config set group GROUP_ID`/);
});

test('every flag with a fixed set refuses a value outside it: exit 2, naming the set', async () => {
  const config = await Config.load(packageRoot);
  process.env.PAYCTL_DB = db;
  const wrong: string[] = [];
  let checked = 0;
  for (const [id, cmd] of Object.entries(manifest.commands)) {
    const args = Object.values(cmd.args).filter((a) => a.required).map(() => NO_ID);
    for (const [name, flag] of Object.entries(cmd.flags)) {
      if (!flag.options) continue;
      checked++;
      const exitCode = process.exitCode;
      try {
        await config.runCommand(id, [...args, `--${name}`, 'nope-not-a-value']);
        wrong.push(`${id} --${name}: accepted`);
      } catch (err) {
        const e = err as Error & { oclif?: { exit?: number } };
        if (e.oclif?.exit !== 2) wrong.push(`${id} --${name}: exit ${e.oclif?.exit}: ${e.message}`);
        else if (!e.message.includes(flag.options.join(', '))) wrong.push(`${id} --${name}: the set is not named: ${e.message}`);
      } finally {
        process.exitCode = exitCode;
      }
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(checked >= 20, `${checked} flags with options`);
});

test('the flags that take a fixed set declare it (oclif options)', () => {
  const fixed: Array<[string, string]> = [
    ['outbox:list', 'kind'], ['report', 'status'], ['report', 'brand'], ['report', 'payment-type'], ['report', 'payment-method'],
    ['report', 'source'], ['report', 'currency'], ['report', 'type'], ['report', 'output'], ['product:create', 'unit'], ['product:update', 'unit'],
    ['sale', 'source'], ['auth', 'source'], ['invoice:list', 'status'], ['link:list', 'status'], ['subscription:list', 'status'],
    ['key:create', 'permission'], ['group:create', 'pricing'], ['processor:create', 'type'], ['plan:create', 'billing-cycle'],
    ['subscription:update', 'proration-behavior'], ['token:create', 'account-type'], ['fault:add', 'status'], ['fault:add', 'response-code'], ['fault:add', 'action'],
  ];
  const missing = fixed.filter(([id, flag]) => !manifest.commands[id]?.flags[flag]?.options);
  assert.deepEqual(missing, []);
});

test('outbox list --kind recipt: exit 2 naming the kinds (not "No e-mails.")', async () => {
  const r = await runCli(['outbox', 'list', '--kind', 'recipt'], { db });
  assert.equal(r.code, 2);
  assert.match(oneLine(r.stderr), /Expected --kind=recipt to be one of: receipt, invoice, onboarding/);
  assert.equal(r.stdout, '');
  const ok = await runCliJson(['outbox', 'list', '--kind', 'receipt'], { db });
  assert.ok(Array.isArray(ok));
});

/** Every command class that builds a request body from its flags (static bodySchema). */
async function bodyCommands(): Promise<Array<{ id: string; flags: Record<string, { required?: boolean; default?: unknown; description?: string; apiFields?: string[] }>; schema: import('zod').ZodType }>> {
  const { readdirSync, statSync } = await import('node:fs');
  const root = path.join(packageRoot, 'dist/commands');
  const out = [];
  const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : f.endsWith('.js') ? [path.join(d, f)] : []));
  for (const file of walk(root)) {
    const C = (await import(file)).default as { bodySchema?: import('zod').ZodType; flags: Record<string, never> };
    if (C?.bodySchema) out.push({ id: path.relative(root, file).replace(/\.js$/, '').split(path.sep).join(':'), flags: C.flags, schema: C.bodySchema });
  }
  return out;
}

test('usage and rules agree: a flag is required exactly when the request schema requires its field', async () => {
  const { requiredPaths } = await import('../helpers/required-fields.js');
  const { flagsForField } = await import('../../src/cli/flags/fields.js');
  const commands = await bodyCommands();
  assert.ok(commands.length >= 10, commands.map((c) => c.id).join(' '));
  const wrong: string[] = [];
  for (const { id, flags, schema } of commands) {
    const required = requiredPaths(schema);
    for (const p of required) {
      const names = flagsForField(p, flags);
      if (names.length === 0) continue; // the command fills it (type, currency), or a choice of flags (payment_details)
      // A flag with a default (oclif's, or the command's "[default: …]") always sends a value.
      const satisfied = names.some((n) => flags[n]!.required || flags[n]!.default !== undefined || /default:/.test(flags[n]!.description ?? ''));
      if (!satisfied) wrong.push(`${id}: ${p} is required by the schema, but ${names.map((n) => `--${n}`).join('/')} shows as optional`);
    }
    for (const [name, f] of Object.entries(flags)) {
      if (!f.required || name === 'group') continue;
      const fields = required.filter((p) => flagsForField(p, flags).includes(name));
      if (fields.length === 0) wrong.push(`${id}: --${name} shows as required, but the schema does not require its field`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('errors name the flags typed: --state for billing_address.subdivision, --email required once', async () => {
  const r = await runCli(['sale', '--amount', '10', '--token', 'tok_visa', '--email', 'ada@example.com', '--first-name', 'Ada', '--last-name', 'L',
    '--line1', '1 Main St', '--city', 'Springfield', '--state', 'ILLINOIS', '--zip', '62701', '--country', 'US'], { db });
  assert.equal(r.code, 1, r.stderr);
  const line = oneLine(r.stderr);
  assert.match(line, /--state: /);
  assert.doesNotMatch(r.stderr, /billing_address|subdivision/);
  // No --email: the oclif check says "missing" once, naming the flag.
  const noEmail = await runCli(['sale', '--amount', '10', '--token', 'tok_visa'], { db });
  assert.equal(noEmail.code, 2);
  assert.match(oneLine(noEmail.stderr), /missing required flag: --email \(or give the whole body with --file\)/);
  assert.doesNotMatch(noEmail.stderr, /valid e-mail/);
  // A rule on a field whose flag was not given reads "is required", once per flag.
  const { problemsInFlags } = await import('../../src/cli/flags/fields.js');
  const { saleFlags } = await import('../../src/cli/flags/transaction-flags.js');
  const problems = problemsInFlags(
    [{ path: 'email_address', message: 'must be a valid e-mail address' }, { path: 'billing_address.email', message: 'must be a valid e-mail address' }, { path: 'billing_address.subdivision', message: 'must be 2 or 3 characters' }],
    saleFlags, { state: 'ILLINOIS' });
  assert.deepEqual(problems, [{ label: '--email', message: 'is required' }, { label: '--state', message: 'must be 2 or 3 characters' }]);
  // A --file body is reported in the API's names: that is what the user typed.
  const file = await runCli(['sale', '--file', '-'], { db, input: JSON.stringify({ amounts: { requested_amount: 100 }, email_address: 'x', payment_details: { token: 'tok_visa' } }) });
  assert.equal(file.code, 1);
  assert.match(file.stderr, /email_address/);
});

test('one spelling for an address everywhere (--line1 --state --zip), the API names as aliases', async () => {
  for (const id of ['sale', 'auth', 'card:add', 'partner:create']) {
    const flags = manifest.commands[id]!.flags;
    for (const [name, alias] of [['line1', 'line-1'], ['line2', 'line-2'], ['state', 'subdivision'], ['zip', 'postal-code']] as const) {
      assert.ok(flags[name], `${id} --${name}`);
      assert.deepEqual(flags[name]!.aliases, [alias], `${id} --${name} aliases`);
    }
  }
  const canonical = await runCliJson(['partner', 'create', '--company', 'Blue Door', '--email', 'g@example.com', '--line1', '12 Harbor Rd', '--city', 'Portland', '--state', 'OR', '--zip', '97201', '--country', 'US'], { db });
  const aliased = await runCliJson(['partner', 'create', '--company', 'Blue Door', '--email', 'g@example.com', '--line-1', '12 Harbor Rd', '--city', 'Portland', '--subdivision', 'OR', '--postal-code', '97201', '--country', 'US'], { db });
  for (const k of ['line_1', 'subdivision', 'postal_code'] as const) assert.equal(aliased[k], canonical[k]);
  assert.equal(canonical.subdivision, 'OR');
});
