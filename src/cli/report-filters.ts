// The report browser's saved filters as the command tells of them (kept and read back by
// the use cases in src/services/reporting/saved-filters.ts).
import type { BrowserFilters } from '../tui/report-browser.js';
import { filterWords } from '../render/report.js';

/** Saved filters as one line of text, for the notice that drops them. */
export function describeSaved(f: BrowserFilters): string {
  return filterWords(f).join(', ') || 'none';
}
