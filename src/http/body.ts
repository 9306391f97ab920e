// Request bodies: JSON only, at most 1 MiB, read without buffering more than that.
import type { IncomingMessage } from 'node:http';
import { quoteNonIntegerNumbers } from '../lib/exact-json.js';
import { payloadTooLarge, unsupportedMediaType, validationError } from '../errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export async function readJsonBody(req: IncomingMessage): Promise<{ raw: string; value: unknown }> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    throw payloadTooLarge();
  }
  // Read with listeners, not `for await`: leaving a for-await loop early (the throw on
  // overflow) destroys the request and its socket, so the 413 never reached the client
  // and the dispatcher's access-log line then read a null req.socket, an unhandled
  // rejection that stopped the whole server (found by the reliability suite). Here the
  // rest of an oversized body is drained and discarded; the connection stays usable.
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      chunks.length = 0;
      req.resume();
      reject(payloadTooLarge());
    };
    let ended = false;
    req.on('data', onData);
    req.once('end', () => {
      ended = true;
      resolve();
    });
    req.once('error', reject);
    // Aborted by the client before the end: never act on a partial body. The error is
    // built only then ('close' follows every request; an Error per request costs a stack capture).
    req.once('close', () => {
      if (!ended) reject(validationError([{ path: '(body)', message: 'was cut off before its end' }], 'request body was cut off'));
    });
  });
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.trim() === '') return { raw, value: undefined };
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) throw unsupportedMediaType();
  try {
    return { raw, value: JSON.parse(quoteNonIntegerNumbers(raw)) as unknown };
  } catch {
    throw validationError([{ path: '(body)', message: 'is not valid JSON' }], 'request body is not valid JSON');
  }
}
