// A kit sandbox's default name: the running test's, so a sandbox left on a shared server
// (`GET /api/v1/sandboxes`) says which test made it. vitest and jest say which test runs
// through their `expect`'s state; node:test only through the test's context, which the
// test hands over (`sandbox({ test: t })`). Otherwise: the test file and a counter.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const EXPECT_GLOBAL = Symbol.for('expect-global'); // vitest's expect
const JEST_MATCHERS = Symbol.for('$$jest-matchers-object'); // jest's expect state

/** The running test's name as vitest or jest tell it, if either runs this test. */
function runnerTestName(): string | undefined {
  const g = globalThis as Record<PropertyKey, unknown>;
  const expectFn = (g[EXPECT_GLOBAL] ?? g.expect) as { getState?: () => { currentTestName?: unknown } } | undefined;
  const fromExpect = typeof expectFn?.getState === 'function' ? expectFn.getState().currentTestName : undefined;
  if (typeof fromExpect === 'string' && fromExpect !== '') return fromExpect;
  const fromJest = (g[JEST_MATCHERS] as { state?: { currentTestName?: unknown } } | undefined)?.state?.currentTestName;
  return typeof fromJest === 'string' && fromJest !== '' ? fromJest : undefined;
}

/** The test file calling the kit: the first stack frame outside the kit itself. */
function callerFile(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const line of (new Error().stack ?? '').split('\n').slice(1)) {
    const m = /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/.exec(line.trim());
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (path.dirname(file) !== here && !file.startsWith('node:')) return file;
  }
  return undefined;
}

let counter = 0;

/** A name a person can trace to the test that made the sandbox (at most 100 characters, the API's limit). */
export function traceableName(testContext?: { name: string; fullName?: string }): string {
  counter++;
  const name = testContext?.fullName ?? testContext?.name ?? runnerTestName();
  const text = name ?? `${path.basename(callerFile() ?? 'test')} #${counter}`;
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}
