// What exporting a sandbox to a file and importing one need of a store
// (src/services/sandboxes/export.ts, import.ts): the tables a file holds, their rows a
// page at a time, and an import's rows written chunk by chunk under a job record.
import type { Executor, Tx } from './db.js';

export type FileRow = Record<string, unknown>;

/** A column an import fills with a value of its own, never the file's (there is none: secrets are not exported). */
export type FreshValue = 'invoice_slug' | 'webhook_secret';

export interface FileTable {
  table: string;
  /** Its single id column (an import gives each row a new id). */
  id?: string;
  /** Columns the file never holds (secrets, the store's own sequence numbers). */
  omit: readonly string[];
  /** The column naming the row's sandbox: its group id, or (`parent`) the id of the file's row it hangs off. */
  owner: { column: string; parent: boolean };
  /** Columns naming other rows of the sandbox: an import takes them only if they name rows of the file (or are null). */
  refs: readonly string[];
  /** Columns an import fills anew. */
  fresh: Readonly<Record<string, FreshValue>>;
  /** An import answers with the old → new ids of its rows (objects a test addresses by id: a fork's id_map tables, and webhook endpoints). */
  inIdMap: boolean;
  /** Its columns in the file (the table's, less `omit`). */
  columns: readonly string[];
}

/** A page of a table's rows of one group, in file order; `next` to read the page after it (none: the table is done). */
export interface FilePage {
  rows: FileRow[];
  next?: string | number;
}

/** How far an import's writing is (read from the database). */
export interface ImportProgress {
  group_id: string;
  source_id: string;
  name: string;
  rows_imported: number;
  rows_total: number;
  table: string | null;
  /** Real time (ms) of its last chunk: an import no process has gone on with for a while was stopped (a kill -9). */
  beat_ms: number;
}

export interface SandboxFileStore {
  /** The tables a file holds, parents before children, with their columns; and the tables it never holds, with why. */
  tables(ex: Executor): Promise<FileTable[]>;
  /** The database's schema version (its newest migration). */
  schemaVersion(ex: Executor): Promise<number>;
  /** Rows of each file table of a group now. */
  count(ex: Executor, groupId: string): Promise<Record<string, number>>;
  /**
   * Where the next range of up to `rows` rows of `table` of a group after `after` ends (the
   * value of the column the file follows, of its last row): undefined when no row is left;
   * null for a table without such a column (its one page holds it all). Found by one read,
   * so the pages of the range are each read by that column alone (`page`'s `upTo`).
   */
  rangeEnd(ex: Executor, t: FileTable, groupId: string, after: string | number | undefined, rows: number): Promise<string | number | null | undefined>;
  /** Up to `limit` rows of `table` of a group after `after` (the previous page's `next`) up to `upTo` (a `rangeEnd`), in the file's order. */
  page(ex: Executor, t: FileTable, groupId: string, after: string | number | undefined, limit: number, upTo: string | number | null): Promise<FilePage>;
  /** The new group's row (status importing) and its job record: it is left out of due work and its keys are refused until finishImport. */
  beginImport(tx: Tx, group: FileRow, sourceId: string, rowsTotal: number, beatMs: number): Promise<void>;
  /** Insert rows of one table (columns as the rows name them). */
  insertRows(tx: Tx, table: string, rows: readonly FileRow[]): Promise<void>;
  /** Record the import's progress with its chunk; false when it is no longer under way (its sandbox was dropped). */
  noteImport(tx: Tx, groupId: string, rowsImported: number, table: string, beatMs: number): Promise<boolean>;
  /** Count the imported transactions into the reports, make the group active and forget the job. */
  finishImport(tx: Tx, groupId: string, at: string): Promise<void>;
  importProgress(ex: Executor, groupId: string): Promise<ImportProgress | undefined>;
  /** Imports whose last chunk is older than `beatBeforeMs` (real time). */
  staleImports(ex: Executor, beatBeforeMs: number): Promise<string[]>;
}
