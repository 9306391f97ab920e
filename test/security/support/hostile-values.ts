// Values at and past every bound (docs/decisions.md: #amounts, #time, #unknown-fields), by the kind of field they go to,
// and the probe that sends them to a route while another group keeps selling:
// amounts (0 … 2^53 and beyond, signs, fractions, exponents, strings), dates (years 1969,
// 1970, 9999, 10000, leap days, impossible days and hours, offsets, missing zones, odd
// widths), counts (min-1, min, max, max+1), lengths (at and past 5,000 and each
// maxLength), nesting depth, Unicode (astral, lone surrogates, NUL, RTL, combining marks).
// Shared by test/security/hostile-values.test.ts (few runs) and
// test/reliability/hostile-values.soak.ts (many).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { RouteDef } from '../../../src/http/route.js';
import { GROUP_TABLES } from '../../../src/store/sql/group-tables.js';
import { MAX_AMOUNT } from '../../../src/domain/money.js';
import { saleBody } from '../../helpers/bodies.js';
import { baselineQuery, buildBody, bodyBuilder, type World } from './fixtures.js';
import { fieldsOf, toJsonSchema, type JsonSchema } from './json-schema-arb.js';
import { assertWellFormed, sendTo, type Outgoing, type Reply, type Sessions } from './requests.js';
import { TRAFFIC_TABLES } from '../../helpers/sandboxes.js';

// ---------------------------------------------------------------------------
// Values

/** A JSON number text JavaScript cannot hold exactly; spliced into the raw body. */
const raw = (text: string) => `__RAW__${text}__`;
const unraw = (json: string) => json.replace(/"__RAW__(.*?)__"/g, '$1');

export const AMOUNTS: unknown[] = [
  0, 1, MAX_AMOUNT, MAX_AMOUNT + 1, 2 ** 53 - 1, raw('9007199254740992'), raw('18446744073709551616'), raw('1' + '0'.repeat(400)),
  -1, raw('-0'), -MAX_AMOUNT, 0.5, 1.0000001, raw('1.0'), raw('1e3'), raw('1E+2'), 1e21, raw('1e400'), raw('-1e-400'),
  '0', '1', String(MAX_AMOUNT), String(MAX_AMOUNT + 1), '9007199254740992', '-1', '1.5', '1e3', '0x10', ' 1', '1 ', '', '٣', '１',
];

export const DATES: unknown[] = [
  '1969-12-31', '1970-01-01', '1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00Z', '9999-12-31', '9999-12-31T23:59:59.999Z',
  '10000-01-01', '10000-01-01T00:00:00Z', '+010000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '0000-01-01',
  '2024-02-29', '2023-02-29', '2100-02-29', '2000-02-29T12:00:00Z', '2027-02-31', '2027-04-31T00:00:00Z', '2027-13-01', '2027-00-10',
  '2027-01-01T24:00:00Z', '2027-01-01T23:60:00Z', '2027-01-01T23:59:60Z', '2027-01-01T00:00:00+23:59', '2027-01-01T00:00:00-23:59',
  '2027-01-01T00:00:00+24:00', '2027-01-01T00:00:00+2359', '2027-01-01T00:00:00', '2027-01-01T00:00', '2027-01-01T00:00Z',
  '2027-01-01T00:00:00.123456789Z', '2027-01-01t00:00:00z', '2027-01-01 00:00:00Z', '2027-1-1', '27-01-01', '02027-01-01',
  '2027-01-01Z', '2027-W01-1', '2027-001', 'now', '', 0, -1, 253402300800000, 1.5,
];

const LONG = 5000;
export const STRINGS: unknown[] = [
  '', ' ', 'x'.repeat(LONG), 'x'.repeat(LONG + 1), 'é'.repeat(LONG), 'é'.repeat(LONG + 1), '😀'.repeat(LONG / 2), '😀'.repeat(LONG),
  '\uD800', 'a\uDFFFb\uD800', '\uDBFF\uDFFF', 'a\u0000b', '\u0000', '\u202Eevil\u202C', '\u200F\u0627\u0644', 'e\u0301'.repeat(LONG / 2),
  'a' + '\u0301'.repeat(LONG), '\uFEFF', '\u2028\u2029', '𝕏𝔂𝖟', '\uFFFF\uFFFE', '%00', '\\u0000',
];

/** Depths of nested arrays/objects put where one value belongs. */
export const DEPTHS = [32, 64, 256, 2048];

export type Kind = 'amount' | 'count' | 'date' | 'string' | 'other';

export interface Field {
  path: string[];
  kind: Kind;
  schema: JsonSchema;
}

const DATE_NAME = /(date|_at|time|until|since|start|end|clock|now|expires?|from|to)$/i;

function kindOf(path: string[], s: JsonSchema, loose: boolean): Kind {
  const name = path[path.length - 1] ?? '';
  if (s.type === 'integer' || s.type === 'number' || loose) return s.maximum === MAX_AMOUNT || /amount/.test(name) ? 'amount' : 'count';
  if (s.type === 'string' && (s.format === 'date' || s.format === 'date-time' || DATE_NAME.test(name))) return 'date';
  if (s.type === 'string' || Array.isArray(s.enum)) return 'string';
  return 'other';
}

/** Every leaf field of a schema with its kind (amount fields get AMOUNTS, counts their own bounds). */
export function fieldsFor(schema: JsonSchema): Field[] {
  const seen = new Set<string>();
  const out: Field[] = [];
  for (const f of fieldsOf(schema)) {
    const key = f.path.join('.');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: f.path, kind: kindOf(f.path, f.schema, f.loose), schema: f.schema });
  }
  return out;
}

/** Arrays of a schema (a field path with an index 0 in it) and their maxItems. */
export function arraysFor(schema: JsonSchema): Array<{ path: string[]; max?: number }> {
  const out = new Map<string, { path: string[]; max?: number }>();
  const walk = (s: JsonSchema, path: string[], depth: number) => {
    if (!s || depth > 8) return;
    if (s.$ref && typeof s.$ref === 'string') s = s.$ref === '#' ? schema : (schema.$defs?.[s.$ref.replace(/^#\/\$defs\//, '')] ?? {});
    for (const alt of (s.anyOf ?? s.oneOf ?? []) as JsonSchema[]) walk(alt, path, depth + 1);
    if (s.type === 'array') {
      out.set(path.join('.'), { path, max: typeof s.maxItems === 'number' ? s.maxItems : undefined });
      if (s.items) walk(s.items, [...path, '0'], depth + 1);
    }
    if (s.type === 'object' && s.properties) for (const [k, v] of Object.entries(s.properties as Record<string, JsonSchema>)) walk(v, [...path, k], depth + 1);
  };
  walk(schema, [], 0);
  return [...out.values()].filter((a) => a.path.length > 0);
}

/** The values for one field: its kind's list, its own bounds ±1, and Unicode everywhere text goes. */
export function valuesFor(f: Field): unknown[] {
  const s = f.schema;
  const own: unknown[] = [];
  if (typeof s.minimum === 'number') own.push(s.minimum - 1, s.minimum);
  if (typeof s.maximum === 'number') own.push(s.maximum, s.maximum + 1);
  if (typeof s.maxLength === 'number' && s.maxLength < 100_000) own.push('y'.repeat(s.maxLength), 'y'.repeat(s.maxLength + 1), '😀'.repeat(s.maxLength));
  if (typeof s.minLength === 'number' && s.minLength > 0) own.push('y'.repeat(s.minLength - 1));
  switch (f.kind) {
    case 'amount':
      return [...own, ...AMOUNTS];
    case 'count':
      return [...own, 0, 1, -1, 2 ** 31, 2 ** 53 - 1, raw('9007199254740992'), 0.5, raw('1e3'), '1', ''];
    case 'date':
      return [...own, ...DATES, ...STRINGS.slice(8, 16)];
    case 'string':
      return [...own, ...STRINGS];
    default:
      return [...own, 0, '', '\u0000', 'x'.repeat(LONG + 1)];
  }
}

export type Damage =
  | { kind: 'value'; path: string[]; value: unknown }
  | { kind: 'count'; path: string[]; n: number }
  | { kind: 'nest'; path: string[]; depth: number; objects: boolean };

/** Damages of a body schema: one value at a field, an array of n items, nesting at a field. */
export function damagesFor(schema: JsonSchema): Damage[] {
  const fields = fieldsFor(schema);
  const out: Damage[] = [];
  for (const f of fields) for (const value of valuesFor(f)) out.push({ kind: 'value', path: f.path, value });
  for (const a of arraysFor(schema)) {
    const ns = a.max !== undefined ? [0, 1, a.max, a.max + 1] : [0, 1, 1000, 10_001];
    for (const n of ns) out.push({ kind: 'count', path: a.path, n });
  }
  const nestAt = [[], ...fields.map((f) => f.path).slice(0, 6)];
  for (const path of nestAt) for (const depth of DEPTHS) for (const objects of [false, true]) out.push({ kind: 'nest', path: path.length ? path : ['nested'], depth, objects });
  return out;
}

function get(body: unknown, path: string[]): unknown {
  let node = body;
  for (const k of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined;
  return node;
}

function put(body: Record<string, unknown>, path: string[], value: unknown): void {
  let node: Record<string, unknown> = body;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(path[i + 1]!);
    const existing = node[key];
    const fits = nextIsIndex ? Array.isArray(existing) : existing !== null && typeof existing === 'object' && !Array.isArray(existing);
    if (!fits) node[key] = nextIsIndex ? [] : {};
    node = node[key] as Record<string, unknown>;
  });
}

/** The raw JSON of `base` with every damage applied. */
export function damagedBody(base: unknown, damages: Damage[]): string {
  const body = (base !== null && typeof base === 'object' && !Array.isArray(base) ? structuredClone(base) : {}) as Record<string, unknown>;
  const nests: Array<{ mark: string; text: string }> = [];
  damages.forEach((d, i) => {
    if (d.kind === 'value') put(body, d.path, d.value);
    else if (d.kind === 'count') {
      const item = get(base, [...d.path, '0']) ?? get(body, [...d.path, '0']) ?? 'x';
      put(body, d.path, Array.from({ length: d.n }, () => structuredClone(item)));
    } else {
      const mark = `__NEST${i}__`;
      nests.push({ mark, text: d.objects ? '{"a":'.repeat(d.depth) + '1' + '}'.repeat(d.depth) : '['.repeat(d.depth) + ']'.repeat(d.depth) });
      put(body, d.path, mark);
    }
  });
  let text = unraw(JSON.stringify(body));
  for (const n of nests) text = text.replace(`"${n.mark}"`, n.text);
  return text;
}

export function describeDamage(d: Damage): string {
  const at = d.path.join('.');
  if (d.kind === 'count') return `${at}=[${d.n} items]`;
  if (d.kind === 'nest') return `${at}=${d.objects ? 'objects' : 'arrays'} ${d.depth} deep`;
  const v = typeof d.value === 'string' ? JSON.stringify(d.value.length > 40 ? `${d.value.slice(0, 20)}…(${d.value.length})` : d.value) : String(d.value);
  return `${at}=${v}`;
}

/** Query values: the same lists as text (a query has no types). */
export function queryDamagesFor(schema: JsonSchema): Array<{ name: string; value: string }> {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const out: Array<{ name: string; value: string }> = [];
  for (const [name, s0] of Object.entries(props)) {
    const s = (s0.anyOf?.[0] as JsonSchema | undefined) ?? s0;
    const kind = kindOf([name], s, false);
    const values = valuesFor({ path: [name], kind: kind === 'other' ? 'string' : kind, schema: s })
      .filter((v) => v !== null && typeof v !== 'object')
      .map((v) => (typeof v === 'string' && v.startsWith('__RAW__') ? v.slice(7, -2) : String(v)));
    for (const value of new Set(values)) out.push({ name, value });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Nothing half-written: a fingerprint of one group's rows

/** Tables of a group and a hash of its rows in each (api_keys by count: using a key stamps it). */
export async function groupFingerprint(w: World, groupId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const t of GROUP_TABLES) {
    if (TRAFFIC_TABLES.has(t.table)) continue;
    const owner = t.owner;
    let sql: string;
    if ('parent' in owner) {
      const parent = GROUP_TABLES.find((p) => p.table === owner.parent);
      if (!parent || 'parent' in parent.owner) continue;
      sql = `SELECT * FROM "${t.table}" WHERE "${owner.column}" IN (SELECT "${parent.id ?? 'id'}" FROM "${parent.table}" WHERE "${parent.owner.column}" = ?)`;
    } else sql = `SELECT * FROM "${t.table}" WHERE "${owner.column}" = ?`;
    const rows = await w.s.p.db.all<Record<string, unknown>>(sql, [groupId]);
    const lines = t.table === 'api_keys' ? [] : rows.map((r) => JSON.stringify(r)).sort();
    out.set(t.table, `${rows.length}:${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 12)}`);
  }
  return out;
}

export function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
}

// ---------------------------------------------------------------------------
// The other group: sales in a loop while the probe runs

export class SalesLoop {
  answered = 0;
  expected = 0n;
  readonly failures: string[] = [];
  private running = true;
  private done?: Promise<void>;

  constructor(private readonly w: World) {}

  start(): void {
    this.done = (async () => {
      for (let i = 0; this.running; i++) {
        // Large, varied amounts: the sum is checked to the cent at the end.
        const amount = MAX_AMOUNT - i;
        const r = await this.w.s.call('POST', `/api/v1/groups/${this.w.b.groupId}/transaction`, {
          key: this.w.b.allKey,
          body: saleBody(this.w.b.demo.processor_id, { amount }),
        });
        if (r.status !== 200 || r.body?.status === 'declined') this.failures.push(`${r.status} ${r.text.slice(0, 200)}`);
        else {
          this.answered++;
          this.expected += BigInt(amount);
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

/** Group B's net amount over its linked account (type=amount_sum), as a BigInt. */
export async function amountSum(w: World): Promise<bigint> {
  const r = await w.s.call('GET', `/api/v1/groups/${w.b.groupId}/processing/${w.b.demo.linked_account_id}/transactions/reporting?type=amount_sum`, { key: w.b.allKey });
  assert.equal(r.status, 200, r.text);
  const m = /"total_amount"\s*:\s*(-?\d+)/.exec(r.text);
  assert.ok(m, r.text);
  return BigInt(m[1]!);
}

// ---------------------------------------------------------------------------
// The probe

export interface ProbeTally {
  requests: number;
  /** Rounds of `runs` requests (more than one per route when the other group had no sale answered yet). */
  rounds: number;
  refused: number;
  accepted: number;
  statuses: Map<number, number>;
  /** Routes during whose probe the other group's sales were answered (and how many). */
  interleaved: Map<string, number>;
}

export const newTally = (): ProbeTally => ({ requests: 0, rounds: 0, refused: 0, accepted: 0, statuses: new Map(), interleaved: new Map() });

export interface ProbeOptions {
  w: World;
  sessions: Sessions;
  loop: SalesLoop;
  tally: ProbeTally;
  runs: number;
  seed: number;
  /** Path parameters to use instead of group A's (a throwaway sandbox for admin routes). */
  params?: Record<string, string>;
  headers?: Record<string, string>;
  /** The group whose rows must not change on a refusal. */
  groupId: string;
}

async function sendChecked(o: ProbeOptions, route: RouteDef, out: Outgoing, label: string): Promise<Reply> {
  // A pay route's link is made (a write) before the fingerprint, not inside the request.
  if (route.auth.kind === 'session') await o.sessions.get();
  const before = await groupFingerprint(o.w, o.groupId);
  const r = await sendTo(o.w, o.sessions, route, { ...out, params: o.params, headers: o.headers });
  o.tally.requests++;
  o.tally.statuses.set(r.status, (o.tally.statuses.get(r.status) ?? 0) + 1);
  assertWellFormed(route, r, label);
  if (r.status >= 400) {
    o.tally.refused++;
    const after = await groupFingerprint(o.w, o.groupId);
    assert.deepEqual(changed(before, after), [], `refused with ${r.status} but wrote: ${route.method} ${route.path} ${label} → ${r.text.slice(0, 300)}`);
  } else o.tally.accepted++;
  return r;
}

/**
 * Body damages (1 to 3 at once) or query values, `runs` times with a fixed seed; then
 * more rounds (other seeds) until the other group has had a sale answered during this
 * route's probe: a stalled or starved group fails after 20 rounds (ordering, not time).
 */
export async function probeRoute(o: ProbeOptions, route: RouteDef): Promise<void> {
  const answeredBefore = o.loop.answered;
  const bodyDamages = route.body ? damagesFor(toJsonSchema(route.body)) : [];
  const builder = bodyBuilder(route);
  const base = route.body && builder ? (await buildBody(o.w, builder, { ...o.w.a.ids, ...(o.params ?? {}) })).body : {};
  const queryValues = route.query ? queryDamagesFor(toJsonSchema(route.query)) : [];
  const baseline = baselineQuery(route);
  const round = async (seed: number) => {
    if (bodyDamages.length > 0) {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...bodyDamages), { minLength: 1, maxLength: 3 }), async (ds) => {
          await sendChecked(o, route, { raw: damagedBody(base, ds) }, ds.map(describeDamage).join(' '));
        }),
        { numRuns: o.runs, seed, includeErrorInReport: true },
      );
    }
    if (queryValues.length > 0) {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...queryValues), { minLength: 1, maxLength: 3 }), async (vs) => {
          const q = new URLSearchParams(baseline);
          for (const v of vs) q.set(v.name, v.value);
          await sendChecked(o, route, { query: q.toString(), json: route.method === 'GET' ? undefined : {} }, q.toString().slice(0, 300));
        }),
        { numRuns: o.runs, seed: seed ^ 0x5a5a, includeErrorInReport: true },
      );
    }
  };
  let rounds = 0;
  do await round(o.seed + rounds++);
  while (o.loop.answered === answeredBefore && rounds < 20 && o.loop.failures.length === 0);
  o.tally.rounds += rounds;
  o.tally.interleaved.set(`${route.method} ${route.path}`, o.loop.answered - answeredBefore);
}
