// payctl report --json writes a sum past 2^53 as its exact integer (src/lib/exact-json.ts
// through PayctlCommand.logJson), on a database holding amounts accepted before the bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliJson } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { openPlatform } from '../../src/services/platform.js';

test('report --json: amount_sum and the summary total are exact past 2^53', async () => {
  const d = tempDbPath();
  await runCliJson(['init', '--demo'], { db: d });
  const p = await openPlatform({ db: d });
  let n: number;
  try {
    n = (await p.db.write((tx) => tx.run("UPDATE transactions SET requested_amount = 9007199254740991, authorized_amount = 9007199254740991, captured_amount = 9007199254740991, refunded_amount = 0 WHERE status IN ('pending', 'captured', 'settled')"))).changes;
  } finally {
    await p.close();
  }
  assert.ok(n >= 2, `${n} rows`);
  const expected = BigInt(n) * (2n ** 53n - 1n);
  for (const args of [['report', '--type', 'amount_sum', '--json'], ['report', '--summary', '--json']]) {
    const r = await runCli(args, { db: d });
    assert.equal(r.code, 0, r.stderr);
    const m = /"total_amount": (\d+)/.exec(r.stdout);
    assert.ok(m, `${args.join(' ')}: ${r.stdout}`);
    assert.equal(BigInt(m[1]!), expected, args.join(' '));
  }
});
