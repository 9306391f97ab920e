// Groups, processors and API keys in memory for the server's hot path. Each request
// reads one counter (config_version, bumped by triggers whenever any process changes
// those tables) instead of the rows: when it moved, everything cached is dropped, so a
// key revoked by `payctl key revoke` in another process is refused by the next request.
import type { Executor, Store } from './interfaces/db.js';
import type { ApiKeyEntity, GroupEntity, ProcessorEntity } from '../domain/groups.js';
import type { GroupClockColumns } from './interfaces/groups.js';

/** A key as authentication reads it: with its group's clock. */
export type AuthKeyRow = ApiKeyEntity & GroupClockColumns & { group_status: string };

/** Entries per map: past it a map is emptied (only hostile traffic makes that many distinct lookups). */
const MAX_ENTRIES = 10_000;

export class ConfigCache {
  private version: number | undefined;
  private keys = new Map<string, AuthKeyRow>();
  private groups = new Map<string, GroupEntity>();
  private processors = new Map<string, ProcessorEntity>();

  /**
   * Read the counter (one small read, shared by the requests that ask together, each
   * seeing a read submitted after it asked); drop every entry if it moved. Returns the
   * version seen.
   */
  async check(reader: Executor): Promise<number> {
    return this.observe(await reader.repos.versions.config(reader));
  }

  /** The counter as read just now (with other things, e.g. the request pipeline's one read): drop every entry if it moved. */
  observe(n: number): number {
    if (n !== this.version) {
      this.version = n;
      this.keys.clear();
      this.groups.clear();
      this.processors.clear();
    }
    return n;
  }

  /** Whether entries may be served: a check has run (the caller's request made one). */
  get checked(): boolean {
    return this.version !== undefined;
  }

  key(hash: string): AuthKeyRow | undefined {
    return this.keys.get(hash);
  }
  group(id: string): GroupEntity | undefined {
    return this.groups.get(id);
  }
  processor(groupId: string, id: string): ProcessorEntity | undefined {
    const row = this.processors.get(id);
    return row?.group_id === groupId ? row : undefined;
  }

  // A row read under `version` is kept only if the counter has not moved since: a row
  // read just before a change must not outlive the change.
  putKey(version: number, row: AuthKeyRow): void {
    if (version === this.version) put(this.keys, row.key_hash, row);
  }
  putGroup(version: number, row: GroupEntity): void {
    if (version === this.version) put(this.groups, row.id, row);
  }
  putProcessor(version: number, row: ProcessorEntity): void {
    if (version === this.version) put(this.processors, row.id, row);
  }
  get currentVersion(): number | undefined {
    return this.version;
  }
}

function put<T>(map: Map<string, T>, id: string, row: T): void {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(id, row);
}

const caches = new WeakMap<Store, ConfigCache>();

/** The cache of one open store. */
export function configCache(db: Store): ConfigCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new ConfigCache()));
  return cache;
}
