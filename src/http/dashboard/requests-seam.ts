// The seam of the request journal's views (the Requests page of a group and "the requests
// that touched it" on object pages). The journal is built elsewhere; until it is here these
// answer nothing, and the pages show no Requests entry. Its views plug in by filling these:
// a nav entry [slug, label] and the section an object page shows.
import type { Html } from './html.js';

/** The group nav's Requests entry, once the journal's views exist. */
export function journalNavEntry(): [string, string] | undefined {
  return undefined;
}

/** The requests that touched an object (its page's section), once the journal exists. */
export async function requestsTouching(_groupId: string, _objectId: string): Promise<Html | undefined> {
  return undefined;
}
