// payctl report (table, json, csv, --json) and payctl dev seed, spawned as the real
// binary over a temporary demo database with seeded transactions. Piped stdout is not
// a TTY, so the report browser never opens here (it has its own tests).
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliJson, type CliResult, assertUserError, assertUsageError } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { reportTableSchema } from '../../src/domain/reporting.js';
import { CSV_HEAD } from '../../src/render/report.js';

let db: string;
let demo: { group_id: string; linked_account_id: string };

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
  // The platform clock on to the next noon UTC: the tests add up counts read by separate
  // commands, and a settlement cutoff (00:00 UTC) passed between them would move rows.
  const noon = new Date();
  noon.setUTCHours(12, 0, 0, 0);
  if (noon.getTime() <= Date.now()) noon.setUTCDate(noon.getUTCDate() + 1);
  assert.equal((await runCli(['clock', 'set', noon.toISOString()], { db })).code, 0);
  // 3,000 rows over 8 months: about 2,250 in the default 6-month window.
  const seeded = await runCliJson(['dev', 'seed', '--transactions', '3000'], { db });
  assert.equal(seeded.transactions, 3000);
  assert.equal(seeded.group_id, demo.group_id);
});

const cli = (args: string[]) => runCli(args, { db });
const json = <T = any>(args: string[]) => runCliJson<T>(args, { db }); // eslint-disable-line @typescript-eslint/no-explicit-any

/** RFC 4180 lines (the fields used here hold no quoted line breaks). */
function parseCsv(text: string): string[][] {
  return text
    .split('\r\n')
    .filter((l) => l !== '')
    .map((l) => {
      const out: string[] = [];
      let cur = '';
      let quoted = false;
      for (let i = 0; i < l.length; i++) {
        const c = l[i]!;
        if (quoted) {
          if (c === '"' && l[i + 1] === '"') (cur += '"'), i++;
          else if (c === '"') quoted = false;
          else cur += c;
        } else if (c === '"') quoted = true;
        else if (c === ',') out.push(cur), (cur = '');
        else cur += c;
      }
      out.push(cur);
      return out;
    });
}

test('--type count and --type amount_sum with --json print the API objects; filters are repeatable', async () => {
  const all = await json<{ total_count: number }>(['report', '--type', 'count']);
  assert.ok(all.total_count > 1500 && all.total_count < 3000, String(all.total_count));
  const settled = await json<{ total_count: number }>(['report', '--type', 'count', '--status', 'settled']);
  const pending = await json<{ total_count: number }>(['report', '--type', 'count', '--status', 'pending']);
  const both = await json<{ total_count: number }>(['report', '--type', 'count', '--status', 'settled', '--status', 'pending']);
  const comma = await json<{ total_count: number }>(['report', '--type', 'count', '--status', 'settled,pending']);
  assert.ok(settled.total_count > 0 && pending.total_count > 0);
  assert.equal(both.total_count, settled.total_count + pending.total_count);
  assert.deepEqual(comma, both);
  const sum = await json<Record<string, number>>(['report', '--type', 'amount_sum', '--brand', 'Visa', '--start', '2000-01-01']);
  assert.deepEqual(Object.keys(sum), ['total_amount']);
  assert.ok(sum.total_amount! > 0);
  // The explicit group and linked account give the same answer as the defaults.
  const explicit = await json(['report', '--type', 'count', '--group', demo.group_id, '--linked-account', demo.linked_account_id]);
  assert.deepEqual(explicit, all);
});

test('--output table (the default off a terminal): a cli-table3 table and where the page is', async () => {
  const r = await cli(['report', '--status', 'settled', '--limit', '5', '--wide']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.match(lines[1]!, /date\s+│\s+status\s+│\s+amount\s+│\s+method\s+│\s+source\s+│\s+customer\s+│\s+id/);
  const rows = lines.filter((l) => /│ \d{4}-\d\d-\d\d /.test(l));
  assert.equal(rows.length, 5);
  for (const row of rows) assert.match(row, /│ settled\s+│ \$[\d,]+\.\d\d\s+│/);
  assert.match(r.stdout, /Showing 1–5 of \d+; more with --offset 5, every row with --output csv\./);
  const count = await cli(['report', '--type', 'count', '--status', 'declined']);
  assert.match(count.stdout, /^total_count\s+\d+\n$/);
  const sum = await cli(['report', '--type', 'amount_sum']);
  assert.match(sum.stdout, /^total_amount\s+\$[\d,]+\.\d\d \(\d+ cents\)\n$/);
});

test('--output json prints the table object; --json the same', async () => {
  const r = await cli(['report', '--output', 'json', '--limit', '3', '--offset', '2', '--payment-method', 'card']);
  assert.equal(r.code, 0, r.stderr);
  const body = reportTableSchema.parse(JSON.parse(r.stdout));
  assert.equal(body.items.length, 3);
  assert.ok(body.items.every((t) => t.payment_method === 'card' && t.payment_details.card));
  const viaFlag = await json(['report', '--limit', '3', '--offset', '2', '--payment-method', 'card']);
  assert.deepEqual(viaFlag, body);
});

test('--output csv streams every matching row (past the 1,000-row page), newest first', async () => {
  const { total_count } = await json<{ total_count: number }>(['report', '--type', 'count', '--source', 'api,virtual_terminal']);
  assert.ok(total_count > 1000, 'more than one page');
  const r = await cli(['report', '--output', 'csv', '--source', 'api', '--source', 'virtual_terminal']);
  assert.equal(r.code, 0, r.stderr);
  const [head, ...rows] = parseCsv(r.stdout);
  assert.deepEqual(head, CSV_HEAD);
  assert.equal(rows.length, total_count);
  const col = (name: string) => CSV_HEAD.indexOf(name);
  assert.ok(rows.every((row) => ['api', 'virtual_terminal'].includes(row[col('source')]!)));
  assert.equal(new Set(rows.map((row) => row[col('id')])).size, rows.length, 'no row twice');
  const times = rows.map((row) => row[col('created_at')]!);
  assert.deepEqual(times, [...times].sort().reverse());
  assert.ok(rows.every((row) => /^\d+$/.test(row[col('requested_amount')]!)));
  // --limit caps the export (and may pass the API's page limit).
  const capped = await cli(['report', '--output', 'csv', '--limit', '1200', '--offset', '10']);
  const cappedRows = parseCsv(capped.stdout).slice(1);
  assert.equal(cappedRows.length, 1200);
  const all = parseCsv((await cli(['report', '--output', 'csv'])).stdout).slice(1);
  assert.deepEqual(cappedRows.map((row) => row[0]), all.slice(10, 1210).map((row) => row[0]));
});


test('bad filter values are one-line user errors naming the value', async () => {
  // A value outside a filter's fixed set is a usage error naming the set.
  assertUsageError(await cli(['report', '--type', 'count', '--status', 'setled']), /Expected --status=setled to be one of: settled, voided/);
  assertUsageError(await cli(['report', '--type', 'count', '--brand', 'Visa,Vissa']), /Expected --brand=Vissa to be one of: Visa, Mastercard/);
  assertUserError(await cli(['report', '--customer', 'nope']), /--customer: "nope" is not a UUID/);
  assertUserError(await cli(['report', '--limit', '5000']), /limit: must be at most 1000/);
  assertUserError(await cli(['report', '--type', 'count', '--linked-account', '00000000-0000-7000-8000-000000000000']), /linked account not found/);
  const r = await cli(['report', '--type', 'count', '--customer', 'nope', '--json']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.stdout).error.type, 'validation_error');
});

test('dev seed adds rows to the group and reports its speed', async () => {
  const before = await json<{ total_count: number }>(['report', '--type', 'count', '--start', '2000-01-01']);
  const r = await json(['dev', 'seed', '--transactions', '250', '--months', '1', '--group', demo.group_id]);
  assert.equal(r.transactions, 250);
  assert.ok(r.elapsed_ms >= 0 && r.rows_per_second > 0);
  const after = await json<{ total_count: number }>(['report', '--type', 'count', '--start', '2000-01-01']);
  assert.equal(after.total_count, before.total_count + 250);
  const human = await cli(['dev', 'seed', '--transactions', '10']);
  assert.match(human.stdout, /transactions\s+10\n/);
  assert.match(human.stdout, /took\s+[\d.]+ s \([\d,]+ rows\/s\)/);
  assertUserError(await cli(['dev', 'seed', '--transactions', '10', '--group', '00000000-0000-7000-8000-000000000000']), /group \S+ not found/);
});
