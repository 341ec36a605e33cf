/**
 * A server that is not lendbot nor the marketplace, on a free port: a web server's HTML 404 page
 * for every path, except `/moved` paths, which redirect (302) to wherever the test says. It
 * records every request, so a test can show that nothing was carried to a redirect's target.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const NOT_FOUND_PAGE =
  '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p>\n<hr><address>Apache/2.4 Server</address></body></html>\n';

export interface ForeignServer {
  url: string;
  port: number;
  requests: Array<{ method: string; path: string; authorization: string | undefined }>;
  /** Where `/moved...` redirects to. */
  redirectTo: string;
  close(): Promise<void>;
}

export async function startForeignServer(): Promise<ForeignServer> {
  const handle: ForeignServer = { url: '', port: 0, requests: [], redirectTo: 'http://localhost:9/', close: async () => undefined };
  const server = http.createServer((request, response) => {
    request.resume();
    handle.requests.push({ method: request.method ?? '', path: request.url ?? '', authorization: request.headers.authorization });
    if ((request.url ?? '').startsWith('/moved')) {
      response.writeHead(302, { location: handle.redirectTo, 'content-type': 'text/html' });
      response.end('<html><body>Moved</body></html>');
      return;
    }
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(NOT_FOUND_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  handle.port = (server.address() as AddressInfo).port;
  handle.url = `http://127.0.0.1:${handle.port}`;
  handle.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return handle;
}
