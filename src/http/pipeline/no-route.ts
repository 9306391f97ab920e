// What a request no route takes is answered: a browser pointed at the server (`GET /`,
// `GET /api/v1`) is sent to the reference at /docs; a path that exists with another
// method is a 405 naming the methods it has (`Allow`), so a client that sent POST where
// GET was meant is told so rather than "not found"; the rest is a 404.
import type { RouteDef } from '../route.js';

/** Where a browser landing on the server's root goes. */
export const ROOT_PATHS = new Set(['/', '/api', '/api/', '/api/v1', '/api/v1/']);
export const DOCS_PATH = '/docs';

/** The pattern of a route path (`/groups/:group_id/…`): one segment per parameter. */
const patternOf = (path: string): RegExp =>
  new RegExp(`^${path.split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}/?$`);

/** The methods the routes answer at a path, in a stable order (polka answers HEAD only where a route says HEAD). */
export function allowedMethods(routes: readonly RouteDef[]): (path: string) => string[] {
  const compiled = routes.map((r) => ({ method: r.method.toUpperCase(), pattern: patternOf(r.path) }));
  return (path) => {
    const methods = new Set<string>();
    for (const r of compiled) {
      if (!r.pattern.test(path)) continue;
      methods.add(r.method);
    }
    return [...methods].sort();
  };
}

/** The small page a redirect carries, for clients that do not follow it. */
export const docsRedirectPage = (): string =>
  `<!doctype html><meta charset="utf-8"><title>payctl</title><p>payctl serves its API under <code>/api/v1</code>: the reference is at <a href="${DOCS_PATH}">${DOCS_PATH}</a>, the OpenAPI document at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>\n`;
