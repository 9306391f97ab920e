// What a dashboard view answers: a page (HTML), a redirect after a POST (so a reload never
// repeats it), a file to download, or a long-lived event stream. The handler in index.ts
// writes each with the dashboard's headers.
import type http from 'node:http';
import type { Html } from './html.js';

export class Page {
  constructor(
    readonly body: Html,
    readonly status = 200,
  ) {}
}

export class Redirect {
  constructor(readonly location: string) {}
}

export class Download {
  constructor(
    readonly body: string | Buffer | AsyncIterable<string | Buffer>,
    readonly contentType: string,
    readonly filename: string,
  ) {}
}

/** Hands the raw connection over (Server-Sent Events); resolves when the stream ends. */
export class Stream {
  constructor(readonly run: (req: http.IncomingMessage, res: http.ServerResponse, signal: AbortSignal) => Promise<void>) {}
}

export type Answer = Page | Redirect | Download | Stream;
