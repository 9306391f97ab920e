// The leaf fields a request schema requires (zod 4): a member that fails on `undefined`
// (no .optional(), no .default()); a required object is followed into its members, and is
// itself the leaf when none of them is required (a choice, like payment_details).
import type { z } from 'zod';

type Any = z.ZodType & { shape?: Record<string, z.ZodType>; _zod: { def: { type: string; in?: z.ZodType; innerType?: z.ZodType; shape?: Record<string, z.ZodType> } } };

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let s = schema as Any;
  for (let i = 0; i < 10; i++) {
    const def = s._zod.def;
    if (def.shape) return def.shape;
    const next = def.in ?? def.innerType;
    if (!next) return undefined;
    s = next as Any;
  }
  return undefined;
}

export function requiredPaths(schema: z.ZodType, prefix = ''): string[] {
  const shape = shapeOf(schema);
  if (!shape) return [];
  const out: string[] = [];
  for (const [key, member] of Object.entries(shape)) {
    if (member.safeParse(undefined).success) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const inner = requiredPaths(member, path);
    out.push(...(inner.length > 0 ? inner : [path]));
  }
  return out;
}

/** Every leaf field of the schema, required or not. */
export function allPaths(schema: z.ZodType, prefix = ''): string[] {
  const shape = shapeOf(schema);
  if (!shape) return prefix ? [prefix] : [];
  return Object.entries(shape).flatMap(([key, member]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    const inner = allPaths(member, path);
    return inner.length > 0 ? inner : [path];
  });
}
