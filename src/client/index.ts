// `payctl/client`: a typed client of the whole /api/v1 API. openapi-fetch over the types
// openapi-typescript generates from the server's OpenAPI document at build time (api.ts).
// Its methods are typed more strictly than openapi-fetch's own (TypedClient): the request
// options are not inferred but checked against the operation, so a misspelled or unknown
// body field is an error too, like a wrong type or a missing required field. `key` goes
// in Authorization on every call (a call's own `headers: { Authorization }` wins).
import createFetchClient, { type ClientOptions, type FetchOptions, type FetchResponse, type Middleware } from 'openapi-fetch';
import type { paths } from './api.js';

export type { paths, components, operations, webhooks } from './api.js';
export type { ClientOptions, Middleware } from 'openapi-fetch';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';
/** The paths that have operation `M`. */
export type PathsWith<Paths, M extends HttpMethod> = { [P in keyof Paths]: Paths[P] extends Record<M, {}> ? P : never }[keyof Paths];
/** The operation `M` of path `P`. */
type OperationOf<Paths, P extends keyof Paths, M extends HttpMethod> = Paths[P] extends Record<M, infer Op extends Record<string | number, any>> ? Op : never; // eslint-disable-line @typescript-eslint/no-explicit-any
/** The options of a call: optional when nothing in them is required (no path parameter, no body). */
type InitOf<Op> = {} extends FetchOptions<Op> ? [init?: FetchOptions<Op>] : [init: FetchOptions<Op>];
type Call<Paths, M extends HttpMethod> = <P extends PathsWith<Paths, M>>(
  url: P,
  ...init: InitOf<OperationOf<Paths, P, M>>
) => Promise<FetchResponse<OperationOf<Paths, P, M>, {}, `${string}/${string}`>>;

/** A client of `Paths`: `{ data, error, response }` per call, both typed by the operation and status. */
export interface TypedClient<Paths = paths> {
  GET: Call<Paths, 'get'>;
  POST: Call<Paths, 'post'>;
  PUT: Call<Paths, 'put'>;
  PATCH: Call<Paths, 'patch'>;
  DELETE: Call<Paths, 'delete'>;
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
}

export interface CreateClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where payctl serves, e.g. `http://127.0.0.1:4000` (the paths start with /api/v1). */
  baseUrl: string;
  /** An API key (or the sandbox admin token) sent as Authorization. */
  key?: string;
}

/** A typed client; list parameters are sent as the document declares them (`types=a,b`). */
export function createClient<Paths extends {} = paths>(opts: CreateClientOptions): TypedClient<Paths> {
  const { key, headers, ...rest } = opts;
  return createFetchClient<Paths>({
    querySerializer: { array: { style: 'form', explode: false } },
    ...rest,
    baseUrl: opts.baseUrl.replace(/\/$/, ''),
    headers: { ...(key ? { Authorization: key } : {}), ...(headers as Record<string, string> | undefined) },
  }) as unknown as TypedClient<Paths>;
}
