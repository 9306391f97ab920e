// Who may call a route: the rate limit first (every attempt counts, before
// authentication, so failures cannot be retried for free), then the route's kind of
// authentication — a group API key, the sandbox admin token (or, on some routes, a key),
// a payment-link session token, or none.
import { authenticationError, permissionError } from '../../errors.js';
import { authenticateKey } from '../../services/groups/keys.js';
import { forGroup, withGroupClock } from '../../services/platform.js';
import { PERMISSIONS, type Permission } from '../../domain/permissions.js';
import { acceptsAdminToken } from '../admin-token.js';
import type { RouteContext } from '../route.js';
import type { Exchange, Pipeline } from './exchange.js';
import { actingForOf } from './in-process.js';

/** The route's rate limit for the client's address; its headers go on every answer. */
export async function limitRate(p: Pipeline, ex: Exchange, ctx: RouteContext): Promise<void> {
  if (!ex.route.rateLimit) return;
  const limitHeaders = await p.rateLimits.consume(ex.route.rateLimit, ctx.clientIp);
  for (const [name, value] of Object.entries(limitHeaders)) ex.res.setHeader(name, value);
}

/** The route's authentication: sets `ctx.key` (and the group's clock), `ctx.admin` or `ctx.authorization`. */
export async function authenticate(p: Pipeline, ex: Exchange, ctx: RouteContext): Promise<void> {
  const { auth } = ex.route;
  const authorization = ex.req.headers.authorization;
  const inside = actingForOf(ex.req);
  if (inside !== undefined) await actFor(p, ex, ctx, inside);
  else if (auth.kind === 'key') {
    await authorizeKey(p, ex, ctx, authorization, auth.anyOf);
  } else if (auth.kind === 'admin') {
    if (await acceptsAdminToken(p.adminToken, authorization, p.platform.db.shared)) ctx.admin = true;
    else if (auth.orKey) await authorizeKey(p, ex, ctx, authorization, auth.orKey);
    else {
      if (!authorization) throw authenticationError('missing Authorization header: send the sandbox admin token that payctl serve printed');
      // A valid group key is refused as such (403); anything else is unknown (401).
      await authenticateKey(p.platform, authorization, ex.fresh).catch(() => {
        throw authenticationError('unknown admin token: send the sandbox admin token that payctl serve printed');
      });
      throw permissionError("sandbox routes take the sandbox admin token, not a group's API key");
    }
  } else if (auth.kind === 'session') {
    ctx.authorization = authorization;
  }
  // Key authentication checked the cached groups, processors and keys; other routes check them here.
  // Probes (/health, /ready) make no store read of the pipeline's own.
  if (!ctx.key) await ex.fresh;
}

/** A group API key of the path's group with one of `anyOf`; the route then runs on that group's clock. */
async function authorizeKey(p: Pipeline, ex: Exchange, ctx: RouteContext, authorization: string | undefined, anyOf: Permission[]): Promise<void> {
  const key = await authenticateKey(p.platform, authorization, ex.fresh);
  const groupId = ctx.params.group_id;
  if (groupId !== undefined && groupId !== key.group_id) throw permissionError('this API key belongs to another group');
  if (!anyOf.some((perm) => key.permissions.includes(perm))) {
    throw permissionError(`this API key lacks the ${anyOf.join(' or ')} permission`);
  }
  const { groupClock, ...info } = key;
  ctx.key = info;
  ctx.platform = withGroupClock(p.platform, key.group_id, groupClock);
}

/**
 * An in-process call (the dashboard's "send again", ./in-process.ts) acting for a group: on a
 * keyed route, as a key of that group holding every permission; on an admin route, as the
 * admin (the dashboard's session was made from the admin token).
 */
async function actFor(p: Pipeline, ex: Exchange, ctx: RouteContext, groupId: string): Promise<void> {
  const { auth } = ex.route;
  if (auth.kind === 'admin') ctx.admin = true;
  if (auth.kind !== 'key') return;
  if (ctx.params.group_id !== undefined && ctx.params.group_id !== groupId) throw permissionError('this call acts for another group');
  await ex.fresh;
  ctx.platform = await forGroup(p.platform, groupId);
  ctx.key = { id: 'dashboard', group_id: groupId, prefix: '', name: 'dashboard: send again', permissions: [...PERMISSIONS], created_at: ctx.platform.clock.now().toISOString(), revoked_at: null };
}
