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
// window (daily volume chart and breakdowns, scrolled with ↑/↓ PgUp/PgDn when taller
// than the terminal; s or Esc goes back), q quits.
//
// The table fits the terminal's width: columns go, least important first (source, then
// customer, then method), and the footer says which; the detail view shows them all.
// Keys arriving several in one read each count (see keys.ts): the state they move lives
// in refs (useRefState, keys.ts), read and written by the handler itself.
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
import { useKeys, useRefState, type KeyInfo } from './keys.js';
import { clampTop, scrollKey, scrollStatus } from './scroll.js';
import type { Transaction } from '../domain/transactions.js';
import { money as formatMoney } from '../render/format.js';
import { cellsOf, COLUMNS, detailLines, fitColumns } from './report-table.js';
import { describeFilters, errorText, FILTER_FIELDS, filterErrors, filtersToInputs, inputsToFilters, type BrowserFilters, type FieldErrors, type FieldKey } from './report-filter-bar.js';
import { statusInkColour } from '../render/colour.js';
import { summaryText } from '../render/summary.js';
import type { ReportSummaryAll } from '../services/reporting/summary.js';
import type { FieldProblem } from '../errors.js';


// ---------------------------------------------------------------------------
// Props (the filter bar: report-filter-bar.ts; the table: report-table.ts)

export type { BrowserFilters } from './report-filter-bar.js';
export { fitColumns } from './report-table.js';

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

// ---------------------------------------------------------------------------
// Hook: paging, filters, loading


type Mode = 'list' | 'detail' | 'filter' | 'summary';

/** A load that throws before it returns a promise is a failed load like any other. */
const attempt = <T,>(load: () => Promise<T>): Promise<T> => Promise.resolve().then(load);

function useReportBrowser(props: ReportBrowserProps, pageSize: number, summaryHeight: number, width: number) {
  const [filters, setFilters, filtersRef] = useRefState<BrowserFilters>(props.initialFilters ?? {});
  const [offset, setOffset, offsetRef] = useRefState(0);
  const [cursor, setCursor, cursorRef] = useRefState(0);
  const [rows, setRows, rowsRef] = useRefState<Transaction[]>([]);
  const [summary, setSummary] = React.useState<ReportSummary | undefined>();
  const [loading, setLoading, loadingRef] = useRefState(true);
  const [error, setError] = React.useState<string | undefined>();
  const [mode, setMode, modeRef] = useRefState<Mode>('list');
  const [summaryTop, setSummaryTop, summaryTopRef] = useRefState(0);
  // Mirrored in a ref: one pasted chunk types text and presses Enter in one handler turn,
  // before React re-renders, and Enter must apply the text just typed.
  const [inputs, setInputsState] = React.useState(filtersToInputs(props.initialFilters ?? {}));
  const inputsRef = React.useRef(inputs);
  const setInputs = (next: Record<FieldKey, string> | ((i: Record<FieldKey, string>) => Record<FieldKey, string>)) => {
    inputsRef.current = typeof next === 'function' ? next(inputsRef.current) : next;
    setInputsState(inputsRef.current);
  };
  const [field, setField, fieldRef] = useRefState(0);
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

  const totalRef = React.useRef<number | undefined>(undefined);
  totalRef.current = summary?.total_count;
  const hasNext = () => {
    const total = totalRef.current;
    return total === undefined ? rowsRef.current.length === pageSize : offsetRef.current + pageSize < total;
  };
  const summaryLines = full ? summaryText(full, { width: width - 1 }).split('\n') : [];
  const summaryLinesRef = React.useRef(summaryLines.length);
  summaryLinesRef.current = summaryLines.length;
  const openFilters = () => {
    setInputs(filtersToInputs(filtersRef.current));
    setField(0);
    setMode('filter');
  };
  const quit = () => {
    propsRef.current.onExit?.();
    exit();
  };

  useKeys((input: string, key: KeyInfo) => {
    if (key.ctrl && input === 'c') return quit();
    const mode = modeRef.current;
    if (mode === 'filter') {
      const k = FILTER_FIELDS[fieldRef.current]!.key;
      if (key.escape) {
        setInputs(filtersToInputs(filtersRef.current));
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
        setSummaryTop(0);
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
      const moved = scrollKey(summaryTopRef.current, summaryLinesRef.current, summaryHeight, input, key);
      if (moved !== undefined) setSummaryTop(moved);
      else if (key.escape || input === 's' || key.backspace) setMode('list');
      else if (input === 'f' || input === '/') openFilters();
      return;
    }
    if (input === 's' && propsRef.current.loadFullSummary) return setMode('summary');
    const cursor = cursorRef.current;
    const offset = offsetRef.current;
    const loading = loadingRef.current;
    const turn = (to: number, at: number) => {
      // The page is loading from now on: a key behind this one in the same read waits for it.
      setLoading(true);
      setOffset(to);
      setCursor(at);
    };
    if (key.downArrow) {
      if (loading) return;
      if (cursor < rowsRef.current.length - 1) setCursor(cursor + 1);
      else if (hasNext()) turn(offset + pageSize, 0);
    } else if (key.upArrow) {
      if (loading) return;
      if (cursor > 0) setCursor(cursor - 1);
      else if (offset > 0) turn(Math.max(0, offset - pageSize), pageSize - 1);
    } else if (key.pageDown) {
      // With the count known the next page is known too, loading or not: each PgDn of a read turns one.
      if (hasNext() && (!loading || totalRef.current !== undefined)) turn(offset + pageSize, cursor);
    } else if (key.pageUp) {
      if (offset > 0) turn(Math.max(0, offset - pageSize), cursor);
      else setCursor(0);
    } else if (key.return) {
      if (rowsRef.current[cursor]) setMode('detail');
    } else if (input === 'f' || input === '/') {
      openFilters();
    }
  });

  const top = clampTop(summaryTop, summaryLines.length, summaryHeight);
  return { filters, offset, cursor, rows, summary, full, summaryLines, summaryTop: top, loading, error, mode, inputs, field, fieldErrors };
}

// ---------------------------------------------------------------------------
// View

/** The list's key help, longest first: the shorter spellings are for narrow terminals. */
const listKeys = (summary: boolean) =>
  [
    ['↑/↓: move', 'PgUp/PgDn: page', 'Enter: details', 'f: filter', ...(summary ? ['s: summary'] : []), 'q: quit'],
    ['↑↓: move', 'PgUp/PgDn: page', 'Enter: details', 'f: filter', ...(summary ? ['s: summary'] : []), 'q: quit'],
    ['↑↓ PgUp/PgDn', 'Enter', 'f: filter', ...(summary ? ['s'] : []), 'q: quit'],
  ].map((parts) => parts.join(' · '));

/** The first text that leaves the terminal's last column free (else the shortest). */
function firstThatFits(texts: string[], width: number): string {
  return texts.find((t) => [...t].length <= width - 1) ?? texts[texts.length - 1]!;
}

/** After the title, which columns the terminal is too narrow for, when there is room to say so. */
function hiddenNote(hidden: string[], used: number, width: number): string {
  if (hidden.length === 0) return '';
  return firstThatFits([`  · ${hidden.join(', ')}: Enter shows them`, `  · +${hidden.join(', ')}`, ''], width - used);
}

function ReportBrowser(props: ReportBrowserProps) {
  const { Box, Text } = ink;
  const { stdout } = ink.useStdout();
  const width = stdout?.columns || 80;
  const height = stdout?.rows || 24;
  const pageSize = props.pageSize ?? Math.max(5, height - 9);
  // The summary view's window: the terminal less the two lines above it and the two under it.
  const summaryHeight = Math.max(5, height - 5);
  const s = useReportBrowser(props, pageSize, summaryHeight, width);
  const columns = fitColumns(width);
  const hidden = COLUMNS.filter((c) => !columns.includes(c)).map((c) => c.title);
  const statusColumn = columns.findIndex((c) => c.title === 'status');
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
        <Text color="gray">{hiddenNote(hidden, 'payctl report  '.length + describeFilters(s.filters).length, width)}</Text>
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
            s.summaryLines.slice(s.summaryTop, s.summaryTop + summaryHeight).map((l, i) => <Text key={s.summaryTop + i}>{l || ' '}</Text>)
          ) : (
            <Text color="gray">summarising…</Text>
          )}
          <Text color="gray">
            {[scrollStatus(s.summaryTop, s.summaryLines.length, summaryHeight), 's or Esc: back · f: filter · q: quit'].filter(Boolean).join(' · ')}
          </Text>
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
          <Text bold>{'  ' + cellsOf(columns, undefined).join(' ')}</Text>
          {s.rows.map((t, i) => {
            const cells = cellsOf(columns, t);
            return (
              <Text key={t.id} color={i === s.cursor ? 'cyan' : undefined} inverse={i === s.cursor}>
                {i === s.cursor ? '› ' : '  '}
                {cells.map((cell, c) => (
                  <Text key={c} color={c === statusColumn && i !== s.cursor ? statusInkColour(t.status) : undefined}>
                    {c > 0 ? ' ' : ''}
                    {cell}
                  </Text>
                ))}
              </Text>
            );
          })}
          {!s.loading && s.rows.length === 0 && !s.error ? <Text color="gray">  No transactions match.</Text> : null}
        </Box>
      )}
      {s.error ? <Text color="red">✖ {s.error}</Text> : null}
      {s.loading ? <Text color="gray">loading…</Text> : null}
      {s.mode === 'list' ? (
        <Text color="gray">{firstThatFits(listKeys(Boolean(props.loadFullSummary)), width)}</Text>
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
