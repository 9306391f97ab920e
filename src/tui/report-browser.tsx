/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
// `payctl report` on a terminal: a scrolling table of transactions, one page at a time
// (it never holds more than the page on screen), a summary line (count and net amount
// for the current filters), a filter bar for status, brand and date range, and a
// detail view.
//
// Keys: ↑/↓ move (and turn the page at its ends), PageUp/PageDown turn a page,
// Enter opens the transaction, Esc goes back, f or / edits the filters (Tab moves
// between them, Enter applies, Esc cancels), s shows the summary of the filtered
// window (daily volume chart and breakdowns; s or Esc goes back), q quits.
//
// Filters are checked (checkFilters, the reporting API's own parser) before they are
// applied: a typo is shown at its field and the bar stays open; nothing unparsable is
// applied or remembered. A load that fails, even synchronously, is shown under the table.
//
// Data comes only through the loadPage/loadSummary callbacks. Ink and React are loaded
// lazily (loadReportBrowser, renderReportBrowser): JSX here compiles to calls of the
// local `h`, and the `react` import is used for types only.
import * as ReactTypes from 'react';
import type { ExactInt } from '../domain/money.js';
import { Fragment, h, ink, loadRuntime, React, runScreen, type ScreenIo } from './runtime.js';
import { useKeys, type KeyInfo } from './keys.js';
import type { Transaction } from '../domain/transactions.js';
import { customerText } from '../render/report.js';
import { paidWith } from '../render/transactions.js';
import { dateTime, money as formatMoney } from '../render/format.js';
import { statusInkColour } from '../render/colour.js';
import { summaryText } from '../render/summary.js';
import type { ReportSummaryAll } from '../services/reporting/summary.js';
import type { FieldProblem } from '../errors.js';


// ---------------------------------------------------------------------------
// Props and pure helpers

/** The filters the browser can change; the command keeps its other flags. */
export interface BrowserFilters {
  statuses?: string[];
  brands?: string[];
  start?: string;
  end?: string;
}

export interface ReportSummary {
  total_count: number;
  total_amount: ExactInt;
}

export interface ReportBrowserProps {
  initialFilters?: BrowserFilters;
  /** One page of transactions, newest first. */
  loadPage: (filters: BrowserFilters, offset: number, limit: number) => Promise<Transaction[]>;
  /** Count and net amount for the filters. */
  loadSummary: (filters: BrowserFilters) => Promise<ReportSummary>;
  /** Every grouping of the filtered window, for the summary view (key s). */
  loadFullSummary?: (filters: BrowserFilters) => Promise<ReportSummaryAll>;
  /**
   * The problems of filters about to be applied (the API's field paths: `statuses.0`, `start`);
   * none means they parse. Without it every filter is applied as typed.
   */
  checkFilters?: (filters: BrowserFilters) => FieldProblem[];
  /** Filters applied from the filter bar (the command remembers them per database). */
  onFiltersChange?: (filters: BrowserFilters) => void;
  /** Rows per page (default: what fits the terminal, at least 5). */
  pageSize?: number;
  onExit?: () => void;
}

export const FILTER_FIELDS = [
  { key: 'statuses', label: 'status', hint: 'e.g. settled,pending' },
  { key: 'brands', label: 'brand', hint: 'e.g. Visa,Mastercard' },
  { key: 'start', label: 'from', hint: 'YYYY-MM-DD or RFC 3339' },
  { key: 'end', label: 'to', hint: 'YYYY-MM-DD or RFC 3339' },
] as const;
type FieldKey = (typeof FILTER_FIELDS)[number]['key'];
/** Problems by field; '' holds those of no one field (e.g. from after to). */
type FieldErrors = Partial<Record<FieldKey | '', string>>;

/** The filter bar's field a problem's path belongs to (`statuses.0` → statuses). */
export function filterErrors(problems: readonly FieldProblem[]): FieldErrors {
  const out: FieldErrors = {};
  for (const p of problems) {
    const head = p.path.split('.')[0] ?? '';
    const field = FILTER_FIELDS.find((f) => f.key === head)?.key ?? '';
    const text = field === '' && p.path ? `${p.path}: ${p.message}` : p.message;
    out[field] = out[field] ? `${out[field]}; ${text}` : text;
  }
  return out;
}

const listText = (v: string[] | undefined) => (v ?? []).join(',');
const listOf = (text: string) => {
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  return items.length ? items : undefined;
};

export function filtersToInputs(f: BrowserFilters): Record<FieldKey, string> {
  return { statuses: listText(f.statuses), brands: listText(f.brands), start: f.start ?? '', end: f.end ?? '' };
}

export function inputsToFilters(i: Record<FieldKey, string>): BrowserFilters {
  const f: BrowserFilters = { statuses: listOf(i.statuses), brands: listOf(i.brands), start: i.start.trim() || undefined, end: i.end.trim() || undefined };
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as BrowserFilters;
}

function describeFilters(f: BrowserFilters): string {
  const parts = [
    f.statuses ? `status ${f.statuses.join(',')}` : '',
    f.brands ? `brand ${f.brands.join(',')}` : '',
    f.start ? `from ${f.start}` : '',
    f.end ? `to ${f.end}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'no filters (last 6 months)';
}

const errorText = (err: unknown): string => {
  if (typeof err === 'object' && err !== null && 'fields' in err && Array.isArray((err as { fields?: unknown }).fields)) {
    const fields = (err as { fields: Array<{ path: string; message: string }> }).fields;
    if (fields.length) return fields.map((f) => `${f.path}: ${f.message}`).join('; ');
  }
  return err instanceof Error ? err.message : String(err);
};

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
const COLUMNS: Array<{ title: string; width: number; right?: boolean; cell: (t: Transaction) => string }> = [
  { title: 'date', width: 21, cell: (t) => dateTime(t.created_at) },
  // The longest status word is 10 characters: with it the table is 117 wide and fits a 120-column terminal.
  { title: 'status', width: 11, cell: (t) => t.status },
  { title: 'amount', width: 13, right: true, cell: (t) => formatMoney(t.amounts.requested_amount, t.currency) },
  { title: 'method', width: 24, cell: (t) => paidWith(t) },
  { title: 'source', width: 17, cell: (t) => t.source },
  { title: 'customer', width: 24, cell: (t) => customerText(t) },
];
const cellsOf = (cells: string[]) =>
  cells.map((c, i) => (COLUMNS[i]!.right ? c.slice(0, COLUMNS[i]!.width - 1).padStart(COLUMNS[i]!.width - 1) + ' ' : pad(c, COLUMNS[i]!.width)));
const line = (cells: string[]) => cellsOf(cells).join(' ');
const STATUS_COLUMN = 1;

export function detailLines(t: Transaction): Array<[string, string]> {
  const a = t.amounts;
  const money = (n: number) => formatMoney(n, t.currency);
  return [
    ['id', t.id],
    ['created', dateTime(t.created_at)],
    ['status', t.status],
    ['type', `${t.transaction_type} · ${t.payment_method}`],
    ['method', paidWith(t)],
    ['customer', [customerText(t), t.customer_id ? `(${t.customer_id})` : ''].filter(Boolean).join(' ')],
    ['requested', money(a.requested_amount)],
    ['authorized', money(a.authorized_amount)],
    ['captured', money(a.captured_amount)],
    ['refunded', money(a.refunded_amount)],
    ['source', t.source],
    ['order id', t.order_id],
    ['description', t.description],
    ['processor', `${t.processor_name} (${t.processor_id})`],
    ['settlement batch', t.settlement_batch_ids.join(', ')],
    ['response', `${t.response_code} ${t.response_text}`],
  ].filter(([, v]) => v !== '') as Array<[string, string]>;
}

// ---------------------------------------------------------------------------
// Hook: paging, filters, loading


type Mode = 'list' | 'detail' | 'filter' | 'summary';

/** A load that throws before it returns a promise is a failed load like any other. */
const attempt = <T,>(load: () => Promise<T>): Promise<T> => Promise.resolve().then(load);

function useReportBrowser(props: ReportBrowserProps, pageSize: number) {
  const [filters, setFilters] = React.useState<BrowserFilters>(props.initialFilters ?? {});
  const [offset, setOffset] = React.useState(0);
  const [cursor, setCursor] = React.useState(0);
  const [rows, setRows] = React.useState<Transaction[]>([]);
  const [summary, setSummary] = React.useState<ReportSummary | undefined>();
  const [loading, setLoading] = React.useState(true);
  const [error, setError] = React.useState<string | undefined>();
  const [mode, setMode] = React.useState<Mode>('list');
  // Mirrored in a ref: one pasted chunk types text and presses Enter in one handler turn,
  // before React re-renders, and Enter must apply the text just typed.
  const [inputs, setInputsState] = React.useState(filtersToInputs(props.initialFilters ?? {}));
  const inputsRef = React.useRef(inputs);
  const setInputs = (next: Record<FieldKey, string> | ((i: Record<FieldKey, string>) => Record<FieldKey, string>)) => {
    inputsRef.current = typeof next === 'function' ? next(inputsRef.current) : next;
    setInputsState(inputsRef.current);
  };
  const [field, setField] = React.useState(0);
  const [fieldErrors, setFieldErrors] = React.useState<FieldErrors>({});
  const propsRef = React.useRef(props);
  propsRef.current = props;
  const { exit } = ink.useApp();

  // The page: reloaded when the filters or the offset change; a stale answer is dropped.
  React.useEffect(() => {
    let live = true;
    setLoading(true);
    attempt(() => propsRef.current.loadPage(filters, offset, pageSize)).then(
      (page) => {
        if (!live) return;
        setRows(page);
        setCursor((c) => Math.min(c, Math.max(0, page.length - 1)));
        setError(undefined);
        setLoading(false);
      },
      (err: unknown) => {
        if (!live) return;
        setRows([]);
        setError(errorText(err));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [filters, offset, pageSize]);

  React.useEffect(() => {
    let live = true;
    setSummary(undefined);
    attempt(() => propsRef.current.loadSummary(filters)).then(
      (s) => live && setSummary(s),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [filters]);

  // The summary view's numbers: loaded when it is open, again when the filters change.
  const [full, setFull] = React.useState<ReportSummaryAll | undefined>();
  React.useEffect(() => {
    if (mode !== 'summary' || !propsRef.current.loadFullSummary) return;
    let live = true;
    setFull(undefined);
    attempt(() => propsRef.current.loadFullSummary!(filters)).then(
      (all) => live && setFull(all),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [filters, mode]);

  const total = summary?.total_count;
  const hasNext = total === undefined ? rows.length === pageSize : offset + pageSize < total;
  const quit = () => {
    propsRef.current.onExit?.();
    exit();
  };

  useKeys((input: string, key: KeyInfo) => {
    if (key.ctrl && input === 'c') return quit();
    if (mode === 'filter') {
      const k = FILTER_FIELDS[field]!.key;
      if (key.escape) {
        setInputs(filtersToInputs(filters));
        setFieldErrors({});
        setMode('list');
      } else if (key.return) {
        const applied = inputsToFilters(inputsRef.current);
        const problems = propsRef.current.checkFilters?.(applied) ?? [];
        if (problems.length) {
          // Stay in the bar, on the first field with a problem; nothing is applied or remembered.
          const errors = filterErrors(problems);
          setFieldErrors(errors);
          const first = FILTER_FIELDS.findIndex((f) => errors[f.key] !== undefined);
          if (first >= 0) setField(first);
          return;
        }
        setFieldErrors({});
        setFilters(applied);
        propsRef.current.onFiltersChange?.(applied);
        setOffset(0);
        setCursor(0);
        setMode('list');
      } else if (key.tab || key.downArrow) {
        setField((f) => (key.shift ? f + FILTER_FIELDS.length - 1 : f + 1) % FILTER_FIELDS.length);
      } else if (key.upArrow) {
        setField((f) => (f + FILTER_FIELDS.length - 1) % FILTER_FIELDS.length);
      } else if (key.backspace || key.delete) {
        setInputs((i) => ({ ...i, [k]: i[k].slice(0, -1) }));
        setFieldErrors(({ [k]: _edited, ...rest }) => rest);
      } else if (input && !key.ctrl && !key.meta) {
        setInputs((i) => ({ ...i, [k]: i[k] + input }));
        setFieldErrors(({ [k]: _edited, ...rest }) => rest);
      }
      return;
    }
    if (input === 'q') return quit();
    if (mode === 'detail') {
      if (key.escape || key.return || key.backspace) setMode('list');
      return;
    }
    if (mode === 'summary') {
      if (key.escape || input === 's' || key.backspace) setMode('list');
      else if (input === 'f' || input === '/') {
        setInputs(filtersToInputs(filters));
        setField(0);
        setMode('filter');
      }
      return;
    }
    if (input === 's' && propsRef.current.loadFullSummary) return setMode('summary');
    if (key.downArrow) {
      if (cursor < rows.length - 1) setCursor(cursor + 1);
      else if (hasNext && !loading) {
        setOffset(offset + pageSize);
        setCursor(0);
      }
    } else if (key.upArrow) {
      if (cursor > 0) setCursor(cursor - 1);
      else if (offset > 0 && !loading) {
        setOffset(Math.max(0, offset - pageSize));
        setCursor(pageSize - 1);
      }
    } else if (key.pageDown) {
      if (hasNext && !loading) setOffset(offset + pageSize);
    } else if (key.pageUp) {
      if (offset > 0 && !loading) setOffset(Math.max(0, offset - pageSize));
      else setCursor(0);
    } else if (key.return) {
      if (rows[cursor]) setMode('detail');
    } else if (input === 'f' || input === '/') {
      setInputs(filtersToInputs(filters));
      setField(0);
      setMode('filter');
    }
  });

  return { filters, offset, cursor, rows, summary, full, loading, error, mode, inputs, field, fieldErrors };
}

// ---------------------------------------------------------------------------
// View

function ReportBrowser(props: ReportBrowserProps) {
  const { Box, Text } = ink;
  const { stdout } = ink.useStdout();
  const pageSize = props.pageSize ?? Math.max(5, (stdout?.rows ?? 24) - 9);
  const s = useReportBrowser(props, pageSize);
  const selected = s.rows[s.cursor];
  const first = s.rows.length ? s.offset + 1 : 0;
  const summary = s.summary
    ? `${s.summary.total_count.toLocaleString('en-US')} transactions · ${formatMoney(s.summary.total_amount)} net · showing ${first}–${s.offset + s.rows.length}`
    : 'counting…';
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>payctl report  </Text>
        <Text color="gray">{describeFilters(s.filters)}</Text>
      </Text>
      <Text color="cyan">{summary}</Text>
      {s.mode === 'filter' ? (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          {FILTER_FIELDS.map((f, i) => (
            <Box key={f.key} flexDirection="column">
              <Text color={i === s.field ? 'cyan' : undefined}>
                {i === s.field ? '› ' : '  '}
                {f.label.padEnd(7)}
                {s.inputs[f.key]}
                {i === s.field ? '▌' : ''}
                <Text color="gray">{s.inputs[f.key] ? '' : `  ${f.hint}`}</Text>
              </Text>
              {s.fieldErrors[f.key] ? (
                <Box paddingLeft={9}>
                  <Text color="red">✖ {s.fieldErrors[f.key]}</Text>
                </Box>
              ) : null}
            </Box>
          ))}
          {s.fieldErrors[''] ? <Text color="red">✖ {s.fieldErrors['']}</Text> : null}
          <Text color="gray">Tab: next field · Enter: apply · Esc: cancel</Text>
        </Box>
      ) : null}
      {s.mode === 'summary' ? (
        <Box flexDirection="column">
          {s.full ? (
            summaryText(s.full, { width: (stdout?.columns ?? 80) - 1 })
              .split('\n')
              .map((l, i) => <Text key={i}>{l || ' '}</Text>)
          ) : (
            <Text color="gray">summarising…</Text>
          )}
          <Text color="gray">s or Esc: back to the table · f: filter · q: quit</Text>
        </Box>
      ) : s.mode === 'detail' && selected ? (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          {detailLines(selected).map(([k, v]) => (
            <Text key={k}>
              <Text color="gray">{k.padEnd(17)}</Text>
              {v}
            </Text>
          ))}
          <Text color="gray">Esc: back · q: quit</Text>
        </Box>
      ) : (
        <Box flexDirection="column">
          <Text bold>{'  ' + line(COLUMNS.map((c) => c.title))}</Text>
          {s.rows.map((t, i) => {
            const cells = cellsOf(COLUMNS.map((c) => c.cell(t)));
            return (
              <Text key={t.id} color={i === s.cursor ? 'cyan' : undefined} inverse={i === s.cursor}>
                {i === s.cursor ? '› ' : '  '}
                {cells.slice(0, STATUS_COLUMN).join(' ') + ' '}
                <Text color={i === s.cursor ? undefined : statusInkColour(t.status)}>{cells[STATUS_COLUMN]}</Text>
                {' ' + cells.slice(STATUS_COLUMN + 1).join(' ')}
              </Text>
            );
          })}
          {!s.loading && s.rows.length === 0 && !s.error ? <Text color="gray">  No transactions match.</Text> : null}
        </Box>
      )}
      {s.error ? <Text color="red">✖ {s.error}</Text> : null}
      {s.loading ? <Text color="gray">loading…</Text> : null}
      {s.mode === 'list' ? (
        <Text color="gray">↑/↓: move · PgUp/PgDn: page · Enter: details · f: filter · {props.loadFullSummary ? 's: summary · ' : ''}q: quit</Text>
      ) : null}
    </Box>
  );
}

// ---------------------------------------------------------------------------
// Entry points

/** Load Ink and React, then hand back the component (for rendering or tests). */
export async function loadReportBrowser(): Promise<(props: ReportBrowserProps) => ReactTypes.ReactElement> {
  await loadRuntime();
  return ReportBrowser;
}

export interface RenderReportBrowserOptions extends Omit<ReportBrowserProps, 'onExit'>, ScreenIo {}

/** Run the browser in the terminal until the user quits (a ScreenError if it fails). */
export async function renderReportBrowser(options: RenderReportBrowserOptions): Promise<void> {
  const { stdin, stdout, ...props } = options;
  await runScreen('report browser', () => <ReportBrowser {...props} />, { ...(stdin ? { stdin } : {}), ...(stdout ? { stdout } : {}) });
}
