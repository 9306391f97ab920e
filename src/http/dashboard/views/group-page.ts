// A group page: the layout with the group's head and navigation and the clock panel.
import type { Html } from '../html.js';
import { layout } from '../layout.js';
import { Page } from '../respond.js';
import type { ViewContext } from '../context.js';
import type { GroupScope } from '../scope.js';
import { clockPanel } from './clock.js';

export async function groupPage(c: ViewContext, s: GroupScope, section: string | undefined, title: string, body: Html): Promise<Page> {
  return new Page(layout({ title, session: c.session, group: s.head, ...(section ? { section } : {}), clock: await clockPanel(s, c.session), body }));
}
