import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /**
   * The one link the mail is for (a recovery link). Without SMTP it is all an operator needs:
   * logged as one readable line (`what for to: url`) and as its own `link` field.
   */
  link?: { what: string; url: string };
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP_URL set: real delivery through nodemailer. Unset: the mail goes to the log (its link
 * alone when it has one, else the whole mail).
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  logger: FastifyBaseLogger;
}): Mailer {
  const { smtpUrl, from, logger } = options;
  if (!smtpUrl) {
    return {
      send(mail) {
        if (mail.link) {
          // No multi-line text in the message: pino would JSON-escape it into one long blob.
          logger.info(
            { to: mail.to, link: mail.link.url },
            `${mail.link.what} for ${mail.to}: ${mail.link.url}`,
          );
          return Promise.resolve();
        }
        logger.info(
          { mail: { from, ...mail } },
          `Mail not sent (SMTP_URL is not set):\n${mail.text}`,
        );
        return Promise.resolve();
      },
    };
  }
  // Loaded at the first mail: most servers send none for days, and nodemailer is ~2 MB of heap
  // held for the process's life, in a server meant to hold 20,000 agents' connections.
  let transport: Promise<Transporter> | null = null;
  return {
    async send(mail) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport(smtpUrl),
      );
      await (await transport).sendMail({ from, ...mail });
    },
  };
}
