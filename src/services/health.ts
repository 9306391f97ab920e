// Readiness (GET /ready): the store answers a read within a bounded time, and its schema
// is the version this payctl's code needs (a database another payctl migrated further,
// or one still migrating, is not ready). A probe must answer even when the store never
// does, so the read races a timer.
import { z } from 'zod';
import type { Platform } from './platform.js';
import { useCase } from './use-case.js';
import type { Readiness } from '../domain/health.js';
import { AppError } from '../errors.js';
import { LATEST_VERSION } from '../store/migrations/latest.js';

/** How long the store gets to answer a probe's read. */
export const READY_TIMEOUT_MS = 2_000;

const notReady = (reason: string) => new AppError(503, 'unavailable', `not ready: ${reason}`);

/** GET /ready: the store answers and its schema is current, else 503 saying why. */
export const checkReadiness = useCase({
  input: z.object({}),
  run: (p: Platform) => readiness(p),
});

export async function readiness(p: Platform, timeoutMs = READY_TIMEOUT_MS): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  let version: number;
  try {
    version = await Promise.race([p.db.repos.versions.schema(p.db), timeout]);
  } catch (err) {
    throw notReady(`the ${p.db.dialect.name} store does not answer (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    clearTimeout(timer);
  }
  if (version !== LATEST_VERSION) {
    throw notReady(`the database is at schema version ${version}, this payctl needs ${LATEST_VERSION}`);
  }
  return { status: 'ready', store: p.db.dialect.name, schema_version: version };
}
