import type { Executor, Tx } from '../../interfaces/db.js';
import type { SandboxEntity, SandboxStore } from '../../interfaces/groups.js';

/** Groups made by the sandbox API (groups.sandbox = 1). */
export const sandboxRepo: SandboxStore = {
  async insert(ex: Tx, g: SandboxEntity) {
    await ex.run(
      'INSERT INTO groups (id, name, pricing, status, created_at, updated_at, clock_offset_ms, clock_mode, clock_rate, clock_at_ms, clock_since_ms, sandbox) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)',
      [g.id, g.name, g.pricing, g.status, g.created_at, g.updated_at, g.clock_offset_ms, g.clock_mode, g.clock_rate, g.clock_at_ms, g.clock_since_ms],
    );
  },
  find: (ex: Executor, id: string) =>
    ex.get<SandboxEntity>('SELECT id, name, pricing, status, created_at, updated_at, clock_offset_ms, clock_mode, clock_rate, clock_at_ms, clock_since_ms FROM groups WHERE id = ? AND sandbox = 1', [id]),
  list: (ex: Executor) =>
    ex.all<SandboxEntity>(
      'SELECT id, name, pricing, status, created_at, updated_at, clock_offset_ms, clock_mode, clock_rate, clock_at_ms, clock_since_ms FROM groups WHERE sandbox = 1 ORDER BY created_at, id',
    ),
  /** A fork made whole: its own name and creation time (its other columns are the original's), and active. */
  nameFork: (ex: Tx, id: string, name: string, at: string) =>
    ex.run("UPDATE groups SET name = ?, status = 'active', created_at = ?, updated_at = ? WHERE id = ?", [name, at, at, id]),
};
