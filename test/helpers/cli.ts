// Run the real payctl binary.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { dataDirOf, isPgUrl } from './platform.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a payctl child: PAYCTL_DB from `db`, and, when the database is a
 * PostgreSQL URL (the suite's PostgreSQL pass), PAYCTL_DATA_DIR set to that database's
 * own folder (helpers/platform.ts dataDirOf) unless the test chose one: the profile
 * then sits beside the database as it does beside a SQLite file, never in the cwd.
 */
export function childEnv(args: string[], db: string | undefined, env: Record<string, string> = {}, base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...base, ...(db ? { PAYCTL_DB: db } : {}), ...env };
  const flag = args.indexOf('--db');
  const target = flag >= 0 ? args[flag + 1] : out.PAYCTL_DB;
  const chosen = env.PAYCTL_DATA_DIR !== undefined || args.includes('--data-dir');
  if (target && isPgUrl(target) && !chosen) out.PAYCTL_DATA_DIR = dataDirOf(target);
  return out;
}

export function runCli(args: string[], opts: { db?: string; env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), ...args], {
      env: childEnv(args, opts.db, opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

export async function runCliJson<T = any>(args: string[], opts: { db?: string; env?: Record<string, string>; input?: string } = {}): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await runCli([...args, '--json'], opts);
  if (r.code !== 0) throw new Error(`payctl ${args.join(' ')} exited ${r.code}: ${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout) as T;
}

/** A user error: exit code 1, the message on stderr, and no stack trace. */
export function assertUserError(r: CliResult, pattern: RegExp): void {
  assert.equal(r.code, 1, `${r.stdout}${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+/, 'no stack trace');
}

/** A usage error (the command line is wrong): exit code 2, the message on stderr, and no stack trace. */
export function assertUsageError(r: CliResult, pattern: RegExp): void {
  assert.equal(r.code, 2, `${r.stdout}${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+/, 'no stack trace');
}
