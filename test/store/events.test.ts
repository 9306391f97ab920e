// The event log's table: migration 18 rebuilt it with one index (rows and positions
// kept, the AUTOINCREMENT counter carried over, the webhook trigger the same), positions
// never reused after a group's rows are deleted, and the list's created_from/created_to
// filters exact without an index of their own — also when created_at is not in id order
// (a platform clock set back, clock work stamped with the time it fell due); and every
// read planned on the index or the rowid (the stream's read once sorted a group's events).
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Database } from '../../src/store/sqlite/db.js';
import { migrate } from '../../src/store/sqlite/migrate.js';
import { sqliteMigrations as migrations } from '../../src/store/migrations/index.js';
import webhooks from '../../src/store/migrations/015-webhooks.js';
import { eventRepo } from '../../src/store/sql/repositories/events.js';
import { deleteGroupRows } from '../../src/store/sql/group-tables.js';
import type { EventEntity } from '../../src/store/interfaces/events.js';
import { newId } from '../../src/lib/ids.js';
import { tempDbPath } from '../helpers/platform.js';

const G1 = '01a20000-0000-7000-8000-000000000001';
const G2 = '01a20000-0000-7000-8000-000000000002';

const ev = (groupId: string, createdAt: string, type = 'transaction.approved'): EventEntity => ({
  id: newId(),
  group_id: groupId,
  type,
  created_at: createdAt,
  request_id: null,
  idempotency_key: null,
  data: { object: { n: createdAt } },
});

/** A fresh database for `fn`, closed after it. */
async function withDb(fn: (db: Database) => Promise<void>): Promise<void> {
  const db = await Database.open(tempDbPath());
  try {
    await fn(db);
  } finally {
    await db.close();
  }
}

const ROWS = 'SELECT seq, id, group_id, type, created_at, request_id, idempotency_key, data FROM events ORDER BY seq';

test('migration 18 keeps every row, its position and the counter, and leaves one index and the same trigger', () =>
  withDb(async (db) => {
    await migrate(db, migrations.filter((m) => m.version < 18));
    await db.write(async (tx) => {
      for (let i = 0; i < 6; i++) {
        await tx.run('INSERT INTO events (id, group_id, type, created_at, request_id, idempotency_key, data) VALUES (?, ?, ?, ?, ?, ?, ?)', [
          newId(), i % 2 ? G2 : G1, 'customer.created', `2026-01-0${i + 1}T00:00:00.000Z`, i === 3 ? 'req' : null, i === 3 ? 'idem' : null, `{"i":${i}}`,
        ]);
      }
      // A gap, and the newest rows gone: the counter (6) is past the largest position left (4).
      await tx.run('DELETE FROM events WHERE seq IN (2, 5, 6)');
    });
    const before = await db.all<{ seq: number }>(ROWS);
    assert.deepEqual(before.map((r) => r.seq), [1, 3, 4]);

    await migrate(db);
    assert.deepEqual(await db.all(ROWS), before);
    assert.deepEqual(await db.all("SELECT seq FROM sqlite_sequence WHERE name = 'events'"), [{ seq: 6 }], 'the counter where it was');
    const indexes = await db.all<{ name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'");
    assert.deepEqual(indexes.map((i) => i.name), ['events_group_id']);
    assert.match(indexes[0]!.sql, /^CREATE UNIQUE INDEX events_group_id ON events\(group_id, id\)$/);
    assert.equal((await db.all("SELECT name FROM sqlite_master WHERE tbl_name = 'events' AND sql LIKE '%AUTOINCREMENT%'")).length, 1);
    const trigger = await db.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'events_webhook_deliveries'");
    const original = webhooks.sqlite.find((s) => s.includes('TRIGGER events_webhook_deliveries'))!;
    assert.equal(trigger?.sql.replace(/\s+/g, ' '), original.replace(/\s+/g, ' '));

    const next = ev(G1, '2026-02-01T00:00:00.000Z');
    await db.write(async (tx) => eventRepo.insert(tx, next));
    assert.equal(await eventRepo.seqOf(db, G1, next.id), 7, 'past the deleted positions');
  }));

test("deleting a group's newest events (a sandbox drop) never frees their positions", () =>
  withDb(async (db) => {
    await migrate(db);
    const add = (g: string, n: number) => db.write(async (tx) => {
      for (let i = 0; i < n; i++) eventRepo.insert(tx, ev(g, '2026-03-01T00:00:00.000Z'));
    });
    await add(G1, 2);
    await add(G2, 3);
    const end = await eventRepo.lastSeq(db);
    assert.equal(end, 5);
    await db.write((tx) => deleteGroupRows(tx, G2));
    assert.equal(await eventRepo.lastSeq(db), 2);
    // A stream of G1 that had passed position 5 still sees G1's next events.
    await add(G1, 2);
    const after = await eventRepo.after(db, G1, end, 10);
    assert.deepEqual(after.map((e) => e.seq), [6, 7], 'new positions come after the old end');
  }));

test('created_from/created_to are exact without an index, also when created_at does not follow the ids', () =>
  withDb(async (db) => {
    await migrate(db);
    // Ids in creation order; times jumping back and forth (a clock set back, work stamped when it fell due).
    const times = ['2026-05-01', '2026-04-01', '2026-06-15', '2025-12-31', '2026-04-30', '2026-05-02', '2027-01-01', '2026-04-15', '2026-05-01'];
    const all: EventEntity[] = [];
    for (const [i, day] of times.entries()) {
      const e = ev(i % 3 ? G1 : G2, `${day}T12:00:00.000Z`, i % 2 ? 'customer.created' : 'transaction.approved');
      all.push(e);
      await db.write(async (tx) => eventRepo.insert(tx, e));
    }
    const expect = (f: { from?: string; to?: string; before?: string; types?: string[] }) =>
      all
        .filter((e) => e.group_id === G1)
        .filter((e) => (!f.from || e.created_at >= f.from) && (!f.to || e.created_at <= f.to) && (!f.before || e.id < f.before))
        .filter((e) => !f.types || f.types.includes(e.type))
        .map((e) => e.id)
        .reverse();
    const windows = [
      { from: '2026-04-15T00:00:00.000Z', to: '2026-05-01T23:59:59.999Z' },
      { from: '2026-05-01T12:00:00.000Z' },
      { to: '2026-04-30T12:00:00.000Z' },
      { to: '2025-01-01T00:00:00.000Z' },
      { from: '2026-01-01T00:00:00.000Z', to: '2026-12-31T00:00:00.000Z', types: ['customer.created'] },
    ];
    for (const w of windows) {
      const got = await eventRepo.list(db, { groupId: G1, ...(w.from ? { createdFrom: w.from } : {}), ...(w.to ? { createdTo: w.to } : {}), ...(w.types ? { types: w.types } : {}), limit: 100 });
      assert.deepEqual(got.map((e) => e.id), expect(w), JSON.stringify(w));
      // Paged one at a time with the cursor: the same events.
      const paged: string[] = [];
      let before: string | undefined;
      for (;;) {
        const [page] = await eventRepo.list(db, { groupId: G1, ...(w.from ? { createdFrom: w.from } : {}), ...(w.to ? { createdTo: w.to } : {}), ...(w.types ? { types: w.types } : {}), ...(before ? { before } : {}), limit: 1 });
        if (!page) break;
        paged.push(page.id);
        before = page.id;
      }
      assert.deepEqual(paged, expect(w), `paged ${JSON.stringify(w)}`);
    }
  }));

test("every read of the log is an index search or a walk of the rowid: no scan, no sort of a group's events", () =>
  withDb(async (db) => {
    await migrate(db);
    // The repository's own statements, caught on their way to the database, then planned by it.
    const seen: Array<{ sql: string; params: unknown[] }> = [];
    const catching = {
      repos: db.repos,
      dialect: db.dialect,
      get: async <T>(sql: string, params: unknown[] = []) => (seen.push({ sql, params }), undefined as T | undefined),
      all: async <T>(sql: string, params: unknown[] = []) => (seen.push({ sql, params }), [] as T[]),
    };
    await eventRepo.find(catching, G1, newId());
    await eventRepo.list(catching, { groupId: G1, limit: 51 });
    await eventRepo.list(catching, { groupId: G1, types: ['customer.created'], prefixes: ['transaction.'], createdFrom: '2026-01-01', createdTo: '2026-02-01', before: newId(), limit: 51 });
    await eventRepo.lastSeq(catching);
    await eventRepo.seqOf(catching, G1, newId());
    await eventRepo.after(catching, G1, 10, 500);
    assert.equal(seen.length, 6);
    for (const { sql, params } of seen) {
      const plan = (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail).join(' | ');
      assert.match(plan, /^SEARCH events USING (COVERING )?(INDEX events_group_id|INTEGER PRIMARY KEY)|^SEARCH events$/, `${sql}\n→ ${plan}`);
      assert.doesNotMatch(plan, /TEMP B-TREE|SCAN events/, `${sql}\n→ ${plan}`);
    }
  }));
