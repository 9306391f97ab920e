// Named component schemas for the OpenAPI document, from the same zod schemas the
// server validates with. A schema given `.meta({ id: 'Transaction' })` anywhere becomes
// `#/components/schemas/Transaction` and every use of it a `$ref`; a route's body or
// response without an id still becomes a component, named after its operation, so a
// generated client has a name for every shape. Requests are emitted as their input
// type and responses as their output type (zod's `io`); a named schema used both ways
// whose two forms differ is emitted twice, the request form as `<id>Input`.
import { z } from 'zod';

export type Json = Record<string, unknown>;
export type Io = 'input' | 'output';

export const COMPONENT_PREFIX = '#/components/schemas/';

export interface ComponentRoot {
  schema: z.ZodType;
  io: Io;
  /** Component name when the schema has no id of its own. */
  fallbackName: string;
}

export interface Components {
  schemas: Record<string, Json>;
  /** The `$ref` of each root, in the order given. */
  refs: string[];
}

function idOf(schema: z.ZodType): string | undefined {
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === 'string' ? id : undefined;
}

export function buildComponents(roots: ComponentRoot[]): Components {
  // Every id-carrying schema must be in the registry zod emits from, or zod would put it
  // under a `__shared` document that OpenAPI cannot point into.
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of z.globalRegistry._idmap) registry.add(schema, { id });
  const rootIds = roots.map((root) => {
    const id = idOf(root.schema);
    if (id) return id;
    const existing = registry.get(root.schema)?.id;
    if (existing) return existing;
    registry.add(root.schema, { id: root.fallbackName });
    return root.fallbackName;
  });

  const emitted: Record<Io, Record<string, Json>> = { input: emit(registry, 'input'), output: emit(registry, 'output') };

  // Which components each direction reaches from its roots.
  const used: Record<Io, Set<string>> = { input: new Set(), output: new Set() };
  const visit = (io: Io, id: string) => {
    if (used[io].has(id)) return;
    const schema = emitted[io][id];
    if (!schema) throw new Error(`OpenAPI: no component ${id}`);
    used[io].add(id);
    for (const ref of refsIn(schema)) visit(io, ref);
  };
  roots.forEach((root, i) => visit(root.io, rootIds[i]!));

  const twoForms = new Set(
    [...used.input].filter((id) => used.output.has(id) && JSON.stringify(emitted.input[id]) !== JSON.stringify(emitted.output[id])),
  );
  const nameFor = (io: Io, id: string) => (io === 'input' && twoForms.has(id) ? `${id}Input` : id);
  const schemas: Record<string, Json> = {};
  for (const io of ['output', 'input'] as const) {
    for (const id of used[io]) {
      const schema = io === 'input' ? renameRefs(emitted.input[id]!, (ref) => nameFor('input', ref)) : emitted.output[id]!;
      schemas[nameFor(io, id)] = schema;
    }
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { schemas: sorted, refs: roots.map((root, i) => COMPONENT_PREFIX + nameFor(root.io, rootIds[i]!)) };
}

function emit(registry: z.core.$ZodRegistry<{ id: string }>, io: Io): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => COMPONENT_PREFIX + id,
  }) as { schemas: Record<string, Json> };
  if ('__shared' in schemas) throw new Error('OpenAPI: a schema was emitted outside the components (a cycle or an unregistered id)');
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

/** Component names referenced anywhere inside a schema. */
export function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_PREFIX)) out.push(value.slice(COMPONENT_PREFIX.length));
      else refsIn(value, out);
    }
  }
  return out;
}

function renameRefs(node: Json, rename: (id: string) => string): Json {
  const walk = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(walk);
    if (!n || typeof n !== 'object') return n;
    return Object.fromEntries(
      Object.entries(n).map(([key, value]) =>
        key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_PREFIX)
          ? [key, COMPONENT_PREFIX + rename(value.slice(COMPONENT_PREFIX.length))]
          : [key, walk(value)],
      ),
    );
  };
  return walk(node) as Json;
}

/** A single schema with no named parts (query parameters), inline. */
export function inlineSchema(schema: z.ZodType, io: Io): Json {
  const out = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  delete out.$schema;
  if (out.$defs) throw new Error('OpenAPI: a query schema must not contain named schemas');
  return out;
}
