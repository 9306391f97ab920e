// The report browser's filter bar (report-browser.tsx): its fields, the typed text of each
// and the filters it makes, the problems placed on their fields, and the filters in words
// (src/render/report.ts: the same words the saved-filters notice uses).
import { filterWords } from '../render/report.js';
import type { FieldProblem } from '../errors.js';

/** The filters the browser can change; the command keeps its other flags. */
export interface BrowserFilters {
  statuses?: string[];
  brands?: string[];
  start?: string;
  end?: string;
}

export const FILTER_FIELDS = [
  { key: 'statuses', label: 'status', hint: 'e.g. settled,pending' },
  { key: 'brands', label: 'brand', hint: 'e.g. Visa,Mastercard' },
  { key: 'start', label: 'from', hint: 'YYYY-MM-DD or RFC 3339' },
  { key: 'end', label: 'to', hint: 'YYYY-MM-DD or RFC 3339' },
] as const;
export type FieldKey = (typeof FILTER_FIELDS)[number]['key'];
/** Problems by field; '' holds those of no one field (e.g. from after to). */
export type FieldErrors = Partial<Record<FieldKey | '', string>>;

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

export function describeFilters(f: BrowserFilters): string {
  return filterWords(f).join(' · ') || 'no filters (last 6 months)';
}

export const errorText = (err: unknown): string => {
  if (typeof err === 'object' && err !== null && 'fields' in err && Array.isArray((err as { fields?: unknown }).fields)) {
    const fields = (err as { fields: Array<{ path: string; message: string }> }).fields;
    if (fields.length) return fields.map((f) => `${f.path}: ${f.message}`).join('; ');
  }
  return err instanceof Error ? err.message : String(err);
};
