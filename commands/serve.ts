import { Flags } from '@oclif/core';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PayctlCommand } from '../src/cli/base.js';
import { ENV } from '../src/config/env.js';

export default class Serve extends PayctlCommand {
  static override description = 'Serve the /api/v1 JSON API, the hosted pages and /docs over HTTP';
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 8080 --host 0.0.0.0',
    '<%= config.bin %> serve --pay-rate-limit 1000/1m --access-log -',
    'PAYCTL_ADMIN_TOKEN=padm_ci_secret <%= config.bin %> serve --port 0',
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
    'admin-token': Flags.string({
      description: 'the sandbox admin token (authorises /api/v1/sandboxes) [default: a random one, printed at start]',
      env: ENV.adminToken,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const p = await this.platform(flags.db);
    const { startServer } = await import('../src/http/app.js');
    const { parseRateLimit } = await import('../src/http/rate-limit-spec.js');
    const server = await startServer({
      platform: p,
      port: flags.port,
      host: flags.host,
      accessLog: flags['access-log'] ?? path.join(p.dataDir, 'access.log'),
      trustProxy: flags['trust-proxy'],
      tickMs: flags.tick,
      settings: { payRateLimit: parseRateLimit(flags['pay-rate-limit']) },
      adminToken: flags['admin-token'],
    });
    this.log(`payctl serving ${server.url}/api/v1 (docs: ${server.url}/docs, database: ${p.db.location})`);
    this.log(
      flags['admin-token']
        ? 'Sandbox admin token: the one given (--admin-token or PAYCTL_ADMIN_TOKEN)'
        : `Sandbox admin token: ${server.adminToken}`,
    );
    // SIGUSR2: one `payctl stats {…}` line on stdout, cumulative since start: the main
    // thread's event-loop utilisation and the writer's counters (what `npm run bench` reads).
    process.on('SIGUSR2', () => {
      const elu = performance.eventLoopUtilization();
      process.stdout.write(`payctl stats ${JSON.stringify({ at_ms: performance.now(), elu: { active: elu.active, idle: elu.idle }, writer: p.db.stats() })}\n`);
    });
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        process.stderr.write(`${signal}: finishing in-flight requests…\n`);
        resolve();
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    await server.close();
    await p.close();
    process.stderr.write('stopped cleanly\n');
  }
}
