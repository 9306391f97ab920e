// Moving the platform clock, then running whatever fell due. The platform clock keeps the
// rules of a group's clock (docs/decisions.md#clock-moves): never backwards, at most 10
// years per move — the one check, `checkedClockMove`, for both.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { RequestContext } from '../context.js';
import { runDueWork } from './scheduler.js';
import type { Progress } from './chunks.js';
import { useCase } from '../use-case.js';
import { advancePlatformClockInput, checkedClockMove, parseDuration, parseInstant, PLATFORM_CLOCK_FIELDS, setPlatformClockInput } from '../../domain/time.js';

export interface ClockState {
  now: string;
  offset_ms: number;
  /** The platform clock always runs (a group's clock may stand still: docs/clock.md). */
  mode: 'running';
  real_now: string;
}

export async function showClock(p: Platform): Promise<ClockState> {
  await p.clock.refresh();
  return { now: p.clock.nowIso(), offset_ms: p.clock.offsetMs(), mode: 'running', real_now: new Date(Date.now()).toISOString() };
}

export async function advanceClock(p: Platform, ms: number, progress?: Progress): Promise<ClockState & { work: Record<string, number> }> {
  if (ms < 0) throw new Error('the clock only moves forward with advance; use `clock set` to jump');
  await p.clock.refresh();
  await p.clock.setOffset(p.clock.offsetMs() + ms);
  const work = await runDueWork(p, progress);
  return { ...(await showClock(p)), work };
}

export async function setClock(p: Platform, to: Date, progress?: Progress): Promise<ClockState & { work: Record<string, number> }> {
  await p.clock.setOffset(to.getTime() - Date.now());
  const work = await runDueWork(p, progress);
  return { ...(await showClock(p)), work };
}

/** `payctl clock show`: the platform clock (real time plus the shared offset). */
export const showPlatformClock = useCase({
  input: z.object({}),
  run: (p: Platform) => showClock(p),
});

/** `payctl clock advance DURATION`: every group's time moves on, and all due work runs (`io.progress` hears of it). */
export const advancePlatformClock = useCase({
  input: advancePlatformClockInput,
  async run(p: Platform, ctx: RequestContext, input, io) {
    await p.clock.refresh();
    checkedClockMove(p.clock.now().getTime(), { advance: input.duration }, PLATFORM_CLOCK_FIELDS);
    return advanceClock(p, parseDuration(input.duration), io.progress);
  },
});

/** `payctl clock set TIME`: the platform clock jumps forward to TIME, and all due work runs. */
export const setPlatformClock = useCase({
  input: setPlatformClockInput,
  async run(p: Platform, ctx: RequestContext, input, io) {
    await p.clock.refresh();
    checkedClockMove(p.clock.now().getTime(), { set: input.time }, PLATFORM_CLOCK_FIELDS);
    return setClock(p, parseInstant(input.time), io.progress);
  },
});
