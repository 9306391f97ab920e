// The dashboard's tests share this: a server with a known admin token, a sandbox with the
// demo data made through the API (its keys for the calls a test makes; its clock from noon
// today, so no run crosses a settlement cutoff by accident), a signed-in browser
// page, and axe-core run in the page (a context that bypasses the page's CSP only so the
// checker's script can be injected; the pages themselves are tested with their CSP).
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from './server.js';
import { noonToday } from './sandboxes.js';

export const ADMIN_TOKEN = 'padm_dashboardTestToken000000000000000000';

export interface DashboardSandbox {
  group_id: string;
  processor_id: string;
  linked_account_id: string;
  keys: Record<string, string>;
}

export async function dashboardServer(): Promise<TestServer> {
  return startTestServer({ adminToken: ADMIN_TOKEN });
}

export async function makeSandbox(s: TestServer, name: string): Promise<DashboardSandbox> {
  const r = await s.call('POST', '/api/v1/sandboxes', { headers: { authorization: ADMIN_TOKEN }, body: { name, demo: true, clock: noonToday() } });
  if (r.status !== 201) throw new Error(`sandbox: ${r.status} ${r.text}`);
  return r.body as DashboardSandbox;
}

/** A dashboard session over plain HTTP: the cookie the token link sets, and the CSRF token its pages carry. */
export async function httpSession(s: TestServer): Promise<{ cookie: string; csrf: string }> {
  const r = await fetch(`${s.url}/dashboard?token=${ADMIN_TOKEN}`, { redirect: 'manual' });
  const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0]!;
  const signedIn = await (await fetch(`${s.url}/dashboard`, { headers: { cookie } })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(signedIn)?.[1] ?? '';
  if (!cookie || !csrf) throw new Error(`no dashboard session: cookie ${cookie ? 'set' : 'missing'}, CSRF token ${csrf ? 'found' : 'missing'}`);
  return { cookie, csrf };
}

/** A page signed in through the token link, at the given viewport. */
export async function signedIn(browser: Browser, s: TestServer, viewport = { width: 1280, height: 800 }, opts: { bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, timezoneId: 'America/New_York', ...(opts.bypassCSP ? { bypassCSP: true } : {}) });
  const page = await context.newPage();
  await page.goto(`${s.url}/dashboard?token=${ADMIN_TOKEN}`);
  return { context, page };
}

const axePath = path.join(path.dirname(createRequire(import.meta.url).resolve('axe-core/package.json')), 'axe.min.js');

/** The serious and critical violations axe-core finds on the page (id: how many nodes). */
export async function axeProblems(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(o: unknown): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
    return axe.run({ resultTypes: ['violations'] });
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3).join(' ')}`);
}
