import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * Whether the TCP peer is this machine. The socket's own address, never X-Forwarded-For nor
 * Fastify's `request.ip`: behind a trusted proxy those name the proxy's client, and a
 * forwarded "127.0.0.1" is anyone's to write.
 */
export function isLoopback(remoteAddress: string | undefined): boolean {
  if (!remoteAddress) return false;
  const address = remoteAddress.replace(/^::ffff:/i, '');
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1';
}

/** Headers a proxy adds when it passes a request on (the standard one and the two common ones). */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

/**
 * Whether the request came straight from this machine: the socket's peer is loopback and no
 * proxy passed it on. A reverse proxy on the same host connects from loopback too, and would
 * make /metrics public; it says so with a forwarding header, which a direct scraper never
 * sends. Refused whether or not TRUST_PROXY is on: with it off the header is not believed as an
 * address, but it still tells a proxied request from a direct one, and a local caller that
 * sends one anyway only loses what a token gives back.
 */
export function isDirectLoopback(request: {
  raw: { socket: { remoteAddress?: string } };
  headers: Record<string, string | string[] | undefined>;
}): boolean {
  if (!isLoopback(request.raw.socket.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time: both sides hashed first, so neither content nor length leaks by timing. */
export function tokenMatches(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  return timingSafeEqual(digest(given), digest(expected));
}
