// Files and deletes under bounds (docs/benchmarks/import.md): for each of
// export and import of a sandbox of BENCH_EXPORT_TRANSACTIONS transactions, an import of a
// file of fat rows (BENCH_FAT_MB MiB of ~1 MiB event rows), an import of a file of
// BENCH_IMPORT_LINES small lines, and the drop of the imported large sandbox: the server's
// memory growth (peak resident size during the operation above its resident size before,
// VmHWM after /proc/<pid>/clear_refs) and another tenant's sale latency meanwhile (two
// clients selling in a loop on another sandbox). Two builds side by side, alternated run
// by run: this checkout (after) and BENCH_BASELINE (before; default /work/main).
// `npm run bench -- import-bounds`.
import { copyFileSync, createWriteStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { payctl, payctlBin, payctlJson, startPayctl, tempDir, type Served } from '../lib/processes.js';
import { summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';
import { saleBody } from '../../helpers/bodies.js';
import { ADMIN, call, resetPeak, untilActive } from '../lib/sandbox-file-calls.js';

/** Another tenant selling in a loop (two clients) until `stop`; each sale's latency in ms. */
function otherTenant(url: string, sb: { group_id: string; processor_id: string; keys: Record<string, string> }) {
  const latencies: number[] = [];
  let stopped = false;
  const body = saleBody(sb.processor_id);
  let failures = 0;
  const client = async () => {
    while (!stopped) {
      const t0 = process.hrtime.bigint();
      const r = await call(`${url}/api/v1/groups/${sb.group_id}/transaction`, 'POST', { json: body, key: sb.keys.manage_transactions }).catch(() => ({ status: 0, body: '' }));
      if (r.status !== 200) failures++;
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  const clients = [client(), client()];
  return {
    async stop() {
      stopped = true;
      await Promise.all(clients);
      if (failures) process.stdout.write(`  (${failures} sales failed)\n`);
      return latencies;
    },
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : Number.NaN;
};
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** A file made from a small export `base`: `rows` more rows of `table` from `row(i)`, trailer written again. */
async function grownFile(base: string, out: string, table: string, rows: number, row: (i: number, group: string) => Record<string, unknown>): Promise<void> {
  const lines = readFileSync(base, 'utf8').trimEnd().split('\n');
  const trailer = JSON.parse(lines.pop()!) as { counts: Record<string, number> };
  const header = JSON.parse(lines[0]!) as { source: { group_id: string }; tables: string[] };
  const group = header.source.group_id;
  const at = header.tables.indexOf(table);
  // The new rows go where their table's rows end in the header's order.
  let insertAt = lines.length;
  for (let i = 1; i < lines.length; i++) {
    if (header.tables.indexOf((JSON.parse(lines[i]!) as { table: string }).table) > at) {
      insertAt = i;
      break;
    }
  }
  const hash = createHash('sha256');
  const fd = createWriteStream(out);
  let pending = '';
  const emit = async (l: string) => {
    hash.update(l);
    pending += l;
    if (pending.length > 1 << 20) {
      if (!fd.write(pending)) await once(fd, 'drain');
      pending = '';
    }
  };
  for (const l of lines.slice(0, insertAt)) await emit(`${l}\n`);
  for (let i = 0; i < rows; i++) await emit(`${JSON.stringify({ table, row: row(i, group) })}\n`);
  for (const l of lines.slice(insertAt)) await emit(`${l}\n`);
  const counts = { ...trailer.counts, [table]: (trailer.counts[table] ?? 0) + rows };
  fd.end(`${pending}${JSON.stringify({ ...trailer, lines: lines.length + rows, counts, sha256: hash.digest('hex') })}\n`);
  await once(fd, 'finish');
}

const uuid = (i: number, salt: number) => {
  const h = (i + salt * 1_000_003).toString(16).padStart(12, '0');
  return `0195${h.slice(0, 4)}-0000-7000-8000-${h.slice(-12)}`;
};

interface Side {
  name: 'before' | 'after';
  bin: string;
  db: string;
}

interface Sample {
  op: string;
  side: string;
  growMiB: number;
  p50: number;
  p99: number;
  max: number;
  sales: number;
  seconds: number;
  status: string;
}

export async function importBoundsScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const transactions = Number(process.env.BENCH_EXPORT_TRANSACTIONS ?? (cfg.quick ? 5_000 : 100_000));
  const fatMiB = Number(process.env.BENCH_FAT_MB ?? (cfg.quick ? 10 : 190));
  const smallLines = Number(process.env.BENCH_IMPORT_LINES ?? (cfg.quick ? 20_000 : 1_000_000));
  const runs = Number(process.env.BENCH_RUNS ?? (cfg.quick ? 1 : 2));
  const baseline = path.join(path.resolve(process.env.BENCH_BASELINE ?? '/work/main'), 'bin', 'run.js');
  const dir = await tempDir('import-bounds');
  const seed = path.join(dir, 'seed.db');
  await payctlJson(['init'], seed);
  const big = (await payctlJson<{ group_id: string }>(['sandbox', 'create', '--demo', '--name', 'big', '--json'], seed)).group_id;
  log(`  seeding ${transactions.toLocaleString('en-US')} transactions…`);
  const seeded = await payctl(['dev', 'seed', '--transactions', String(transactions), '--group', big, '--json'], seed);
  if (seeded.code !== 0) throw new Error(`payctl dev seed failed: ${seeded.stderr || seeded.stdout}`);
  const small = (await payctlJson<{ group_id: string }>(['sandbox', 'create', '--demo', '--name', 'small', '--json'], seed)).group_id;
  const smallFile = path.join(dir, 'small.jsonl');
  const exported = await payctl(['sandbox', 'export', small, '--out', smallFile], seed);
  if (exported.code !== 0) throw new Error(`export failed: ${exported.stderr}`);

  // The fat-row file: event rows of ~1 MiB of data each (the largest document an import takes).
  const fatFile = path.join(dir, 'fat.jsonl');
  const pad = 'x'.repeat(1_000_000);
  await grownFile(smallFile, fatFile, 'events', fatMiB, (i, group) => ({
    id: uuid(i, 1), group_id: group, type: 'customer.updated', created_at: '2026-01-01T00:00:00.000Z', request_id: null, idempotency_key: null,
    data: JSON.stringify({ object: { id: uuid(i, 2), pad } }),
  }));
  // The file of small lines: events of a small payload (a table outside id_map, whose answer lists every id of its tables).
  const linesFile = path.join(dir, 'lines.jsonl');
  await grownFile(smallFile, linesFile, 'events', smallLines, (i, group) => ({
    id: uuid(i, 3), group_id: group, type: 'customer.updated', created_at: '2026-01-01T00:00:00.000Z', request_id: null, idempotency_key: null,
    data: '{"object":{"id":"c"}}',
  }));
  log(`  files: fat ${mib(statSync(fatFile).size)} MiB, ${smallLines.toLocaleString('en-US')} lines ${mib(statSync(linesFile).size)} MiB`);

  const sides: Side[] = [
    { name: 'after', bin: payctlBin, db: path.join(dir, 'after.db') },
    { name: 'before', bin: baseline, db: path.join(dir, 'before.db') },
  ];
  for (const s of sides) copyFileSync(seed, s.db);
  const samples: Sample[] = [];
  for (let run = 0; run < runs; run++) {
    for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
      const server = await startPayctl(side.db, ['--tick', '0', '--admin-token', ADMIN, '--access-log', 'off'], { bin: side.bin });
      try {
        const other = JSON.parse((await call(`${server.url}/api/v1/sandboxes`, 'POST', { json: { name: 'other tenant' } })).body);
        // Warm up (modules loaded, code compiled): an export and an import of the small sandbox, unmeasured.
        const warm = path.join(dir, `warm-${side.name}.jsonl`);
        await call(`${server.url}/api/v1/sandboxes/${small}/export`, 'GET', { out: warm });
        const warmed = JSON.parse((await call(`${server.url}/api/v1/sandboxes/import`, 'POST', { file: warm })).body) as { group_id: string };
        await call(`${server.url}/api/v1/sandboxes/${warmed.group_id}`, 'DELETE');
        // BENCH_IMPORT_OPS=export,delete: only those operations are measured (the others still run).
        const only = process.env.BENCH_IMPORT_OPS?.split(',');
        const measure = async (op: string, work: () => Promise<string>) => {
          if (only && !only.some((o) => op.includes(o))) {
            await work();
            return;
          }
          const base = resetPeak(server);
          const load = otherTenant(server.url, other);
          const t0 = process.hrtime.bigint();
          let status: string;
          try {
            status = await work();
          } catch (err) {
            status = `failed: ${String(err).slice(0, 120)}`;
          }
          const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
          const lat = await load.stop();
          const sample = { op, side: side.name, growMiB: mib(server.peakRss() - base), p50: pct(lat, 50), p99: pct(lat, 99), max: Math.max(...lat), sales: lat.length, seconds, status };
          samples.push(sample);
          log(`  run ${run + 1} ${side.name.padEnd(6)} ${op.padEnd(22)} +${sample.growMiB} MiB, sale p50 ${sample.p50.toFixed(0)} p99 ${sample.p99.toFixed(0)} max ${sample.max.toFixed(0)} ms (${lat.length} sales), ${seconds.toFixed(1)} s, ${status}`);
        };
        const file = path.join(dir, `export-${side.name}-${run}.jsonl`);
        let imported = '';
        await measure('export 100k', async () => String((await call(`${server.url}/api/v1/sandboxes/${big}/export`, 'GET', { out: file })).status));
        await measure('import 100k', async () => {
          const r = await call(`${server.url}/api/v1/sandboxes/import`, 'POST', { file });
          if (r.status === 201 || r.status === 202) await untilActive(server.url, (imported = (JSON.parse(r.body) as { group_id: string }).group_id));
          return String(r.status);
        });
        const others: string[] = [];
        for (const [op, f] of [['import fat rows', fatFile], ['import small lines', linesFile]] as const) {
          if (only && !only.some((o) => op.includes(o))) continue;
          await measure(op, async () => {
            const r = await call(`${server.url}/api/v1/sandboxes/import`, 'POST', { file: f });
            if (r.status === 201 || r.status === 202) {
              const id = (JSON.parse(r.body) as { group_id: string }).group_id;
              others.push(id);
              await untilActive(server.url, id);
            }
            return r.status === 201 || r.status === 202 ? String(r.status) : `${r.status} ${r.body.slice(0, 100)}`;
          });
        }
        if (imported) await measure('delete 100k', async () => String((await call(`${server.url}/api/v1/sandboxes/${imported}`, 'DELETE')).status));
        for (const id of others) await call(`${server.url}/api/v1/sandboxes/${id}`, 'DELETE');
      } finally {
        await server.stop();
      }
    }
  }
  writeFileSync(path.join(dir, 'samples.json'), JSON.stringify(samples, null, 1));
  const ops = [...new Set(samples.map((s) => s.op))];
  const rows = ops.flatMap((op) => {
    const of = (side: string) => samples.filter((s) => s.op === op && s.side === side);
    return [
      { scenario: op, measure: 'server memory growth (peak above before)', unit: 'MiB', payctl: summarize(of('after').map((s) => s.growMiB)), floor: summarize(of('before').map((s) => s.growMiB)), target: 'report' as const },
      { scenario: op, measure: "another tenant's sale p99", unit: 'ms', payctl: summarize(of('after').map((s) => s.p99)), floor: summarize(of('before').map((s) => s.p99)), target: 'report' as const },
    ];
  });
  return [{ id: 'import-bounds', title: 'Files and deletes under bounds: memory and another tenant\'s sale p99 (after vs before)', status: 'ok', rows, raw: { samples } }];
}
