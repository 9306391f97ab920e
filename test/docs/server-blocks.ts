// What a ```sh server block runs against (docs/README.md, "Examples are tested"): the
// file's demo database behind a real `payctl serve`, the ids and keys `payctl init --demo`
// printed, and a `curl` that fails the block on an HTTP error. The example stays what a
// reader types, with the placeholders the pages explain (GROUP_ID, the
// sk_test_MANAGE_TRANSACTIONS_KEY of a permission, padm_ADMIN_TOKEN, port 4000); the test
// puts the real values in before it runs the block.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `payctl init --demo --json` prints, the parts the examples name. */
export interface DemoIds {
  group_id: string;
  processor_id: string;
  linked_account_id: string;
  customer_id: string;
  keys: Record<string, string>;
}

export interface ServerValues {
  /** The server's origin, e.g. http://127.0.0.1:41234. */
  url: string;
  adminToken: string;
  demo: DemoIds;
}

/** Replace the documents' placeholders by the values of this run; throws on a key the demo has no permission for. */
export function fillPlaceholders(script: string, v: ServerValues): string {
  return script
    .replace(/http:\/\/(127\.0\.0\.1|localhost):4000\b/g, v.url)
    .replace(/\bGROUP_ID\b/g, v.demo.group_id)
    .replace(/\bPROCESSOR_ID\b/g, v.demo.processor_id)
    .replace(/\bLINKED_ACCOUNT_ID\b/g, v.demo.linked_account_id)
    .replace(/\bCUSTOMER_ID\b/g, v.demo.customer_id)
    .replace(/\bpadm_ADMIN_TOKEN\b/g, v.adminToken)
    .replace(/\bsk_test_([A-Z_]+)_KEY\b/g, (_, scope: string) => {
      const key = v.demo.keys[scope.toLowerCase()];
      if (!key) throw new Error(`sk_test_${scope}_KEY: payctl init --demo makes no ${scope.toLowerCase()} key`);
      return key;
    });
}

const SHIM = path.join(path.dirname(fileURLToPath(import.meta.url)), 'curl-shim.js');

/** Whether a real curl is on PATH (else the Node stand-in answers). */
export const hasCurl = (): boolean => spawnSync('bash', ['-c', 'command -v curl'], { stdio: 'ignore' }).status === 0;

/**
 * The lines put before a server block: `curl` fails on an HTTP error status (4xx/5xx: exit
 * 22, the body still printed), so a block passes only when every answer was a success. A
 * machine without curl gets test/docs/curl-shim.ts under the same name.
 */
export function curlPrelude(useShim = !hasCurl()): string {
  const run = useShim ? `node ${JSON.stringify(SHIM)}` : 'command curl';
  // A command that already says -f/--fail keeps it (curl refuses both together).
  return [
    'curl() {',
    '  local a',
    `  for a in "$@"; do case "$a" in --fail|--fail-with-body|-[a-zA-Z]*f*) ${run} "$@"; return;; esac; done`,
    `  ${run} --fail-with-body "$@"`,
    '}',
    '',
  ].join('\n');
}
