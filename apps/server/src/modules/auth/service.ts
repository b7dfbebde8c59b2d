import type { FastifyBaseLogger } from 'fastify';
import {
  RATE_LIMITS,
  RESET_CODE_TTL_MINUTES,
  SESSION_TTL_SECONDS,
  translateMessage,
  type AccessRequestCreate,
  type Language,
  type MeResponse,
  type RecoverPassword,
  type ResetPassword,
  type SessionCreate,
  type SessionResponse,
  type SignedInUser,
} from '@rota/contract';
import type { Config } from '../../config/env.js';
import type { Db } from '../../db/client.js';
import { accessRequests } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { Mailer } from '../../lib/mailer.js';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import type { Actor, SessionUser } from '../../http/types.js';
import {
  consumeResetCode,
  invalidateUserCodes,
  isResetCodeUsable,
  issueResetCode,
} from './reset-code-repository.js';
import { insertSession, revokeSession, revokeUserSessions } from './session-repository.js';
import {
  findUserByEmail,
  findUserByIdentifier,
  listMemberships,
  setPassword,
  setSelectedClient,
  toClientSummary,
} from '../users/repository.js';

export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  lang: Language;
}

export interface AuthServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
  limiter: RateLimiter;
  logger: FastifyBaseLogger;
}

type UserRow = Pick<
  SessionUser,
  | 'users_id'
  | 'email'
  | 'name'
  | 'last_name'
  | 'password_change_required'
  | 'group'
  | 'rota_clients_id_selected'
>;

const tooManyRequests = () =>
  new AppError('too_many_requests', undefined, RATE_LIMITS.windowSeconds);

export class AuthService {
  /** Mails on their way; awaited at shutdown so none is dropped. */
  private readonly outbox = new Set<Promise<void>>();

  constructor(private readonly deps: AuthServiceDeps) {}

  /** The answer, and the session's key for the audit log (never answered). */
  async signIn(
    input: SessionCreate,
    meta: RequestMeta,
  ): Promise<SessionResponse & { sessionId: number }> {
    const { db, limiter } = this.deps;
    const identifier = input.access.toLowerCase();
    const user = await findUserByIdentifier(db, identifier);
    // Keyed by the account when it exists, so its access id and its email share one budget.
    const accountKey = `sign-in:account:${user ? `user-${user.users_id}` : identifier}`;
    const ipKey = `sign-in:ip:${meta.ip}`;
    const [accountFailures, ipFailures] = await Promise.all([
      limiter.count(accountKey),
      limiter.count(ipKey),
    ]);
    if (
      accountFailures >= RATE_LIMITS.signInFailuresPerAccess ||
      ipFailures >= RATE_LIMITS.signInFailuresPerIp
    ) {
      throw tooManyRequests();
    }
    const valid = await verifyPassword(
      input.password,
      user?.password_hash ?? (await decoyPasswordHash()),
    );
    if (!user || !valid) {
      await Promise.all([limiter.hit(accountKey), limiter.hit(ipKey)]);
      throw new AppError('invalid_credentials');
    }
    await limiter.reset(accountKey);

    const token = generateToken();
    const sessionId = await insertSession(db, {
      users_id: user.users_id,
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
    });
    const signedIn = await this.signedInUser(user);
    return { ...signedIn, token, sessionId };
  }

  async me(actor: Actor): Promise<MeResponse> {
    // The actor was read from the database for this very request: no need to read the user again.
    return { ...(await this.signedInUser(actor.user)), avatar: actor.user.avatar };
  }

  async signOut(actor: Actor): Promise<void> {
    await revokeSession(this.deps.db, actor.sessionId);
  }

  /**
   * Answers the same whether the email exists or not, and sends the mail without waiting for
   * it, so neither the answer nor its timing tells who has an account.
   */
  async recoverPassword(input: RecoverPassword, meta: RequestMeta): Promise<void> {
    const { db, limiter } = this.deps;
    const [perEmail, perIp] = await Promise.all([
      limiter.hit(`recover:email:${input.email}`),
      limiter.hit(`recover:ip:${meta.ip}`),
    ]);
    if (perEmail > RATE_LIMITS.recoverPerEmail || perIp > RATE_LIMITS.recoverPerIp)
      throw tooManyRequests();

    const user = await findUserByEmail(db, input.email);
    if (!user) return;
    const code = generateToken(24);
    await issueResetCode(
      db,
      user.users_id,
      hashToken(code),
      new Date(Date.now() + RESET_CODE_TTL_MINUTES * 60_000),
    );
    const link = `${this.deps.config.publicUrl}/login/change-password?code=${encodeURIComponent(code)}`;
    this.deliver({
      to: user.email,
      subject: translateMessage(meta.lang, 'mail_recover_subject'),
      text: translateMessage(meta.lang, 'mail_recover_body', { name: user.name, link, code }),
    });
  }

  async checkCode(code: string): Promise<void> {
    if (!(await isResetCodeUsable(this.deps.db, hashToken(code))))
      throw new AppError('code_invalid');
  }

  /** Single use: the code is spent in the same transaction that sets the password. */
  async resetPassword(input: ResetPassword): Promise<void> {
    const passwordHash = await hashPassword(input.password);
    await this.deps.db.transaction(async (tx) => {
      const usersId = await consumeResetCode(tx, hashToken(input.code));
      if (!usersId) throw new AppError('code_invalid');
      await setPassword(tx, usersId, passwordHash);
      await invalidateUserCodes(tx, usersId);
      await revokeUserSessions(tx, usersId);
    });
  }

  async requestAccess(input: AccessRequestCreate, meta: RequestMeta): Promise<void> {
    const perIp = await this.deps.limiter.hit(`request-access:ip:${meta.ip}`);
    if (perIp > RATE_LIMITS.recoverPerEmail) throw tooManyRequests();
    await this.deps.db.insert(accessRequests).values({
      name: input.name,
      email: input.email,
      client_name: input.client_name,
      message: input.message ?? null,
      ip: meta.ip,
    });
  }

  /** SPEC §3 signed-in user; repairs a selected client the user no longer belongs to. */
  private async signedInUser(user: UserRow): Promise<SignedInUser> {
    const { db } = this.deps;
    const usersId = user.users_id;
    const memberships = await listMemberships(db, usersId);
    let selected = memberships.find((m) => m.rota_clients_id === user.rota_clients_id_selected);
    if (!selected && (memberships[0] || user.rota_clients_id_selected !== null)) {
      selected = memberships[0];
      await setSelectedClient(db, usersId, selected?.rota_clients_id ?? null);
    }
    return {
      users_id: user.users_id,
      email: user.email,
      name: user.name,
      last_name: user.last_name,
      permissions: selected?.permissions ?? [],
      password_change_required: user.password_change_required,
      clients: memberships.map(toClientSummary),
      rota_clients_id_selected: selected?.rota_clients_id ?? null,
      group: user.group,
    };
  }

  private deliver(mail: { to: string; subject: string; text: string }) {
    const sending = this.deps.mailer
      .send(mail)
      .catch((err: unknown) =>
        this.deps.logger.error({ err, to: mail.to }, 'could not send the recovery mail'),
      )
      .finally(() => this.outbox.delete(sending));
    this.outbox.add(sending);
  }

  async drain(): Promise<void> {
    await Promise.all([...this.outbox]);
  }
}
