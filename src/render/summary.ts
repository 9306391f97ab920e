// The reporting summary for people: a column chart of daily volume (net amount and
// count per day, in block characters, as wide as the terminal) and breakdowns by
// status, brand, payment method and source (count, amount, share of the count as a
// bar). The same numbers go to CSV and JSON, and the daily chart to SVG.
import { exactSum, type ExactInt } from '../domain/money.js';
import { money } from './format.js';
import type { ReportSummaryAll, SummaryDimension } from '../services/reporting/summary.js';
import type { SummaryBucket } from '../domain/reporting-summary.js';
import { paint, statusTone, type ColourTarget } from './colour.js';
import type { CsvValue } from './csv.js';

const DAY = 86_400_000;
/** Beyond this many days the chart shows only days with transactions (no zero fill). */
const MAX_FILLED_DAYS = 3700;
const EIGHTHS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const BAR_EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

export interface DayPoint {
  day: string;
  count: number;
  amount: ExactInt;
}

/** Every UTC day of the window, days without transactions at 0. */
export function dailySeries(s: { start: string; end: string; day: SummaryBucket[] }): DayPoint[] {
  const byDay = new Map(s.day.map((b) => [b.key, b]));
  const first = Date.parse(`${s.start.slice(0, 10)}T00:00:00Z`);
  const last = Date.parse(`${s.end.slice(0, 10)}T00:00:00Z`);
  if ((last - first) / DAY > MAX_FILLED_DAYS) return s.day.map((b) => ({ day: b.key, count: b.count, amount: b.amount }));
  const out: DayPoint[] = [];
  for (let t = first; t <= last; t += DAY) {
    const day = new Date(t).toISOString().slice(0, 10);
    const b = byDay.get(day);
    out.push({ day, count: b?.count ?? 0, amount: b?.amount ?? 0 });
  }
  return out;
}

/** Consecutive days summed into at most `columns` columns of equal span. */
export function bucketDays(days: DayPoint[], columns: number): { span: number; points: DayPoint[] } {
  const span = Math.max(1, Math.ceil(days.length / Math.max(1, columns)));
  const points: DayPoint[] = [];
  for (let i = 0; i < days.length; i += span) {
    const part = days.slice(i, i + span);
    points.push({ day: part[0]!.day, count: part.reduce((n, d) => n + d.count, 0), amount: exactSum(part.map((d) => d.amount)) });
  }
  return { span, points };
}

/** Rows of block characters, `height` high, one column per value (negative values as 0). */
export function columnChart(values: number[], height: number): string[] {
  const max = Math.max(0, ...values);
  const rows: string[] = [];
  for (let r = height - 1; r >= 0; r--) {
    rows.push(
      values
        .map((v) => {
          const eighths = max === 0 ? 0 : Math.round((Math.max(0, v) / max) * height * 8);
          return EIGHTHS[Math.max(0, Math.min(8, eighths - r * 8))]!;
        })
        .join(''),
    );
  }
  return rows;
}

/** A horizontal bar `fraction` of `width` cells, in eighths. */
export function shareBar(fraction: number, width: number): string {
  const eighths = Math.round(Math.max(0, Math.min(1, fraction)) * width * 8);
  return '█'.repeat(Math.floor(eighths / 8)) + BAR_EIGHTHS[eighths % 8]!;
}

export const DIMENSION_TITLES: Record<SummaryDimension, string> = {
  status: 'By status',
  brand: 'By brand',
  payment_method: 'By payment method',
  source: 'By source',
};

/** A breakdown key for people ("" is a bank account, no brand). */
export const keyText = (dim: SummaryDimension, key: string) => (dim === 'brand' && key === '' ? '(bank account)' : key);

/** A titled column chart with its maximum on the y axis, the axis `pad` characters in. */
function chartBlock(title: string, values: number[], fmt: (n: number) => string, pad: number): string[] {
  const max = Math.max(0, ...values);
  const rows = columnChart(values, 6);
  return [title, ...rows.map((row, i) => `${(i === 0 ? fmt(max) : '').padStart(pad)} │${row}`), `${''.padStart(pad)} └${'─'.repeat(values.length)}`];
}

export interface SummaryTextOptions {
  width: number;
  stream?: ColourTarget;
}

export function summaryText(s: ReportSummaryAll, opts: SummaryTextOptions): string {
  const width = Math.max(40, opts.width);
  const lines: string[] = [];
  lines.push(`${s.start.slice(0, 10)} … ${s.end.slice(0, 10)}`, `${s.total_count.toLocaleString('en-US')} transactions, net ${money(s.total_amount)}`);
  const days = dailySeries(s);
  if (days.length > 0 && s.total_count > 0) {
    // Wide enough for any column's label: no column exceeds the window's total.
    const pad = Math.max(money(s.total_amount).length, s.total_count.toLocaleString('en-US').length);
    const { span, points } = bucketDays(days, width - pad - 2);
    const per = span === 1 ? 'per day' : `per ${span} days`;
    lines.push('');
    lines.push(...chartBlock(`Net amount ${per}`, points.map((p) => Number(p.amount)), (n) => money(n), pad));
    lines.push(...chartBlock(`Count ${per}`, points.map((p) => p.count), (n) => n.toLocaleString('en-US'), pad));
    const first = points[0]!.day;
    const last = points[points.length - 1]!.day;
    const room = points.length - first.length - last.length;
    lines.push(`${' '.repeat(pad + 2)}${first}${room >= 1 ? ' '.repeat(room) + last : ''}`);
  }
  for (const dim of Object.keys(DIMENSION_TITLES) as SummaryDimension[]) {
    const rows = s[dim];
    if (rows.length === 0) continue;
    lines.push('', DIMENSION_TITLES[dim]);
    const keyW = Math.max(...rows.map((r) => keyText(dim, r.key).length));
    const countW = Math.max(...rows.map((r) => r.count.toLocaleString('en-US').length));
    const amountW = Math.max(...rows.map((r) => money(r.amount).length));
    const barW = Math.max(4, Math.min(40, width - keyW - countW - amountW - 15));
    for (const r of [...rows].sort((a, b) => b.count - a.count)) {
      const share = s.total_count === 0 ? 0 : r.count / s.total_count;
      const key = keyText(dim, r.key).padEnd(keyW);
      const shown = dim === 'status' ? paint(key, statusTone(r.key), opts.stream) : key;
      lines.push(
        `  ${shown}  ${r.count.toLocaleString('en-US').padStart(countW)}  ${money(r.amount).padStart(amountW)}  ${shareBar(share, barW).padEnd(barW)} ${(share * 100).toFixed(1).padStart(5)}%`,
      );
    }
  }
  return lines.join('\n');
}

/** CSV of the same numbers: one row per day and per breakdown key. */
export const SUMMARY_CSV_HEAD = ['dimension', 'key', 'count', 'amount', 'share'];

export function summaryCsvRows(s: ReportSummaryAll): CsvValue[][] {
  const share = (n: number) => (s.total_count === 0 ? 0 : Number((n / s.total_count).toFixed(6)));
  const rows: CsvValue[][] = dailySeries(s).map((d) => ['day', d.day, d.count, d.amount, share(d.count)]);
  for (const dim of Object.keys(DIMENSION_TITLES) as SummaryDimension[]) {
    for (const r of s[dim]) rows.push([dim, r.key, r.count, r.amount, share(r.count)]);
  }
  rows.push(['total', '', s.total_count, s.total_amount, s.total_count === 0 ? 0 : 1]);
  return rows;
}

/** The JSON export: the window, totals, every day (zero days included) and each breakdown. */
export function summaryJson(s: ReportSummaryAll) {
  return { ...s, day: dailySeries(s) };
}

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The daily-volume chart as SVG: net amount and count per day, one bar each, with axes and labels. */
export function dailyChartSvg(s: ReportSummaryAll, opts: { width?: number; title?: string } = {}): string {
  const days = dailySeries(s);
  const W = opts.width ?? 960;
  const panelH = 180;
  const left = 90;
  const right = 20;
  const plotW = W - left - right;
  const H = 60 + panelH * 2 + 70;
  const bw = days.length ? plotW / days.length : plotW;
  const font = 'font-family="DejaVu Sans, Arial, Helvetica, sans-serif"';
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`);
  parts.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  const title = opts.title ?? `Daily volume ${s.start.slice(0, 10)} – ${s.end.slice(0, 10)}: ${s.total_count.toLocaleString('en-US')} transactions, net ${money(s.total_amount)}`;
  parts.push(`<text x="${left}" y="28" ${font} font-size="16" fill="#111">${esc(title)}</text>`);
  const panel = (top: number, label: string, values: number[], fmt: (n: number) => string, colour: string) => {
    const max = Math.max(0, ...values);
    parts.push(`<text x="${left}" y="${top - 6}" ${font} font-size="12" fill="#444">${esc(label)}</text>`);
    parts.push(`<line x1="${left}" y1="${top + panelH}" x2="${left + plotW}" y2="${top + panelH}" stroke="#888"/>`);
    parts.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${top + panelH}" stroke="#888"/>`);
    parts.push(`<text x="${left - 6}" y="${top + 10}" ${font} font-size="11" fill="#444" text-anchor="end">${esc(fmt(max))}</text>`);
    parts.push(`<text x="${left - 6}" y="${top + panelH}" ${font} font-size="11" fill="#444" text-anchor="end">0</text>`);
    values.forEach((v, i) => {
      const h = max === 0 ? 0 : (Math.max(0, v) / max) * panelH;
      if (h <= 0) return;
      parts.push(
        `<rect x="${(left + i * bw + bw * 0.1).toFixed(2)}" y="${(top + panelH - h).toFixed(2)}" width="${Math.max(0.5, bw * 0.8).toFixed(2)}" height="${h.toFixed(2)}" fill="${colour}"><title>${days[i]!.day}: ${esc(fmt(v))}</title></rect>`,
      );
    });
  };
  panel(60, 'Net amount per day', days.map((d) => Number(d.amount)), (n) => money(n), '#2f6fdf');
  panel(60 + panelH + 40, 'Transactions per day', days.map((d) => d.count), (n) => n.toLocaleString('en-US'), '#3a9d5d');
  if (days.length) {
    const y = 60 + panelH * 2 + 60;
    parts.push(`<text x="${left}" y="${y}" ${font} font-size="11" fill="#444">${days[0]!.day}</text>`);
    parts.push(`<text x="${left + plotW}" y="${y}" ${font} font-size="11" fill="#444" text-anchor="end">${days[days.length - 1]!.day}</text>`);
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
