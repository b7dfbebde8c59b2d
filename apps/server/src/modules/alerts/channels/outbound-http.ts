import http from 'node:http';
import https from 'node:https';
import {
  DESTINATION_NOT_ALLOWED,
  DestinationNotAllowedError,
  OutboundPolicy,
  type DnsLookup,
} from '../../../lib/outbound-address.js';

/** What a delivery attempt learned: the status (null: no answer) and a short, secret-free error. */
export interface OutboundResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export type { DnsLookup };

export interface OutboundOptions {
  /** Whole-request deadline: connect, send, answer. */
  timeoutMs?: number;
  /** Name resolution; tests pass one that answers a chosen address. */
  lookup?: DnsLookup;
  /** Which addresses may be connected to; none given: public unicast only. */
  policy?: OutboundPolicy;
}

const TIMEOUT_MS = 10_000;
/** The answer body is read only this far (it is not kept, only drained). */
const MAX_BODY = 4096;
const PUBLIC_ONLY = new OutboundPolicy();

/** Error text for the delivery log: the kind of failure, never a URL (a chat URL is a secret). */
function describe(error: unknown): string {
  if (error instanceof DestinationNotAllowedError) return DESTINATION_NOT_ALLOWED;
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
  const policy = options.policy ?? PUBLIC_ONLY;
  // A literal address is connected to without a lookup: it is checked here instead.
  if (policy.refusesHost(target.hostname)) {
    return Promise.resolve({ ok: false, status: null, error: DESTINATION_NOT_ALLOWED });
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
        lookup: policy.lookup(options.lookup) as never,
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
