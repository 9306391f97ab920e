// The floor of the HTTP scenarios: a bare polka server doing the least any JSON API
// must do — read the body, parse it as JSON, answer a JSON object of the same size as
// payctl's answer. No database, no validation. Run as its own process by the bench.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import polka from 'polka';

// Picked up as a "test file" by `node --test dist/test/`: exit instead of listening forever.
if (process.env.NODE_TEST_CONTEXT) process.exit(0);

const size = Number(process.env.FLOOR_RESPONSE_BYTES ?? '1000');

/** A JSON object of exactly `bytes` characters (its shape loosely like a transaction). */
function bodyOfSize(bytes: number, parsed: unknown): string {
  const base = JSON.stringify({ id: '00000000-0000-7000-8000-000000000000', status: 'pending', echo: typeof parsed, pad: '' });
  return base.replace('"pad":""', `"pad":"${'x'.repeat(Math.max(0, bytes - base.length))}"`);
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const app = (polka as unknown as () => { add(method: string, path: string, h: Handler): unknown; handler: Handler })();
// The same route patterns as the payctl routes the bench calls, so routing costs the same.
const handle: Handler = (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let parsed: unknown = null;
    const raw = Buffer.concat(chunks).toString('utf8');
    if (raw) parsed = JSON.parse(raw) as unknown;
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(bodyOfSize(size, parsed));
  });
};
app.add('POST', '/api/v1/groups/:group_id/transaction', handle);
app.add('POST', '/api/v1/groups/:group_id/transaction/:transaction_id/capture', handle);
app.add('POST', '/api/v1/sandboxes', handle);

const server = http.createServer(app.handler);
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`floor listening http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
