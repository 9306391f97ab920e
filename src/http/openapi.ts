// The OpenAPI 3.1 document, generated from the route table and its zod schemas
// (z.toJSONSchema emits JSON Schema 2020-12, the dialect OpenAPI 3.1 uses). Everything
// an operation says beyond its schemas is derived from its declaration: statuses and
// headers (openapi-responses.ts), the named components (openapi-components.ts), the
// description of who may call it, how list filters are encoded, and its examples
// (data/examples/<component-name>.json, see openapi-examples.ts).
import { faultsApply, type RouteDef } from './route.js';
import { EVENT_TYPES, eventSchemaOf } from '../domain/events.js';
import { buildComponents, inlineSchema, type ComponentRoot, type Json } from './openapi-components.js';
import { errorStatuses, successStatuses, takesIdempotencyKey, type StatusDoc } from './openapi-responses.js';
import { exampleFor } from './openapi-examples.js';
import { errorBodySchema } from '../errors.js';
import { MAX_KEY_LENGTH } from '../services/idempotency.js';

export const operationId = (route: RouteDef): string =>
  `${route.method.toLowerCase()}${openApiPath(route).replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;

export const openApiPath = (route: RouteDef): string => route.path.replace(/:([a-z_]+)/g, '{$1}');

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const HEADERS: Record<string, Json> = {
  'Request-Id': {
    description: "This request's id (UUID v7): the access log records it, and the events the request caused carry it as `request.id`. Quote it when reporting a problem.",
    schema: { type: 'string', format: 'uuid' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying (a rate limit: until a request from this address is allowed again; a 503: when the store or the server may answer again)', schema: { type: 'integer', minimum: 0 } },
  'Payctl-Fault': {
    description:
      'The fault this sandbox injected into this call (docs/faults.md): `action; parameters; rule=<id|simulate>; call=<n>`, like `error; status=503; rule=…; call=2`. Absent when none was.',
    schema: { type: 'string' },
  },
  RateLimit: { description: 'IETF RateLimit header: `limit=<n>, remaining=<n>, reset=<seconds>`', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The limit and its window: `<points>;w=<seconds>`', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the next request is allowed', schema: { type: 'integer', minimum: 1 } },
  'Idempotent-Replayed': {
    description: '`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The one-off fault header of a sandbox's own calls (faultsApply). */
const SIMULATE_PARAMETER: Json = {
  name: 'Payctl-Simulate',
  in: 'header',
  required: false,
  description:
    'Sandboxes only (400 elsewhere): one injected fault for this call. `timeout_after_commit` (the work commits, the connection closes unanswered), `error=503` (or 500, 502, 504, `error=429;retry_after=2`; answered before anything is done), `latency=2s`, `decline=91`, `avs_mismatch`, `cvv_mismatch`. See docs/faults.md.',
  schema: { type: 'string', maxLength: 100 },
};

function authSentence(route: RouteDef): string {
  switch (route.auth.kind) {
    case 'key':
      return `Authorization: an API key of the path's group with the ${route.auth.anyOf.map((p) => `\`${p}\``).join(' or ')} permission.`;
    case 'session':
      return 'Authorization: the session token of this payment link (from its public retrieval).';
    case 'admin':
      return route.auth.orKey
        ? `Authorization: the sandbox admin token, or an API key of the path's group with the ${route.auth.orKey.map((p) => `\`${p}\``).join(' or ')} permission.`
        : 'Authorization: the sandbox admin token (not a group\'s API key).';
    case 'public':
      return 'No API key.';
  }
}

function security(route: RouteDef): Json[] {
  switch (route.auth.kind) {
    case 'key':
      return [{ apiKey: [] }];
    case 'session':
      return [{ sessionToken: [] }];
    case 'admin':
      return [{ adminToken: [] }, ...(route.auth.orKey ? [{ apiKey: [] }] : [])];
    case 'public':
      return [];
  }
}

function description(route: RouteDef): string {
  const text = route.description ?? `${route.summary}.`;
  return [
    text,
    ...(route.auth.kind === 'public' && /no api key/i.test(text) ? [] : [authSentence(route)]),
    ...(takesIdempotencyKey(route) ? ['A retry with the same Idempotency-Key and body returns the stored answer (Idempotent-Replayed: true).'] : []),
    ...(route.noIdempotency ? [`Idempotency-Key is refused (400): ${route.noIdempotency}.`] : []),
  ].join('\n\n');
}

/** Query parameters: each property of the route's query schema. */
function queryParameters(route: RouteDef): Json[] {
  if (!route.query) return [];
  const input = inlineSchema(route.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
  // Documented by the value the server parses a parameter into (an integer, an enum, a
  // list) when that is representable, else by the text it takes.
  const output = inlineSchema(route.query, 'output') as { properties?: Record<string, Json> };
  return Object.entries(input.properties ?? {}).map(([name, inSchema]) => {
    const outSchema = output.properties?.[name];
    const schema = outSchema && 'type' in outSchema ? outSchema : inSchema;
    const { description: text, ...rest } = schema as Json & { description?: string };
    const param: Json = { name, in: 'query', required: input.required?.includes(name) ?? false, schema: rest };
    if (rest.type === 'array') {
      // The comma form is what the schema describes; the server reads the other two as well.
      param.style = 'form';
      param.explode = false;
      param.description = [
        text,
        `A list: \`${name}=a,b\`; repeated keys (\`${name}=a&${name}=b\`) and bracket keys (\`${name}[]=a&${name}[]=b\`) are accepted too.`,
      ]
        .filter(Boolean)
        .join(' ');
    } else if (text) {
      param.description = text;
    }
    return param;
  });
}

function response(doc: StatusDoc, content: Json | undefined): Json {
  return {
    description: doc.description,
    ...(doc.headers.length ? { headers: Object.fromEntries(doc.headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])) } : {}),
    ...(content ? { content } : {}),
  };
}

/** One event type as a webhook: what payctl POSTs to a subscribed endpoint, signed per Standard Webhooks. */
function webhook(type: string, ref: string): Json {
  const header = (name: string, description: string) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } });
  return {
    post: {
      operationId: `webhook_${type.replace('.', '_')}`,
      summary: `The ${type} event`,
      description: `Sent to each enabled endpoint subscribed to ${type} (or a wildcard covering it), after the change committed. A 2xx answer within 10 s acknowledges it; anything else is retried on the group's clock.`,
      tags: ['Events'],
      parameters: [
        header('webhook-id', 'The event id (the same on every retry: use it to drop duplicates)'),
        header('webhook-timestamp', 'Unix seconds when this attempt was signed'),
        header('webhook-signature', 'Standard Webhooks signature: `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the endpoint secret'),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: ref } } } },
      responses: { '200': { description: 'Received (any 2xx)' } },
    },
  };
}

export function buildOpenApi(routes: RouteDef[], serverUrl: string): Record<string, unknown> {
  const visible = routes.filter((r) => !r.hidden);
  // Every body and JSON response becomes a component (named by its zod id, or after the operation).
  const roots: ComponentRoot[] = [{ schema: errorBodySchema, io: 'output', fallbackName: 'Error' }];
  const slots = visible.map((route) => {
    const name = pascal(operationId(route));
    const body = route.body ? roots.push({ schema: route.body, io: 'input', fallbackName: `${name}Request` }) - 1 : undefined;
    const res = route.response ? roots.push({ schema: route.response, io: 'output', fallbackName: `${name}Response` }) - 1 : undefined;
    const messages = Object.entries(route.stream?.messages ?? {}).map(
      ([message, schema]) => [message, roots.push({ schema, io: 'output', fallbackName: `${name}${pascal(message)}` }) - 1] as const,
    );
    const others = Object.entries(route.otherResponses ?? {}).map(
      ([status, schema]) => [Number(status), roots.push({ schema, io: 'output', fallbackName: `${name}Response${status}` }) - 1] as const,
    );
    return { route, body, res, messages, others: new Map(others) };
  });
  // Every event type's payload, from the same zod schemas the event log is checked with.
  const eventRoots = EVENT_TYPES.map((type) => roots.push({ schema: eventSchemaOf(type), io: 'output', fallbackName: `Event_${type}` }) - 1);
  const components = buildComponents(roots);
  const errorRef = components.refs[0]!;
  const jsonContent = (ref: string): Json => {
    const example = exampleFor(ref);
    return { 'application/json': { schema: { $ref: ref }, ...(example !== undefined ? { example } : {}) } };
  };

  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const { route, body, res, messages, others } of slots) {
    const successContent = route.stream
      ? {
          [route.produces ?? 'text/event-stream']: {
            schema: { type: 'string', description: route.stream.description },
            example: route.stream.example,
            // What each message's data: is (OpenAPI 3.1 has no field for the items of a stream).
            'x-sse-messages': Object.fromEntries(messages.map(([message, i]) => [message, { $ref: components.refs[i]! }])),
          },
        }
      : route.produces
      ? { [route.produces]: { schema: { type: 'string', format: 'binary' } } }
      : res !== undefined
        ? jsonContent(components.refs[res]!)
        : { 'application/json': { schema: { type: 'object' } } };
    const responses: Record<string, Json> = {};
    for (const doc of successStatuses(route)) {
      const other = others.get(doc.status);
      responses[String(doc.status)] = response(doc, other === undefined ? successContent : jsonContent(components.refs[other]!));
    }
    for (const doc of errorStatuses(route)) responses[String(doc.status)] = response(doc, { 'application/json': { schema: { $ref: errorRef } } });
    const opTags = [route.tag, ...(route.extension ? ['extension'] : [])];
    opTags.forEach((t) => tags.add(t));
    (paths[openApiPath(route)] ??= {})[route.method.toLowerCase()] = {
      operationId: operationId(route),
      summary: route.summary,
      description: description(route),
      tags: opTags,
      security: security(route),
      ...(route.auth.kind === 'key' ? { 'x-permissions': route.auth.anyOf } : {}),
      ...(route.auth.kind === 'admin' && route.auth.orKey ? { 'x-permissions': route.auth.orKey } : {}),
      parameters: [
        ...[...route.path.matchAll(/:([a-z_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
        ...queryParameters(route),
        ...Object.entries(route.requestHeaders ?? {}).map(([name, text]) => ({ name, in: 'header', required: false, description: text, schema: { type: 'string' } })),
        ...(takesIdempotencyKey(route) ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
        ...(faultsApply(route) ? [SIMULATE_PARAMETER] : []),
      ],
      ...(body !== undefined ? { requestBody: { required: true, content: jsonContent(components.refs[body]!) } } : {}),
      ...(route.upload
        ? { requestBody: { required: true, description: route.upload.description, content: { [route.upload.contentType]: { schema: { type: 'string', format: 'binary' } } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'payctl payments platform API',
      version: '1.0.0',
      description:
        'The payments platform API as served by `payctl serve`. Operations tagged `extension` are not in the platform specification but are needed to use it (creating customers, tokens, products …). Every error answer is the `Error` object; amounts are integers in cents; timestamps are RFC 3339 in UTC with milliseconds.',
      contact: { name: 'payctl maintainers' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl, description: 'This server' }],
    tags: [...tags].sort().map((name) => ({ name, description: name === 'extension' ? 'Not in the platform specification; needed to use it' : `${name} operations` })),
    paths,
    webhooks: Object.fromEntries(EVENT_TYPES.map((type, i) => [type, webhook(type, components.refs[eventRoots[i]!]!)])),
    components: {
      schemas: components.schemas,
      headers: HEADERS,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: `Makes a retry safe: scoped to the caller's group, kept 24 hours of platform time. The same key with another body is a 422; while the first request runs, a 409.`,
          schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH },
        },
      },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The API key as the whole header value (a `Bearer ` prefix is tolerated)' },
        sessionToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'A payment link session token' },
        adminToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The sandbox admin token printed by `payctl serve` at start (or given with --admin-token / PAYCTL_ADMIN_TOKEN)',
        },
      },
    },
  };
}
