// Colour in human output, decided in one place: only on a terminal, never when
// NO_COLOR is set (https://no-color.org) or TERM is dumb. Status words have one colour
// each wherever they are shown (tables, receipts, the Ink screens). Plain ANSI codes:
// three colours do not need a library, and this keeps them out of every start.

export type Tone = 'green' | 'yellow' | 'red';

/** Money that arrived or will; money waiting on a step; money that will not move. */
const STATUS_TONES: Record<string, Tone> = {
  approved: 'green',
  settled: 'green',
  captured: 'green',
  partially_captured: 'green',
  paid: 'green',
  active: 'green',
  sent: 'green',
  pending: 'yellow',
  authorized: 'yellow',
  past_due: 'yellow',
  declined: 'red',
  voided: 'red',
  expired: 'red',
  failed: 'red',
  canceled: 'red',
};

export function statusTone(status: string): Tone | undefined {
  return STATUS_TONES[status.toLowerCase().replace(/ /g, '_')];
}

export interface ColourTarget {
  isTTY?: boolean;
}

export function colourEnabled(stream: ColourTarget = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

const CODES: Record<Tone, number> = { green: 32, yellow: 33, red: 31 };

export function paint(text: string, tone: Tone | undefined, stream: ColourTarget = process.stdout): string {
  if (!tone || !colourEnabled(stream)) return text;
  return `\u001b[${CODES[tone]}m${text}\u001b[39m`;
}

/** A status word in its colour (plain when colour is off). */
export function statusWord(status: string, stream: ColourTarget = process.stdout): string {
  return paint(status, statusTone(status), stream);
}

/** The colour of a status for an Ink <Text color>, or undefined when colour is off. */
export function statusInkColour(status: string, stream: ColourTarget = process.stdout): Tone | undefined {
  return colourEnabled(stream) ? statusTone(status) : undefined;
}
