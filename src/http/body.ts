// Request bodies: JSON only, at most 1 MiB, read without buffering more than that.
import type { IncomingMessage } from 'node:http';
import { payloadTooLarge, unsupportedMediaType, validationError } from '../errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export async function readJsonBody(req: IncomingMessage): Promise<{ raw: string; value: unknown }> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    throw payloadTooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.resume();
      throw payloadTooLarge();
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.trim() === '') return { raw, value: undefined };
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) throw unsupportedMediaType();
  try {
    return { raw, value: JSON.parse(raw) as unknown };
  } catch {
    throw validationError([{ path: '(body)', message: 'is not valid JSON' }], 'request body is not valid JSON');
  }
}
