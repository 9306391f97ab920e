// The package as a user installs it (a CI step: .ci/run runs this after `npm test`; it is
// not a *.test file because it installs from the registry and compiles sqlite3, minutes):
// `npm pack`, the tarball installed in an empty folder, and there `npx payctl --version`,
// `npx payctl init --demo`, `npx payctl serve`, a node:test file importing payctl/testing
// and payctl/client run against that server, and a TypeScript file checked against the
// installed types. Reports the tarball's size and the installed size (docs/benchmarks/kit.md).
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';

const pkg = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { name: string; version: string };
const TOKEN = 'padm_tarball_check_token';

const CHECK_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startPayctl } from 'payctl/testing';
import { createClient } from 'payctl/client';

test('payctl/testing and payctl/client from the installed package', async () => {
  const payctl = await startPayctl(); // PAYCTL_URL and PAYCTL_ADMIN_TOKEN: the npx payctl serve of this folder
  const sb = await payctl.sandbox({ demo: true });
  const { data } = await sb.client.POST('/api/v1/groups/{group_id}/transaction', { body: {
    type: 'sale', source: 'api', processor_id: sb.processorId, currency: 'USD', email_address: 'ada@example.com', email_receipt: false,
    amounts: { requested_amount: 1500 }, payment_details: { customer: { customer_id: sb.demo.customer_id, card_id: sb.demo.card_id } },
  } });
  assert.equal(data.status, 'pending');
  const ev = await sb.webhooks.next('transaction.approved');
  assert.equal(ev.data.object.id, data.id);
  const api = createClient({ baseUrl: payctl.url, key: sb.keys.view_transactions });
  const again = await api.GET('/api/v1/groups/{group_id}/transaction/{transaction_id}', { params: { path: { group_id: sb.groupId, transaction_id: data.id } } });
  assert.equal(again.data.id, data.id);
  await sb.drop();
  await payctl.stop();
});
`;

const CHECK_TYPES = `import { startPayctl, type Sandbox } from 'payctl/testing';
import { createClient, type components } from 'payctl/client';

export async function typed(sb: Sandbox): Promise<components['schemas']['Transaction'] | undefined> {
  const api = createClient({ baseUrl: 'http://127.0.0.1:4000' });
  // @ts-expect-error requested_amount must be a number
  await sb.client.POST('/api/v1/groups/{group_id}/transaction', { body: { type: 'sale', amounts: { requested_amount: '1' } } });
  void api;
  void startPayctl;
  return (await sb.client.GET('/api/v1/groups/{group_id}/transaction/{transaction_id}', { params: { path: { transaction_id: 't' } } })).data;
}
`;

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

const duBytes = (dir: string): number => Number(sh('du', ['-sb', dir], dir).split('\t')[0]);

test('the tarball installs, and payctl, payctl/testing and payctl/client run from it', { timeout: 30 * 60_000 }, async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-tarball-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // Built already (npm test ran before): no prepare run again.
  const [packed] = JSON.parse(sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], packageRoot)) as { filename: string }[];
  const tarball = path.join(dir, packed!.filename);
  const app = path.join(dir, 'app');
  sh('mkdir', ['-p', app], dir);
  writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: 'payctl-tarball-check', private: true, type: 'module', allowScripts: { sqlite3: true } }, null, 2),
  );
  // Registry installs of the run-time dependencies (sqlite3 compiles from source: minutes).
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYCTL_') && k !== 'NODE_TEST_CONTEXT'));

  assert.equal(sh('npx', ['--no-install', 'payctl', '--version'], app, env).trim().split(/\s/)[0], `${pkg.name}/${pkg.version}`);
  assert.match(sh('npx', ['--no-install', 'payctl', 'init', '--demo'], app, env), /demo/i);

  const serve = spawn('npx', ['--no-install', 'payctl', 'serve', '--port', '0', '--access-log', 'off'], {
    cwd: app,
    env: { ...env, PAYCTL_ADMIN_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  t.after(() => {
    try {
      process.kill(-serve.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /payctl serving (http:\/\/[^\s/]+)\/api\/v1/.exec(out);
      if (m) resolve(m[1]!);
    });
    serve.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    serve.once('exit', (code) => reject(new Error(`npx payctl serve exited (${code}): ${out}`)));
  });

  writeFileSync(path.join(app, 'check.test.mjs'), CHECK_TEST);
  const run = sh(process.execPath, ['--test', 'check.test.mjs'], app, { ...env, PAYCTL_URL: url, PAYCTL_ADMIN_TOKEN: TOKEN });
  assert.match(run, /^# pass 1$/m);

  // The installed types: strict TypeScript (this repository's compiler) over a file of the app.
  writeFileSync(path.join(app, 'check.ts'), CHECK_TYPES);
  writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true,
        lib: ['ES2023', 'ESNext.Disposable', 'DOM'], types: ['node'], typeRoots: [path.join(packageRoot, 'node_modules/@types')],
      },
      files: ['check.ts'],
    }),
  );
  sh(process.execPath, [path.join(packageRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);

  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  t.diagnostic(`tarball ${packed!.filename}: ${mib(statSync(tarball).size)}; installed (node_modules of the app): ${mib(duBytes(path.join(app, 'node_modules')))}`);
});
