// Due work per group: moving the platform clock runs every group's work at that group's
// own time (one pass per distinct offset); moving one group runs only that group's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempPlatform } from '../helpers/platform.js';
import { createSandbox, moveGroupClock } from '../../src/services/sandboxes/sandboxes.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { runDueWork } from '../../src/services/clock/scheduler.js';
import { contextFor } from '../../src/services/context.js';
import { groupClockRepo } from '../../src/store/sql/repositories/group-clocks.js';
import { execute } from '../../src/services/use-case.js';
import { seedDemoInGroup } from '../../src/dev/demo.js';
import { runningClock } from '../../src/domain/clock-modes.js';

const DAY = 86_400_000;

const charges = async (p: Awaited<ReturnType<typeof tempPlatform>>, groupId: string) =>
  (await p.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM transactions WHERE group_id = ? AND subscription_id IS NOT NULL', [groupId]))!.n;

test('a platform advance bills each group at its own time; a group advance bills that group only', async () => {
  const p = await tempPlatform();
  try {
    const ctx = contextFor(p, undefined);
    const [ahead, behind, other] = [await execute(createSandbox(seedDemoInGroup), p, ctx, { demo: true }), await execute(createSandbox(seedDemoInGroup), p, ctx, { demo: true }), await execute(createSandbox(seedDemoInGroup), p, ctx, { demo: true })];
    // The demo's first charge falls due 30 days in (the end of the Starter trial).
    const moved = await execute(moveGroupClock, p, ctx, { group_id: ahead.group_id, advance: '29d' });
    assert.equal(moved.work['subscription-billing'], 0);
    const all = await advanceClock(p, 2 * DAY);
    assert.ok(all.work['subscription-billing']! >= 1, JSON.stringify(all.work));
    assert.ok((await charges(p, ahead.group_id)) >= 1, 'ahead is at +31d: billed');
    assert.equal(await charges(p, behind.group_id), 0, 'behind is at +2d: nothing due');
    assert.equal(await charges(p, other.group_id), 0);

    // One group's due work only, even when another group has work due too: `behind` is
    // put 31 days ahead without running anything, then only `other` is run.
    await p.db.write((tx) => groupClockRepo.put(tx, behind.group_id, runningClock(29 * DAY)));
    await p.db.write((tx) => groupClockRepo.put(tx, other.group_id, runningClock(29 * DAY)));
    const done = await runDueWork(p, { groupId: other.group_id });
    assert.ok(done['subscription-billing']! >= 1, JSON.stringify(done));
    assert.ok((await charges(p, other.group_id)) >= 1);
    assert.equal(await charges(p, behind.group_id), 0, 'due, but not run: another group was moved');
    await runDueWork(p);
    assert.ok((await charges(p, behind.group_id)) >= 1, 'the all-groups pass bills it');
  } finally {
    await p.close();
  }
});
