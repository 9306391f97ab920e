// The API document and its human-readable page (served from local files, no CDN).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { RawResponse, publicAuth, type RouteDef } from '../route.js';
import { packageRoot } from '../../lib/paths.js';

const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document' });

const jsonSchemaDocument = z.looseObject({ $schema: z.string() }).meta({ id: 'JsonSchemaDocument', description: 'A JSON Schema (draft 2020-12)' });

export function metaRoutes(getRoutes: () => RouteDef[]): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      tag: 'Meta',
      extension: true,
      auth: publicAuth,
      response: openApiDocumentSchema,
      handler: async (c) => {
        const { buildOpenApi } = await import('../openapi.js');
        return buildOpenApi(getRoutes(), c.baseUrl);
      },
    },
    {
      method: 'GET',
      path: '/api/v1/scenario.schema.json',
      summary: 'The JSON Schema of scenario files (docs/scenarios.md), for editors; the package ships it as data/scenario.schema.json',
      tag: 'Meta',
      extension: true,
      auth: publicAuth,
      response: jsonSchemaDocument,
      handler: async () => (await import('../../domain/scenarios.js')).scenarioJsonSchema(),
    },
    {
      method: 'GET',
      path: '/docs',
      summary: 'API reference page',
      tag: 'Meta',
      hidden: true,
      auth: publicAuth,
      handler: async () =>
        new RawResponse(200, await readFile(path.join(packageRoot, 'src/http/pages/docs.html')), {
          'Content-Type': 'text/html; charset=utf-8',
        }),
    },
  ];
}
