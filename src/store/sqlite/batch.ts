// The batch the SQLite writer is running: the work its writes deferred (batch-work.ts),
// sent before a later statement that could see it or before the COMMIT, and each write's
// savepoint, taken before its first change so that failing rolls back only itself.
import type { Params } from '../interfaces/db.js';
import { updateSql } from '../sql/update.js';
import type { WriterPipe } from './writer-pipe.js';
import { reducedStatements, toStatements } from './batch-sql.js';
import type { Contribution, Deferred, Statement, WriteState } from './batch-work.js';

/** The state of the batch the writer is running. */
export class Batch {
  deferred: Deferred[] = [];
  contributions: Contribution[] = [];
  /** BEGIN ran: it is issued by the batch's first statement, or never (see Database.runBatch). */
  begun = false;
  constructor(
    private readonly writer: WriterPipe,
    private readonly begin: () => Promise<void>,
  ) {}

  /** Whether a read of `sql` could see deferred work (its text names a table that deferred work changes). */
  private readSees(sql: string): boolean {
    const words = wordsOf(sql).words;
    for (const d of this.deferred) if (d.table && words.has(d.table)) return true;
    return false;
  }

  /** Whether deferred work changes the row of `table` with this id. */
  private pendingId(table: string, id: string): boolean {
    return this.deferred.some((d) => d.table === table && d.id === id);
  }

  private beginning: Promise<void> | undefined;

  /** BEGIN once (statements started together share it). */
  ensureBegun(): Promise<void> {
    this.beginning ??= this.begin().then(() => {
      this.begun = true;
    });
    return this.beginning;
  }

  /**
   * Run `sql` for write `w`: deferred work first when the statement could see it (or, for
   * a lookup by id, when it changes that row) or when it changes anything; a savepoint
   * before the write's first change.
   */
  async statement<T>(w: WriteState, kind: 'run' | 'all', sql: string, params: Params, byId?: { table: string; id: string }): Promise<T> {
    await this.ensureBegun();
    const read = kind === 'all' && isRead(sql);
    const sees = read && (byId ? this.pendingId(byId.table, byId.id) : this.readSees(sql));
    if (this.pending && (!read || sees)) await this.flush(w);
    if (!read && !w.savepoint) this.savepoint(w);
    return kind === 'run' ? ((await this.writer.run(sql, params)) as T) : ((await this.writer.all(sql, params)) as T);
  }

  private savepoint(w: WriteState): void {
    w.savepoint = true;
    // Not awaited: a failure reaches the statement queued behind it.
    this.writer.exec(`SAVEPOINT ${w.name}`).catch(() => undefined);
  }

  /** Whether anything waits to be sent. */
  get pending(): boolean {
    return this.deferred.length > 0 || this.contributions.length > 0;
  }

  /** Drop what a failed write left waiting. */
  drop(w: WriteState): void {
    this.deferred = this.deferred.filter((d) => d.owner !== w);
    this.contributions = this.contributions.filter((c) => c.owner !== w);
  }

  /** Everything waiting, as statements in order (deferred work, then per-batch work). */
  statements(): Statement[] {
    return [...toStatements(this.deferred), ...reducedStatements(this.contributions)];
  }

  /** Take everything waiting (empties both lists). */
  take(): { items: Deferred[]; work: Contribution[] } {
    const out = { items: this.deferred, work: this.contributions };
    this.deferred = [];
    this.contributions = [];
    return out;
  }

  /**
   * Send all deferred work and the per-batch work over it. `current` is the write running
   * now: its own go last, under its savepoint (it may still fail after they are in).
   * After the batch's writes ran, `current` is undefined. Work that fails fails its
   * write, which is rolled back.
   */
  async flush(current?: WriteState): Promise<void> {
    const { items, work } = this.take();
    const mine = <T extends { owner: WriteState }>(x: T) => x.owner === current;
    const own = current ? items.filter(mine) : [];
    const ownWork = current ? work.filter(mine) : [];
    await this.send(current ? items.filter((r) => !mine(r)) : items);
    await this.reduce(current ? work.filter((c) => !mine(c)) : work);
    if (own.length || ownWork.length) {
      if (!current!.savepoint) this.savepoint(current!);
      await this.send(own, current);
      await this.reduce(ownWork);
    }
  }

  private async reduce(work: Contribution[]): Promise<void> {
    for (const st of reducedStatements(work)) await this.writer.run(st.sql, st.params);
  }

  /**
   * Send deferred work: all at once; when something fails (all of it is undone), again
   * write by write, to find whose work fails. The writes of this work made no change after it (any change would have
   * sent it first), so rolling such a write back to its savepoint undoes only itself.
   */
  private async send(items: Deferred[], current?: WriteState): Promise<void> {
    if (items.length === 0) return;
    const statements = toStatements(items);
    // One statement fails whole; several are undone together when one fails.
    const wrap = statements.length > 1;
    try {
      const sent = [
        ...(wrap ? [this.writer.exec('SAVEPOINT s')] : []),
        ...statements.map((st) => this.writer.run(st.sql, st.params)),
        ...(wrap ? [this.writer.exec('RELEASE s')] : []),
      ];
      await Promise.all(sent);
      return;
    } catch {
      if (wrap) await this.writer.exec('ROLLBACK TO s; RELEASE s').catch(() => undefined);
    }
    for (const owner of new Set(items.map((r) => r.owner))) {
      if (owner.failed) continue;
      const mark = owner.savepoint ? owner.name : 'f';
      if (!owner.savepoint) await this.writer.exec('SAVEPOINT f');
      try {
        await this.sendOne(items.filter((r) => r.owner === owner));
        if (!owner.savepoint) await this.writer.exec('RELEASE f');
      } catch (error) {
        await this.writer.exec(`ROLLBACK TO ${mark}`);
        if (!owner.savepoint) await this.writer.exec('RELEASE f');
        owner.failed = { error };
        if (owner === current) throw error;
      }
    }
  }

  /** One write's deferred work, statement by statement, failing with the write's own error. */
  private async sendOne(items: Deferred[]): Promise<void> {
    let i = 0;
    while (i < items.length) {
      const d = items[i]!;
      if (d.kind === 'row') {
        const rows: Deferred[] = [];
        while (i < items.length && items[i]!.kind === 'row') rows.push(items[i++]!);
        for (const st of toStatements(rows, false)) await this.writer.run(st.sql, st.params);
        continue;
      }
      i++;
      if (d.kind === 'change') {
        const { changes } = await this.writer.run(updateSql(d.update), d.params);
        if (changes !== d.changes) throw d.error();
      } else {
        const found = await this.writer.all(`SELECT EXISTS (${d.check.sql}) AS found`, d.params);
        if (!(found[0] as { found: number } | undefined)?.found) throw d.error();
      }
    }
  }
}

/**
 * A statement a write runs itself (tx.run, tx.all) comes as text only: whether it is a
 * read, and which tables it names, are told from its words (lower case), once per text.
 */
interface Words {
  first: string;
  words: Set<string>;
}
const wordsCache = new Map<string, Words>();
function wordsOf(sql: string): Words {
  let w = wordsCache.get(sql);
  if (!w) {
    const lower = sql.toLowerCase();
    w = { first: /^\s*(\w*)/.exec(lower)![1]!, words: new Set(lower.split(/\W+/)) };
    // Texts vary little; a cap keeps an odd workload (IN lists of many lengths) from growing it.
    if (wordsCache.size > 2000) wordsCache.clear();
    wordsCache.set(sql, w);
  }
  return w;
}

const WRITE_WORDS = ['insert', 'update', 'delete', 'replace'];

/** A SELECT (or WITH) that writes nothing. */
function isRead(sql: string): boolean {
  const { first, words } = wordsOf(sql);
  return (first === 'select' || first === 'with') && !WRITE_WORDS.some((k) => words.has(k));
}
