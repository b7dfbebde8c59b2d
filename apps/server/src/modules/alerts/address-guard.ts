import { isIP } from 'node:net';

/**
 * Where an alert may not be sent: link-local addresses (169.254.0.0/16, fe80::/10) and the
 * cloud metadata services (AWS/GCP/Azure 169.254.169.254, Alibaba 100.100.100.200, AWS IPv6
 * fd00:ec2::254), by name or by address. Loopback and private ranges stay allowed: on-premises
 * receivers (a ticketing tool on the LAN, a relay on the same host) are the common case, and
 * the one who writes a rule already holds USUARIOS.* in that client.
 */
const BLOCKED_NAMES = new Set(['metadata.google.internal', 'metadata']);

function ipv4Blocked(address: string): boolean {
  const [a, b] = address.split('.').map(Number);
  return (a === 169 && b === 254) || address === '100.100.100.200';
}

/** Expands an IPv6 address to its eight groups (numbers), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // An embedded IPv4 tail (::ffff:169.254.169.254) becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail].map((g) =>
    parseInt(g, 16),
  );
  return groups.some((g) => Number.isNaN(g)) ? null : groups;
}

/** Whether a literal IP address (v4 or v6) is one an alert may not reach. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return ipv4Blocked(address);
  if (family !== 6) return false;
  const g = ipv6Groups(address);
  if (!g) return false;
  // fe80::/10
  if ((g[0]! & 0xffc0) === 0xfe80) return true;
  // fd00:ec2::254
  if (g[0] === 0xfd00 && g[1] === 0xec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254)
    return true;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) forms of a blocked v4.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) {
    const v4 = `${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}`;
    return ipv4Blocked(v4);
  }
  return false;
}

/** The host of a URL as written (brackets off an IPv6 literal, no trailing dot), lower case. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
  } catch {
    return null;
  }
}

/** Whether a host as written (a name or a literal address) is refused before any lookup. */
export function isBlockedHost(host: string): boolean {
  const bare = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  return BLOCKED_NAMES.has(bare) || isBlockedAddress(bare);
}

/** Whether a URL names a refused host literally (checked when a rule is saved). */
export function isBlockedUrl(url: string): boolean {
  const host = hostOf(url);
  return host !== null && isBlockedHost(host);
}
