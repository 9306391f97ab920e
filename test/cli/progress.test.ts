// Progress bars: drawn on a terminal (a real pseudo-terminal for the commands, a stream
// that says it is a TTY for the unit), silent when piped and under --json.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli, runCliJson } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';
import { dataDirOf, tempDbPath } from '../helpers/platform.js';
import { ttyProgress } from '../../src/cli/progress.js';

const BAR = /[█░]{5,}/;

function fakeTty(isTTY: boolean) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  Object.assign(out, { isTTY, columns: 100, rows: 30, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return { stream: out as unknown as NodeJS.WriteStream, text: () => text };
}

test('the bar is drawn on a terminal, per label, and ends at 100 %', () => {
  const t = fakeTty(true);
  const progress = ttyProgress({ stream: t.stream })!;
  assert.ok(progress);
  progress(0, 10, 'Seeding transactions');
  progress(10, 10, 'Seeding transactions');
  progress(0, 1, 'Recounting report totals');
  progress(1, 1, 'Recounting report totals');
  assert.match(t.text(), /Seeding transactions .*100% \| 10\/10/);
  assert.match(t.text(), /Recounting report totals .*100% \| 1\/1/);
  assert.match(t.text(), BAR);
});

test('no bar when the stream is not a terminal, under --json, or for small work', () => {
  assert.equal(ttyProgress({ stream: fakeTty(false).stream }), undefined);
  assert.equal(ttyProgress({ stream: fakeTty(true).stream, json: true }), undefined);
  const t = fakeTty(true);
  const small = ttyProgress({ stream: t.stream, minTotal: 50 })!;
  small(0, 10, 'Rendering invoice lines');
  small(10, 10, 'Rendering invoice lines');
  assert.equal(t.text(), '');
});

let db: string;
let demo: { group_id: string; product_ids: string[]; partner_ids: string[]; processor_id: string };
before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
});

test('payctl dev seed: a bar on a terminal, none under --json there, none when piped', async () => {
  const tty = await runInPty(['dev', 'seed', '--transactions', '3000', '--months', '1'], { db });
  assert.equal(tty.code, 0, tty.output);
  assert.match(tty.output, /Seeding transactions .*100% \| 3000\/3000/);
  assert.match(tty.output, BAR);
  const json = await runInPty(['dev', 'seed', '--transactions', '3000', '--months', '1', '--json'], { db });
  assert.equal(json.code, 0, json.output);
  assert.doesNotMatch(json.output, BAR);
  assert.equal(JSON.parse(json.output.slice(json.output.indexOf('{'))).transactions, 3000);
  const piped = await runCli(['dev', 'seed', '--transactions', '3000', '--months', '1'], { db });
  assert.equal(piped.code, 0, piped.stderr);
  assert.doesNotMatch(piped.stderr + piped.stdout, BAR);
  assert.equal(piped.stderr, '');
});

test('payctl clock advance with work due: a bar on a terminal, none when piped', async () => {
  const tty = await runInPty(['clock', 'advance', '1d'], { db });
  assert.equal(tty.code, 0, tty.output);
  assert.match(tty.output, /settling .*100%/);
  const piped = await runCli(['clock', 'advance', '1d'], { db });
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(piped.stderr, '');
});

test('payctl report --output csv over many rows: a bar on the terminal, none when piped', async () => {
  const tty = await runInPty(['report', '--output', 'csv', '--start', '2000-01-01'], { db });
  assert.equal(tty.code, 0);
  assert.match(tty.output, /Exporting .*100%/);
  const piped = await runCli(['report', '--output', 'csv', '--start', '2000-01-01'], { db });
  assert.equal(piped.stderr, '');
  assert.ok(piped.stdout.split('\r\n').length > 6000);
});

test('payctl invoice pdf of many lines: a bar on a terminal, none when piped or under --json', async () => {
  const lines = Array.from({ length: 60 }, (_, i) => ['--product', `${demo.product_ids[i % demo.product_ids.length]}:${1 + (i % 3)}`]).flat();
  const invoice = await runCliJson<{ id: string }>(
    ['invoice', 'create', '--group', demo.group_id, '--partner', demo.partner_ids[0]!, '--processor', demo.processor_id, '--due-date', '2030-01-31', ...lines],
    { db },
  );
  const dir = dataDirOf(db);
  const tty = await runInPty(['invoice', 'pdf', invoice.id, '--group', demo.group_id, '-o', join(dir, 'tty.pdf')], { db });
  assert.equal(tty.code, 0, tty.output);
  assert.match(tty.output, /Rendering invoice lines .*100% \| 60\/60/);
  const json = await runInPty(['invoice', 'pdf', invoice.id, '--group', demo.group_id, '-o', join(dir, 'json.pdf'), '--json'], { db });
  assert.equal(json.code, 0, json.output);
  assert.doesNotMatch(json.output, BAR);
  const piped = await runCli(['invoice', 'pdf', invoice.id, '--group', demo.group_id, '-o', join(dir, 'piped.pdf')], { db });
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(piped.stderr, '');
  assert.match(piped.stdout, /Wrote .*piped\.pdf/);
});
