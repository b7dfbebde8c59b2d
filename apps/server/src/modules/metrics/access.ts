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

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time: both sides hashed first, so neither content nor length leaks by timing. */
export function tokenMatches(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  return timingSafeEqual(digest(given), digest(expected));
}
