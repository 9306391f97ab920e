// The OpenAPI 3.1 document, generated from the route table and its zod schemas
// (z.toJSONSchema emits JSON Schema 2020-12, the dialect OpenAPI 3.1 uses).
import { z } from 'zod';
import type { RouteDef } from './route.js';

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['type', 'message'],
      properties: {
        type: { type: 'string' },
        message: { type: 'string' },
        fields: {
          type: 'array',
          items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Validation error or request not allowed now',
  '401': 'Missing, unknown or revoked credentials',
  '403': 'Permission or group mismatch',
  '404': 'Not found',
  '500': 'Internal error',
};

export function buildOpenApi(routes: RouteDef[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const route of routes.filter((r) => !r.hidden)) {
    const oaPath = route.path.replace(/:([a-z_]+)/g, '{$1}');
    const pathParams = [...route.path.matchAll(/:([a-z_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const queryParams: unknown[] = [];
    if (route.query) {
      const qs = jsonSchema(route.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(qs.properties ?? {})) {
        queryParams.push({ name, in: 'query', required: qs.required?.includes(name) ?? false, schema });
      }
    }
    const status = String(route.status ?? 200);
    const success = route.produces
      ? { description: 'Success', content: { [route.produces]: { schema: { type: 'string', format: 'binary' } } } }
      : {
          description: 'Success',
          content: { 'application/json': { schema: route.response ? jsonSchema(route.response, 'output') : {} } },
        };
    const responses: Record<string, unknown> = { [status]: success };
    for (const [code, description] of Object.entries(ERROR_STATUSES)) {
      if (route.auth.kind === 'public' && (code === '401' || code === '403')) continue;
      responses[code] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    if (route.rateLimit) {
      responses['429'] = {
        description: 'Rate limit exceeded for this client address (Retry-After and RateLimit-* headers set)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const opTags = [route.tag, ...(route.extension ? ['extension'] : [])];
    opTags.forEach((t) => tags.add(t));
    (paths[oaPath] ??= {})[route.method.toLowerCase()] = {
      operationId: `${route.method.toLowerCase()}${oaPath.replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: opTags,
      security:
        route.auth.kind === 'key'
          ? [{ apiKey: [] }]
          : route.auth.kind === 'session'
            ? [{ sessionToken: [] }]
            : route.auth.kind === 'admin'
              ? [{ adminToken: [] }, ...(route.auth.orKey ? [{ apiKey: [] }] : [])]
              : [],
      ...(route.auth.kind === 'key' ? { 'x-permissions': route.auth.anyOf } : {}),
      ...(route.auth.kind === 'admin' && route.auth.orKey ? { 'x-permissions': route.auth.orKey } : {}),
      parameters: [
        ...pathParams,
        ...queryParams,
        ...(route.method === 'POST'
          ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }]
          : []),
      ],
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } } }
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
        'The payments platform API as served by `payctl serve`. Operations tagged `extension` are not in the platform specification but are needed to use it (creating customers, tokens, products …).',
    },
    servers: [{ url: serverUrl }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The API key as the whole header value' },
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
