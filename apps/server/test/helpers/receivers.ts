import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One request a receiver got: headers and the exact bytes of the body. */
export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  json: any;
}

/**
 * A real HTTP receiver on loopback (a webhook, Slack or Teams endpoint): records every request
 * and answers each with the next status of `statuses` (the last one repeats).
 */
export async function startHttpReceiver(statuses: number[] = [200], port = 0) {
  const received: Received[] = [];
  const answers = [...statuses];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(raw);
      } catch {
        json = null;
      }
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        raw,
        json,
      });
      const status = answers.length > 1 ? answers.shift()! : answers[0]!;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    received,
    port: bound,
    url: `http://127.0.0.1:${bound}/hook`,
    /** Answers `statuses` from now on. */
    answer(next: number[]) {
      answers.splice(0, answers.length, ...next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type HttpReceiver = Awaited<ReturnType<typeof startHttpReceiver>>;

/** A mail as an SMTP server received it, headers unfolded and the text decoded. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  raw: string;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=` / `?B?`), as nodemailer writes a UTF-8 subject. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_m, _charset: string, enc: string, text: string) =>
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64').toString('utf8')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (_x, h: string) =>
                  String.fromCharCode(parseInt(h, 16)),
                ),
              'latin1',
            ).toString('utf8'),
    );
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Parses the single-part text mail nodemailer sends (enough for these tests). */
export function parseMail(raw: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) =>
    new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  return {
    to: header('To'),
    subject: decodeWords(header('Subject')),
    text: decodeBody(body, header('Content-Transfer-Encoding').toLowerCase()).replace(
      /\r\n/g,
      '\n',
    ),
    raw,
  };
}

/** A real SMTP server on loopback (no TLS, no auth): what it receives, parsed. */
export async function startSmtpServer() {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
      stream.on('end', () => {
        mails.push(parseMail(data));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    mails,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
