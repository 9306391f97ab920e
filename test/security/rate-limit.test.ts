// Rate limit of Pay Payment Link under attack (default 10 attempts per minute per client
// address). Behind a proxy (--trust-proxy) addresses come from X-Forwarded-For: 1,000
// attempts from one address are limited after the 10th while 10 attempts from another
// address, sent during the attack, are all served. Without --trust-proxy a forged
// X-Forwarded-For is ignored, so changing it on every request does not reset the count.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { US_BILLING } from '../helpers/bodies.js';
import { report } from '../helpers/report.js';

async function linkWithSession(s: TestServer): Promise<{ id: string; session: string }> {
  const link = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/payment-links`, {
    key: s.demo.keys.manage_transactions,
    body: { amount: 1234, description: 'rate limit' },
  });
  assert.equal(link.status, 200, link.text);
  const pub = await s.call('GET', `/api/v1/payment-links/${link.body.id}`);
  assert.equal(pub.status, 200);
  return { id: link.body.id, session: pub.body.session_token };
}

/** Both pay paths share one bucket per address: alternate them. */
const payPath = (s: TestServer, linkId: string, i: number) =>
  i % 2 ? `/api/v1/payment-links/${linkId}/pay` : `/api/v1/groups/${s.demo.group_id}/payment-links/${linkId}/pay`;

async function attempts(s: TestServer, linkId: string, session: string, n: number, forwardedFor: (i: number) => string, concurrency: number) {
  const statuses: number[] = new Array(n);
  let next = 0;
  let retryAfterOk = true;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const r = await s.call('POST', payPath(s, linkId, i), {
        key: session,
        headers: { 'x-forwarded-for': forwardedFor(i) },
        body: { token: 'tok_visa', billing_address: US_BILLING },
      });
      statuses[i] = r.status;
      if (r.status === 429) {
        retryAfterOk &&= Number(r.headers.get('retry-after')) > 0 && r.headers.get('ratelimit-remaining') === '0' && r.body.error.type === 'rate_limited';
      } else assert.ok(r.status < 500, r.text);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { statuses, limited: statuses.filter((x) => x === 429).length, retryAfterOk };
}

test('behind --trust-proxy: 1,000 attempts from one address are limited, 10 from another are unaffected', async () => {
  const s = await startTestServer({ trustProxy: true });
  try {
    const { id, session } = await linkWithSession(s);
    const [attack, bystander] = await Promise.all([
      attempts(s, id, session, 1000, () => '203.0.113.7', 16),
      attempts(s, id, session, 10, () => '198.51.100.9', 1),
    ]);
    assert.equal(attack.limited, 990, 'the attacker gets its 10 attempts, then 429');
    assert.ok(attack.retryAfterOk, 'every 429 has Retry-After, RateLimit-Remaining: 0 and the error shape');
    assert.equal(bystander.limited, 0, 'the other address is never limited');
    report('rate-limit-trust-proxy', { attacker_attempts: 1000, attacker_limited: attack.limited, other_attempts: 10, other_limited: bystander.limited });
  } finally {
    await s.close();
  }
});

test('without --trust-proxy a forged X-Forwarded-For does not reset the count', async () => {
  const s = await startTestServer();
  try {
    const { id, session } = await linkWithSession(s);
    const r = await attempts(s, id, session, 30, (i) => `10.0.${i}.${i}`, 1);
    assert.deepEqual(r.statuses.slice(0, 10).filter((x) => x === 429), [], 'the first 10 are served');
    assert.equal(r.limited, 20, 'every later attempt is 429 whatever X-Forwarded-For says');
    report('rate-limit-forged-xff', { attempts: 30, distinct_forged_addresses: 30, limited: r.limited });
  } finally {
    await s.close();
  }
});
