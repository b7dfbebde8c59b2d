import { hostname } from 'node:os';
import net from 'node:net';
import tls from 'node:tls';
import { DESTINATION_NOT_ALLOWED, type OutboundPolicy } from '../../lib/outbound-address.js';

/** One event as it leaves: the JSON body of one RFC 5424 message. */
export interface SyslogEvent {
  /** The MSGID: `audit`, `execution.started`, `execution.finished`, `test`. */
  kind: string;
  occurred_at: Date;
  /** 1-7: RFC 5424 severities (5 notice, 6 informational, 4 warning). */
  severity: number;
  body: Record<string, unknown>;
}

export interface SyslogDestination {
  transport: 'tcp' | 'tls';
  host: string;
  port: number;
  /** PEM; none: the system's CAs. */
  ca?: string | null;
}

export type SendResult = { ok: true } | { ok: false; error: string };

/** Facility 13, "log audit": what a SIEM files the control room's trail under. */
const FACILITY = 13;
const APP_NAME = 'rota';
const TIMEOUT_MS = 10_000;

/** RFC 5424 header fields are printable US-ASCII without spaces, each with a length cap. */
function headerField(text: string, max: number): string {
  const clean = text.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return clean === '' ? '-' : clean;
}

const HOSTNAME = headerField(hostname(), 255);

/**
 * One message: `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID - MSG`, with no structured data
 * (everything is in the JSON) and MSG as plain UTF-8 JSON without a BOM (MSG-ANY), which
 * receivers that parse JSON take as it is.
 */
export function formatSyslog(event: SyslogEvent, pid = process.pid): string {
  const pri = FACILITY * 8 + event.severity;
  return [
    `<${pri}>1`,
    event.occurred_at.toISOString(),
    HOSTNAME,
    APP_NAME,
    headerField(String(pid), 128),
    headerField(event.kind, 32),
    '-',
    JSON.stringify(event.body),
  ].join(' ');
}

/** RFC 6587 octet counting: the frame's length in bytes, a space, the message. */
export function frame(message: string): Buffer {
  const bytes = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${bytes.length} `, 'ascii'), bytes]);
}

/**
 * Sends messages on one connection and closes it. The address connected to is the one the
 * guard checked (no second lookup); TLS still verifies the certificate against the host name.
 * Delivered means written and the connection closed cleanly: syslog over TCP has no receipt.
 */
export async function sendSyslog(
  destination: SyslogDestination,
  messages: readonly string[],
  policy: OutboundPolicy,
): Promise<SendResult> {
  const resolution = await policy.resolve(destination.host);
  if (resolution.kind === 'refused') return { ok: false, error: DESTINATION_NOT_ALLOWED };
  if (resolution.kind === 'unresolved') return { ok: false, error: resolution.detail };
  const address = resolution.addresses[0]!;
  const host = destination.host.replace(/^\[(.*)\]$/, '$1');
  const payload = Buffer.concat(messages.map(frame));
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(result);
    };
    const socket =
      destination.transport === 'tls'
        ? tls.connect({
            host: address,
            port: destination.port,
            servername: net.isIP(host) ? undefined : host,
            // A literal address is checked against the certificate's IP entries.
            checkServerIdentity: (_name, cert) => tls.checkServerIdentity(host, cert),
            ...(destination.ca ? { ca: destination.ca } : {}),
          })
        : net.connect({ host: address, port: destination.port });
    socket.setTimeout(TIMEOUT_MS, () => done({ ok: false, error: 'timeout' }));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done({ ok: false, error: error.code ?? error.message }),
    );
    socket.once(destination.transport === 'tls' ? 'secureConnect' : 'connect', () => {
      socket.end(payload, () => done({ ok: true }));
    });
  });
}
