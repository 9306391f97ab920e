// payctl report --summary: the printed chart and breakdowns, --output csv|json and
// --json carrying the same numbers, --chart out.svg|png, filters, and usage errors.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, runCliJson } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { formatMoney } from '../../src/domain/money.js';

let db: string;
let demo: { group_id: string; keys: Record<string, string> };
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { db, env });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Bucket = { key: string; count: number; amount: number };
type All = { start: string; end: string; total_count: number; total_amount: number; day: Bucket[]; status: Bucket[]; brand: Bucket[]; payment_method: Bucket[]; source: Bucket[] };

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
  await runCliJson(['dev', 'seed', '--transactions', '2000', '--months', '2'], { db });
});

test('--json and --output json carry the same numbers; the breakdowns add up to the totals', async () => {
  const all = await runCliJson<All>(['report', '--summary', '--start', '2026-01-01'], { db });
  assert.ok(all.total_count >= 2000);
  for (const dim of ['day', 'status', 'brand', 'payment_method', 'source'] as const) {
    assert.equal(all[dim].reduce((n, b) => n + b.count, 0), all.total_count, dim);
    assert.equal(all[dim].reduce((n, b) => n + b.amount, 0), all.total_amount, dim);
  }
  const out = await cli(['report', '--summary', '--start', '2026-01-01', '--output', 'json']);
  assert.equal(out.code, 0, out.stderr);
  const exported = JSON.parse(out.stdout) as All & { day: Array<{ day: string; count: number; amount: number }> };
  assert.deepEqual(exported.status, all.status);
  assert.equal(exported.total_amount, all.total_amount);
  // The export lists every day of the window, days without transactions at 0.
  const days = (Date.parse(all.end.slice(0, 10)) - Date.parse(all.start.slice(0, 10))) / 86_400_000 + 1;
  assert.equal(exported.day.length, days);
  assert.deepEqual(exported.day.filter((d) => d.count > 0), all.day.map((b) => ({ day: b.key, count: b.count, amount: b.amount })));
});

test('the printed summary shows the charts and each breakdown with count, amount and share bar; no colour when piped', async () => {
  const all = await runCliJson<All>(['report', '--summary'], { db });
  const r = await cli(['report', '--summary'], { COLUMNS: '100', NO_COLOR: '' });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /\u001b\[/, 'not a terminal: no escape codes');
  assert.match(r.stdout, /Net amount per (\d+ )?days?/);
  assert.match(r.stdout, /Count per (\d+ )?days?/);
  assert.match(r.stdout, /[▁▂▃▄▅▆▇█]/);
  for (const title of ['By status', 'By brand', 'By payment method', 'By source']) assert.ok(r.stdout.includes(title), title);
  for (const b of all.status) {
    const line = r.stdout.split('\n').find((l) => l.trimStart().startsWith(`${b.key} `));
    assert.ok(line, b.key);
    assert.match(line, new RegExp(`${b.count.toLocaleString('en-US')}\\s+\\${formatMoney(b.amount)}`));
    assert.match(line, new RegExp(`${((b.count / all.total_count) * 100).toFixed(1)}%$`));
  }
  // Scaled to the terminal width: no line wider than COLUMNS.
  for (const line of r.stdout.split('\n')) assert.ok([...line].length <= 100, line);
  const narrow = await cli(['report', '--summary'], { COLUMNS: '60' });
  for (const line of narrow.stdout.split('\n')) assert.ok([...line].length <= 60, line);
});

test('--output csv has a row per day and breakdown key with the same numbers', async () => {
  const all = await runCliJson<All>(['report', '--summary', '--brand', 'Visa'], { db });
  const r = await cli(['report', '--summary', '--brand', 'Visa', '--output', 'csv']);
  assert.equal(r.code, 0, r.stderr);
  const rows = r.stdout.trim().split('\r\n').map((l) => l.split(','));
  assert.deepEqual(rows[0], ['dimension', 'key', 'count', 'amount', 'share']);
  const statusRows = rows.filter((x) => x[0] === 'status').map(([, key, count, amount]) => ({ key, count: Number(count), amount: Number(amount) }));
  assert.deepEqual(statusRows, all.status);
  assert.deepEqual(rows.find((x) => x[0] === 'total')!.slice(2, 4), [String(all.total_count), String(all.total_amount)]);
  // The filter applies: only Visa.
  assert.deepEqual(rows.filter((x) => x[0] === 'brand').map((x) => x[1]), ['Visa']);
});

test('--chart writes the daily-volume chart as SVG or PNG', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'payctl-chart-'));
  const all = await runCliJson<All>(['report', '--summary'], { db });
  const svgFile = path.join(dir, 'volume.svg');
  const r = await cli(['report', '--summary', '--chart', svgFile]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /wrote .*volume\.svg/);
  const svg = await readFile(svgFile, 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  // One count bar per day with transactions, titled with its day.
  for (const b of all.day) assert.ok(svg.includes(`<title>${b.key}: ${b.count.toLocaleString('en-US')}</title>`), b.key);
  const pngFile = path.join(dir, 'volume.png');
  const p = await cli(['report', '--summary', '--chart', pngFile, '--json']);
  assert.equal(p.code, 0, p.stderr);
  const png = await readFile(pngFile);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(png.readUInt32BE(16) >= 960 && png.readUInt32BE(20) >= 400, 'IHDR width and height');
});

test('usage and user errors: exit 2 for flags, exit 1 naming the field', async () => {
  const pdf = await cli(['report', '--summary', '--chart', 'x.pdf']);
  assert.equal(pdf.code, 2);
  assert.match(pdf.stderr, /--chart x\.pdf: the file name must end in \.svg or \.png/);
  const noSummary = await cli(['report', '--chart', 'x.svg']);
  assert.equal(noSummary.code, 2);
  assert.match(noSummary.stderr, /--summary/);
  const withType = await cli(['report', '--summary', '--type', 'count']);
  assert.equal(withType.code, 2);
  const bad = await cli(['report', '--summary', '--status', 'nope']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Expected --status=nope to be one of: settled/);
  const unwritable = await cli(['report', '--summary', '--chart', '/nonexistent-dir/x.svg']);
  assert.equal(unwritable.code, 1);
  assert.match(unwritable.stderr, /--chart \/nonexistent-dir\/x\.svg: cannot write the file \(ENOENT\)/);
});
