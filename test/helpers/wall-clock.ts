// The wall clock of every test file started at a chosen time: loaded with
// `NODE_OPTIONS="--import ./dist/test/helpers/wall-clock.js"` and
// PAYCTL_TEST_WALL_CLOCK=23:59:50 (a time of today, UTC) or a whole instant
// (2026-11-30T23:59:50Z). Each test file's process (the test runner marks it with
// NODE_TEST_CONTEXT) shifts `Date` so that it starts at that time, and hands the shift on
// to what it spawns (PAYCTL_TEST_WALL_SHIFT_MS), so a test and its `payctl serve` share one
// time. For finding tests that depend on the hour they run — a daily cutoff crossed while
// a test runs — without waiting for midnight (docs/testing.md).
const RealDate = Date;
const realNow = RealDate.now;

function shiftMs(env: NodeJS.ProcessEnv): number {
  if (env.PAYCTL_TEST_WALL_SHIFT_MS) return Number(env.PAYCTL_TEST_WALL_SHIFT_MS);
  const at = env.PAYCTL_TEST_WALL_CLOCK;
  if (!at || !env.NODE_TEST_CONTEXT) return 0;
  const now = realNow();
  const target = RealDate.parse(at.includes('T') ? at : `${new RealDate(now).toISOString().slice(0, 10)}T${at}Z`);
  if (Number.isNaN(target)) throw new Error(`PAYCTL_TEST_WALL_CLOCK: not a time of day (HH:MM:SS) or an instant: ${JSON.stringify(at)}`);
  env.PAYCTL_TEST_WALL_SHIFT_MS = String(target - now);
  return target - now;
}

const shift = shiftMs(process.env);
if (shift !== 0) {
  class ShiftedDate extends RealDate {
    constructor(...args: ConstructorParameters<DateConstructor> | []) {
      if (args.length === 0) super(realNow() + shift);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return realNow() + shift;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}

export {};
