import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isBlockedAddress, isBlockedHost } from '../address-guard.js';

/** What a delivery attempt learned: the status (null: no answer) and a short, secret-free error. */
export interface OutboundResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export type DnsLookup = typeof dnsLookup;

export interface OutboundOptions {
  /** Whole-request deadline: connect, send, answer. */
  timeoutMs?: number;
  /** Name resolution; tests pass one that answers a chosen address. */
  lookup?: DnsLookup;
}

const TIMEOUT_MS = 10_000;
/** The answer body is read only this far (it is not kept, only drained). */
const MAX_BODY = 4096;

export class BlockedAddressError extends Error {
  constructor() {
    super('address not allowed (link-local or metadata)');
  }
}

/**
 * A `lookup` for http.request that resolves with `base` and refuses link-local and metadata
 * addresses after resolution: the address checked is the one connected to, so a name that
 * resolves elsewhere at save time and to 169.254.169.254 at send time (DNS rebinding) is refused.
 */
export function guardedLookup(base: DnsLookup = dnsLookup) {
  return ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    if (isBlockedHost(hostname)) return callback(new BlockedAddressError());
    base(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = (addresses as unknown as LookupAddress[]).filter(Boolean);
      if (list.length === 0) return callback(new Error(`no address for ${hostname}`));
      if (list.some((a) => isBlockedAddress(a.address))) return callback(new BlockedAddressError());
      if ((options as { all?: boolean }).all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  }) as unknown as DnsLookup;
}

/** Error text for the delivery log: the kind of failure, never a URL (a chat URL is a secret). */
function describe(error: unknown): string {
  if (error instanceof BlockedAddressError) return error.message;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return (code ?? message).slice(0, 200);
}

/**
 * POSTs `body` to `url`: no redirect followed (a 3xx is a failure), 10 s for the whole exchange,
 * at most 4 KB of the answer read. 2xx is delivered.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: OutboundOptions = {},
): Promise<OutboundResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ ok: false, status: null, error: 'invalid url' });
  }
  if (isBlockedHost(target.hostname)) {
    return Promise.resolve({ ok: false, status: null, error: new BlockedAddressError().message });
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const transport = target.protocol === 'https:' ? https : http;
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.lookup) as never,
        agent: false,
      },
      (response) => {
        let read = 0;
        const status = response.statusCode ?? 0;
        const done = () => {
          const ok = status >= 200 && status < 300;
          finish({ ok, status, error: ok ? null : `HTTP ${status}` });
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_BODY) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, status: null, error: 'timeout' });
    }, options.timeoutMs ?? TIMEOUT_MS);
    request.on('error', (error) => finish({ ok: false, status: null, error: describe(error) }));
    request.end(body);
  });
}
