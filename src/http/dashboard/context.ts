// What a dashboard view is handed: the platform, the request (its URL, a POST's form), the
// session (its CSRF token, the flash of the last action) and the path's ids.
import type http from 'node:http';
import type { DemoSeeder } from '../../services/sandboxes/sandboxes.js';
import type { Platform } from '../../services/platform.js';
import type { ServerRuntime } from '../runtime.js';
import type { Session } from './guard.js';
import type { RouteDef } from '../route.js';

export interface ViewContext {
  p: Platform;
  req: http.IncomingMessage;
  url: URL;
  /** A POST's fields (empty on a GET). */
  form: URLSearchParams;
  session: Session;
  params: Record<string, string>;
  runtime: ServerRuntime;
  /** The demo seeder the server was handed (without it, `demo` is refused as in the API). */
  seedDemo?: DemoSeeder;
  /** The API's request handler and its routes ("send again" runs a call through them in process). */
  api?: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  routes?: readonly RouteDef[];
}

/** An id the page's path pattern captured (routes.ts); a pattern without it is a bug, not a client's error. */
export function pathId(c: ViewContext, name: string): string {
  const v = c.params[name];
  if (v === undefined) throw new Error(`dashboard page without the path id ${name}`);
  return v;
}
