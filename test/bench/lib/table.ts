// The printed table (also pasted into docs/benchmarks/full-run.md): one line per figure, the median
// first and the range of the repeated runs after it.
import type { Outcome, Row } from './outcome.js';
import type { Summary } from './stats.js';

function num(x: number): string {
  if (!Number.isFinite(x)) return '—';
  if (Number.isInteger(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

export function cell(s: Summary | undefined, unit = ''): string {
  if (!s || s.n === 0) return '';
  const u = unit && unit !== '/s' ? ` ${unit}` : '';
  return s.n === 1 || s.min === s.max ? `${num(s.median)}${u}` : `${num(s.median)}${u} (${num(s.min)}–${num(s.max)})`;
}

const verdict = (r: Row) => (r.met === undefined ? '' : r.met ? 'met' : 'MISSED');

export function tableRows(outcomes: Outcome[]): string[][] {
  const rows: string[][] = [['scenario', 'measure', 'payctl', 'floor', 'ratio', 'target', '']];
  for (const o of outcomes) {
    if (o.status !== 'ok') {
      rows.push([o.title, o.status, o.note ?? '', '', '', '', '']);
      continue;
    }
    let last = '';
    for (const r of o.rows) {
      rows.push([
        r.scenario === last ? '' : r.scenario,
        r.measure,
        cell(r.payctl, r.unit),
        cell(r.floor, r.unit),
        r.ratio ? cell(r.ratio, '×') : '',
        r.target ?? '',
        verdict(r),
      ]);
      last = r.scenario;
    }
  }
  return rows;
}

export function textTable(outcomes: Outcome[]): string {
  const rows = tableRows(outcomes);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((v, c) => v.padEnd(widths[c]!)).join('  ').trimEnd()).join('\n');
}

export function markdownTable(outcomes: Outcome[]): string {
  const rows = tableRows(outcomes);
  const esc = (v: string) => v.replace(/\|/g, '\\|');
  return [rows[0]!, rows[0]!.map(() => '---'), ...rows.slice(1)].map((r) => `| ${r.map(esc).join(' | ')} |`).join('\n');
}
