import type { Mail, Mailer } from '../../src/lib/mailer.js';

/** Collects what the server mails, for tests to read the links in. */
export class Mailbox implements Mailer {
  readonly mails: Mail[] = [];

  send(mail: Mail): Promise<void> {
    this.mails.push(mail);
    return Promise.resolve();
  }

  async waitFor(to: string, timeoutMs = 5000): Promise<Mail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.findLast((m) => m.to === to);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

export function codeFromMail(mail: Mail): string {
  const match = /\/login\/change-password\?code=([\w%-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No recovery link in: ${mail.text}`);
  return decodeURIComponent(match[1]);
}
