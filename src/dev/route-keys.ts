// Which of a sandbox's keys a scenario request sends when the step names none: the
// permission the route needs, read from the route table (the same declarations that
// authorise the server's requests), so a scenario never spells out a key for the common case.
import type { Method, RouteDef } from '../http/route.js';
import type { Permission } from '../domain/permissions.js';

export type KeyChoice = Permission | 'admin' | 'none';

interface CompiledRoute {
  method: Method;
  pattern: RegExp;
  auth: RouteDef['auth'];
}

let compiled: CompiledRoute[] | undefined;

async function routes(): Promise<CompiledRoute[]> {
  if (compiled) return compiled;
  const { allRoutes } = await import('../http/routes/index.js');
  compiled = allRoutes().map((r) => ({
    method: r.method,
    auth: r.auth,
    pattern: new RegExp(`^${r.path.split('/').map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`),
  }));
  return compiled;
}

/**
 * The key a request to `path` needs: a key route's first permission; an admin route that
 * also takes a key of the group, that key (so a run needs no admin token for clocks and
 * faults); admin for the rest of the admin routes; none for public and session routes.
 */
export async function defaultKey(method: string, path: string): Promise<KeyChoice> {
  const bare = path.split('?')[0]!;
  const route = (await routes()).find((r) => r.method === method && r.pattern.test(bare));
  if (!route) return 'none';
  const auth = route.auth;
  if (auth.kind === 'key') return auth.anyOf[0]!;
  if (auth.kind === 'admin') return auth.orKey?.[0] ?? 'admin';
  return 'none';
}
