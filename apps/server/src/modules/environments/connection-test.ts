import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import pg from 'pg';

export interface ConnectionTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/**
 * What a try gave. Only `postgres` answers are shown to the user as they came: anything else
 * (refused, reset, silent, another protocol) is one generic answer, its detail for the log only,
 * so the call tells nothing about the other services of this server's network.
 */
export type ConnectionOutcome =
  | { ok: true; version: string }
  | { ok: false; postgres: true; error: string }
  | { ok: false; postgres: false; detail: string };

class DeadlineReached extends Error {
  constructor() {
    super('timeout expired');
  }
}

/** What went wrong, in the driver's words; a refused dual-stack connect is an AggregateError. */
function describe(error: unknown): string {
  if (error instanceof AggregateError && !error.message) {
    return [...new Set(error.errors.map(describe))].join('; ');
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return error.message || (typeof code === 'string' ? code : error.name);
  }
  return String(error);
}

/**
 * Addresses a connection test never goes to: link-local (where cloud metadata services live)
 * and the metadata services' own addresses. Loopback and private networks stay allowed: that
 * is where databases are.
 */
const refused = new BlockList();
refused.addSubnet('169.254.0.0', 16, 'ipv4');
refused.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
refused.addSubnet('fe80::', 10, 'ipv6');
refused.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6

/** Metadata services by name (compared without a trailing dot, case-insensitively). */
const REFUSED_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
  'metadata.tencentyun.com',
]);

/** The IPv4 address an IPv6 one carries (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`). */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family !== 6) return true;
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) says link-local anyway
  if (bare !== address) return true;
  const v4 = embeddedIpv4(bare);
  return refused.check(bare, 'ipv6') || (v4 !== undefined && refused.check(v4, 'ipv4'));
}

export function isRefusedName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return REFUSED_NAMES.has(name) || name.endsWith('.metadata.google.internal');
}

export type Resolution =
  | { kind: 'addresses'; addresses: string[] }
  | { kind: 'refused' }
  | { kind: 'unresolved'; detail: string };

/**
 * The addresses a host name stands for, each checked: one refused address refuses the host
 * (a name can resolve to a public and a metadata address at once). The caller then connects to
 * these addresses, never to the name again, so a second lookup cannot answer differently.
 */
export async function resolveHost(host: string): Promise<Resolution> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isRefusedName(bare)) return { kind: 'refused' };
  let addresses: string[];
  if (isIP(bare)) {
    addresses = [bare];
  } else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch (error) {
      return { kind: 'unresolved', detail: describe(error) };
    }
  }
  if (addresses.length === 0) return { kind: 'unresolved', detail: 'no address' };
  if (addresses.some(isRefusedAddress)) return { kind: 'refused' };
  return { kind: 'addresses', addresses };
}

/** PostgreSQL answered with one of its own errors (SQLSTATE): wrong password, no database... */
function fromPostgres(error: unknown): boolean {
  return error instanceof pg.DatabaseError && typeof error.code === 'string';
}

/**
 * Connects to the PostgreSQL at `target.host` (an address already checked, not a name), runs
 * `select version()` and disconnects, all within `timeoutMs`. Every connection setting is given
 * explicitly (the password as a function) so the driver never falls back to this server's own
 * PGUSER, PGPASSWORD or ~/.pgpass: those would otherwise be sent to whatever host an
 * environment names.
 */
export async function tryPostgres(
  target: ConnectionTarget,
  timeoutMs: number,
): Promise<ConnectionOutcome> {
  const client = new pg.Client({
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    password: () => target.password,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    application_name: 'rota-connection-test',
  });
  // After we give up, the socket may still report errors; they have nobody left to tell.
  client.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  // The driver's own timeouts cover connecting and the query; this one also covers what they
  // do not (a server that accepts the startup and then goes silent).
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineReached()), timeoutMs);
  });
  try {
    await Promise.race([client.connect(), deadline]);
    const result = await Promise.race([
      client.query<{ version: string }>('select version() as version'),
      deadline,
    ]);
    return { ok: true, version: result.rows[0]?.version ?? '' };
  } catch (error) {
    return fromPostgres(error)
      ? { ok: false, postgres: true, error: describe(error) }
      : { ok: false, postgres: false, detail: describe(error) };
  } finally {
    clearTimeout(timer);
    client.end().catch(() => {});
  }
}

/**
 * Tries each checked address in turn (a name with an IPv6 and an IPv4 address, the server
 * listening on one) until one answers as PostgreSQL, all within `timeoutMs`.
 */
export async function tryAddresses(
  addresses: readonly string[],
  target: Omit<ConnectionTarget, 'host'>,
  timeoutMs: number,
): Promise<ConnectionOutcome> {
  const until = Date.now() + timeoutMs;
  const details: string[] = [];
  for (const host of addresses) {
    const left = until - Date.now();
    if (left <= 0) break;
    const outcome = await tryPostgres({ ...target, host }, left);
    if (outcome.ok || outcome.postgres) return outcome;
    details.push(`${host}: ${outcome.detail}`);
  }
  return { ok: false, postgres: false, detail: details.join('; ') || 'timeout expired' };
}
