import { Flags } from '@oclif/core';
import { PayctlCommand } from '../src/cli/base.js';
import { FILTERS, filterFlags, type FilterFlag } from '../src/cli/flags/report-query.js';
import { usage } from '../src/cli/usage.js';
import { groupOrFirstFlag } from '../src/cli/flags/group.js';
import { AppError } from '../src/errors.js';
import type { Platform } from '../src/services/platform.js';
import { getGroup, listGroups } from '../src/services/groups/groups.js';
import { exportReport, report, reportingPage, reportingTotals } from '../src/services/reporting/reporting.js';
import { execute } from '../src/services/use-case.js';
import { parseReportQuery, REPORT_TYPES, type RawQuery, type ReportResult } from '../src/domain/reporting.js';
import { PAGE_LIMIT_MAX } from '../src/domain/paging.js';
import { moneyWithCents } from '../src/render/format.js';
import { linkedAccountFlag, linkedAccountOrDefault } from '../src/cli/flags/scope.js';
import { terminalColumns } from '../src/render/terminal.js';
import { reportingSummaryAll, type ReportSummaryAll } from '../src/services/reporting/summary.js';

import { contextFor } from '../src/services/context.js';
import type { FieldProblem } from '../src/errors.js';
import type { BrowserFilters } from '../src/tui/report-browser.js';

const chartFormatOf = (file: string): 'svg' | 'png' | null => {
  const ext = file.toLowerCase().split('.').pop();
  return ext === 'svg' || ext === 'png' ? ext : null;
};

export default class Report extends PayctlCommand {
  static override description =
    'Report on transactions: a table, a count or a net amount sum, with every filter of the reporting API. On a terminal without --output or --json it opens the interactive report browser.';
  static override examples = [
    '<%= config.bin %> report',
    '<%= config.bin %> report --type count --status settled --status pending',
    '<%= config.bin %> report --type amount_sum --brand Visa --start 2026-01-01 --json',
    '<%= config.bin %> report --status settled --source api --output csv > settled.csv',
    '<%= config.bin %> report --summary --start 2026-01-01 --brand Visa',
    '<%= config.bin %> report --summary --chart volume.png',
    '<%= config.bin %> report --summary --output csv > summary.csv',
  ];
  static override flags = {
    type: Flags.string({ description: 'result shape [default: table]', options: [...REPORT_TYPES] }),
    group: groupOrFirstFlag,
    'linked-account': linkedAccountFlag,
    start: Flags.string({ description: 'from (RFC 3339 or YYYY-MM-DD, inclusive) [default: 6 months before now]' }),
    end: Flags.string({ description: 'to (RFC 3339 or YYYY-MM-DD, inclusive) [default: now]' }),
    limit: Flags.string({ description: `rows (at most ${PAGE_LIMIT_MAX}) [default: 50; csv: every row]` }),
    offset: Flags.string({ description: 'rows to skip [default: 0]' }),
    output: Flags.string({ char: 'o', description: 'table, json or csv (csv streams every page) [default: table]', options: ['table', 'json', 'csv'] }),
    summary: Flags.boolean({
      description: 'print the summary: daily volume chart and breakdowns by status, brand, payment method and source (with --output csv|json: the same numbers)',
      exclusive: ['type', 'limit', 'offset', 'linked-account'],
    }),
    chart: Flags.string({ description: 'with --summary: also write the daily-volume chart to this file (.svg or .png)', dependsOn: ['summary'] }),
    ...filterFlags,
  };

  async run(): Promise<ReportResult | { total_count: number; exported: number } | ReportSummaryAll> {
    const { flags } = await this.parse(Report);
    const chartFormat = flags.chart === undefined ? undefined : chartFormatOf(flags.chart);
    if (chartFormat === null) throw usage(`--chart ${flags.chart}: the file name must end in .svg or .png`);
    const p = await this.platform(flags.db);
    const groupId = await this.groupOf(p, flags.group);
    const raw: RawQuery = { type: flags.type ?? 'table' };
    for (const [name, [param]] of Object.entries(FILTERS) as Array<[FilterFlag, (typeof FILTERS)[FilterFlag]]>) {
      const v = flags[name] as string | string[] | undefined;
      if (v !== undefined) raw[param] = v;
    }
    for (const k of ['start', 'end', 'limit', 'offset'] as const) if (flags[k] !== undefined) raw[k] = flags[k];
    if (flags.summary) return this.summary(p, groupId, raw, flags.output, flags.chart, chartFormat ?? undefined);
    const accountId = await linkedAccountOrDefault(p, groupId, flags['linked-account']);

    const interactive = !flags.output && !this.jsonEnabled() && process.stdout.isTTY && process.stdin.isTTY;
    if (interactive && (raw.type === 'table' || !flags.type)) return this.browse(p, groupId, accountId, raw);
    if (flags.output === 'csv' && !this.jsonEnabled()) return this.csv(p, groupId, accountId, raw);

    const result = await execute(report, p, contextFor(p, groupId), { linked_account_id: accountId, query: raw });
    if (flags.output === 'json') {
      this.log(JSON.stringify(result, null, 2));
    } else if (!this.jsonEnabled()) {
      this.log(await human(result, raw));
    }
    return result;
  }

  /** `--summary`: every grouping of the window, printed, exported or charted. */
  private async summary(p: Platform, groupId: string, raw: RawQuery, output: string | undefined, chart: string | undefined, format: 'svg' | 'png' | undefined) {
    const { type: _type, ...filters } = raw;
    const all = await execute(reportingSummaryAll, p, contextFor(p, groupId), { query: filters });
    const render = await import('../src/render/summary.js');
    if (chart && format) {
      const { writeChart } = await import('../src/render/chart-file.js');
      await writeChart(chart, format, render.dailyChartSvg(all));
    }
    if (this.jsonEnabled()) return all;
    if (output === 'json') this.log(JSON.stringify(render.summaryJson(all), null, 2));
    else if (output === 'csv') {
      const { csvLine } = await import('../src/render/csv.js');
      process.stdout.write([render.SUMMARY_CSV_HEAD, ...render.summaryCsvRows(all)].map(csvLine).join(''));
    } else this.log(render.summaryText(all, { width: terminalColumns() }));
    if (chart) process.stderr.write(`wrote ${chart}\n`);
    return all;
  }

  private async groupOf(p: Platform, flag: string | undefined): Promise<string> {
    if (flag) return (await execute(getGroup, p, contextFor(p, undefined), { group_id: flag })).id;
    const first = (await execute(listGroups, p, contextFor(p, undefined), {}))[0];
    if (!first) throw new AppError(400, 'validation_error', `there is no group yet in the database ${p.db.location}: run \`payctl init --demo\`, or pass --group`);
    return first.id;
  }

  /** Every matching row (or --limit of them), each page written as the export yields it. */
  private async csv(p: Platform, groupId: string, accountId: string, raw: RawQuery) {
    // A flag that cannot be a row count is a usage error here (the export itself answers a 400 naming `limit`).
    if (raw.limit !== undefined && !/^\d{1,16}$/.test(String(raw.limit))) throw usage(`--limit ${String(raw.limit)}: must be a whole number of rows`);
    const exported = await execute(exportReport, p, contextFor(p, groupId), { linked_account_id: accountId, query: raw });
    // Rendering modules load only for the output that needs them (a --json run stays light).
    const [{ ttyProgress }, { csvLine }, { CSV_HEAD, csvRow }] = await Promise.all([
      import('../src/cli/progress.js'),
      import('../src/render/csv.js'),
      import('../src/render/report.js'),
    ]);
    const progress = ttyProgress({ minTotal: 2 * PAGE_LIMIT_MAX });
    process.stdout.write(csvLine(CSV_HEAD));
    let done = 0;
    for await (const items of exported.pages) {
      const chunk = items.map((t) => csvLine(csvRow(t))).join('');
      if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once('drain', resolve));
      done += items.length;
      progress?.(done, exported.count, 'Exporting');
    }
    return { total_count: exported.total_count, exported: done };
  }

  private async browse(p: Platform, groupId: string, accountId: string, raw: RawQuery) {
    const base = { ...raw, type: 'table' };
    // Checks the flags (and the linked account) before the screen opens.
    const start = await execute(report, p, contextFor(p, groupId), { linked_account_id: accountId, query: { ...base, limit: '0' } });
    const { renderReportBrowser } = await import('../src/tui/report-browser.js');
    const rawOf = (f: BrowserFilters): RawQuery => ({ ...base, statuses: f.statuses, brands: f.brands, start: f.start, end: f.end, limit: undefined, offset: undefined });
    const toQuery = (f: BrowserFilters) => parseReportQuery(rawOf(f), p.clock.now());
    const ctx = contextFor(p, groupId);
    const given = {
      statuses: raw.statuses === undefined ? undefined : ([] as string[]).concat(raw.statuses),
      brands: raw.brands === undefined ? undefined : ([] as string[]).concat(raw.brands),
      start: raw.start as string | undefined,
      end: raw.end as string | undefined,
    };
    // The reporting API's own parser judges the filter bar: a problem is shown at its field.
    const checkFilters = (f: BrowserFilters): FieldProblem[] => {
      try {
        toQuery(f);
        return [];
      } catch (err) {
        if (err instanceof AppError) return err.fields?.length ? err.fields : [{ path: '', message: err.message }];
        throw err;
      }
    };
    // Filters typed on the command line win; otherwise the last ones used on this database,
    // unless they no longer parse (saved by an older payctl, or the rules changed): dropped, with a notice.
    const [{ savedReportFilters, rememberReportFilters }, { describeSaved }] = await Promise.all([
      import('../src/services/reporting/saved-filters.js'),
      import('../src/cli/report-filters.js'),
    ]);
    const rememberFilters = (filters: BrowserFilters) => execute(rememberReportFilters, p, ctx, { filters });
    let initial: BrowserFilters = given;
    if (!Object.values(given).some((v) => v !== undefined)) {
      initial = (await execute(savedReportFilters, p, ctx, {})) ?? {};
      const problems = checkFilters(initial);
      if (problems.length) {
        process.stderr.write(
          `Dropped the saved report filters (${describeSaved(initial)}): ${problems.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ')}\n`,
        );
        await rememberFilters({});
        initial = {};
      }
    }
    const { type: _t, limit: _l, offset: _o, ...summaryBase } = base as RawQuery;
    await renderReportBrowser({
      initialFilters: initial,
      checkFilters,
      loadPage: (f, offset, limit) => execute(reportingPage, p, ctx, { query: rawOf(f), offset, limit }),
      loadSummary: (f) => execute(reportingTotals, p, ctx, { query: rawOf(f) }),
      loadFullSummary: (f) => execute(reportingSummaryAll, p, ctx, { query: { ...summaryBase, statuses: f.statuses, brands: f.brands, start: f.start, end: f.end } }),
      onFiltersChange: (f) => void rememberFilters(f).catch(() => undefined),
    });
    return start;
  }
}

async function human(result: ReportResult, raw: RawQuery): Promise<string> {
  const [{ keyValues, table }, { TABLE_HEAD, tableRow }, { pageFooter }] = await Promise.all([
    import('../src/render/table.js'),
    import('../src/render/report.js'),
    import('../src/render/page-footer.js'),
  ]);
  if ('items' in result) {
    const offset = Number(raw.offset ?? 0);
    const shown = result.items.length;
    const footer = pageFooter({ shown, total: result.total_count, offset, also: 'every row with --output csv' });
    return `${table(TABLE_HEAD, result.items.map(tableRow))}\n${footer}`;
  }
  if ('total_count' in result) return keyValues([['total_count', result.total_count]]);
  return keyValues([['total_amount', moneyWithCents(result.total_amount)]]);
}
