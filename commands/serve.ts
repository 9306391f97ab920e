import { Flags } from '@oclif/core';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PayctlCommand } from '../src/cli/base.js';
import { ENV } from '../src/config/env.js';
import { removeServerRecord, runningServer, writeServerRecord } from '../src/config/server-file.js';
import { resolveSetting, SETTINGS } from '../src/config/profile.js';
import { AppError } from '../src/errors.js';
import { portOwner } from '../src/http/port-owner.js';
import type { Platform } from '../src/services/platform.js';

/** A port that cannot be had: one line saying why, by whom if known, and what to do. */
function listenError(err: unknown, host: string, port: number, p: Platform): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const where = `port ${port} on ${host}`;
  const other = `pick another port: payctl serve --port ${port === 65535 ? 4001 : port + 1} (--port 0 takes any free one)`;
  if (code === 'EADDRINUSE') {
    const mine = runningServer(p.dataDir, p.db.location);
    const owner = mine && new URL(mine.url).port === String(port) ? `payctl serve of this database, pid ${mine.pid}` : portOwner(port);
    return new AppError(400, 'invalid_request', `${where} is already in use${owner ? ` (by ${owner})` : ''}; stop it, or ${other}`);
  }
  if (code === 'EACCES') return new AppError(400, 'invalid_request', `${where} needs privileges this process lacks (ports below 1024 usually do); ${other}`);
  if (code === 'EADDRNOTAVAIL') return new AppError(400, 'invalid_request', `${host} is not an address of this machine; use --host 127.0.0.1 or --host 0.0.0.0`);
  return err;
}

/** The pay page of the default group's newest open payment link (the demo's), to open first. */
async function demoPayPage(p: Platform): Promise<string | undefined> {
  try {
    const group = resolveSetting('group', { dataDir: p.dataDir }).value;
    if (!group) return undefined;
    const [{ listPaymentLinks }, { execute }, { contextFor }] = await Promise.all([
      import('../src/services/payment-links/payment-links.js'),
      import('../src/services/use-case.js'),
      import('../src/services/context.js'),
    ]);
    const list = await execute(listPaymentLinks, p, contextFor(p, group), { status: 'available', limit: '1' });
    return list.data.items[0]?.url;
  } catch {
    return undefined;
  }
}

export default class Serve extends PayctlCommand {
  static override description = 'Serve the /api/v1 JSON API, the hosted pages and /docs over HTTP';
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 8080 --host 0.0.0.0',
    '<%= config.bin %> serve --port 8080 --public-url https://pay.example.com',
    '<%= config.bin %> serve --pay-rate-limit 1000/1m --access-log -',
    '<%= config.bin %> serve --metrics-port 9464',
    'PAYCTL_ADMIN_TOKEN=padm_ci_secret <%= config.bin %> serve --port 0',
    '<%= config.bin %> serve --port 0 --print-address --db /tmp/test.db',
  ];
  static override enableJsonFlag = false;
  static override flags = {
    port: Flags.integer({ description: 'port to listen on (0 picks a free one)', default: 4000, env: ENV.port, min: 0, max: 65535 }),
    host: Flags.string({ description: 'address to listen on', default: '127.0.0.1', env: ENV.host }),
    'access-log': Flags.string({
      description: 'access log: a file path, - for stderr, off [default: access.log beside the database]',
      env: ENV.accessLog,
    }),
    'trust-proxy': Flags.boolean({ description: 'take the client address from X-Forwarded-For (only behind your own proxy)' }),
    'pay-rate-limit': Flags.string({ description: 'payment-link pay attempts allowed per client address, <count>/<duration>', default: '10/60s' }),
    tick: Flags.integer({ description: 'how often due work (settlement, billing) runs, in ms; 0 disables', default: 1000, min: 0 }),
    'public-url': Flags.string({
      description: 'the address payers reach this server at (behind a proxy): pay and invoice page URLs are built with it [default: the listening address]',
      env: ENV.publicUrl,
    }),
    metrics: Flags.boolean({ description: 'serve GET /metrics (Prometheus text) on this port; see docs/operations.md' }),
    'metrics-port': Flags.integer({ description: 'serve GET /metrics on a port of its own instead (0 picks a free one)', min: 0, max: 65535 }),
    'print-address': Flags.boolean({
      description: 'print the address alone (http://HOST:PORT) as the first line of stdout, before anything else: for scripts and tests in any language (docs/cli.md)',
    }),
    'admin-token': Flags.string({
      description: 'the sandbox admin token (authorises /api/v1/sandboxes) [default: a random one, printed at start]',
      env: ENV.adminToken,
    }),
    'stop-with-stdin': Flags.boolean({
      description: 'stop (as on SIGTERM) when stdin closes: started with a pipe as stdin, the server ends with the process that started it, however that ends (docs/testing.md)',
    }),
    'remove-on-stop': Flags.string({ description: 'a folder to remove once stopped (a temporary database beside it; docs/testing.md)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    // A store not reachable yet (PostgreSQL starting, a disk not mounted) is waited for.
    const { waitForStore } = await import('../src/cli/wait-for-store.js');
    const p = await waitForStore(() => this.platform(flags.db), { log: (line) => process.stderr.write(`${line}\n`) });
    const { startServer } = await import('../src/http/app.js');
    const { parseRateLimit } = await import('../src/http/rate-limit-spec.js');
    const publicUrl = flags['public-url'];
    if (publicUrl !== undefined && SETTINGS['api-url'].check(publicUrl)) this.error(`--public-url: ${SETTINGS['api-url'].check(publicUrl)}`, { exit: 2 });
    const server = await startServer({
      ...(publicUrl ? { publicUrl } : {}),
      platform: p,
      port: flags.port,
      host: flags.host,
      accessLog: flags['access-log'] ?? path.join(p.dataDir, 'access.log'),
      trustProxy: flags['trust-proxy'],
      tickMs: flags.tick,
      settings: { payRateLimit: parseRateLimit(flags['pay-rate-limit']) },
      adminToken: flags['admin-token'],
      // The demo scripts load only when a sandbox asks for them.
      seedDemo: async (g, ids) => (await import('../src/dev/demo.js')).seedDemoInGroup(g, ids),
      ...(flags['metrics-port'] !== undefined ? { metrics: flags['metrics-port'] } : flags.metrics ? { metrics: true as const } : {}),
    }).catch((err: unknown) => {
      throw listenError(err, flags.host, flags.port, p);
    });
    // Other commands print page URLs with this address while the server runs (server.json).
    writeServerRecord(p.dataDir, { url: server.url, public_url: p.publicUrl, db: p.db.location });
    // The first line, alone: whoever started `serve --port 0` reads the address without parsing prose.
    if (flags['print-address']) process.stdout.write(`${server.url}\n`);
    const page = await demoPayPage(p);
    // One write: whoever waits for the first line has the second too.
    this.log(
      `payctl serving ${server.url}/api/v1 (docs: ${server.url}/docs, database: ${p.db.location})\n` +
        `Pages at ${p.publicUrl}${publicUrl ? ' (--public-url)' : ''}${page ? `; pay page: ${page}` : ''}`,
    );
    this.log(
      flags['admin-token']
        ? 'Sandbox admin token: the one given (--admin-token or PAYCTL_ADMIN_TOKEN)'
        : `Sandbox admin token: ${server.adminToken}`,
    );
    this.log(`Dashboard: ${server.dashboardUrl}`);
    if (server.metricsUrl) this.log(`Metrics: ${server.metricsUrl}`);
    // SIGUSR2: one `payctl stats {…}` line on stdout, cumulative since start: the main
    // thread's event-loop utilisation and the writer's counters (what `npm run bench` reads).
    process.on('SIGUSR2', () => {
      const elu = performance.eventLoopUtilization();
      process.stdout.write(`payctl stats ${JSON.stringify({ at_ms: performance.now(), elu: { active: elu.active, idle: elu.idle }, writer: p.db.stats() })}\n`);
    });
    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stderr.write(`${signal}: finishing in-flight requests…\n`);
        resolve();
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
      // The starting process's end (a SIGKILL included) closes its end of the pipe.
      if (flags['stop-with-stdin']) {
        // Its stdout and stderr are likely that process's pipes too: a write to one gone is no crash.
        for (const out of [process.stdout, process.stderr]) out.on('error', () => undefined);
        process.stdin.once('close', () => stop('stdin closed')).once('error', () => stop('stdin closed'));
        process.stdin.on('data', () => undefined).resume();
      }
    });
    removeServerRecord(p.dataDir);
    await server.close();
    await p.close();
    if (flags['remove-on-stop']) rmSync(flags['remove-on-stop'], { recursive: true, force: true });
    process.stderr.write('stopped cleanly\n');
    // stdin read (--stop-with-stdin) keeps the loop alive: the process is done.
    if (flags['stop-with-stdin']) process.exit(0);
  }
}
