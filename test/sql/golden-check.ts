// The check test/run-postgres.ts makes after every PostgreSQL pass: each text the run
// sent to PostgreSQL (recorded by helpers/sql-recorder.ts in every process of the run,
// payctl children too) is in the golden file test/sql/postgres.sql.jsonl — the file
// test/sql/texts.test.ts parses with PostgreSQL 14's grammar. A text that is not there is
// parsed here, at once, with the same parser: one that does not parse fails the run. One
// that parses but was never recorded fails the run only under PAYCTL_SQL_STRICT=1 (what
// an engineer adding a query runs); otherwise it is listed with the commands that record
// it. Why not always strict: the fault tests and soaks reach paths by timing (a COMMIT
// whose answer was lost, a retry after a terminated backend), so which texts a run sends
// varies from run to run, and a CI run must not fail on a text that is correct.
import { rmSync } from 'node:fs';
import { parse } from 'libpg-query';
import { readGolden, readRecording } from './golden.js';

/** True when every text PostgreSQL was sent in the recording `dir` is in the golden file or parses (the recording is then removed). */
export async function reportUnrecorded(dir: string, strict = process.env.PAYCTL_SQL_STRICT === '1'): Promise<boolean> {
  const golden = new Set(readGolden('postgres'));
  const missing = [...readRecording(dir).postgres].filter((t) => !golden.has(t)).sort();
  if (missing.length === 0) {
    rmSync(dir, { recursive: true, force: true });
    return true;
  }
  const refused: string[] = [];
  for (const sql of missing) {
    try {
      await parse(sql);
    } catch (err) {
      refused.push(`#   ${(err as Error).message}: ${JSON.stringify(sql).slice(0, 400)}\n`);
    }
  }
  process.stderr.write(
    `\n# ${missing.length} SQL text(s) sent to PostgreSQL are not in test/sql/postgres.sql.jsonl:\n` +
      missing.map((t) => `#   ${JSON.stringify(t).slice(0, 400)}\n`).join('') +
      (refused.length > 0 ? `# ${refused.length} of them do not parse at PostgreSQL 14's grammar:\n${refused.join('')}` : `# All of them parse at PostgreSQL 14's grammar.\n`) +
      `# Record them: \`npm run sql:record\` (the whole suite again: texts no longer sent leave the file too), or add this run's:\n` +
      `#   node dist/test/sql/record.js --collect ${dir} --keep\n` +
      `# then \`node --test dist/test/sql/texts.test.js\` and read \`git diff test/sql\` (docs/store.md "The golden SQL files").\n`,
  );
  return refused.length === 0 && !strict;
}
