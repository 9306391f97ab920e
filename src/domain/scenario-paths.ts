// Where a scenario's request may go: a path on the server under test, nothing else
// (docs/scenarios.md). The runner sends the sandbox's key or the admin token with each
// request, so a path that resolves to another origin would hand them to that host. The
// WHATWG URL parser is the judge (it is what fetch uses): `//host`, `/\host` (a backslash
// is a slash to it), `http://host`, tabs and newlines it drops — each is refused before
// anything runs, and so are encoded slashes and backslashes in the path part, which
// only serve to make a path mean something other than what it shows.

const PROBE_ORIGIN = 'http://server-under-test.invalid';
const RULE = "a request's path is a path on the server under test (--url): it starts with one / (like /api/v1/groups/{group_id}/transaction)";

/** Why `path` (its references already made plain segments) could leave the server under test, or undefined. */
export function requestPathProblem(path: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return `is an absolute URL: ${RULE}`;
  if (!path.startsWith('/')) return `does not start with /: ${RULE}`;
  if (/^\/[/\\]/.test(path)) return `starts with ${path.slice(0, 2)}, which names another host: ${RULE}`;
  if (path.includes('\\')) return `has a backslash, which a URL reads as /: ${RULE}`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return `has a control character, which a URL drops: ${RULE}`;
  const bare = path.split(/[?#]/)[0]!;
  if (/%(2f|5c)/i.test(bare)) return `has an encoded / or \\ (%2F, %5C) in its path: ${RULE}`;
  let url: URL;
  try {
    url = new URL(path, PROBE_ORIGIN);
  } catch {
    return `is not a valid URL path: ${RULE}`;
  }
  if (url.origin !== PROBE_ORIGIN) return `resolves to another host (${url.host}): ${RULE}`;
  return undefined;
}

/**
 * The URL a filled-in path makes on `base`, or why it would leave `base`'s origin: the
 * check at send time, behind the one before the run (a filled-in path may hold encoded
 * slashes: its references' values, which resolvePath encodes).
 */
export function urlOnServer(path: string, base: string): URL | { error: string } {
  // eslint-disable-next-line no-control-regex
  if (!/^\/(?![/\\])/.test(path) || /[\\\u0000-\u001f\u007f]/.test(path)) return { error: `${path}: ${RULE}` };
  let url: URL;
  try {
    url = new URL(path, base);
  } catch {
    return { error: `${path} is not a valid URL path: ${RULE}` };
  }
  if (url.origin !== new URL(base).origin) return { error: `${path} resolves to ${url.origin}, not ${new URL(base).origin}: ${RULE}` };
  return url;
}
