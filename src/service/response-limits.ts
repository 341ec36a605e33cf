/**
 * How much of an answer the client reads. Every kind of endpoint has a limit in bytes
 * (`service.max_response_bytes`), applied twice: to the bytes on the wire, counted as they arrive
 * (the transport cancels the request as soon as they pass it, or at once when Content-Length
 * says they will), and to the bytes once decompressed. lendbot asks for compressed answers
 * (gzip, deflate, br) and inflates them itself with zlib's `maxOutputLength`, which stops
 * inflating at the limit: a 300 KB body that inflates to 300 MB costs at most the limit of memory
 * (issue 24, item 11: such a body once took the daemon from 115 MB to 1,690 MB).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { CancelableRequest, Response } from 'got';

export const RESPONSE_KINDS = ['lists', 'banking_data', 'provider_results', 'offers'] as const;
/** Which limit an endpoint's answers are held to. */
export type ResponseKind = (typeof RESPONSE_KINDS)[number];
export type ResponseLimits = Record<ResponseKind, number>;

const MIB = 1024 * 1024;

/**
 * Sane sizes with room to spare: a page of loan requests is a few hundred KB at most, a loan
 * request's banking data with 90 days of transactions a few MB, a score or an offer a few KB.
 */
export const DEFAULT_RESPONSE_LIMITS: ResponseLimits = {
  lists: 8 * MIB,
  banking_data: 16 * MIB,
  provider_results: 1 * MIB,
  offers: 1 * MIB,
};

/** The config key that raises a kind's limit, for error messages. */
export function responseLimitKey(kind: ResponseKind): string {
  return `service.max_response_bytes.${kind}`;
}

/** The encodings lendbot asks for and inflates itself. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

export type DecodedBody =
  | { ok: true; text: string }
  | { ok: false; problem: 'too-large' }
  | { ok: false; problem: 'unsupported-encoding'; encoding: string }
  | { ok: false; problem: 'corrupt'; message: string };

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/**
 * The text of a body received as `raw` with the Content-Encoding `encoding`, inflated to at most
 * `limit` bytes. One coding at most: a stack of codings ("gzip, gzip") is refused as unsupported,
 * since lendbot never asks for one.
 */
export async function decodeBody(raw: Buffer, encoding: string | string[] | undefined, limit: number): Promise<DecodedBody> {
  const codings = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? ''))
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return raw.length > limit ? { ok: false, problem: 'too-large' } : { ok: true, text: raw.toString('utf8') };
  const [coding] = codings;
  if (codings.length > 1 || coding === undefined) return { ok: false, problem: 'unsupported-encoding', encoding: codings.join(', ') };
  // zlib refuses to produce more than maxOutputLength bytes, stopping as soon as it would.
  const options = { maxOutputLength: limit };
  try {
    let inflated: Buffer;
    if (coding === 'gzip' || coding === 'x-gzip') inflated = await gunzip(raw, options);
    // "deflate" is meant to be zlib-wrapped (RFC 9110), but some servers send raw deflate.
    else if (coding === 'deflate') inflated = await (isZlibWrapped(raw) ? inflate : inflateRaw)(raw, options);
    else if (coding === 'br') inflated = await brotliDecompress(raw, options);
    else return { ok: false, problem: 'unsupported-encoding', encoding: coding };
    return { ok: true, text: inflated.toString('utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, problem: 'too-large' };
    return { ok: false, problem: 'corrupt', message: error instanceof Error ? error.message : String(error) };
  }
}

/** A zlib stream starts with CMF (method 8, deflate) and FLG, CMF * 256 + FLG a multiple of 31. */
function isZlibWrapped(raw: Buffer): boolean {
  const cmf = raw[0];
  const flg = raw[1];
  return cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && (cmf * 256 + flg) % 31 === 0;
}

/** What a watched request saw: its status once answered, and whether it was cut at the limit. */
export interface SizeWatch {
  status(): number | undefined;
  tooLarge(): boolean;
}

/**
 * Cancels `pending` as soon as its bytes on the wire pass `limit`, or at once when its
 * Content-Length says they will, so the body is never buffered beyond it. Attach before awaiting;
 * once the request fails, `tooLarge()` tells a cut from another failure.
 */
export function cancelPastLimit(pending: CancelableRequest<Response<Buffer>>, limit: number): SizeWatch {
  let status: number | undefined;
  let tooLarge = false;
  // `on` hands back the request itself, which the caller awaits.
  void pending.on('response', (response: { statusCode: number }) => {
    status = response.statusCode;
  });
  void pending.on('downloadProgress', ({ transferred, total }) => {
    if (tooLarge || (transferred <= limit && (total === undefined || total <= limit))) return;
    tooLarge = true;
    pending.cancel();
  });
  return { status: () => status, tooLarge: () => tooLarge };
}
