// The hostile-values suite as tests, registered with a number of runs per route:
// test/security/hostile-values.test.ts (npm test) and
// test/reliability/hostile-values.soak.ts (npm run test:reliability) differ only in it.
// Every route that takes a body or a query gets values at and past each bound
// (support/hostile-values.ts), 1 to 3 at once, with a fixed seed; group B sells in a loop
// the whole time. Asserted: never a 5xx; every /api error in the shape of docs/decisions.md#errors, a
// validation error naming its field; a refusal leaves the group's rows exactly as they
// were; group B's sales all answered 200, some during every route's probe, and its net
// amount grew by exactly the sum of what it sold.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { allRoutes } from '../../../src/http/routes/index.js';
import { ADMIN_TOKEN, buildWorld, type World } from './fixtures.js';
import { Sessions } from './requests.js';
import { amountSum, newTally, probeRoute, SalesLoop, type ProbeTally } from './hostile-values.js';
import { report } from '../../helpers/report.js';

export function hostileValueTests(name: string, runs: number, baseSeed: number): void {
  let w: World;
  let sessions: Sessions;
  let loop: SalesLoop;
  let sandboxId: string;
  let faultsSandboxId: string;
  let sumBefore: bigint;
  const tally: ProbeTally = newTally();
  before(async () => {
    w = await buildWorld();
    sessions = new Sessions(w);
    // Admin routes on a group (clock, fork, faults) probe a throwaway sandbox, not group A;
    // the fault rules the probe manages to add get a sandbox of their own (they may make it answer 5xx on purpose).
    const sandbox = async () => {
      const sb = await w.s.call('POST', '/api/v1/sandboxes', { headers: { authorization: ADMIN_TOKEN }, body: { name: 'hostile values' } });
      assert.equal(sb.status, 201, sb.text);
      assert.ok(sb.body.group_id, sb.text);
      return sb.body.group_id as string;
    };
    sandboxId = await sandbox();
    faultsSandboxId = await sandbox();
    sumBefore = await amountSum(w);
    loop = new SalesLoop(w);
    loop.start();
  });
  after(async () => {
    await loop?.stop();
    await w?.s.close();
  });

  const routes = allRoutes().filter((r) => r.body || r.query);
  const seedFor = (what: string) => baseSeed ^ createHash('sha256').update(what).digest().readInt32LE(0);

  for (const route of routes) {
    test(`hostile values: ${route.method} ${route.path}`, async () => {
      // By path, whatever the route's auth: the admin token opens every sandbox route.
      const onSandbox = route.path.startsWith('/api/v1/sandboxes/:group_id');
      const sandboxOf = route.path.includes('/faults') ? faultsSandboxId : sandboxId;
      await probeRoute(
        {
          w,
          sessions,
          loop,
          tally,
          runs,
          seed: seedFor(`${name} ${route.method} ${route.path}`),
          params: onSandbox ? { group_id: sandboxOf } : undefined,
          headers: onSandbox ? { authorization: ADMIN_TOKEN } : undefined,
          groupId: onSandbox ? sandboxOf : w.a.groupId,
        },
        route,
      );
    });
  }

  test(`${name}: group B's sales answered throughout, money exact`, async () => {
    await loop.stop();
    const statuses = Object.fromEntries([...tally.statuses].sort((x, y) => x[0] - y[0]));
    report(name, {
      routes: routes.length,
      runs_per_route: runs,
      rounds: tally.rounds,
      requests: tally.requests,
      refused_unchanged: tally.refused,
      accepted: tally.accepted,
      statuses,
      group_b_sales: loop.answered,
      group_b_sales_per_route_min: Math.min(...tally.interleaved.values()),
      group_b_sum: loop.expected.toString(),
    });
    assert.deepEqual(loop.failures, [], 'group B sales that were not answered 200');
    const starved = [...tally.interleaved].filter(([, n]) => n === 0).map(([r]) => r);
    assert.deepEqual(starved, [], 'routes during whose probe (20 rounds) group B got no sale answered');
    assert.equal((await amountSum(w)) - sumBefore, loop.expected, 'group B net amount grew by exactly what it sold');
    assert.ok(tally.requests >= routes.length);
    assert.ok(![...tally.statuses.keys()].some((s) => s >= 500));
  });
}
