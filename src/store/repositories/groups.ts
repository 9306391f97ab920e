import type { Executor, Tx } from '../db.js';

export interface GroupRow {
  id: string;
  name: string;
  pricing: 'flat' | 'interchange_plus';
  status: string;
  created_at: string;
  updated_at: string;
}
export interface ProcessorRow {
  id: string;
  group_id: string;
  name: string;
  type: string;
  created_at: string;
}
export interface LinkedAccountRow {
  id: string;
  group_id: string;
  processor_id: string;
  name: string;
  created_at: string;
}

export const groupRepo = {
  async insert(ex: Tx, g: GroupRow) {
    await ex.run('INSERT INTO groups (id, name, pricing, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
      g.id, g.name, g.pricing, g.status, g.created_at, g.updated_at,
    ]);
  },
  find: (ex: Executor, id: string) => ex.get<GroupRow>('SELECT * FROM groups WHERE id = ?', [id]),
  findByName: (ex: Executor, name: string) => ex.get<GroupRow>('SELECT * FROM groups WHERE name = ? ORDER BY created_at LIMIT 1', [name]),
  list: (ex: Executor) => ex.all<GroupRow>('SELECT * FROM groups ORDER BY created_at, id'),
};

export const processorRepo = {
  async insert(ex: Tx, p: ProcessorRow) {
    await ex.run('INSERT INTO processors (id, group_id, name, type, created_at) VALUES (?, ?, ?, ?, ?)', [
      p.id, p.group_id, p.name, p.type, p.created_at,
    ]);
  },
  find: (ex: Executor, groupId: string, id: string) =>
    ex.get<ProcessorRow>('SELECT * FROM processors WHERE group_id = ? AND id = ?', [groupId, id]),
  listByGroup: (ex: Executor, groupId: string) =>
    ex.all<ProcessorRow>('SELECT * FROM processors WHERE group_id = ? ORDER BY created_at, id', [groupId]),
};

export const linkedAccountRepo = {
  async insert(ex: Tx, a: LinkedAccountRow) {
    await ex.run('INSERT INTO linked_accounts (id, group_id, processor_id, name, created_at) VALUES (?, ?, ?, ?, ?)', [
      a.id, a.group_id, a.processor_id, a.name, a.created_at,
    ]);
  },
  find: (ex: Executor, groupId: string, id: string) =>
    ex.get<LinkedAccountRow>('SELECT * FROM linked_accounts WHERE group_id = ? AND id = ?', [groupId, id]),
  listByGroup: (ex: Executor, groupId: string) =>
    ex.all<LinkedAccountRow>('SELECT * FROM linked_accounts WHERE group_id = ? ORDER BY created_at, id', [groupId]),
};
