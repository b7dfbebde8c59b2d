import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createMailer } from '../src/lib/mailer.js';

let server: SMTPServer;
let port = 0;
const received: string[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        received.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('mailer', () => {
  it('delivers through SMTP_URL', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Rota <rota@test>',
      logger: pino({ level: 'silent' }),
    });
    await mailer.send({
      to: 'ana@example.com',
      subject: 'Hello',
      text: 'Link: http://x/login/change-password?code=abc',
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('To: ana@example.com');
    expect(received[0]).toContain('Subject: Hello');
    expect(received[0]).toContain('change-password?code=abc');
  });

  it('writes the whole mail to the log without SMTP_URL', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    await createMailer({ smtpUrl: undefined, from: 'Rota <rota@test>', logger }).send({
      to: 'ana@example.com',
      subject: 'Hello',
      text: 'Link: http://x/login/change-password?code=abc',
    });
    const entry = JSON.parse(lines[0]!);
    expect(entry.mail).toMatchObject({ to: 'ana@example.com', subject: 'Hello' });
    expect(entry.msg).toContain('http://x/login/change-password?code=abc');
  });

  it('prints a recovery link as one readable line without SMTP_URL', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const url = 'http://x/login/change-password?code=abc';
    await createMailer({ smtpUrl: undefined, from: 'Rota <rota@test>', logger }).send({
      to: 'ana@example.com',
      subject: 'Recuperação de senha',
      text: `Olá Ana,\n\nLink: ${url}\n`,
      link: { what: 'Password recovery', url },
    });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry.msg).toBe(`Password recovery for ana@example.com: ${url}`);
    expect(entry.link).toBe(url);
    expect(entry.to).toBe('ana@example.com');
    // No mail blob: nothing JSON-escaped around the link.
    expect(entry.mail).toBeUndefined();
    expect(lines[0]).not.toContain('\\n');
  });
});
