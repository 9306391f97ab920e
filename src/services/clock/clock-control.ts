// Moving the platform clock, then running whatever fell due.
import type { Platform } from '../platform.js';
import { runDueWork } from './scheduler.js';
import type { Progress } from './chunks.js';

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
