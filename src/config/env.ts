// Every environment variable payctl reads, in one place. Readers take `env` as a
// parameter so tests can pass their own.
import path from 'node:path';

export const ENV = {
  db: 'PAYCTL_DB',
  smtpUrl: 'PAYCTL_SMTP_URL',
  mailFrom: 'PAYCTL_MAIL_FROM',
  publicUrl: 'PAYCTL_PUBLIC_URL',
  accessLog: 'PAYCTL_ACCESS_LOG',
  port: 'PAYCTL_PORT',
  host: 'PAYCTL_HOST',
  adminToken: 'PAYCTL_ADMIN_TOKEN',
  group: 'PAYCTL_GROUP',
  apiUrl: 'PAYCTL_API_URL',
  apiKey: 'PAYCTL_API_KEY',
  listenSecret: 'PAYCTL_LISTEN_SECRET',
  /** How long a webhook sender holds the deliveries it claimed (ms, real time; default 15000). */
  webhookLeaseMs: 'PAYCTL_WEBHOOK_LEASE_MS',
  /** How long a sandbox clock move waits for its group's catch-up before answering 202 with the progress (ms, real time; default 10000). */
  clockAnswerMs: 'PAYCTL_CLOCK_ANSWER_MS',
  debug: 'DEBUG',
} as const;

export type Env = Record<string, string | undefined>;

/** The default database: `.payctl/payctl.db` under the current directory. */
export function defaultDbPath(cwd = process.cwd()): string {
  return path.join(cwd, '.payctl', 'payctl.db');
}

export function dbPathFrom(flag: string | undefined, env: Env = process.env): string {
  return flag ?? env[ENV.db] ?? defaultDbPath();
}
