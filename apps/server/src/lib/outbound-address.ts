import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where the server may open a connection on a user's behalf (an alert's webhook, Slack or
 * Teams URL, an environment's database host): only globally routable unicast addresses, unless
 * the administrator allowed a range (ALERT_ALLOWED_NETWORKS). Anything else would let whoever
 * writes a rule or an environment make this server knock on its own network: loopback, private
 * and unique-local ranges, link-local, CGNAT, NAT64 and the other IPv6 forms that carry an IPv4
 * address, multicast, broadcast, documentation and benchmarking ranges. Classification is
 * ipaddr.js's (its special ranges); an address counts as public only where it names the range
 * `unicast`.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Network = [Address, number];

export type DnsLookup = typeof dnsLookup;

/**
 * Cloud metadata services never get a connection, whatever the allow-list says: a range opened
 * for an on-premises network (100.64.0.0/10, 169.254.0.0/16, fd00::/8) must not also open the
 * credentials endpoint that sits inside it.
 */
const METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean...
  '169.254.170.2', // AWS ECS task credentials
  '100.100.100.200', // Alibaba Cloud
  'fd00:ec2::254', // AWS over IPv6
].map((text) => ipaddr.parse(text));

const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
  'metadata.tencentyun.com',
]);

/**
 * Blocked although ipaddr.js calls them unicast: IPv4-compatible addresses (`::a.b.c.d`,
 * deprecated, and a way to write an IPv4 address as IPv6 no resolver should ever answer), and
 * the NAT64 local-use prefix, listed here too in case the library's ranges change.
 */
const ALSO_BLOCKED: Network[] = [
  [ipaddr.parse('::'), 96],
  [ipaddr.parse('64:ff9b:1::'), 48],
];

/** The IPv6 forms that carry an IPv4 address at a known place, and where: [prefix, from part]. */
const CARRIERS_OF_V4: [Network, number][] = [
  [[ipaddr.parse('::ffff:0:0:0'), 96], 6], // SIIT, "IPv4-translated"
  [[ipaddr.parse('64:ff9b::'), 96], 6], // NAT64, well-known prefix
  [[ipaddr.parse('::'), 96], 6], // IPv4-compatible
  [[ipaddr.parse('2002::'), 16], 1], // 6to4
];

const inNetwork = (address: Address, [base, bits]: Network) =>
  address.kind() === base.kind() && address.match(base, bits);

const sameAddress = (a: Address, b: Address) =>
  a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();

function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  for (const [network, at] of CARRIERS_OF_V4) {
    if (!inNetwork(address, network)) continue;
    const high = address.parts[at]!;
    const low = address.parts[at + 1]!;
    return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return null;
}

/** A literal address, v4 or v6 (brackets and a zone id allowed), or null when it is not one. */
function parseAddress(text: string): Address | null {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  // net.isIP accepts only the canonical forms; ipaddr.js alone would also take "0x7f.1".
  if (!isIP(bare)) return null;
  try {
    const address = ipaddr.parse(bare);
    // On a dual-stack socket ::ffff:a.b.c.d is a.b.c.d: judged as that.
    return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
      ? (address as ipaddr.IPv6).toIPv4Address()
      : address;
  } catch {
    return null;
  }
}

/**
 * ALERT_ALLOWED_NETWORKS: comma-separated CIDR ranges ("127.0.0.0/8,::1/128"), each answered in
 * its normal form. Throws with the first entry that is not one.
 */
export function parseAllowedNetworks(text: string): string[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry) => {
    const slash = entry.lastIndexOf('/');
    const address = slash > 0 ? entry.slice(0, slash) : '';
    const bits = slash > 0 ? entry.slice(slash + 1) : '';
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    if (!family || !/^\d{1,3}$/.test(bits) || Number(bits) > max || address.includes('%')) {
      throw new Error(
        `"${entry}" is not a CIDR range: write ranges such as 10.0.0.0/8 or fd12:3456::/48, comma-separated`,
      );
    }
    const [base, length] = ipaddr.parseCIDR(`${address}/${bits}`);
    return `${base.toString()}/${length}`;
  });
}

/** The code a refused destination is told by: a field error, a delivery log entry. */
export const DESTINATION_NOT_ALLOWED = 'destination_not_allowed';

/** Why a connection was not opened: the destination is not one the rule allows. */
export class DestinationNotAllowedError extends Error {
  readonly code = DESTINATION_NOT_ALLOWED;
  constructor() {
    super('destination not allowed');
  }
}

export type Resolution =
  | { kind: 'addresses'; addresses: string[] }
  | { kind: 'refused' }
  | { kind: 'unresolved'; detail: string };

export class OutboundPolicy {
  private readonly allowed: Network[];

  /**
   * `allowedNetworks`: ALERT_ALLOWED_NETWORKS as written (checked at start) or already parsed.
   * `resolver`: name resolution for `resolve` (the system's unless a test gives one).
   */
  constructor(
    allowedNetworks: string | readonly string[] = [],
    private readonly resolver: DnsLookup = dnsLookup,
  ) {
    const list =
      typeof allowedNetworks === 'string' ? parseAllowedNetworks(allowedNetworks) : allowedNetworks;
    this.allowed = list.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  /** Whether a literal address may be connected to. Anything that is not one is refused. */
  allowsAddress(text: string): boolean {
    const address = parseAddress(text);
    if (!address || isMetadataAddress(address)) return false;
    // :: and ::1 sit inside the IPv4-compatible block but carry no IPv4 address.
    if (address.kind() === 'ipv6' && !['loopback', 'unspecified'].includes(address.range())) {
      const inside = embeddedV4(address as ipaddr.IPv6);
      // A form that carries a blocked IPv4 address is that address by another route.
      if (inside && (isMetadataAddress(inside) || !this.plain(inside))) return false;
    }
    return this.plain(address);
  }

  /**
   * Whether a host as written (a name or a literal) is refused before any lookup: a metadata
   * name, or a literal address the rule refuses. Other names are judged once resolved.
   */
  refusesHost(host: string): boolean {
    const bare = normalHost(host);
    if (isMetadataName(bare)) return true;
    return isIP(bare) !== 0 && !this.allowsAddress(bare);
  }

  /** Whether a URL names a refused host literally (checked when a rule is saved). */
  refusesUrl(url: string): boolean {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return false;
    }
    return this.refusesHost(host);
  }

  /**
   * The addresses a host stands for, each checked: one refused address refuses the host (a name
   * may resolve to a public and a private address at once). The caller connects to these
   * addresses and never looks the name up again, so a second answer cannot differ (no DNS
   * rebinding between the check and the connection).
   */
  async resolve(host: string): Promise<Resolution> {
    const bare = normalHost(host);
    if (this.refusesHost(bare)) return { kind: 'refused' };
    if (isIP(bare)) return { kind: 'addresses', addresses: [bare] };
    let found: LookupAddress[];
    try {
      found = await new Promise<LookupAddress[]>((resolve, reject) =>
        this.resolver(bare, { all: true, verbatim: true }, (error, addresses) =>
          error ? reject(error) : resolve(addresses as unknown as LookupAddress[]),
        ),
      );
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { kind: 'unresolved', detail: typeof code === 'string' ? code : String(error) };
    }
    const addresses = found.filter(Boolean).map((a) => a.address);
    if (addresses.length === 0) return { kind: 'unresolved', detail: 'no address' };
    if (!addresses.every((a) => this.allowsAddress(a))) return { kind: 'refused' };
    return { kind: 'addresses', addresses };
  }

  /**
   * A `lookup` for http.request: resolves with `base`, checks every address it got and answers
   * only when all pass (else DestinationNotAllowedError). The socket connects to the address
   * this answer names, with no second lookup, so the address checked is the address connected
   * to: a name that resolved to a public address when the rule was saved and to 127.0.0.1 when
   * it is sent (DNS rebinding) is refused. Literal addresses never reach a lookup (Node connects
   * to them directly): check them with `refusesHost` first.
   */
  lookup(base: DnsLookup = this.resolver): DnsLookup {
    return ((hostname: string, options: unknown, callback?: unknown) => {
      const done = (typeof options === 'function' ? options : callback) as (
        ...args: unknown[]
      ) => void;
      const opts = (typeof options === 'object' && options ? options : {}) as {
        all?: boolean;
      };
      if (this.refusesHost(hostname)) return done(new DestinationNotAllowedError());
      base(hostname, { ...opts, all: true }, (error, addresses) => {
        if (error) return done(error);
        const list = (addresses as unknown as LookupAddress[]).filter(Boolean);
        if (list.length === 0) {
          return done(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }));
        }
        if (!list.every((a) => this.allowsAddress(a.address))) {
          return done(new DestinationNotAllowedError());
        }
        if (opts.all) return done(null, list);
        return done(null, list[0]!.address, list[0]!.family);
      });
    }) as unknown as DnsLookup;
  }

  private plain(address: Address): boolean {
    if (this.allowed.some((network) => inNetwork(address, network))) return true;
    if (ALSO_BLOCKED.some((network) => inNetwork(address, network))) return false;
    return address.range() === 'unicast';
  }
}

function isMetadataAddress(address: Address): boolean {
  return METADATA_ADDRESSES.some((m) => sameAddress(m, address));
}

function normalHost(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

function isMetadataName(name: string): boolean {
  return METADATA_NAMES.has(name) || name.endsWith('.metadata.google.internal');
}
