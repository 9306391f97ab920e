// The list of group-owned tables is what dropping and forking a sandbox walk: a table
// missing from it would survive a drop or be left out of a fork. These tests read the
// real schema, so a new migration that adds a group column (or a table hanging off a
// listed one) without listing it fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempPlatform } from '../helpers/platform.js';
import { GROUP_TABLES, PLATFORM_TABLES } from '../../src/store/sql/group-tables.js';
import { foreignKeys, tableNames } from '../../src/store/sqlite/schema.js';
import { tableColumns } from '../../src/store/sql/schema.js';

test('every table is either group-owned (listed) or named as platform-wide', async () => {
  const p = await tempPlatform();
  try {
    const listed = new Set(GROUP_TABLES.map((t) => t.table));
    for (const table of await tableNames(p.db)) {
      const columns = await tableColumns(p.db, table);
      const fks = await foreignKeys(p.db, table);
      const hasGroupColumn = columns.some((c) => c === 'group_id' || c.endsWith('_group_id'));
      const refsListed = fks.some((fk) => listed.has(fk.table));
      // A platform table may name a group that is gone (a tombstone), never reference a listed table.
      if (refsListed || (hasGroupColumn && !(table in PLATFORM_TABLES))) {
        assert.ok(listed.has(table), `${table} has a group column or references a group-owned table: add it to GROUP_TABLES`);
      } else {
        assert.ok(listed.has(table) || table in PLATFORM_TABLES, `${table} is neither in GROUP_TABLES nor in PLATFORM_TABLES: say whose rows it holds`);
      }
    }
  } finally {
    await p.close();
  }
});

test('the list is ordered parents first and names real columns', async () => {
  const p = await tempPlatform();
  try {
    const seen = new Set<string>();
    for (const t of GROUP_TABLES) {
      const columns = await tableColumns(p.db, t.table);
      for (const c of [t.owner.column, ...(t.id ? [t.id] : []), ...(t.refs ?? []), ...(t.secrets ?? [])]) {
        assert.ok(columns.includes(c), `${t.table}.${c} does not exist`);
      }
      if ('parent' in t.owner) assert.ok(seen.has(t.owner.parent), `${t.table} is listed before its parent ${t.owner.parent}`);
      // A foreign key to another group-owned table: that table must come first (a fork inserts parents first).
      for (const fk of await foreignKeys(p.db, t.table)) {
        if (fk.table === t.table || !GROUP_TABLES.some((g) => g.table === fk.table)) continue;
        assert.ok(seen.has(fk.table), `${t.table}.${fk.from} references ${fk.table}, which is listed after it`);
        if (!t.forkSkip && fk.from !== t.owner.column) {
          assert.ok(t.refs?.includes(fk.from), `${t.table}.${fk.from} references ${fk.table}: list it in refs so a fork points it at the copy`);
        }
      }
      seen.add(t.table);
    }
    assert.equal(GROUP_TABLES[0]!.table, 'groups');
  } finally {
    await p.close();
  }
});
