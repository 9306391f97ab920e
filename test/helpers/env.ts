// Fixed environment for every test: no colors, a fixed width.
process.env.NO_COLOR = '1';
process.env.COLUMNS = '120';
process.env.FORCE_COLOR = '0';
// Dates are shown in local time: fix the zone so frames and output are the same everywhere.
process.env.TZ = 'UTC';
// Ink draws only the last frame when it believes it runs in CI (is-in-ci reads CI and
// CONTINUOUS_INTEGRATION at import): the TUI tests wait for frames, so CI machines that set
// these would see none. Cleared here, before any test imports Ink, and so for the children too.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;

/** `fn` run with `vars` set in process.env (undefined: unset), the old values put back after: for code that reads the process's own environment, as `payctl/testing` does. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const put = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  put(vars);
  try {
    return await fn();
  } finally {
    put(saved);
  }
}
