// The fault suite of the store, part two (part one, store-outage.soak.ts: SQLite's lock
// held, PostgreSQL unreachable): faults of the real thing, under load, with the
// harness of helpers/store-fault-load.ts (answers by status, acknowledged missing, keys
// charged twice, first success after, a settlement and a webhook retry due during the
// fault done once after it). PostgreSQL: the cluster crashed (immediate stop, what
// `pg_ctl stop -m immediate` does; and kill -9 of the postmaster) and started again on
// its port, two servers on it — a throwaway cluster of its own, so the run's shared one
// stays up; its backends ended
// (`pg_terminate_backend`) again and again mid-write. SQLite: the disk it lives on full
// (a small tmpfs, filled), then freed. RELIABILITY.md, "When the store fails".
import '../helpers/env.js';
import { test } from 'node:test';
import pg from 'pg';
import { testStore, tempDbPath } from '../helpers/platform.js';
import { startCluster } from '../helpers/pg-cluster.js';
import { runFaultCase } from '../helpers/store-fault-load.js';
import { breakableDisk, smallDisk } from '../helpers/small-disk.js';
import { report } from '../helpers/report.js';
import path from 'node:path';

const PG_DOWN_MS = 4_000;
const TERMINATE_MS = 10_000;
const DISK_FULL_MS = 10_000;
const READ_ONLY_MS = 10_000;

if (testStore === 'postgres') {
  for (const mode of ['immediate', 'kill'] as const) {
    const how = mode === 'immediate' ? 'stopped in immediate mode (SIGQUIT to the postmaster, as pg_ctl stop -m immediate)' : 'killed (kill -9 of the postmaster; its backends notice and exit)';
    test(`PostgreSQL crashed (${mode === 'immediate' ? 'immediate stop' : 'kill -9'}) for 4 s and started again under load, two servers: 503s, nothing acknowledged lost, back by itself`, async () => {
      // Commits are synchronous here (durable), as on a real server: a crash loses no acknowledged commit.
      const cluster = await startCluster({ durable: true });
      let restartMs = 0;
      try {
        await runFaultCase({
          name: mode === 'immediate' ? 'store-crash' : 'store-kill',
          fault: `PostgreSQL ${cluster.version} ${how} for ${PG_DOWN_MS / 1000} s, then started on the same port (crash recovery)`,
          db: `${cluster.url}/crash_${process.pid}`,
          servers: 2,
          holdMs: PG_DOWN_MS,
          inject: () => cluster.crash(mode),
          recover: async () => {
            const t = performance.now();
            await cluster.start();
            restartMs = performance.now() - t;
          },
          extra: () => ({ restart_until_ready_ms: Math.round(restartMs) }),
        });
      } finally {
        await cluster.stop();
      }
    });
  }

  test('PostgreSQL backends terminated (pg_terminate_backend) again and again for 10 s under load, two servers: no 500, nothing lost, nothing twice', async () => {
    const db = tempDbPath();
    const admin = new pg.Client({ connectionString: db.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    let rounds = 0;
    let terminated = 0;
    let running: Promise<void> | undefined;
    let stop = false;
    try {
      await runFaultCase({
        name: 'store-terminate',
        fault: `every backend of the database ended by pg_terminate_backend every 100 ms for ${TERMINATE_MS / 1000} s`,
        db,
        servers: 2,
        holdMs: TERMINATE_MS,
        away: false, // between blows the store answers: writes on an ended backend run again, jobs run when they can
        inject: async () => {
          running = (async () => {
            while (!stop) {
              const { rows } = await admin.query<{ ok: boolean }>(
                'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
                [new URL(db).pathname.slice(1)],
              );
              rounds++;
              terminated += rows.filter((r) => r.ok).length;
              await new Promise((r) => setTimeout(r, 100));
            }
          })();
        },
        recover: async () => {
          stop = true;
          await running;
        },
        extra: () => ({ termination_rounds: rounds, backends_terminated: terminated }),
      });
    } finally {
      stop = true;
      await running;
      await admin.end();
    }
  });
} else {
  test('SQLite on a full disk for 10 s under load (a small tmpfs filled, then freed): 503 disk_full, nothing acknowledged lost, back by itself', async (t) => {
    const disk = smallDisk(64);
    if ('unavailable' in disk) {
      // Said in the output and in the results file, not skipped in silence: CI runs as root and runs it.
      t.diagnostic(`disk full not tried: ${disk.unavailable}`);
      report('store-disk-full', { fault: 'SQLite on a full tmpfs', not_tried: disk.unavailable });
      return;
    }
    let filled = 0;
    try {
      await runFaultCase({
        name: 'store-disk-full',
        fault: `SQLite file on a 64 MiB tmpfs filled to the last byte for ${DISK_FULL_MS / 1000} s, then the filler deleted`,
        db: path.join(disk.dir, 'payctl.db'),
        servers: 1,
        holdMs: DISK_FULL_MS,
        inject: async () => {
          filled = disk.fill();
        },
        recover: async () => disk.free(),
        extra: () => ({ filler_bytes: filled }),
      });
    } finally {
      disk.close();
    }
  });

  test('SQLite on a disk the kernel made read-only for 10 s under load (ext4 errors=remount-ro), then repaired and the server restarted: 503, nothing acknowledged lost', async (t) => {
    const disk = breakableDisk(64);
    if ('unavailable' in disk) {
      t.diagnostic(`read-only disk not tried: ${disk.unavailable}`);
      report('store-read-only', { fault: 'SQLite on a disk made read-only', not_tried: disk.unavailable });
      return;
    }
    try {
      await runFaultCase({
        name: 'store-read-only',
        fault: `SQLite file on an ext4 loop disk the kernel made read-only (an ext4 error with errors=remount-ro: writes to open files fail with EROFS) for ${READ_ONLY_MS / 1000} s; the server stopped, the disk unmounted, fsck'd and mounted again, the server started on its port`,
        db: path.join(disk.dir, 'payctl.db'),
        servers: 1,
        holdMs: READ_ONLY_MS,
        restart: true, // the kernel clears its emergency read-only state only at unmount
        inject: async () => disk.breakReadOnly(),
        recover: async () => disk.repair(),
      });
    } finally {
      disk.close();
    }
  });
}
