// Human output: aligned tables (cli-table3) and key/value blocks.
//
// Tables fit the terminal (docs/decisions.md#cli-conventions). A table wider than the width
// drops its least important columns (the last ones, unless a column says its
// `priority`), then shortens the columns that may be cut (`truncate`: names,
// descriptions, URLs) with "…"; ids are never cut, they are what one copies. A note
// under the table names the hidden columns. `--wide` (every command) shows everything.
// The width is the terminal's; output to a pipe is not fitted unless $COLUMNS says a
// width (tests set it), so `payctl … | grep` sees whole rows; --json/--csv never come here.
import type TableClass from 'cli-table3';
import { createRequire } from 'node:module';
import stringWidth from 'string-width';
import { stripVTControlCharacters } from 'node:util';

// cli-table3 (and its colour package) is required when a table is drawn, not when a
// command that may draw one starts: `--json` answers never load it.
const requireTable = (): typeof TableClass => createRequire(import.meta.url)('cli-table3') as typeof TableClass;

// Display width is string-width's, the measure cli-table3 pads cells with: colour codes
// take no room, East Asian wide and fullwidth characters and emoji take two columns.
// A table measured any other way would fit by our count and overflow by the terminal's.

// Made when a cell is first cut: creating a segmenter loads ICU's break rules, a cost no
// command should pay at start.
let graphemes: Intl.Segmenter | undefined;

export interface Column {
  title: string;
  /** Higher is kept longer; default: the earlier a column, the more important. */
  priority?: number;
  /** May be shortened to this many characters (with "…") when the table does not fit. */
  truncate?: number;
}
export type Head = Array<string | Column>;

/** The width tables are fitted to: undefined for no limit. Set by the command base for --wide. */
const layout: { wide: boolean } = { wide: false };
export function showWideTables(wide: boolean): void {
  layout.wide = wide;
}

export function tableWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (layout.wide) return undefined;
  if (stream.isTTY && stream.columns && stream.columns > 0) return stream.columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined;
}

/** A cell cut to `width` display columns, ending in "…" when cut (a wide character is never split). */
export function truncateCell(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  // Whole graphemes: an emoji sequence or a letter with its accent is kept or cut as one.
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(stripVTControlCharacters(text))) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

export interface Fitted {
  /** Indexes of the columns shown, in table order. */
  shown: number[];
  /** The width of each shown column's cells. */
  widths: number[];
}

/** Which columns to show, and how wide, for a table of `cells` to fit `width` (cli-table3 adds 3 per column and 1). */
export function fitColumns(cols: Column[], cells: string[][], width: number | undefined): Fitted {
  const natural = cols.map((c, i) => Math.max(stringWidth(c.title), ...cells.map((r) => stringWidth(r[i] ?? ''))));
  const all = cols.map((_, i) => i);
  const total = (idx: number[], w: (i: number) => number) => 1 + idx.reduce((s, i) => s + w(i) + 3, 0);
  if (width === undefined || total(all, (i) => natural[i]!) <= width) return { shown: all, widths: natural };
  const min = (i: number) => (cols[i]!.truncate !== undefined ? Math.min(natural[i]!, Math.max(cols[i]!.truncate!, stringWidth(cols[i]!.title))) : natural[i]!);
  const priority = (i: number) => cols[i]!.priority ?? -i;
  // Drop the least important columns until the rest fit at their narrowest.
  const shown = [...all];
  const byImportance = [...all].sort((a, b) => priority(a) - priority(b));
  for (const i of byImportance) {
    if (shown.length <= 1 || total(shown, min) <= width) break;
    shown.splice(shown.indexOf(i), 1);
  }
  // Then cut the widest column that may be cut, one character at a time.
  const w = new Map(shown.map((i) => [i, natural[i]!]));
  const lower = (i: number) => (shown.length === 1 ? Math.max(1, width - 4) : min(i));
  while (total(shown, (i) => w.get(i)!) > width) {
    const cut = shown.filter((i) => w.get(i)! > Math.min(lower(i), natural[i]!)).sort((a, b) => w.get(b)! - w.get(a)!)[0];
    if (cut === undefined) break;
    w.set(cut, w.get(cut)! - 1);
  }
  return { shown, widths: shown.map((i) => w.get(i)!) };
}

export function table(head: Head, rows: Array<Array<string | number>>): string {
  const cols: Column[] = head.map((h) => (typeof h === 'string' ? { title: h } : h));
  const cells = rows.map((row) => row.map((c) => String(c)));
  const { shown, widths } = fitColumns(cols, cells, tableWidth());
  const Table = requireTable();
  const t = new Table({
    head: shown.map((i) => cols[i]!.title),
    style: { head: process.stdout.isTTY && !process.env.NO_COLOR ? ['cyan'] : [], border: [] },
  });
  for (const row of cells) t.push(shown.map((i, k) => truncateCell(row[i] ?? '', widths[k]!)));
  const hidden = cols.filter((_, i) => !shown.includes(i)).map((c) => c.title);
  const note = hidden.length ? `(${hidden.length} column${hidden.length > 1 ? 's' : ''} hidden to fit the terminal: ${hidden.join(', ')}; --wide shows all)` : '';
  return note ? `${t.toString()}\n${wrap(note, tableWidth())}` : t.toString();
}

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && stringWidth(`${line} ${word}`) > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

export function keyValues(pairs: Array<[string, string | number | boolean | null | undefined]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(width)}  ${v ?? ''}`).join('\n');
}
