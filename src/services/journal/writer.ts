// The journal's write (docs/journal.md "Cost"): a call's entry is held in memory and
// written with the others of the moment in one write — every FLUSH_MS, or at once past
// FLUSH_ENTRIES or FLUSH_BYTES — a transaction of its own on SQLite, beside the sales'
// batches (APART). A call never waits for its entry, and a busy server writes its
// journal in a few statements a second instead of a transaction per call.
// A read of the journal (a list, a recording) first writes what this process holds, so
// a client that reads after its last answer finds every call it made through this
// server; another server's calls show within FLUSH_MS (100 ms). What is held is lost if the
// process is killed (never a call's own writes: only its journal entry).
import { EventEmitter } from 'node:events';
import type { Store } from '../../store/interfaces/db.js';
import type { JournalEntry } from '../../store/interfaces/journal.js';
import { JOURNAL_MAX_BYTES, JOURNAL_MAX_ENTRIES } from '../../domain/journal.js';
import { journalOn } from '../../config/env.js';
import type { Platform } from '../platform.js';

const FLUSH_MS = 100;
const FLUSH_ENTRIES = 256;
const FLUSH_BYTES = 1024 * 1024;
/** A transaction of its own on SQLite: batched with sales, its statements split their deferred inserts in two rounds (docs/benchmarks/journal.md). */
const APART = { apart: true } as const;

export class JournalWriter {
  private held: JournalEntry[] = [];
  private heldBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The writes so far, in order: each waits for the one before (a group's entries are numbered in arrival order). */
  private written: Promise<void> = Promise.resolve();
  /** Entries still being made (a check that the group named exists): a flush waits for them. */
  private making = new Set<Promise<void>>();

  constructor(private readonly db: Store) {}

  add(entry: JournalEntry): void {
    this.held.push(entry);
    this.heldBytes += entry.bytes;
    if (this.held.length >= FLUSH_ENTRIES || this.heldBytes >= FLUSH_BYTES) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Add the entry `made` resolves to (none: undefined), once it is made. */
  addLater(made: Promise<JournalEntry | undefined>): void {
    const p: Promise<void> = made
      .then((e) => e && this.add(e))
      .catch(() => undefined)
      .finally(() => this.making.delete(p));
    this.making.add(p);
  }

  /** Write what is held; resolves when it (and every write before it) is in the store. */
  async flush(): Promise<void> {
    if (this.making.size > 0) await Promise.all(this.making);
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.held;
    if (batch.length > 0) {
      this.held = [];
      this.heldBytes = 0;
      const bounds = { entries: JOURNAL_MAX_ENTRIES, bytes: JOURNAL_MAX_BYTES };
      this.written = this.written.then(() =>
        this.db.write((tx) => tx.repos.journal.append(tx, batch, bounds), APART).then(
          () => journaled(this.db, batch),
          (err: unknown) => {
            process.stderr.write(`request journal: ${batch.length} call(s) not journaled: ${err instanceof Error ? err.message : String(err)}\n`);
          },
        ),
      );
    }
    return this.written;
  }
}

const writers = new WeakMap<Store, JournalWriter>();

/** The journal's writer of this process's store, or undefined when the journal is off (PAYCTL_JOURNAL=off). */
export function journalWriter(p: Platform): JournalWriter | undefined {
  if (!journalOn(p.env)) return undefined;
  let w = writers.get(p.db);
  if (!w) writers.set(p.db, (w = new JournalWriter(p.db)));
  return w;
}

/** Write what this process holds of the journal (before a read of it, or a close). */
export async function flushJournal(p: Platform): Promise<void> {
  await writers.get(p.db)?.flush();
}

/** Per store, an emitter named by group: a list waiting on a group's journal (`wait`) reads again once its calls are written. */
const buses = new WeakMap<Store, EventEmitter>();
const busOf = (db: Store): EventEmitter => {
  let bus = buses.get(db);
  if (!bus) buses.set(db, (bus = new EventEmitter().setMaxListeners(0)));
  return bus;
};

function journaled(db: Store, batch: readonly JournalEntry[]): void {
  const bus = buses.get(db);
  if (bus) for (const g of new Set(batch.map((e) => e.group_id))) bus.emit(g);
}

/** Call `fn` whenever this process writes calls of `groupId` to the journal; returns the unsubscribe (another server's: the wait's fallback poll). */
export function onJournalWritten(db: Store, groupId: string, fn: () => void): () => void {
  const bus = busOf(db);
  bus.on(groupId, fn);
  return () => void bus.off(groupId, fn);
}
