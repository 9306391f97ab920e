// The request's body: JSON read (and size-checked) on POST, PUT and PATCH, drained
// unread on other methods. A route declaring no body shape takes none; a route with an
// `upload` (a file of any size) reads its body itself, as it arrives.
import { validationError } from '../../errors.js';
import { readJsonBody } from '../body.js';
import type { RouteContext } from '../route.js';
import type { Exchange } from './exchange.js';

export async function readBody(ex: Exchange, ctx: RouteContext): Promise<void> {
  const { route, req } = ex;
  if (route.upload) {
    // A file streamed as it arrives (no 1 MiB bound): the handler reads it. A handler that
    // stops reading early (a refused line, a cap) must leave the socket alone so that its
    // answer reaches the client: Node discards the rest of the body after the answer.
    ctx.upload = { [Symbol.asyncIterator]: () => req.iterator({ destroyOnReturn: false }) };
  } else if (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH') {
    const parsed = await readJsonBody(req);
    ex.raw = parsed.raw;
    ctx.body = parsed.value;
    // Fields sent anyway are refused by name (no mass assignment); an empty body or {} is fine.
    if (!route.body) refuseBody(parsed.value);
  } else {
    req.resume();
  }
}

function refuseBody(value: unknown): void {
  if (value === undefined) return;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return;
    throw validationError(keys.map((key) => ({ path: key, message: 'is not a field of this request (this operation takes no body)' })));
  }
  throw validationError([{ path: '(body)', message: 'this operation takes no body' }]);
}
