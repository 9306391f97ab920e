// Ink and React, loaded on first use so that a command importing a screen stays light.
// Screens compile their JSX to calls of `h` (`/** @jsx h */`, classic runtime) and read
// `React`, `ink` and `Fragment` from here; these are live bindings, set by loadRuntime().
// Used for types only (the import is erased); the runtime module comes from loadRuntime().
import * as ReactTypes from 'react';
import type * as InkModule from 'ink';

export let React: typeof ReactTypes;
export let ink: typeof InkModule;
export let Fragment: typeof ReactTypes.Fragment;

export function h(type: any, props: any, ...children: ReactTypes.ReactNode[]): ReactTypes.ReactElement { // eslint-disable-line @typescript-eslint/no-explicit-any
  return React.createElement(type, props, ...children);
}
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace h {
  export import JSX = ReactTypes.JSX;
}

/**
 * Ink paints through its own chalk, which reads FORCE_COLOR and the terminal but not
 * NO_COLOR (https://no-color.org): NO_COLOR is turned into the setting chalk does read,
 * before Ink is first loaded. An explicit FORCE_COLOR is left as it is.
 */
export function inkColourEnv(env: NodeJS.ProcessEnv = process.env): void {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '' && env.FORCE_COLOR === undefined) env.FORCE_COLOR = '0';
}

/**
 * Ink draws only its last frame when CI or CONTINUOUS_INTEGRATION is set (is-in-ci reads them
 * once, when Ink is loaded): a screen someone opened on a terminal would look frozen until it
 * closed. The screens open only on a terminal, so Ink is loaded without them; the variables are
 * put back for everything else.
 */
async function importInkOutsideCi(env: NodeJS.ProcessEnv = process.env): Promise<typeof InkModule> {
  const saved = { CI: env.CI, CONTINUOUS_INTEGRATION: env.CONTINUOUS_INTEGRATION };
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
  try {
    return await import('ink');
  } finally {
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) env[name] = value;
  }
}

export async function loadRuntime(): Promise<void> {
  if (ink) return;
  inkColourEnv();
  const [reactModule, inkModule] = await Promise.all([import('react'), importInkOutsideCi()]);
  // react is CommonJS: its namespace is on `default` when imported from ESM.
  React = ((reactModule as unknown as { default?: typeof ReactTypes }).default ?? reactModule) as typeof ReactTypes;
  Fragment = React.Fragment;
  ink = inkModule;
}
