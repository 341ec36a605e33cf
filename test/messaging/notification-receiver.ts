/**
 * A real HTTP server standing in for the investor's notification endpoint: it keeps every body it
 * accepts and answers 200, or, for the next `failNext` requests, 500 without keeping it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NotificationReceiver {
  url: string;
  received: Array<{ event: string; data: Record<string, unknown> }>;
  /** The next `count` requests are answered 500 (a receiver down for a while). */
  failNext(count: number): void;
  close(): Promise<void>;
}

export async function startNotificationReceiver(): Promise<NotificationReceiver> {
  const received: NotificationReceiver['received'] = [];
  let failing = 0;
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      if (failing > 0) {
        failing -= 1;
        response.writeHead(500).end();
        return;
      }
      received.push(JSON.parse(text) as { event: string; data: Record<string, unknown> });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    failNext(count) {
      failing = count;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
