// A POSTed form (application/x-www-form-urlencoded), read whole up to a small cap: the
// dashboard's forms carry a few short fields, so a bigger body is refused, not buffered.
import type http from 'node:http';
import { AppError } from '../../errors.js';

const FORM_MAX_BYTES = 64 * 1024;

export async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && type !== '') {
    throw new AppError(415, 'invalid_request', `a dashboard form is sent as application/x-www-form-urlencoded, not ${type}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_MAX_BYTES) throw new AppError(413, 'invalid_request', `a dashboard form is at most ${FORM_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** A form's numeric field as the API's JSON number ("3", "0.25"); anything else as typed (the API's schema names the problem). */
const formNumber = (v: string): number | string => (/^\d+(\.\d+)?$/.test(v) ? Number(v) : v);

/** A form as an API's JSON body: empty fields left out, the numeric ones as numbers. */
export function formBody(form: URLSearchParams, text: readonly string[], numbers: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const k of text) {
    const v = form.get(k)?.trim();
    if (v) body[k] = v;
  }
  for (const k of numbers) {
    const v = form.get(k)?.trim();
    if (v) body[k] = formNumber(v);
  }
  return body;
}

/** What a refused action shows on its page: each field and its rule, as the API's 400 names them. */
export const refusalFields = (err: AppError): string | undefined => err.fields?.map((f) => `${f.path} ${f.message}`).join('; ') || undefined;
