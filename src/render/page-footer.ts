// The one line under a page of every list command: which rows of how many, and the flag
// that shows the next page — "Showing 21–40 of 45; more with --offset 40." Lists paged by
// --limit/--offset and the event list, paged by --starting-after, say it the same way.

export interface Page {
  /** Rows on this page. */
  shown: number;
  /** --offset of this page (undefined for a cursor-paged list). */
  offset?: number;
  /** Rows in all, when the list knows it. */
  total?: number;
  /** --limit, to tell a full page (more may follow) when the total is unknown. */
  limit?: number;
  /** The flag for the next page when the list computes it (a cursor: `--starting-after ID`). */
  next?: string;
  /** Another way to see more (report: `every row with --output csv`). */
  also?: string;
}

export function pageFooter(page: Page): string {
  const { shown, offset, total } = page;
  const first = (offset ?? 0) + 1;
  const range = shown === 0 ? '0' : offset === undefined ? String(shown) : `${first}–${first + shown - 1}`;
  const of = total === undefined ? '' : ` of ${total}`;
  const at = shown === 0 && offset ? ` (offset ${offset})` : '';
  const end = (offset ?? 0) + shown;
  const next =
    page.next ?? (offset === undefined ? undefined : (total !== undefined ? end < total : page.limit !== undefined && shown === page.limit) ? `--offset ${end}` : undefined);
  const more = next ? `; more with ${next}${page.also ? `, ${page.also}` : ''}` : '';
  return `Showing ${range}${of}${at}${more}.`;
}
