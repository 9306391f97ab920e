// Requests Node's HTTP parser refuses before any route sees them (a request line and
// headers over 16 KiB, bytes that are not HTTP) get the error body of docs/decisions.md#errors too, not
// Node's bare "431"/"400" without a body.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const STATUS: Record<string, { status: number; text: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, text: 'Request Header Fields Too Large', message: 'the request line and headers are over 16 KiB (a query string that long is refused)' },
  HPE_REQUEST_TIMEOUT: { status: 408, text: 'Request Timeout', message: 'the request was not received in time' },
};

export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing to answer on a connection that is gone, or mid-answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const known = STATUS[err.code ?? ''] ?? { status: 400, text: 'Bad Request', message: 'the request is not valid HTTP' };
    const body = JSON.stringify({ error: { type: 'invalid_request', message: known.message } });
    socket.end(
      `HTTP/1.1 ${known.status} ${known.text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
