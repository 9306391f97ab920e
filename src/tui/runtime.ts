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

// ---------------------------------------------------------------------------
// Running a screen: no screen of payctl ever shows a stack trace.
//
// Ink answers a component that throws with its own overview (the message, a source
// excerpt and the React stack) and an exception in a key handler ends the process with
// Node's trace. Every screen runs through runScreen instead: an error boundary around it
// (useKeys rethrows a handler's exception into render, where the boundary sees it), the
// screen closed, and the error handed back as one line for the command to print.

/** A screen that stopped on an unexpected error; the message is one line, the cause kept for DEBUG. */
export class ScreenError extends Error {
  constructor(screen: string, override readonly cause: unknown) {
    const text = cause instanceof Error ? cause.message : String(cause);
    super(`the ${screen} stopped: ${text.split('\n')[0]}`);
    this.name = 'ScreenError';
    if (process.env.DEBUG && cause instanceof Error && cause.stack) this.stack = cause.stack;
  }
}

let Boundary: ReactTypes.ComponentClass<{ onError: (err: unknown) => void; children?: ReactTypes.ReactNode }, { failed: boolean }> | undefined;

/** The error boundary (a class component, made once React is loaded). */
function boundary() {
  Boundary ??= class ScreenBoundary extends React.Component<{ onError: (err: unknown) => void; children?: ReactTypes.ReactNode }, { failed: boolean }> {
    override state = { failed: false };
    static getDerivedStateFromError() {
      return { failed: true };
    }
    override componentDidCatch(err: unknown) {
      this.props.onError(err);
    }
    override render() {
      // Nothing is drawn in its place: the command prints the one line after the screen closes.
      return this.state.failed ? null : this.props.children;
    }
  };
  return Boundary;
}

export interface ScreenIo {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

/**
 * Render `build(close)` until the screen exits (Ink's exit, or `close()`); an error thrown by
 * the screen rejects with a ScreenError naming `screen`.
 */
export async function runScreen(screen: string, build: (close: () => void) => ReactTypes.ReactElement, io: ScreenIo = {}): Promise<void> {
  await loadRuntime();
  let failure: unknown;
  let instance: InkModule.Instance | undefined;
  // Unmounted on the next turn, so that the frame drawn last (an outcome) stays on screen.
  const close = () => setImmediate(() => instance?.unmount());
  const onError = (err: unknown) => {
    failure ??= err;
    close();
  };
  const out = io.stdout ?? process.stdout;
  const tail = watchTail(out);
  try {
    instance = ink.render(h(boundary(), { onError }, build(close)), {
      exitOnCtrlC: false,
      ...(io.stdin ? { stdin: io.stdin } : {}),
      ...(io.stdout ? { stdout: io.stdout } : {}),
    });
    await instance.waitUntilExit().catch((err: unknown) => (failure ??= err));
  } finally {
    // A frame taller than the terminal is drawn without its last line break: the command's
    // next line would run into it.
    const text = tail.stop().replace(/\u001B\[[0-9;?]*[A-Za-z]/g, ''); // eslint-disable-line no-control-regex
    if (text !== '' && !text.endsWith('\n')) out.write('\n');
  }
  if (failure !== undefined) throw new ScreenError(screen, failure);
}

/** The last characters written to `out` while the screen runs (its write wrapped, then put back). */
function watchTail(out: NodeJS.WriteStream): { stop(): string } {
  const target = out as unknown as { write: (...args: unknown[]) => boolean };
  const own = Object.prototype.hasOwnProperty.call(target, 'write');
  const original = target.write;
  let tail = '';
  target.write = function (this: unknown, ...args: unknown[]) {
    tail = (tail + String(args[0])).slice(-512);
    return original.apply(this, args);
  };
  return {
    stop() {
      if (own) target.write = original;
      else delete (target as { write?: unknown }).write;
      return tail;
    },
  };
}
