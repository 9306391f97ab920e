// `curl` for the docs test on a machine without one (CI has only Node.js): the few options
// the documents' examples use, answered with Node's fetch. Where curl exists the test runs
// the real one; test/docs/server-blocks.test.ts holds the two to the same answers.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The options a curl command line of the docs uses: -s, -S, -f, -N (ignored), -X, -H, -d and kin. */
export interface CurlArgs {
  url: string;
  method?: string;
  headers: [string, string][];
  body?: string;
  fail: 'no' | 'fail' | 'with-body';
}

export function parseCurlArgs(argv: string[]): CurlArgs {
  const out: CurlArgs = { url: '', headers: [], fail: 'no' };
  const data = (v: string, binary: boolean): string => {
    if (!v.startsWith('@')) return v;
    const text = readFileSync(v.slice(1), 'utf8');
    return binary ? text : text.replace(/\r?\n/g, ''); // curl -d @file drops newlines; --data-binary keeps them
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`curl: option ${a} needs a value`);
      return v;
    };
    if (a === '-X' || a === '--request') out.method = next();
    else if (a === '-H' || a === '--header') {
      const h = next();
      const colon = h.indexOf(':');
      out.headers.push([h.slice(0, colon).trim(), h.slice(colon + 1).trim()]);
    } else if (a === '-d' || a === '--data' || a === '--data-raw') out.body = (out.body === undefined ? '' : `${out.body}&`) + (a === '--data-raw' ? next() : data(next(), false));
    else if (a === '--data-binary') out.body = data(next(), true);
    else if (a === '--fail-with-body') out.fail = 'with-body';
    else if (a === '--fail') out.fail = 'fail';
    else if (/^-[sSfN]+$/.test(a)) {
      if (a.includes('f')) out.fail = 'fail';
    } else if (a.startsWith('-')) throw new Error(`curl (the docs test's stand-in): option ${a} is not one it knows`);
    else out.url = a;
  }
  if (!out.url) throw new Error('curl: no URL given');
  return out;
}

/** Run one request as curl would; resolves to the exit code (22: an HTTP error under -f / --fail-with-body). */
export async function curl(argv: string[], write: (chunk: Uint8Array) => void = (c) => process.stdout.write(c)): Promise<number> {
  const args = parseCurlArgs(argv);
  const headers = new Headers(args.headers);
  if (args.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded');
  const res = await fetch(args.url, {
    method: args.method ?? (args.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(args.body === undefined ? {} : { body: args.body }),
    redirect: 'manual',
  });
  const body = new Uint8Array(await res.arrayBuffer());
  const failed = res.status >= 400 && args.fail !== 'no';
  if (!failed || args.fail === 'with-body') write(body);
  return failed ? 22 : 0;
}

// Run as a program (`node curl-shim.js …`), as the docs test's `curl` function does.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  curl(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 7; // curl's "failed to connect"
    },
  );
}
