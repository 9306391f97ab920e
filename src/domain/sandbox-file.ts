// A sandbox as a file (docs/sandboxes.md, "Export and import"): JSON lines, a header
// line, one line per row of the sandbox's tables, a trailer line with the counts and a
// SHA-256 of every byte before it. The rules a file must keep are here, checked line by
// line as it arrives (FileChecker), each refusal naming its line and the rule; so are
// the steps that bring a row written at an older schema version to the current one.
// Pure: no I/O (the service feeds the lines; the store knows the tables' columns).
import { createHash, type Hash } from 'node:crypto';
import { z } from 'zod';
import { validationError } from '../errors.js';
import { instantSchema } from './time.js';
import { requiredText } from './strings.js';
import { checkRowValues, SANDBOX_NAME_MAX } from './sandbox-file-values.js';
import { FileIds } from './sandbox-file-ids.js';

export const FILE_FORMAT = 'payctl-sandbox';
/** The file's own layout (header, row lines, trailer). A change to it is a new version; older versions keep importing. */
export const FILE_FORMAT_VERSION = 1;
/** The oldest store schema version a file may be written at (the first with every exported table's columns but the ones UPGRADES add). */
export const OLDEST_SCHEMA_VERSION = 15;

const countsSchema = z.record(z.string(), z.number().int().nonnegative());

export const fileHeaderSchema = z.object({
  format: z.literal(FILE_FORMAT),
  format_version: z.number().int().positive(),
  schema_version: z.number().int().positive(),
  exported_at: instantSchema(),
  source: z.object({
    group_id: requiredText(100),
    /** The sandbox's name, as sandbox create takes it. */
    name: requiredText(SANDBOX_NAME_MAX),
    /** The sandbox's time when the export began: an import starts its clock there (RFC 3339, years 1970–9999). */
    clock: instantSchema(),
  }),
  /** The tables in the order their rows follow (parents first). */
  tables: z.array(requiredText(100)).max(200),
  /** Rows per table when the export began (for progress; the trailer's counts are what the file holds). */
  counts: countsSchema,
});
export type FileHeader = z.output<typeof fileHeaderSchema>;

export const fileTrailerSchema = z.object({
  end: z.literal(FILE_FORMAT),
  /** Lines before the trailer (the header's included). */
  lines: z.number().int().positive(),
  counts: countsSchema,
  /** Hex SHA-256 of every byte before the trailer line (each line with its \n). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type FileTrailer = z.output<typeof fileTrailerSchema>;

export type Row = Record<string, unknown>;

/** One row line: `{"table": …, "row": {column: value}}`. */
export const rowLine = (table: string, row: Row): string => `${JSON.stringify({ table, row })}\n`;
export const headerLine = (h: FileHeader): string => `${JSON.stringify(h)}\n`;
export const trailerLine = (t: FileTrailer): string => `${JSON.stringify(t)}\n`;

/**
 * What changed in the exported tables from one schema version to the next: a table that
 * appeared (an older file has no rows of it) and columns added (an older row gets the
 * value the migration gave existing rows). Versions not listed changed no exported
 * column. A migration that changes an exported table adds its step here.
 */
export const UPGRADES: ReadonlyArray<{ version: number; why: string; tables?: string[]; add?: Record<string, Row> }> = [
  { version: 16, why: 'invoices record when their due day passed (null: not yet told)', add: { invoices: { past_due_notified_at: null } } },
  { version: 20, why: 'sandbox fault rules', tables: ['fault_rules'] },
  { version: 22, why: 'webhook endpoint fault rules', tables: ['webhook_fault_rules'] },
  { version: 36, why: 'webhook endpoints have a kind (url, or collect: delivered to the inbox)', add: { webhook_endpoints: { kind: 'url' } } },
];

/** Tables a file written at `schema` may hold, of the current list `tables`. */
function tablesAt(schema: number, tables: readonly string[]): Set<string> {
  const later = new Set(UPGRADES.filter((u) => u.version > schema).flatMap((u) => u.tables ?? []));
  return new Set(tables.filter((t) => !later.has(t)));
}

/** A row of `table` written at `schema`, as the current schema has it. */
export function upgradeRow(schema: number, table: string, row: Row): Row {
  let out = row;
  for (const u of UPGRADES) {
    const add = u.add?.[table];
    if (u.version > schema && add) out = { ...add, ...out };
  }
  return out;
}

/** A file refused: 400 naming the line and the rule it breaks. */
export function fileRefused(line: number | 'end' | { lines: string }, rule: string) {
  const where = line === 'end' ? 'end' : typeof line === 'number' ? `line ${line}` : `lines ${line.lines}`;
  return validationError([{ path: `(file) ${where}`, message: rule }], `the sandbox file is refused: ${where === 'end' ? 'at its end' : where}: ${rule}`);
}

/** A row line that passed: its table and row; `verbatim` when the row is the line's own, unchanged (its text can be kept as it was). */
export interface KeptRow {
  table: string;
  row: Row;
  verbatim: boolean;
}

/** What the store says of the tables a file may hold now: their order and columns, and which have a single id column. */
export interface FileTables {
  order: readonly string[];
  columns: Record<string, readonly string[]>;
  ids: Record<string, string | undefined>;
  /** The column naming a row's sandbox: its group id, or (`parent`) the id of the row of the file it hangs off. */
  owners: Record<string, { column: string; parent: boolean }>;
  /** Columns naming other rows of the sandbox. */
  refs: Record<string, readonly string[]>;
}

/**
 * Checks a file line by line as it arrives (nothing is written meanwhile): the header,
 * each row (a known table, in the header's order, known columns, a unique id), then the
 * trailer (counts, line count, checksum). Each `line` gives the row to keep, if any;
 * `end` throws unless the trailer was seen and agrees.
 */
export class FileChecker {
  header?: FileHeader;
  trailer?: FileTrailer;
  readonly counts: Record<string, number> = {};
  /** Every id of the file, old → new (sandbox-file-ids.ts), so rows pointing at later tables map too. */
  readonly ids: FileIds;
  /** Old → new ids of the rows of the tables named in `listed`, per table. */
  readonly listedIds: Record<string, Array<[string, string]>> = {};
  private n = 0;
  private hash: Hash = createHash('sha256');
  /** The file's sandbox (its groups row's id). */
  private groupId?: string;
  private allowed = new Set<string>();
  private at = 0;

  /** `key`: 5 random bytes, drawn for this import (the new UUIDs are computed with it). */
  constructor(
    private readonly tables: FileTables,
    newId: () => string,
    key: Uint8Array,
    private readonly listed: ReadonlySet<string> = new Set(),
  ) {
    this.ids = new FileIds(newId, key);
  }

  /** Lines read so far. */
  get lines(): number {
    return this.n;
  }

  /** One line of the file, exactly as it was written, without its \n. Returns the row it holds, if it is a row. */
  line(text: string): KeptRow | undefined {
    const no = ++this.n;
    if (this.trailer) throw fileRefused(no, 'nothing may follow the trailer line');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw fileRefused(no, no === 1 ? 'is not a sandbox file header (not JSON)' : 'is not valid JSON (the file is corrupt)');
    }
    if (no === 1) {
      this.hash.update(text).update('\n');
      this.header = this.checkHeader(value);
      return undefined;
    }
    if (value && typeof value === 'object' && 'end' in value) {
      this.trailer = this.checkTrailer(no, value);
      return undefined;
    }
    // Two updates, not one string: a fat line is not copied again.
    this.hash.update(text).update('\n');
    return this.checkRow(no, value);
  }

  private checkHeader(value: unknown): FileHeader {
    const parsed = fileHeaderSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw fileRefused(1, `is not a ${FILE_FORMAT} header: ${issue.path.join('.') || '(header)'} ${issue.message}`);
    }
    const h = parsed.data;
    if (h.format_version > FILE_FORMAT_VERSION) {
      throw fileRefused(1, `format_version ${h.format_version} is newer than this payctl reads (${FILE_FORMAT_VERSION}): import it with a newer payctl`);
    }
    if (h.schema_version < OLDEST_SCHEMA_VERSION) throw fileRefused(1, `schema_version ${h.schema_version} is older than the oldest this payctl imports (${OLDEST_SCHEMA_VERSION})`);
    this.allowed = tablesAt(h.schema_version, this.tables.order);
    const unknown = h.tables.find((t) => !this.allowed.has(t));
    if (unknown) throw fileRefused(1, `tables: ${unknown} is not a table of schema version ${h.schema_version}`);
    return h;
  }

  /** Called with the store's schema version: a file from a newer one is refused. */
  checkSchema(current: number): void {
    if (this.header && this.header.schema_version > current) {
      throw fileRefused(1, `schema_version ${this.header.schema_version} is newer than this database's (${current}): import it with a newer payctl`);
    }
  }

  private checkRow(no: number, value: unknown): KeptRow {
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw fileRefused(no, 'a row line is a JSON object {"table", "row"}');
    const { table, row } = value as { table?: unknown; row?: unknown };
    if (typeof table !== 'string' || !this.allowed.has(table)) throw fileRefused(no, `table ${JSON.stringify(table)} is not one a sandbox file of schema version ${this.header!.schema_version} holds`);
    const order = this.header!.tables;
    const at = order.indexOf(table);
    if (at < 0) throw fileRefused(no, `table ${table} is not in the header's list of tables`);
    if (at < this.at) throw fileRefused(no, `rows of ${table} come after rows of ${order[this.at]} (tables follow the header's order, parents first)`);
    this.at = at;
    if (!row || typeof row !== 'object' || Array.isArray(row)) throw fileRefused(no, 'row must be a JSON object of column values');
    let upgraded = upgradeRow(this.header!.schema_version, table, row as Row);
    const columns = this.tables.columns[table]!;
    for (const [c, v] of Object.entries(upgraded)) {
      if (!columns.includes(c)) throw fileRefused(no, `${table} has no column ${c}`);
      if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw fileRefused(no, `${table}.${c} must be a string, a number, a boolean or null`);
    }
    if (table === 'groups' && this.counts.groups) throw fileRefused(no, 'a file holds one sandbox (one groups row)');
    // Each value held to the API's rule for it: due work and reports read these rows as the API's own.
    const checked = checkRowValues(table, upgraded);
    if ('problem' in checked) throw fileRefused(no, `${table}.${checked.problem.column} ${checked.problem.message}`);
    upgraded = checked.row;
    if (table !== 'groups') this.checkRefs(no, table, upgraded);
    const idColumn = this.tables.ids[table];
    if (idColumn) {
      const id = upgraded[idColumn];
      if (typeof id !== 'string' || id === '') throw fileRefused(no, `${table}.${idColumn} must be a non-empty string`);
      const fresh = this.ids.add(id);
      if (fresh === undefined) throw fileRefused(no, `${table}.${idColumn} ${id} appears twice in the file`);
      if (table === 'groups') this.groupId = id;
      if (this.listed.has(table)) (this.listedIds[table] ??= []).push([id, fresh]);
    }
    this.counts[table] = (this.counts[table] ?? 0) + 1;
    return { table, row: upgraded, verbatim: upgraded === row };
  }

  /**
   * A row belongs to the file's sandbox (its group id, or a parent row of the file): an
   * import never writes into another sandbox. References are noted: one that names no
   * row of the file is given a new id at the end (see `end`), never left naming a row
   * outside the import.
   */
  private checkRefs(no: number, table: string, row: Row): void {
    const group = this.groupId;
    if (group === undefined) throw fileRefused(no, 'the sandbox itself (its groups row) comes first');
    const owner = this.tables.owners[table]!;
    const value = row[owner.column];
    if (!owner.parent && value !== group) throw fileRefused(no, `${table}.${owner.column} must be the file's sandbox (${group})`);
    if (owner.parent) {
      // Its parent decides its sandbox: parents come first, so it is a row already read.
      if (typeof value !== 'string' || !this.ids.has(value)) throw fileRefused(no, `${table}.${owner.column} must name a row of the file further up`);
    }
    for (const c of this.tables.refs[table]!) {
      const id = row[c];
      if (id === null || id === undefined || (typeof id === 'string' && this.ids.has(id))) continue;
      if (typeof id !== 'string') throw fileRefused(no, `${table}.${c} must be an id or null`);
      this.ids.name(id);
    }
  }

  private checkTrailer(no: number, value: unknown): FileTrailer {
    const parsed = fileTrailerSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw fileRefused(no, `is not a ${FILE_FORMAT} trailer: ${issue.path.join('.') || '(trailer)'} ${issue.message}`);
    }
    return parsed.data;
  }

  /** After the last line: the trailer was there and agrees with what came before it. */
  end(): void {
    const t = this.trailer;
    if (!this.header) throw fileRefused('end', 'the file is empty');
    if (!t) throw fileRefused('end', `the file ends at line ${this.n} without its trailer line: it was cut off`);
    if (t.lines !== this.n - 1) throw fileRefused(this.n, `the trailer counts ${t.lines} lines before it, the file has ${this.n - 1}`);
    for (const table of new Set([...Object.keys(t.counts), ...Object.keys(this.counts)])) {
      if ((t.counts[table] ?? 0) !== (this.counts[table] ?? 0)) {
        throw fileRefused(this.n, `the trailer counts ${t.counts[table] ?? 0} rows of ${table}, the file has ${this.counts[table] ?? 0}`);
      }
    }
    const digest = this.hash.digest('hex');
    if (digest !== t.sha256) throw fileRefused(this.n, 'sha256 does not match the lines before it: the file was changed or damaged');
    if (this.counts.groups !== 1) throw fileRefused('end', 'the file has no groups row (the sandbox itself)');
    // A reference to no row of the file (the source's row is gone, or never was: seeded
    // data) gets a new id of its own too: it stays dangling, and can never name a row
    // of another sandbox of the database it is imported into.
    this.ids.settle();
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * A row with every id of the file it names pointed at its new id: id columns, references,
 * and ids inside text (an event's payload, an e-mail's body): a value that is an id of the
 * file, and any UUID of the file inside text (the platform's ids are UUIDs, so one found
 * in `ids` is one of the file's rows wherever it appears); other text is kept.
 */
export function remapRow(row: Row, ids: { get(id: string): string | undefined }): Row {
  const out: Row = {};
  for (const [c, v] of Object.entries(row)) {
    if (typeof v !== 'string') out[c] = v;
    else out[c] = ids.get(v) ?? (v.length >= 36 && v.includes('-') ? v.replace(UUID, (id) => ids.get(id) ?? id) : v);
  }
  return out;
}
