// payctl sandbox create / list / fork / delete / export / import and payctl clock …
// --group, on the real binary over a temporary database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliJson, assertUsageError, assertUserError } from '../helpers/cli.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tempDbPath } from '../helpers/platform.js';
import { PERMISSIONS } from '../../src/domain/permissions.js';

const DAY = 86_400_000;
const json = <T = any>(args: string[], db: string) => runCliJson<T>(args, { db }); // eslint-disable-line @typescript-eslint/no-explicit-any

test('sandbox create / list / fork / delete', async () => {
  const d = tempDbPath();
  await json(['init', '--demo'], d);
  const sb = await json(['sandbox', 'create', '--demo', '--name', 'suite A'], d);
  assert.deepEqual(Object.keys(sb.keys).sort(), [...PERMISSIONS].sort());
  assert.ok(sb.customer_id && sb.subscription_ids.length > 0);
  const plain = await json(['sandbox', 'create'], d);
  assert.equal(plain.customer_id, undefined);

  const human = await runCli(['sandbox', 'list'], { db: d });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /suite A/);

  const fork = await json(['sandbox', 'fork', sb.group_id, '--name', 'suite A copy'], d);
  assert.equal(fork.forked_from, sb.group_id);
  assert.ok(fork.rows.transactions >= 4, JSON.stringify(fork.rows));
  assert.deepEqual((await json<Array<{ name: string }>>(['sandbox', 'list'], d)).map((x) => x.name), ['suite A', 'Sandbox', 'suite A copy']);

  const dropped = await json(['sandbox', 'delete', sb.group_id], d);
  assert.equal(dropped.deleted, true);
  assert.deepEqual((await json<Array<{ name: string }>>(['sandbox', 'list'], d)).map((x) => x.name), ['Sandbox', 'suite A copy']);
  assertUserError(await runCli(['sandbox', 'delete', sb.group_id], { db: d }), /sandbox not found/);
  assertUserError(await runCli(['sandbox', 'create', '--clock', 'tomorrow'], { db: d }), /clock/);
  // A time to live (docs/sandboxes.md): shown by the list.
  const leased = await json(['sandbox', 'create', '--ttl', '2h'], d);
  const listed = (await json<Array<{ group_id: string; ttl_seconds?: number; expires_at?: string }>>(['sandbox', 'list'], d)).find((x) => x.group_id === leased.group_id)!;
  assert.equal(listed.ttl_seconds, 7200);
  assert.ok(listed.expires_at);
  assertUserError(await runCli(['sandbox', 'create', '--ttl', 'forever'], { db: d }), /ttl: must be a duration/);
  // The demo of init still works as before for a single user.
  const demo = await json(['init', '--demo'], d);
  assert.ok(demo.group_id && demo.keys.manage_transactions);
});

test('sandbox export to a file or stdout, import from a file or stdin; a cut file is refused with its line, an unreadable one is a usage error', async () => {
  const d = tempDbPath();
  await json(['init', '--demo'], d);
  const sb = await json(['sandbox', 'create', '--demo', '--name', 'to file'], d);
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-sandbox-file-'));
  const file = path.join(dir, 'sb.jsonl');
  const written = await json(['sandbox', 'export', sb.group_id, '--out', file], d);
  assert.equal(written.format_version, 1);
  const text = readFileSync(file, 'utf8');
  assert.equal(written.rows, text.trimEnd().split('\n').length - 2);
  // Without --out the file itself is the output.
  const out = await runCli(['sandbox', 'export', sb.group_id], { db: d });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(JSON.parse(out.stdout.split('\n')[0]!).format, 'payctl-sandbox');
  const both = await runCli(['sandbox', 'export', sb.group_id, '--json'], { db: d });
  assert.equal(both.code, 2);
  assert.equal(JSON.parse(both.stdout).error.type, 'usage_error');
  assert.match(both.stdout, /--json needs --out/);

  const copy = await json(['sandbox', 'import', file, '--name', 'from file'], d);
  assert.equal(copy.name, 'from file');
  assert.equal(copy.imported_from.group_id, sb.group_id);
  assert.equal(copy.rows.transactions, JSON.parse(text.split('\n')[0]!).counts.transactions);
  const human = await runCli(['sandbox', 'import', '-'], { db: d, input: out.stdout });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /rows imported from/);
  assert.deepEqual((await json<Array<{ name: string }>>(['sandbox', 'list'], d)).map((x) => x.name), ['to file', 'from file', 'to file']);

  const cut = path.join(dir, 'cut.jsonl');
  writeFileSync(cut, text.split('\n').slice(0, 10).join('\n') + '\n');
  assertUserError(await runCli(['sandbox', 'import', cut], { db: d }), /without its trailer line: it was cut off/);
  assertUsageError(await runCli(['sandbox', 'import', path.join(dir, 'none.jsonl')], { db: d }), /cannot read/);
  assert.equal((await json<unknown[]>(['sandbox', 'list'], d)).length, 3);
});

test('clock advance --group moves that group only; without --group every group moves', async () => {
  const d = tempDbPath();
  const demo = await json(['init', '--demo'], d);
  const a = await json(['sandbox', 'create', '--demo'], d);
  const b = await json(['sandbox', 'create', '--demo'], d);
  const moved = await json(['clock', 'advance', '31d', '--group', a.group_id], d);
  assert.ok(moved.work['subscription-billing'] >= 1, JSON.stringify(moved.work));
  assert.equal(moved.offset_ms, 31 * DAY);
  assert.equal((await json(['clock', 'show', '--group', b.group_id], d)).offset_ms, 0);
  assert.ok(Math.abs((await json(['clock', 'show'], d)).offset_ms) < 60_000, 'the platform clock did not move');

  // A group's clock never goes back; the platform clock moves every group.
  const back = await runCli(['clock', 'set', '2020-01-01T00:00:00Z', '--group', a.group_id], { db: d });
  assertUserError(back, /set: must not be before/);
  const all = await json(['clock', 'advance', '1d'], d);
  assert.ok(Math.abs(all.offset_ms - DAY) < 60_000);
  const shownA = await json(['clock', 'show', '--group', a.group_id], d);
  const shownDemo = await json(['clock', 'show', '--group', demo.group_id], d);
  assert.ok(Math.abs(Date.parse(shownA.now) - (Date.now() + 32 * DAY)) < 60_000, shownA.now);
  assert.ok(Math.abs(Date.parse(shownDemo.now) - (Date.now() + DAY)) < 60_000, shownDemo.now);
  assertUserError(await runCli(['clock', 'advance', '1d', '--group', '00000000-0000-7000-8000-000000000000'], { db: d }), /group \S+ not found/);
});
