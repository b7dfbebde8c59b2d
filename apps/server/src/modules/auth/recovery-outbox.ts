import type { FastifyBaseLogger } from 'fastify';
import { RESET_CODE_TTL_MINUTES, translateMessage, type Language } from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Mailer } from '../../lib/mailer.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import type { AccountService } from '../users/account-service.js';
import {
  deleteOutboxRow,
  insertOutboxRow,
  takeOutboxRow,
  type OutboxRow,
} from './recovery-outbox-repository.js';
import { issueResetCode } from './reset-code-repository.js';

/** Tries per request before it is given up (logged); the lease doubles after each. */
const MAX_ATTEMPTS = 5;
const FIRST_LEASE_SECONDS = 60;

export interface RecoveryOutboxDeps {
  db: Db;
  accounts: AccountService;
  mailer: Mailer;
  logger: FastifyBaseLogger;
  publicUrl: string;
  /** How often leftovers (another instance crashed, a send failed) are looked for. */
  pollMs?: number;
}

/**
 * Recovery requests, mailed off the request path. The request only adds a row, the
 * same row for every email, so its work and time say nothing about who has an account; looking
 * the user up, issuing the code and sending the mail happen here, after the answer. Rows are
 * durable: one left by a crashed instance, or whose mail failed, is taken again by any instance
 * once its lease (`next_attempt_at`) passes.
 */
export class RecoveryOutbox {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly deps: RecoveryOutboxDeps) {
    this.timer = setInterval(() => this.kick(), deps.pollMs ?? 30_000);
    this.timer.unref();
  }

  async enqueue(email: string, lang: Language): Promise<void> {
    await insertOutboxRow(this.deps.db, email, lang);
  }

  /** Works through what is due, in the background; a kick while working runs one more pass. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.work().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Stops taking rows (tests hold the outbox to look at it; shutdown) and waits for the pass. */
  async pause(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  resume(): void {
    this.stopped = false;
    this.kick();
  }

  /** Waits until nothing is being worked on (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.pause();
  }

  private async work(): Promise<void> {
    try {
      while (!this.stopped) {
        const row = await this.take();
        if (!row) return;
        await this.deliver(row);
      }
    } catch (err) {
      this.deps.logger.error({ err }, 'the recovery outbox could not be worked through');
    }
  }

  /** Leases the oldest due row; SKIP LOCKED, so instances never take the same one. */
  private take(): Promise<OutboxRow | undefined> {
    return takeOutboxRow(this.deps.db, FIRST_LEASE_SECONDS);
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { db, accounts, mailer, logger, publicUrl } = this.deps;
    try {
      const user = await accounts.byEmail(row.email);
      if (user) {
        const code = generateToken(24);
        await issueResetCode(
          db,
          user.users_id,
          hashToken(code),
          new Date(Date.now() + RESET_CODE_TTL_MINUTES * 60_000),
        );
        const lang = row.lang as Language;
        const link = `${publicUrl}/login/change-password?code=${encodeURIComponent(code)}`;
        await mailer.send({
          to: user.email,
          subject: translateMessage(lang, 'mail_recover_subject'),
          text: translateMessage(lang, 'mail_recover_body', { name: user.name, link, code }),
          link: { what: 'Password recovery', url: link },
        });
      }
      await this.remove(row);
    } catch (err) {
      if (row.attempts >= MAX_ATTEMPTS) {
        logger.error({ err, to: row.email }, 'gave up sending a recovery mail');
        await this.remove(row);
      } else {
        logger.warn({ err, to: row.email }, 'could not send a recovery mail; it will be retried');
      }
    }
  }

  private remove(row: OutboxRow): Promise<void> {
    return deleteOutboxRow(this.deps.db, row.recovery_outbox_id);
  }
}
