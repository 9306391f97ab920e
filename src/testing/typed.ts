// The types `payctl/testing` hands out, from the OpenAPI document (src/client/api.ts,
// generated at build): each event type's payload (the document's `webhooks`), and the
// request body of each operation a sandbox's `request` names by its path template.
// Types only: test/kit/types.ts proves them with @ts-expect-error lines the build checks.
import type { paths, webhooks } from '../client/api.js';

/** Every event type payctl sends (`transaction.settled` …). */
export type EventType = keyof webhooks & string;

/** The event of one type as delivered: `data.object` is that type's object (a Transaction for `transaction.settled`). */
export type EventOf<T extends EventType> = NonNullable<webhooks[T]['post']> extends { requestBody: { content: { 'application/json': infer E } } } ? E : never;

/** Any event payctl sends: the union of every type's event. */
export type AnyEvent = { [T in EventType]: EventOf<T> }[EventType];

/** The events a glob names (`transaction.*`: every transaction event; a glob naming none: any event). */
export type GlobEvent<G extends string> = G extends `${infer Prefix}*`
  ? [Extract<EventType, `${Prefix}${string}`>] extends [never]
    ? AnyEvent
    : EventOf<Extract<EventType, `${Prefix}${string}`>>
  : AnyEvent;

/** A glob of event types: anything with a `*` (`transaction.*`, `*`). */
export type EventGlob = `${string}*${string}`;

/** A path template of the API (`/api/v1/groups/{group_id}/transaction`). */
export type PathTemplate = keyof paths & string;

type Methods = 'get' | 'put' | 'post' | 'delete' | 'patch';
/** The operations of a template, by upper-case method. */
type OperationsOf<P extends PathTemplate> = { [M in Methods as paths[P][M] extends undefined ? never : Uppercase<M>]: NonNullable<paths[P][M]> };

/** The methods a template answers (upper case). */
export type MethodOf<P extends PathTemplate> = keyof OperationsOf<P> & string;

/** A path given to `request`: a known template, or a path with no `{…}` in it (a filled path is not checked). */
export type CheckedPath<P extends string> = P extends PathTemplate
  ? P
  : P extends `${string}{${string}}${string}`
    ? `no operation of the API has the path template ${P}`
    : P;

/** The method given with a path: for a known template, one it answers. */
export type CheckedMethod<M extends string, P extends string> = P extends PathTemplate ? (Uppercase<M> extends MethodOf<P> ? M : MethodOf<P> | Lowercase<MethodOf<P>>) : M;

/** The JSON body an operation takes (unknown where none is declared). */
type BodyOf<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } }
  ? { required: true; body: B }
  : Op extends { requestBody?: { content: { 'application/json': infer B } } }
    ? { required: false; body: B }
    : { required: false; body: unknown };

/** The operation `M P` names, if P is a known template. */
type OperationFor<M extends string, P extends string> = P extends PathTemplate ? (Lowercase<M> extends Methods ? NonNullable<paths[P][Lowercase<M>]> : never) : never;

/** `request`'s options argument: its body typed (and required) where the operation declares one. */
export type RequestArgs<M extends string, P extends string, Base extends { body?: unknown }> = [OperationFor<M, P>] extends [never]
  ? [opts?: Base]
  : BodyOf<OperationFor<M, P>> extends { required: true; body: infer B }
    ? [opts: Omit<Base, 'body'> & { body: B }]
    : BodyOf<OperationFor<M, P>> extends { body: infer B }
      ? [opts?: Omit<Base, 'body'> & { body?: B }]
      : [opts?: Base];
