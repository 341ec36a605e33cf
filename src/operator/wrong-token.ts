/**
 * Who presented a token, as the wrong-token throttle counts it (auth-throttle.ts). The client is
 * `request.ip`: the socket's address, or, when the socket is one of `ops.trusted_proxies`, the
 * address that proxy forwards (X-Forwarded-For, read by fastify's trustProxy). Without trusted
 * proxies no forwarding header is believed.
 */
import type { FastifyRequest } from 'fastify';
import type { WrongToken } from './auth-throttle.js';

/** Who a request comes from, for the throttle and the refusal lines (never a loopback check: those read the socket). */
export function clientOf(request: FastifyRequest): string | undefined {
  return request.ip;
}

/** The token a request presented, counted against its client and itself. */
export function wrongToken(request: FastifyRequest, presented: string): WrongToken {
  // "Bearer X" and a sign-in with X are one token.
  const token = /^Bearer\s+(\S+)\s*$/i.exec(presented)?.[1] ?? presented.trim();
  return { client: clientOf(request), peer: request.raw.socket.remoteAddress, token };
}
