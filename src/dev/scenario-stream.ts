// A request step whose answer is a stream (`text/event-stream`, such as events/stream)
// has no end of its own, so the runner reads it until what came satisfies the step's
// `expect.body`, or until the step's timeout, and then closes it: the step passes on its
// status with the messages read as its body (docs/scenarios.md). What is read is bounded
// (MAX_STREAM_CHARS), so a fast stream cannot grow the runner without end.

export const MAX_STREAM_CHARS = 1 << 20;

export interface StreamMessage {
  id?: string;
  event: string;
  /** The message's data, parsed as JSON when it is JSON. */
  data: unknown;
}

/** The complete messages of an event-stream text (comments, `retry:` and a trailing partial message left out). */
export function parseEventStream(text: string): StreamMessage[] {
  const blocks = text.split(/\r?\n\r?\n/);
  blocks.pop();
  const out: StreamMessage[] = [];
  for (const block of blocks) {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) continue;
    const raw = data.join('\n');
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // not JSON: kept as text
    }
    out.push({ ...(id !== undefined ? { id } : {}), event, data: parsed });
  }
  return out;
}

/** Read `res`'s stream until `enough` holds, `signal` aborts (the step's timeout) or MAX_STREAM_CHARS came; then close it. */
export async function readEventStream(res: Response, signal: AbortSignal, enough: (messages: StreamMessage[]) => boolean): Promise<{ messages: StreamMessage[]; text: string }> {
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (reader && !signal.aborted && text.length < MAX_STREAM_CHARS) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (err) {
        if (signal.aborted) break;
        throw err;
      }
      if (next.done) break;
      text += decoder.decode(next.value, { stream: true });
      if (enough(parseEventStream(text))) break;
    }
  } finally {
    await reader?.cancel().catch(() => {});
  }
  return { messages: parseEventStream(text), text: text.slice(0, MAX_STREAM_CHARS) };
}
