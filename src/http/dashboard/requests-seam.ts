// The group nav's Requests entry (the request journal's views, views/requests.ts). It stays
// a module of its own with no imports: the layout reads it, and the journal's views read
// the layout, so the entry cannot live with them without an import loop.

/** The group nav's Requests entry. */
export function journalNavEntry(): [string, string] | undefined {
  return ['requests', 'Requests'];
}
