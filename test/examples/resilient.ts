// The integration under test on a bad day: a client that charges with an Idempotency-Key
// and retries what is safe to retry (no answer, 5xx, 429 after Retry-After) with the same
// key, so a charge is made once whatever the network does; and a webhook receiver that
// verifies each message, refuses a bad signature (the sender retries), processes each
// webhook-id once (deliveries can come twice) and keeps, per payment, the newest state
// by event time (deliveries can come out of order or late). Nothing here knows about
// faults: docs/faults.md shows how resilient.test.ts switches them on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export interface ClientConfig {
  url: string;
  groupId: string;
  processorId: string;
  key: string;
  /** Attempts per charge, the first included. */
  maxAttempts?: number;
  /** Wait between attempts without a Retry-After (ms). */
  backoffMs?: number;
}

export type ChargeResult =
  | { outcome: 'paid'; id: string; attempts: number }
  | { outcome: 'declined'; id: string; responseCode: string; attempts: number }
  | { outcome: 'failed'; reason: string; attempts: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function paymentsClient(cfg: ClientConfig) {
  const maxAttempts = cfg.maxAttempts ?? 5;
  const backoff = cfg.backoffMs ?? 50;
  return {
    /** Charge `cents` once, retrying with the same Idempotency-Key until an answer says what happened. */
    async charge(cents: number, token: string, orderId: string): Promise<ChargeResult> {
      const idempotencyKey = `order-${orderId}-${randomUUID()}`;
      const body = JSON.stringify({
        type: 'sale', source: 'api', processor_id: cfg.processorId, currency: 'USD', order_id: orderId,
        email_address: 'ada@example.com', email_receipt: false, amounts: { requested_amount: cents },
        billing_address: { first_name: 'Ada', last_name: 'Lovelace', line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US', email: 'ada@example.com' },
        payment_details: { token },
      });
      let last = '';
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        let res: Response;
        try {
          res = await fetch(`${cfg.url}/api/v1/groups/${cfg.groupId}/transaction`, {
            method: 'POST',
            headers: { authorization: cfg.key, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
            body,
            signal: AbortSignal.timeout(10_000),
          });
        } catch (err) {
          // No answer (the connection closed, a timeout): the charge may have happened. Retry with the same key.
          last = `no answer: ${String((err as Error).cause ?? err)}`;
          await sleep(backoff * attempt);
          continue;
        }
        const json = (await res.json()) as { id?: string; status?: string; response_code?: string; error?: { message: string; transaction_id?: string; response_code?: string } };
        if (res.ok && json.status === 'declined') return { outcome: 'declined', id: json.id!, responseCode: json.response_code!, attempts: attempt };
        if (res.ok) return { outcome: 'paid', id: json.id!, attempts: attempt };
        if (json.error?.transaction_id) return { outcome: 'declined', id: json.error.transaction_id, responseCode: json.error.response_code ?? '', attempts: attempt };
        if (res.status === 429 || res.status >= 500) {
          // Nothing was done (or it is safe to ask again with the key): wait as told, then retry.
          last = `${res.status}: ${json.error?.message ?? ''}`;
          const after = Number(res.headers.get('retry-after'));
          await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 5) * 1000 : backoff * attempt);
          continue;
        }
        return { outcome: 'failed', reason: `${res.status}: ${json.error?.message ?? ''}`, attempts: attempt };
      }
      return { outcome: 'failed', reason: `gave up after ${maxAttempts} attempts (${last})`, attempts: maxAttempts };
    },
  };
}

export interface PaymentState {
  status: string;
  /** The event time of the newest event applied. */
  at: string;
}

/** A webhook receiver on a local port: verifies, deduplicates, and keeps the newest state per payment. */
export async function paymentsReceiver(secret: string) {
  const wh = new Webhook(secret);
  const seen = new Set<string>();
  const payments = new Map<string, PaymentState>();
  const log: Array<{ id: string; outcome: 'applied' | 'stale' | 'duplicate' | 'refused' }> = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let event: { id: string; type: string; created_at: string; data: { object: { id: string; status: string } } };
      try {
        event = wh.verify(body, headers) as typeof event;
      } catch {
        log.push({ id: headers['webhook-id'] ?? '?', outcome: 'refused' });
        res.writeHead(400).end('bad signature');
        return notify();
      }
      if (seen.has(event.id)) {
        log.push({ id: event.id, outcome: 'duplicate' });
      } else {
        seen.add(event.id);
        const t = event.data.object;
        const known = payments.get(t.id);
        // Out of order: an older event than the one applied changes nothing.
        if (!known || known.at <= event.created_at) {
          payments.set(t.id, { status: t.status, at: event.created_at });
          log.push({ id: event.id, outcome: 'applied' });
        } else log.push({ id: event.id, outcome: 'stale' });
      }
      res.writeHead(200).end('ok');
      notify();
    });
  });
  const notify = () => waiters.splice(0).forEach((w) => w());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    payments,
    log,
    /** Resolves once `done()` holds (checked as each message arrives). */
    async until(done: () => boolean): Promise<void> {
      while (!done()) await new Promise<void>((r) => waiters.push(r));
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
