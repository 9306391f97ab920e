// The report browser's last filters (`payctl report` on a terminal), remembered per
// database (in its settings table, so two databases in one folder keep their own) and per
// group: the browser opens on them. What they mean is judged where they are used (the
// reporting query's own parser); here they are only kept and read back.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { GroupContext } from '../context.js';
import { useCase } from '../use-case.js';

/** The filters as kept: the report browser's filter bar (each field optional). */
const filtersSchema = z.object({ statuses: z.array(z.string()).optional(), brands: z.array(z.string()).optional(), start: z.string().optional(), end: z.string().optional() });
export type SavedReportFilters = z.infer<typeof filtersSchema>;

const FIELDS = Object.keys(filtersSchema.shape) as Array<keyof SavedReportFilters>;
const keyOf = (groupId: string) => `report_browser.filters.${groupId}`;

/** The context's group's saved filters; undefined when none were saved, or the saved value is damaged. */
export const savedReportFilters = useCase({
  input: z.object({}),
  async run(p: Platform, ctx: GroupContext): Promise<SavedReportFilters | undefined> {
    let saved: unknown;
    try {
      saved = await p.db.repos.settings.getJson(p.db, keyOf(ctx.group));
    } catch (err) {
      if (err instanceof SyntaxError) return undefined; // not JSON: ignored, not trusted
      throw err;
    }
    if (saved === undefined || saved === null) return undefined;
    // Only the known fields, each of its type: a damaged value is ignored, not trusted.
    const f: SavedReportFilters = {};
    for (const k of FIELDS) {
      const v = filtersSchema.shape[k].safeParse((saved as Record<string, unknown>)[k]);
      if (v.success && v.data !== undefined) Object.assign(f, { [k]: v.data });
    }
    return f;
  },
});

/** Keep `filters` as the context's group's saved filters (an empty set forgets them). */
export const rememberReportFilters = useCase({
  input: z.object({
    filters: filtersSchema,
  }),
  async run(p: Platform, ctx: GroupContext, input): Promise<void> {
    const f = input.filters;
    const value = Object.fromEntries(FIELDS.filter((k) => f[k] !== undefined).map((k) => [k, f[k]]));
    await p.db.write((tx) => tx.repos.settings.putJson(tx, keyOf(ctx.group), value));
  },
});
