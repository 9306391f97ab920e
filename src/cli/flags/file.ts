// The one --file flag of commands that take a request body: a path, or - for stdin.
// The body goes through the same request schema as the flags and the HTTP API; a file
// that cannot be read is a usage error, text that is not JSON a user error (the
// input is wrong, like a body that fails the schema).
import { Flags } from '@oclif/core';
import { readFile } from 'node:fs/promises';
import { AppError } from '../../errors.js';
import { usage } from '../usage.js';

export const fileFlag = Flags.string({ description: 'full request body as JSON (a path, or - for stdin); replaces the body flags' });

/** A request body from --file (a path, or - for stdin). */
export async function readBodyFile(file: string, stdin: AsyncIterable<Buffer> = process.stdin as AsyncIterable<Buffer>): Promise<unknown> {
  const text = file === '-' ? await readAll(stdin) : await readFile(file, 'utf8').catch(() => {
    throw usage(`cannot read --file ${file}: give the path of a JSON file, or - for stdin`);
  });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError(400, 'validation_error', `--file ${file} is not valid JSON`);
  }
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
