// Groups, processors and linked accounts (their rows are the entities: plain
// text and numbers, nothing to convert).
import type { GroupStore, LinkedAccountStore, ProcessorStore } from '../../interfaces/groups.js';
import type { GroupEntity, LinkedAccountEntity, ProcessorEntity } from '../../../domain/groups.js';

export const groupRepo: GroupStore = {
  async insert(ex, g) {
    await ex.run('INSERT INTO groups (id, name, pricing, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
      g.id, g.name, g.pricing, g.status, g.created_at, g.updated_at,
    ]);
  },
  find: (ex, id) => ex.get<GroupEntity>('SELECT id, name, pricing, status, created_at, updated_at FROM groups WHERE id = ?', [id]),
  list: (ex) => ex.all<GroupEntity>('SELECT id, name, pricing, status, created_at, updated_at FROM groups ORDER BY created_at, id'),
  isSandbox: async (ex, groupId) => (await ex.get<{ s: number }>('SELECT sandbox AS s FROM groups WHERE id = ?', [groupId]))?.s === 1,
  exists: async (ex, groupId) => (await ex.get('SELECT 1 AS x FROM groups WHERE id = ?', [groupId])) !== undefined,
};

export const processorRepo: ProcessorStore = {
  async insert(ex, p) {
    await ex.run('INSERT INTO processors (id, group_id, name, type, created_at) VALUES (?, ?, ?, ?, ?)', [
      p.id, p.group_id, p.name, p.type, p.created_at,
    ]);
  },
  find: (ex, groupId, id) =>
    ex.get<ProcessorEntity>('SELECT * FROM processors WHERE group_id = ? AND id = ?', [groupId, id]),
  listByGroup: (ex, groupId) =>
    ex.all<ProcessorEntity>('SELECT * FROM processors WHERE group_id = ? ORDER BY created_at, id', [groupId]),
};

export const linkedAccountRepo: LinkedAccountStore = {
  async insert(ex, a) {
    await ex.run('INSERT INTO linked_accounts (id, group_id, processor_id, name, created_at) VALUES (?, ?, ?, ?, ?)', [
      a.id, a.group_id, a.processor_id, a.name, a.created_at,
    ]);
  },
  find: (ex, groupId, id) =>
    ex.get<LinkedAccountEntity>('SELECT * FROM linked_accounts WHERE group_id = ? AND id = ?', [groupId, id]),
  listByGroup: (ex, groupId) =>
    ex.all<LinkedAccountEntity>('SELECT * FROM linked_accounts WHERE group_id = ? ORDER BY created_at, id', [groupId]),
};
