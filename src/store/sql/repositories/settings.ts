import type { SettingsStore } from '../../interfaces/platform.js';
import type { Executor, Tx } from '../../interfaces/db.js';

export const settingsRepo: SettingsStore = {
  async get(ex: Executor, name: string): Promise<string | undefined> {
    return (await ex.get<{ value: string }>('SELECT value FROM settings WHERE name = ?', [name]))?.value;
  },
  async put(ex: Tx, name: string, value: string): Promise<void> {
    await ex.run('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [name, value]);
  },
  async getJson(ex: Executor, name: string): Promise<unknown> {
    const text = await settingsRepo.get(ex, name);
    return text ? JSON.parse(text) : undefined;
  },
  async putJson(ex: Tx, name: string, value: unknown): Promise<void> {
    await settingsRepo.put(ex, name, JSON.stringify(value));
  },
};
