// Reports (`/dashboard/groups/{id}/reports`): `payctl report --summary`'s numbers for the
// same filters (the same use case, reportingSummaryAll), drawn as server-rendered SVG — a line over
// the days, bars for each grouping — with every number beside its chart in a table.
import { reportingSummaryAll, type ReportSummaryAll } from '../../../services/reporting/summary.js';
import { execute } from '../../../services/use-case.js';
import { formatMoney } from '../../../domain/money.js';
import type { SummaryBucket } from '../../../domain/reporting-summary.js';
import { html, raw, type Html } from '../html.js';
import type { Answer } from '../respond.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope } from '../scope.js';
import { groupPage } from './group-page.js';

const FILTERS: Array<[string, string]> = [
  ['start', 'From (date or time)'],
  ['end', 'To (date or time)'],
  ['statuses', 'Statuses (comma list)'],
  ['brands', 'Brands (comma list)'],
  ['payment_methods', 'Payment methods (comma list)'],
  ['sources', 'Sources (comma list)'],
];

const W = 640;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A line of each day's net amount, its points marked; the axis labels are the first and last day. */
function dayLine(days: SummaryBucket[]): Html {
  const H = 180;
  const pad = 30;
  if (days.length === 0) return html`<p class="empty">No transactions in this window.</p>`;
  const values = days.map((d) => Number(d.amount));
  const max = Math.max(1, ...values);
  const x = (i: number) => pad + (days.length === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (days.length - 1));
  const y = (v: number) => H - pad - (v / max) * (H - 2 * pad);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const dots = values.map((v, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3"><title>${esc(days[i]!.key)}: ${esc(formatMoney(days[i]!.amount))}</title></circle>`).join('');
  return raw(
    `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Net amount per day, ${esc(days[0]!.key)} to ${esc(days[days.length - 1]!.key)}">` +
      `<line class="axis" x1="${pad}" y1="${H - pad}" x2="${W - pad}" y2="${H - pad}"/><polyline class="line" points="${points}"/>${dots}` +
      `<text x="${pad}" y="${H - 8}">${esc(days[0]!.key)}</text><text x="${W - pad}" y="${H - 8}" text-anchor="end">${esc(days[days.length - 1]!.key)}</text>` +
      `<text x="${pad}" y="16">${esc(formatMoney(max))}</text></svg>`,
  );
}

/** Horizontal bars of a grouping's counts, each labelled with its key and count. */
function bars(title: string, buckets: SummaryBucket[]): Html {
  if (buckets.length === 0) return html`<p class="empty">None.</p>`;
  const row = 26;
  const H = buckets.length * row + 8;
  const max = Math.max(1, ...buckets.map((b) => b.count));
  const label = 150;
  const body = buckets
    .map((b, i) => {
      const w = ((W - label - 80) * b.count) / max;
      const y = 4 + i * row;
      return `<text x="${label - 6}" y="${y + 16}" text-anchor="end">${esc(b.key || '(none)')}</text><rect class="bar" x="${label}" y="${y + 3}" width="${w.toFixed(1)}" height="${row - 8}"/><text x="${(label + w + 6).toFixed(1)}" y="${y + 16}">${b.count}</text>`;
    })
    .join('');
  return raw(`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}: count per key">${body}</svg>`);
}

function numbers(dim: string, buckets: SummaryBucket[]): Html {
  return html`<table class="numbers" data-dimension="${dim}"><caption>${dim}: the numbers</caption><thead><tr><th scope="col">${dim}</th><th scope="col">Count</th><th scope="col">Net amount (cents)</th><th scope="col">Net amount</th></tr></thead>
<tbody>${buckets.map((b) => html`<tr><th scope="row" data-key>${b.key}</th><td class="num" data-count>${b.count}</td><td class="num" data-amount>${String(b.amount)}</td><td class="num">${formatMoney(b.amount)}</td></tr>`)}</tbody></table>`;
}

function section(dim: keyof ReportSummaryAll & string, title: string, all: ReportSummaryAll): Html {
  const buckets = all[dim] as SummaryBucket[];
  return html`<section class="report-part" aria-labelledby="by-${dim}"><h2 id="by-${dim}">${title}</h2><div class="chart-and-numbers">${dim === 'day' ? dayLine(buckets) : bars(title, buckets)}${numbers(dim, buckets)}</div></section>`;
}

export async function reportsPage(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const raw: Record<string, string> = {};
  for (const [k] of FILTERS) {
    const v = c.url.searchParams.get(k)?.trim();
    if (v) raw[k] = v;
  }
  const all = await execute(reportingSummaryAll, s.g, s.ctx, { query: raw });
  const { start, end } = all;
  const body = html`<form method="get" class="filters" aria-label="Report filters">${FILTERS.map(([k, label]) => html`<label>${label} <input name="${k}" value="${raw[k] ?? ''}" maxlength="300"></label>`)}<button type="submit">Apply</button></form>
<p class="muted">The numbers of <code>payctl report --summary --json</code> with the same filters; ${start} to ${end}.</p>
<dl class="totals"><div><dt>Count</dt><dd data-total-count>${all.total_count}</dd></div><div><dt>Net amount</dt><dd><span data-total-amount>${String(all.total_amount)}</span> cents (${formatMoney(all.total_amount)})</dd></div></dl>
${section('day', 'By day', all)}${section('status', 'By status', all)}${section('brand', 'By brand', all)}${section('payment_method', 'By payment method', all)}${section('source', 'By source', all)}`;
  return groupPage(c, s, 'reports', 'Reports', body);
}
