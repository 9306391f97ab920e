// The report browser's last filters, remembered per database (in its settings table,
// so two databases in one folder keep their own) and per group.
import type { Platform } from '../services/platform.js';
import type { BrowserFilters } from '../tui/report-browser.js';
import { filterWords } from '../render/report.js';

const keyOf = (groupId: string) => `report_browser.filters.${groupId}`;
const FIELDS = ['statuses', 'brands', 'start', 'end'] as const;

export async function rememberedFilters(p: Platform, groupId: string): Promise<BrowserFilters | undefined> {
  const text = await p.db.repos.settings.get(p.db, keyOf(groupId));
  if (!text) return undefined;
  try {
    const saved = JSON.parse(text) as Record<string, unknown>;
    // Only the known fields, each of its type: a damaged value is ignored, not trusted.
    const f: BrowserFilters = {};
    for (const k of FIELDS) {
      const v = saved[k];
      if (k === 'statuses' || k === 'brands') {
        if (Array.isArray(v) && v.every((x) => typeof x === 'string')) f[k] = v as string[];
      } else if (typeof v === 'string') f[k] = v;
    }
    return f;
  } catch {
    return undefined;
  }
}

export async function rememberFilters(p: Platform, groupId: string, f: BrowserFilters): Promise<void> {
  const value = JSON.stringify(Object.fromEntries(FIELDS.filter((k) => f[k] !== undefined).map((k) => [k, f[k]])));
  await p.db.write((tx) => tx.repos.settings.put(tx, keyOf(groupId), value));
}

/** Saved filters as one line of text, for the notice that drops them. */
export function describeSaved(f: BrowserFilters): string {
  return filterWords(f).join(', ') || 'none';
}
