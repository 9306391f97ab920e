// The check test/run-postgres.ts makes after every PostgreSQL pass: each text the run
// sent to PostgreSQL (recorded by helpers/sql-recorder.ts in every process of the run,
// payctl children too) is in the golden file test/sql/postgres.sql.jsonl — the file
// test/sql/texts.test.ts parses with PostgreSQL 14's grammar. A new or changed query
// that nobody recorded fails the run here, with the texts and the two ways to record them.
import { rmSync } from 'node:fs';
import { readGolden, readRecording } from './golden.js';

/** True when every text PostgreSQL was sent in the recording `dir` is in the golden file (the recording is then removed). */
export function reportUnrecorded(dir: string): boolean {
  const golden = new Set(readGolden('postgres'));
  const missing = [...readRecording(dir).postgres].filter((t) => !golden.has(t)).sort();
  if (missing.length === 0) {
    rmSync(dir, { recursive: true, force: true });
    return true;
  }
  process.stderr.write(
    `\n# ${missing.length} SQL text(s) sent to PostgreSQL are not in test/sql/postgres.sql.jsonl, so no test parses them at PostgreSQL 14:\n` +
      missing.map((t) => `#   ${JSON.stringify(t).slice(0, 400)}\n`).join('') +
      `# Record them: \`npm run sql:record\` (the whole suite again: texts no longer sent leave the file too), or add this run's:\n` +
      `#   node dist/test/sql/record.js --collect ${dir} --keep\n` +
      `# then \`node --test dist/test/sql/texts.test.js\` and read \`git diff test/sql\` (docs/store.md "The golden SQL files").\n`,
  );
  return false;
}
