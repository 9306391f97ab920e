// Store failures that are the caller's situation, not a bug. A write that names a row
// deleted meanwhile (a sandbox dropped while its requests were in flight) fails its
// foreign key; the write's savepoint rolled it back whole, so it is a plain "not found".
export function isMissingReference(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  // SQLite: SQLITE_CONSTRAINT "FOREIGN KEY constraint failed"; PostgreSQL: 23503.
  return (code === 'SQLITE_CONSTRAINT' && typeof message === 'string' && message.includes('FOREIGN KEY')) || code === '23503';
}

/** The database was written by a newer payctl: refused with a clear message rather than misread. */
export class SchemaTooNewError extends Error {}
