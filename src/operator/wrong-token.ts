/**
 * Who presented a token, as the wrong-token throttle counts it (auth-throttle.ts). The client is
 * `request.ip`: the socket's address, or, when the socket is one of `ops.trusted_proxies`, the
 * address that proxy forwards (X-Forwarded-For, read by fastify's trustProxy). Without trusted
 * proxies no forwarding header is believed. Whether the socket's address is loopback is asked of the
 * peer, never of the client (a forwarded header could claim it).
 */
import type { FastifyRequest } from 'fastify';

/** Who presented a wrong token, and which. */
export interface WrongToken {
  /** The client: the socket's address, or the forwarded one behind a trusted proxy. */
  client: string | undefined;
  /** The socket's address (loopback keeps its way in under a flood from everywhere). */
  peer: string | undefined;
  /** The token as presented; only its digest is kept. */
  token: string;
}

/** Whether a client's address is this machine's loopback (IPv4, IPv6, or IPv4 mapped in IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/i.test(address);
}

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
