// fast-check arbitraries from a route's zod schema, by way of `z.toJSONSchema()`
// (zod-fast-check does not support zod 4). The generator covers the keywords zod emits
// for payctl's schemas (type, properties, required, additionalProperties, propertyNames,
// items, min/maxItems, min/maxLength, pattern, format, minimum, maximum, enum, const,
// anyOf/oneOf, $ref); `mutated()` then damages values the way a hostile client would.
import fc from 'fast-check';
import { z } from 'zod';

export type JsonSchema = { [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

export function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function resolve(s: JsonSchema, root: JsonSchema): JsonSchema {
  if (typeof s.$ref !== 'string') return s;
  if (s.$ref === '#') return root;
  const name = s.$ref.replace(/^#\/(\$defs|definitions)\//, '');
  return root.$defs?.[name] ?? root.definitions?.[name] ?? {};
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 5000;
  const fits = (v: string) => v.length >= min && v.length <= max;
  const byFormat: Record<string, () => fc.Arbitrary<string>> = {
    email: () => fc.emailAddress(),
    uuid: () => fc.uuid(),
    'date-time': () => fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
    date: () => fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    uri: () => fc.webUrl(),
  };
  const choices: Array<fc.Arbitrary<string>> = [];
  if (typeof s.format === 'string' && byFormat[s.format]) choices.push(byFormat[s.format]!().filter(fits));
  if (typeof s.pattern === 'string') {
    try {
      choices.push(fc.stringMatching(new RegExp(s.pattern)).filter(fits));
    } catch {
      // a pattern fast-check cannot generate from: plain strings below
    }
  }
  if (choices.length === 0) {
    choices.push(fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 30)) }));
    // The exact bound, and one past it.
    if (s.maxLength !== undefined && s.maxLength <= 6000) {
      choices.push(fc.constant('b'.repeat(s.maxLength)), fc.constant('b'.repeat(s.maxLength + 1)));
    }
  }
  return fc.oneof(...choices);
}

function integerArb(s: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(typeof s.minimum === 'number' ? s.minimum : -MAX_SAFE, -MAX_SAFE);
  const max = Math.min(typeof s.maximum === 'number' ? s.maximum : MAX_SAFE, MAX_SAFE);
  const small = fc.integer({ min: Math.max(min, -1_000_000), max: Math.max(Math.min(max, 1_000_000), Math.max(min, -1_000_000)) });
  return fc.oneof({ weight: 4, arbitrary: small }, { weight: 1, arbitrary: fc.constantFrom(min, max) });
}

/** An arbitrary of values that (mostly) satisfy `schema`. */
export function arbFromJsonSchema(schema: JsonSchema, root: JsonSchema = schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, root);
  if (depth > 8) return fc.constant(null);
  const sub = (x: JsonSchema) => arbFromJsonSchema(x, root, depth + 1);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map(sub));
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return sub(s.allOf[0]);
  if (Array.isArray(s.type)) return fc.oneof(...(s.type as string[]).map((t) => sub({ ...s, type: t })));
  switch (s.type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((s.required ?? []) as string[]);
      const keys = Object.keys(props);
      if (keys.length > 0) {
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const k of keys) model[k] = sub(props[k]!);
        return fc.record(model, { requiredKeys: keys.filter((k) => required.has(k)) });
      }
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        const keyArb = s.propertyNames ? (sub({ type: 'string', ...s.propertyNames }) as fc.Arbitrary<string>) : fc.string({ maxLength: 20 });
        return fc.dictionary(keyArb, sub(s.additionalProperties as JsonSchema), { maxKeys: 4 });
      }
      return fc.constant({});
    }
    case 'array': {
      const min = s.minItems ?? 0;
      return fc.array(s.items ? sub(s.items as JsonSchema) : fc.jsonValue({ maxDepth: 2 }), {
        minLength: min,
        maxLength: Math.min(s.maxItems ?? min + 3, min + 3),
      });
    }
    case 'string':
      return stringArb(s);
    case 'integer':
      return integerArb(s);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: s.minimum ?? -1e12, max: s.maximum ?? 1e12 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------------------
// Mutations

/** Values a hostile or sloppy client sends where something else belongs. */
export const HOSTILE_VALUES: unknown[] = [
  null, -1, 0, 1.5, '100', 1e21, 2 ** 64, 9007199254740992, -0.0000001, '', ' ', '-1', '1e3', 'NaN', 'Infinity',
  'x'.repeat(5001), '\u0000', '\u202e\u0000\uffff', '😀'.repeat(40), '<script>alert(1)</script>', "' OR 1=1 --", '../../etc/passwd',
  '2027-02-30', '0000-00-00T00:00:00Z', [], {}, true, false, [[[[[[[[[[]]]]]]]]]], { $ne: 1 }, JSON.parse('{"__proto__":{"polluted":true}}'),
  ['a', 1, null], '9'.repeat(400), 'USD\u0000', 'tok_visa', 'sale',
];

export const UNKNOWN_KEYS = ['status', 'group_id', 'captured_amount', 'id', 'created_at', '__proto__', 'constructor', 'prototype', 'toString', ''];

type Mutation = { kind: 'drop' | 'add' | 'replace' | 'wrap'; at: number; value: unknown; key: string };

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('drop', 'add', 'replace', 'wrap'),
  at: fc.nat(),
  value: fc.oneof(fc.constantFrom(...HOSTILE_VALUES), fc.jsonValue({ maxDepth: 2 })),
  key: fc.oneof(fc.constantFrom(...UNKNOWN_KEYS), fc.string({ maxLength: 12 })),
});

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };

function slots(value: unknown, out: Slot[] = [], containers: Array<Record<string, unknown> | unknown[]> = []): { slots: Slot[]; containers: Array<Record<string, unknown> | unknown[]> } {
  if (value !== null && typeof value === 'object') {
    containers.push(value as Record<string, unknown>);
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    for (const [k, v] of entries) {
      out.push({ parent: value as Record<string, unknown>, key: k });
      slots(v, out, containers);
    }
  }
  return { slots: out, containers };
}

function applyMutation(root: unknown, m: Mutation): unknown {
  const value = structuredClone(root);
  const { slots: all, containers } = slots(value);
  if (m.kind === 'add') {
    const objects = containers.filter((c) => !Array.isArray(c)) as Array<Record<string, unknown>>;
    if (objects.length === 0) return value;
    // defineProperty so "__proto__" becomes an own key, as JSON.parse would make it.
    Object.defineProperty(objects[m.at % objects.length]!, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    return value;
  }
  if (all.length === 0) return m.kind === 'drop' ? value : m.value;
  const slot = all[m.at % all.length]!;
  const parent = slot.parent as Record<string | number, unknown>;
  if (m.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(slot.key as number, 1);
    else delete parent[slot.key];
  } else if (m.kind === 'replace') parent[slot.key] = m.value;
  else parent[slot.key] = [parent[slot.key]];
  return value;
}

/** Values from `base`, each damaged by up to three mutations (sometimes none). */
export function mutated(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.array(mutationArb, { maxLength: 3 })).map(([v, ms]) => ms.reduce((acc, m) => applyMutation(acc, m), v));
}

// ---------------------------------------------------------------------------
// Walking a schema for targeted tests

export interface FieldInfo {
  /** Dotted path; array items as index 0. */
  path: string[];
  schema: JsonSchema;
  /** The field also takes a digit string (uint64Loose). */
  loose: boolean;
}

/** Every field of a body schema with its (resolved) schema, following anyOf branches. */
export function fieldsOf(schema: JsonSchema, root: JsonSchema = schema, path: string[] = [], out: FieldInfo[] = [], depth = 0): FieldInfo[] {
  const s = resolve(schema, root);
  if (depth > 8) return out;
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (alternatives) {
    const loose = alternatives.some((a) => resolve(a, root).type === 'integer') && alternatives.some((a) => resolve(a, root).type === 'string');
    if (loose && path.length > 0) {
      const int = alternatives.map((a) => resolve(a, root)).find((a) => a.type === 'integer')!;
      out.push({ path, schema: int, loose: true });
      return out;
    }
    for (const a of alternatives) fieldsOf(a, root, path, out, depth + 1);
    return out;
  }
  if (s.type === 'object' && s.properties) {
    for (const [k, v] of Object.entries(s.properties as Record<string, JsonSchema>)) fieldsOf(v, root, [...path, k], out, depth + 1);
    return out;
  }
  if (s.type === 'array' && s.items) {
    fieldsOf(s.items as JsonSchema, root, [...path, '0'], out, depth + 1);
    return out;
  }
  if (path.length > 0) out.push({ path, schema: s, loose: false });
  return out;
}

/** A copy of `body` with `value` at `path` (objects/arrays created on the way). */
export function setAt(body: unknown, path: string[], value: unknown): Record<string, unknown> {
  const root = (body !== null && typeof body === 'object' && !Array.isArray(body) ? structuredClone(body) : {}) as Record<string, unknown>;
  let node: Record<string, unknown> | unknown[] = root;
  path.forEach((key, i) => {
    const last = i === path.length - 1;
    const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
    const container = node as Record<string, unknown>;
    if (last) container[key] = value;
    else {
      const existing = container[key];
      const fits = nextIsIndex ? Array.isArray(existing) : existing !== null && typeof existing === 'object' && !Array.isArray(existing);
      if (!fits) container[key] = nextIsIndex ? [] : {};
      node = container[key] as Record<string, unknown>;
    }
  });
  return root;
}
