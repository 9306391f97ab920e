// Fault rules of both scopes: one repository over each scope's table (fault_rules: a
// group's API rules; webhook_fault_rules: an endpoint's). The rule's fields are JSON text
// in `rule` (their shape is the domain's schema); the owner's ids, seed and counters are
// columns of their own.
import { fromJsonColumn, jsonColumn } from '../columns.js';
import type { FaultRuleCounters, FaultRuleOf, FaultRuleOwner, FaultRuleStore, FaultRuleStores, FaultScope } from '../../interfaces/faults.js';

interface Table {
  name: string;
  /** The owner's columns, in the order rows, answers and WHERE clauses hold them. */
  owner: readonly string[];
  /** The action of a row whose `rule` text is NULL (none is written so). */
  action: string;
}

const TABLES: Record<FaultScope, Table> = {
  api: { name: 'fault_rules', owner: ['group_id'], action: 'latency' },
  webhook: { name: 'webhook_fault_rules', owner: ['group_id', 'endpoint_id'], action: 'drop' },
};

type Row = Record<string, unknown> & { id: string; rule: string | null; seed: number; calls: number; fired: number; created_at: string };

/** The repository of one scope's rules. */
function faultRuleRepo<S extends FaultScope>(scope: S): FaultRuleStore<S> {
  const t = TABLES[scope];
  const columns = ['id', ...t.owner, 'rule', 'seed', 'calls', 'fired', 'created_at'];
  const insert = `INSERT INTO ${t.name} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  const ofOwner = t.owner.map((c) => `${c} = ?`).join(' AND ');
  const ownerIds = (o: FaultRuleOwner<S>) => t.owner.map((c) => (o as Record<string, string>)[c]!);
  const toRule = (row: Row): FaultRuleOf<S> =>
    ({
      id: row.id,
      ...Object.fromEntries(t.owner.map((c) => [c, row[c]])),
      ...(fromJsonColumn<Record<string, unknown>>(row.rule) ?? { action: t.action }),
      seed: row.seed,
      calls: row.calls,
      fired: row.fired,
      created_at: row.created_at,
    }) as FaultRuleOf<S>;
  return {
    scope,
    async insert(tx, r) {
      const { id, seed, calls, fired, created_at, ...rest } = r as FaultRuleOf<S> & Record<string, unknown>;
      const rule: Record<string, unknown> = { ...rest };
      for (const c of t.owner) delete rule[c];
      await tx.run(insert, [id, ...t.owner.map((c) => rest[c] as string), jsonColumn(rule), seed, calls, fired, created_at]);
    },
    list: async (ex, owner) => (await ex.all<Row>(`SELECT * FROM ${t.name} WHERE ${ofOwner} ORDER BY created_at, id`, ownerIds(owner))).map(toRule),
    listAll: async (ex) => (await ex.all<Row>(`SELECT * FROM ${t.name} ORDER BY created_at, id`)).map(toRule),
    counters: (tx, ids) => tx.all<FaultRuleCounters>(`SELECT id, calls, fired FROM ${t.name} WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]),
    setCounters: (tx, id, calls, fired) => tx.run(`UPDATE ${t.name} SET calls = ?, fired = ? WHERE id = ?`, [calls, fired, id]),
    remove: (tx, owner, id) => tx.run(`DELETE FROM ${t.name} WHERE ${ofOwner} AND id = ?`, [...ownerIds(owner), id]),
  };
}

export const faultRuleRepos: FaultRuleStores = { api: faultRuleRepo('api'), webhook: faultRuleRepo('webhook') };
