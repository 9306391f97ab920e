// Invoice PDF: PDFs/s from GET …/invoices/{id}/download/pdf of a demo invoice (each
// request renders the PDF), a few connections since rendering is CPU-bound.
import path from 'node:path';
import { load } from '../lib/load.js';
import { payctlJson, startPayctl, tempDir } from '../lib/processes.js';
import { summarize } from '../lib/stats.js';
import { skipped, type BenchConfig, type Outcome } from '../lib/outcome.js';

const TITLE = 'invoice PDF (GET …/download/pdf)';

export async function pdfScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const dir = await tempDir('pdf');
  const db = path.join(dir, 'payctl.db');
  const demo = await payctlJson<{ group_id: string; invoice_ids?: string[]; keys: Record<string, string> }>(['init', '--demo'], db);
  const invoiceId = demo.invoice_ids?.[0];
  if (!invoiceId) return [skipped('pdf', TITLE, 'not available yet (no demo invoice)')];
  const server = await startPayctl(db);
  try {
    const pdfPath = `/api/v1/groups/${demo.group_id}/invoices/${invoiceId}/download/pdf`;
    const headers = { authorization: demo.keys.manage_invoices! };
    const probe = await fetch(server.url + pdfPath, { headers });
    const bytes = (await probe.arrayBuffer()).byteLength;
    if (probe.status !== 200 || !String(probe.headers.get('content-type')).includes('pdf')) {
      return [skipped('pdf', TITLE, `not available yet (${probe.status} ${probe.headers.get('content-type')})`)];
    }
    log(`  one PDF: ${bytes} bytes`);
    const connections = 4;
    await load({ url: server.url, connections, duration: cfg.warmupS, requests: [{ method: 'GET', path: pdfPath, headers }] });
    const rates: number[] = [];
    const p99: number[] = [];
    let errors = 0;
    for (let i = 0; i < cfg.runs; i++) {
      const r = await load({ url: server.url, connections, duration: cfg.pdfSeconds, requests: [{ method: 'GET', path: pdfPath, headers }] });
      rates.push(r.requests_per_s);
      p99.push(r.latency_p99_ms);
      errors += r.errors;
      log(`  run ${i + 1}: ${r.requests_per_s.toFixed(0)} PDFs/s, p99 ${r.latency_p99_ms} ms, errors ${r.errors}`);
    }
    return [
      {
        id: 'pdf',
        title: TITLE,
        status: 'ok',
        rows: [
          { scenario: TITLE, measure: `PDFs/s (${connections} connections)`, unit: '/s', payctl: summarize(rates), target: 'report' },
          { scenario: TITLE, measure: 'latency p99', unit: 'ms', payctl: summarize(p99) },
          { scenario: TITLE, measure: 'errors', unit: '', payctl: summarize([errors]), target: '= 0', met: errors === 0 },
        ],
        raw: { pdf_bytes: bytes },
      },
    ];
  } finally {
    await server.stop();
  }
}
