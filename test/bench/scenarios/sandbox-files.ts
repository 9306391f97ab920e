// A sandbox as a file: export and import of a sandbox of 100,000 transactions (the demo
// data plus `payctl dev seed --group`), against the real `payctl serve`: the time from
// request to the last byte (export) or to the sandbox being active (import, polling after
// its 202), and the server's peak resident memory during each (VmHWM, reset before each
// by /proc/<pid>/clear_refs). Side by side, alternated run by run:
// - export: the floor is the same rows read raw on a direct connection, one SELECT per
//   table, each row JSON.stringify'd to a file (no paging, no checksum, no HTTP);
// - import: the floor is a fork of the same sandbox (the same rows copied inside the
//   database in the same paced chunks, with no file to check and spool).
import { createWriteStream, statSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { payctl, payctlJson, startPayctl, tempDir } from '../lib/processes.js';
import { openDirect } from '../lib/sqlite.js';
import { pairedRatios, summarize } from '../lib/stats.js';
import { ADMIN, call, resetPeak, untilActive } from '../lib/sandbox-file-calls.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';
import { GROUP_TABLES, ownerCondition } from '../../../src/store/sql/group-tables.js';

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function sandboxFileScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const transactions = Number(process.env.BENCH_EXPORT_TRANSACTIONS ?? (cfg.quick ? 10_000 : 100_000));
  const runs = cfg.quick ? 1 : Math.max(2, Math.min(cfg.runs, 3));
  const dir = await tempDir('sandbox-files');
  const db = path.join(dir, 'payctl.db');
  await payctlJson(['init'], db);
  const server = await startPayctl(db, ['--tick', '0', '--admin-token', ADMIN]);
  try {
    const sb = JSON.parse((await call(`${server.url}/api/v1/sandboxes`, 'POST', { json: { name: 'export bench', demo: true } })).body) as { group_id: string };
    log(`  seeding ${transactions.toLocaleString('en-US')} transactions into the sandbox…`);
    const seed = await payctl(['dev', 'seed', '--transactions', String(transactions), '--group', sb.group_id, '--json'], db);
    if (seed.code !== 0) throw new Error(`payctl dev seed failed (${seed.code}): ${seed.stderr || seed.stdout}`);

    const exportS: number[] = [];
    const exportPeak: number[] = [];
    const floorExportS: number[] = [];
    const importS: number[] = [];
    const importPeak: number[] = [];
    const forkS: number[] = [];
    let bytes = 0;
    let rows = 0;
    for (let i = 0; i < runs; i++) {
      const file = path.join(dir, `export-${i}.jsonl`);
      let base = resetPeak(server);
      let t0 = process.hrtime.bigint();
      const exported = await call(`${server.url}/api/v1/sandboxes/${sb.group_id}/export`, 'GET', { out: file });
      if (exported.status !== 200) throw new Error(`export answered ${exported.status}: ${exported.body.slice(0, 200)}`);
      exportS.push(seconds(t0));
      exportPeak.push(server.peakRss() - base);
      bytes = statSync(file).size;

      // Floor: the same rows read raw and written as JSON lines.
      const direct = await openDirect(db, true);
      t0 = process.hrtime.bigint();
      const sink = createWriteStream(path.join(dir, `floor-${i}.jsonl`));
      rows = 0;
      for (const t of GROUP_TABLES) {
        for (const row of await direct.all<Record<string, unknown>>(`SELECT * FROM ${t.table} WHERE ${ownerCondition(t)}`, [sb.group_id])) {
          rows++;
          if (!sink.write(`${JSON.stringify({ table: t.table, row })}\n`)) await once(sink, 'drain');
        }
      }
      sink.end();
      await once(sink, 'finish');
      floorExportS.push(seconds(t0));
      await direct.close();

      base = resetPeak(server);
      t0 = process.hrtime.bigint();
      const imported = await call(`${server.url}/api/v1/sandboxes/import`, 'POST', { file });
      if (imported.status !== 201 && imported.status !== 202) throw new Error(`import answered ${imported.status}: ${imported.body.slice(0, 300)}`);
      const id = (JSON.parse(imported.body) as { group_id: string }).group_id;
      await untilActive(server.url, id);
      importS.push(seconds(t0));
      importPeak.push(server.peakRss() - base);
      await call(`${server.url}/api/v1/sandboxes/${id}`, 'DELETE');

      // Floor: a fork of the same sandbox (the same rows, copied inside the database).
      t0 = process.hrtime.bigint();
      const forked = await call(`${server.url}/api/v1/sandboxes/${sb.group_id}/fork`, 'POST', { json: {} });
      const forkId = (JSON.parse(forked.body) as { group_id: string }).group_id;
      await untilActive(server.url, forkId);
      forkS.push(seconds(t0));
      await call(`${server.url}/api/v1/sandboxes/${forkId}`, 'DELETE');
      log(
        `  run ${i + 1}: export ${exportS.at(-1)!.toFixed(1)} s (floor ${floorExportS.at(-1)!.toFixed(1)} s), +${mib(exportPeak.at(-1)!)} MiB peak; ` +
          `import ${importS.at(-1)!.toFixed(1)} s (fork ${forkS.at(-1)!.toFixed(1)} s), +${mib(importPeak.at(-1)!)} MiB peak`,
      );
    }
    const title = `sandbox of ${transactions.toLocaleString('en-US')} transactions (${rows.toLocaleString('en-US')} rows, a ${mib(bytes)} MiB file)`;
    return [
      {
        id: 'sandbox-export',
        title: `export a ${title}`,
        status: 'ok',
        rows: [
          {
            scenario: `export, ${title}`,
            measure: 'seconds to the last byte',
            unit: 's',
            payctl: summarize(exportS),
            floor: summarize(floorExportS),
            ratio: summarize(pairedRatios(floorExportS, exportS)),
            ratioKind: 'time',
            target: 'report',
          },
          { scenario: `export, ${title}`, measure: "server's peak memory above its resident size before", unit: 'MiB', payctl: summarize(exportPeak.map(mib)), target: 'report' },
        ],
        raw: { exportS, floorExportS, exportPeak, bytes, rows },
      },
      {
        id: 'sandbox-import',
        title: `import a ${title}`,
        status: 'ok',
        rows: [
          {
            scenario: `import, ${title}`,
            measure: 'seconds to status active',
            unit: 's',
            payctl: summarize(importS),
            floor: summarize(forkS),
            ratio: summarize(pairedRatios(forkS, importS)),
            ratioKind: 'time',
            target: 'report',
          },
          { scenario: `import, ${title}`, measure: "server's peak memory above its resident size before", unit: 'MiB', payctl: summarize(importPeak.map(mib)), target: 'report' },
        ],
        raw: { importS, forkS, importPeak },
      },
    ];
  } finally {
    await server.stop();
  }
}
