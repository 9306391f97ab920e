// Tables fit a width: the least important columns go first, then cells that may be cut
// get "…"; ids are never cut; with no width (a pipe, --wide) nothing changes.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitColumns, truncateCell, type Column } from '../../src/render/table.js';

const ID = '01a217f9-3c4d-76ae-92af-f00611ec3ef6';
const cols: Column[] = [{ title: 'id', priority: 3 }, { title: 'description', truncate: 10, priority: 2 }, { title: 'created', priority: 1 }];
const cells = [[ID, 'A long description of the thing that was sold', '2026-11-26 13:08 UTC']];
const width = (f: ReturnType<typeof fitColumns>) => 1 + f.widths.reduce((s, w) => s + w + 3, 0);

test('no width, or enough of it: every column at its natural width', () => {
  assert.deepEqual(fitColumns(cols, cells, undefined), { shown: [0, 1, 2], widths: [36, 45, 20] });
  assert.deepEqual(fitColumns(cols, cells, 200).shown, [0, 1, 2]);
});

test('too narrow: cuttable cells are shortened first, then the least important columns dropped; ids stay whole', () => {
  const at80 = fitColumns(cols, cells, 80);
  assert.deepEqual(at80.shown, [0, 1, 2]);
  assert.equal(at80.widths[0], 36);
  assert.ok(at80.widths[1]! < 45 && at80.widths[1]! >= 10, 'the description is cut, to no less than 10');
  assert.ok(width(at80) <= 80, `${width(at80)}`);
  // At 70 the three do not fit even with the description at 10: the least important column goes.
  const at70 = fitColumns(cols, cells, 70);
  assert.deepEqual(at70.shown, [0, 1]);
  assert.equal(width(at70), 70);
  // Narrower than an id: the most important column alone.
  assert.deepEqual(fitColumns(cols, cells, 30).shown, [0]);
});

test('default priority: earlier columns are kept longer', () => {
  const plain: Column[] = [{ title: 'a' }, { title: 'b' }, { title: 'c' }];
  const row = [['x'.repeat(30), 'y'.repeat(30), 'z'.repeat(30)]];
  assert.deepEqual(fitColumns(plain, row, 70).shown, [0, 1]);
});

test('truncateCell ends a cut cell with …, within the width, and ignores colour codes', () => {
  assert.equal(truncateCell('abcdef', 4), 'abc…');
  assert.equal(truncateCell('abc', 4), 'abc');
  assert.equal(truncateCell('\u001B[32mabcdef\u001B[39m', 10), '\u001B[32mabcdef\u001B[39m');
  assert.equal(truncateCell('\u001B[32mabcdef\u001B[39m', 4), 'abc…');
});

test('wide characters (CJK, fullwidth, emoji) take two columns when fitting and cutting', () => {
  const name = '東京商事株式会社'; // 8 characters, 16 columns
  assert.deepEqual(fitColumns([{ title: 'name' }], [[name]], undefined).widths, [16]);
  const cjk: Column[] = [{ title: 'id' }, { title: 'name', truncate: 6 }];
  const fitted = fitColumns(cjk, [[ID, name]], 50);
  assert.ok(width(fitted) <= 50, `${width(fitted)}`);
  assert.deepEqual(fitted.widths, [36, 7]);
  // Cut to 7 columns: three wide characters (6) and the "…" (1); never half a character.
  assert.equal(truncateCell(name, 7), '東京商…');
  assert.equal(truncateCell(name, 6), '東京…');
  assert.equal(truncateCell(name, 16), name);
  assert.equal(truncateCell('ＡＢＣＤ', 5), 'ＡＢ…');
  // An emoji sequence is one grapheme of two columns: kept or dropped whole.
  assert.equal(truncateCell('👩‍💻👩‍💻👩‍💻', 4), '👩‍💻…');
});
