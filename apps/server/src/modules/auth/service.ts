import type { FastifyBaseLogger } from 'fastify';
import {
  COLOR_SCHEMES,
  LANGUAGES,
  RATE_LIMITS,
  SESSION_METHODS,
  SESSION_TTL_SECONDS,
  type AccessRequestCreate,
  type ClientSummary,
  type Language,
  type ListResponse,
  type MeResponse,
  type MfaChallengeResponse,
  type RecoverPassword,
  type ResetPassword,
  type SessionCreate,
  type SessionMethod,
  type SessionResponse,
  type SessionListQuery,
  type SignedInUser,
  type UserSession,
} from '@rota/contract';
import type { Config } from '../../config/env.js';
import type { Db } from '../../db/client.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Mailer } from '../../lib/mailer.js';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import type { Actor, SessionUser } from '../../http/types.js';
import { revokeUserApiKeys } from '../api-keys/statements.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { UserClientService } from '../user-clients/service.js';
import type { AccessRequestService } from '../users/access-request-service.js';
import type { AccountService } from '../users/account-service.js';
import { DEVICE_COOKIE_DAYS } from './device-cookie.js';
import { findDevice, insertDevice, pruneDevices, touchDevice } from './device-repository.js';
import { RecoveryOutbox } from './recovery-outbox.js';
import {
  consumeResetCode,
  invalidateUserCodes,
  isResetCodeUsable,
} from './reset-code-repository.js';
import {
  findSessionByTokenHash,
  insertSession,
  isKnownAddress,
  listUserSessions,
  revokeOwnSession,
  revokeSession,
  revokeUserSessions,
  touchSession,
} from './session-repository.js';
import { SignInThrottle, type ThrottlePolicy } from './sign-in-throttle.js';

export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  lang: Language;
  /** The device cookie's token, when the browser sent one (device-cookie.ts). */
  device?: string;
}

export interface AuthServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
  limiter: RateLimiter;
  logger: FastifyBaseLogger;
  accounts: AccountService;
  userClients: UserClientService;
  accessRequests: AccessRequestService;
  audit: AuditService;
  /** False when OIDC_LOCAL_LOGIN=false: only platform administrators sign in with a password. */
  localLogin?: boolean;
  /** The TOTP second factor: absent, every password opens a session. */
  mfa?: SecondFactorGate;
  /** Stamps sessions' last use; tests pass a FakeClock. */
  clock?: Clock;
}

/** What sign-in asks of the second factor (module mfa), without depending on its module. */
export interface SecondFactorGate {
  /** A challenge instead of a session when the user has a factor on, or must enrol one. */
  challengeFor(usersId: number, meta: RequestMeta): Promise<MfaChallengeResponse | null>;
  isEnabled(usersId: number): Promise<boolean>;
}

/** A session's last use is written at most this often. */
const TOUCH_EVERY_MS = 60_000;

const toClientSummary = (m: { rota_clients_id: number; name: string }): ClientSummary => ({
  rota_clients_id: m.rota_clients_id,
  name: m.name,
});

/** The stored console preferences, as the contract knows them (anything else reads as unset). */
function preferencesOf(user: { language?: string | null; color_scheme?: string | null }) {
  const language = LANGUAGES.find((l) => l === user.language) ?? null;
  const color_scheme = COLOR_SCHEMES.find((s) => s === user.color_scheme) ?? null;
  return { language, color_scheme };
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
  | 'language'
  | 'color_scheme'
>;

const tooManyRequests = (retryAfter: number = RATE_LIMITS.windowSeconds) =>
  new AppError('too_many_requests', undefined, retryAfter);

/** One account-and-address pair: a few free failures, then a wait that doubles. */
const PAIR_POLICY: ThrottlePolicy = {
  freeFailures: RATE_LIMITS.signInFreeFailuresPerPair,
  firstWaitSeconds: RATE_LIMITS.signInFirstWaitSeconds,
  factor: 2,
  maxSeconds: RATE_LIMITS.signInMaxWaitSeconds,
  memorySeconds: RATE_LIMITS.signInPairMemorySeconds,
};
/** The account from every address: only counted, it decides whether the slow lane applies. */
const ACCOUNT_POLICY: ThrottlePolicy = {
  freeFailures: null,
  firstWaitSeconds: 0,
  factor: 1,
  maxSeconds: 0,
  memorySeconds: RATE_LIMITS.signInAccountMemorySeconds,
};
/** The slow lane of an account under attack: one check per few seconds for unknown addresses. */
const SLOW_LANE_POLICY: ThrottlePolicy = {
  freeFailures: 1,
  firstWaitSeconds: RATE_LIMITS.signInSlowLaneSeconds,
  factor: 1,
  maxSeconds: RATE_LIMITS.signInSlowLaneSeconds,
  memorySeconds: RATE_LIMITS.signInSlowLaneSeconds,
};

export class AuthService {
  /** Recovery requests are mailed from here, after the answer. */
  readonly recoveryOutbox: RecoveryOutbox;
  private readonly throttle: SignInThrottle;
  private readonly housekeeping: NodeJS.Timeout;

  constructor(private readonly deps: AuthServiceDeps) {
    this.throttle = new SignInThrottle(deps.db);
    // Throttle rows no longer barring or remembered are dropped now and then (any instance).
    this.housekeeping = setInterval(() => void this.prune(), 10 * 60_000);
    this.housekeeping.unref();
    this.recoveryOutbox = new RecoveryOutbox({
      db: deps.db,
      accounts: deps.accounts,
      mailer: deps.mailer,
      logger: deps.logger,
      publicUrl: deps.config.publicUrl,
    });
  }

  /**
   * The answer; the session's record is written with it (its key is never answered).
   *
   * Throttles (docs/decisions.md, "Sign-in slows a guesser without locking the owner out"): every
   * attempt is counted before its password is checked, atomically, on its account-and-address
   * pair (a few free failures, then a doubling wait), on its address (100 failures a window) and
   * on its account; an account with many failures from everywhere lets addresses it has never
   * signed in from check one password every few seconds. A browser that completed a sign-in of
   * this user before (a valid device cookie) skips all of these and is counted on its own budget
   * instead, so the owner on a known browser is never slowed by anyone else's failures.
   */
  async signIn(
    input: SessionCreate,
    meta: RequestMeta,
    author: AuditAuthor,
  ): Promise<SessionResponse | MfaChallengeResponse> {
    const { db, limiter } = this.deps;
    const identifier = input.access.toLowerCase();
    const user = await this.deps.accounts.byIdentifier(identifier);
    // A browser this user completed a sign-in on (its device cookie) has a budget of its own:
    // failures from elsewhere never slow it, and its own failures are slowed like a pair's.
    const device = user ? await this.knownDevice(meta.device, user.users_id) : undefined;
    if (user && device !== undefined) {
      const deviceKey = `device:${device}`;
      const claim = await this.throttle.claim(deviceKey, PAIR_POLICY);
      if (!claim.allowed) throw tooManyRequests(claim.retryAfter);
      if (!(await verifyPassword(input.password, user.password_hash)))
        throw new AppError('invalid_credentials');
      await this.throttle.clear(deviceKey);
      return this.afterPassword(user, meta, author);
    }
    // Keyed by the account when it exists, so its access id and its email share one budget.
    const account = user ? `user-${user.users_id}` : `name-${identifier}`;
    const pairKey = `pair:${account}:${meta.ip}`;
    const accountKey = `account:${account}`;
    const ipKey = `sign-in:ip:${meta.ip}`;

    const pair = await this.throttle.claim(pairKey, PAIR_POLICY);
    if (!pair.allowed) throw tooManyRequests(pair.retryAfter);
    if ((await limiter.hit(ipKey)) > RATE_LIMITS.signInFailuresPerIp) {
      await this.throttle.release(pairKey);
      throw tooManyRequests();
    }
    const accountClaim = await this.throttle.claim(accountKey, ACCOUNT_POLICY);
    if (
      accountClaim.allowed &&
      accountClaim.failures > RATE_LIMITS.signInFailuresPerAccountBeforeSlowLane &&
      !(
        user &&
        (await isKnownAddress(db, user.users_id, meta.ip, RATE_LIMITS.signInKnownAddressDays))
      )
    ) {
      const lane = await this.throttle.claim(`slow-lane:${account}`, SLOW_LANE_POLICY);
      if (!lane.allowed) {
        await Promise.all([
          this.throttle.release(pairKey),
          this.throttle.release(accountKey),
          limiter.release(ipKey),
        ]);
        throw tooManyRequests(lane.retryAfter);
      }
    }

    const valid = await verifyPassword(
      input.password,
      user?.password_hash ?? (await decoyPasswordHash()),
    );
    if (!user || !valid) throw new AppError('invalid_credentials');
    await Promise.all([
      this.throttle.clear(pairKey),
      this.throttle.release(accountKey),
      limiter.release(ipKey),
    ]);
    return this.afterPassword(user, meta, author);
  }

  private async afterPassword(
    user: NonNullable<Awaited<ReturnType<AccountService['byIdentifier']>>>,
    meta: RequestMeta,
    author: AuditAuthor,
  ): Promise<SessionResponse | MfaChallengeResponse> {
    // OIDC_LOCAL_LOGIN=false: the provider owns sign-in; administrators keep a way in.
    if (this.deps.localLogin === false && !user.is_platform_admin)
      throw new AppError('local_login_disabled');
    // A factor on, or one a client requires: the password alone opens nothing.
    const challenge = await this.deps.mfa?.challengeFor(user.users_id, meta);
    if (challenge) return challenge;
    return this.issueSession(user, meta, author, 'password');
  }

  /** A session for a user whose second factor was just checked (module mfa). */
  async openSessionFor(
    usersId: number,
    meta: RequestMeta,
    author: AuditAuthor,
    method: SessionMethod,
  ): Promise<SessionResponse> {
    const user = await this.deps.accounts.withPassword(this.deps.db, usersId);
    if (!user) throw new AppError('mfa_challenge_expired');
    return this.issueSession(user, meta, author, method);
  }

  /**
   * Opens a session for a user whose identity is proven (password, or an OpenID Connect
   * provider): the same record, audit entry and session answer whatever the method.
   */
  async issueSession(
    user: UserRow,
    meta: RequestMeta,
    author: AuditAuthor,
    method: SessionMethod,
  ): Promise<SessionResponse> {
    const { db, audit } = this.deps;
    const signedIn = await this.signedInUser(user);
    const token = generateToken();
    await db.transaction(async (tx) => {
      const sessionId = await insertSession(tx, {
        users_id: user.users_id,
        token_hash: hashToken(token),
        expires_at: new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
        ip: meta.ip,
        user_agent: meta.userAgent?.slice(0, 500) ?? null,
        method,
      });
      await audit.write(tx, author, {
        action: 'sign_in',
        entity: 'session',
        entity_id: sessionId,
        clientId: signedIn.rota_clients_id_selected,
        user: signedIn,
      });
    });
    return { ...signedIn, token };
  }

  /**
   * The session behind a bearer token, its user, and the profile and team robots of the
   * selected client: one query a request (the auth hook builds the actor's scope from it).
   */
  sessionOf(token: string) {
    return findSessionByTokenHash(this.deps.db, hashToken(token));
  }

  /**
   * Stamps the session's last use when the stamp read with it is a minute old or missing: a
   * fresh one costs no statement; a stale one one conditional UPDATE.
   */
  async touchSession(session: { sessions_id: number; last_used_at: Date | null }) {
    const now = (this.deps.clock ?? systemClock).now();
    if (session.last_used_at && now.getTime() - session.last_used_at.getTime() < TOUCH_EVERY_MS)
      return;
    await touchSession(this.deps.db, session.sessions_id, now);
  }

  /** A page of the caller's live sessions, their own first (`current`), then newest first. */
  async listSessions(actor: Actor, query: SessionListQuery): Promise<ListResponse<UserSession>> {
    const now = (this.deps.clock ?? systemClock).now();
    const { data, meta } = await listUserSessions(
      this.deps.db,
      actor.user.users_id,
      now,
      actor.sessionId,
      query,
    );
    const sessions = data.map((row) => ({
      sessions_id: row.sessions_id,
      created_at: row.created_at.toISOString(),
      last_used_at: row.last_used_at?.toISOString() ?? null,
      expires_at: row.expires_at.toISOString(),
      ip: row.ip,
      user_agent: row.user_agent,
      method: (SESSION_METHODS as readonly string[]).includes(row.method)
        ? (row.method as SessionMethod)
        : 'password',
      current: row.sessions_id === actor.sessionId,
    }));
    return { data: sessions, meta };
  }

  /** Ends one of the caller's own sessions (another user's id reads as absent). */
  async revokeOwnSession(actor: Actor, sessionsId: number, author: AuditAuthor): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      if (!(await revokeOwnSession(tx, actor.user.users_id, sessionsId))) throw notFound();
      await this.deps.audit.write(tx, author, {
        action: 'session_revoke',
        entity: 'session',
        entity_id: sessionsId,
      });
    });
  }

  /** "Sign out everywhere else": every session of the caller but the current one. */
  async revokeOtherSessions(actor: Actor, author: AuditAuthor): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await revokeUserSessions(tx, actor.user.users_id, actor.sessionId);
      await this.deps.audit.write(tx, author, {
        action: 'session_revoke',
        entity: 'session',
        entity_id: null,
        after: { kept: actor.sessionId },
      });
    });
  }

  /** Every session of a user ends (an administrator reset their second factor), in `tx`. */
  endSessions(tx: Db, usersId: number): Promise<void> {
    return revokeUserSessions(tx, usersId);
  }

  /**
   * A password changed: every session of the user ends (but `keep`, the caller's own after a
   * self-service change), unused recovery codes stop working and every API key is revoked. Keys
   * go too because a changed password is how an owner takes an account back: whatever was made
   * with the old one must not outlive it. In the change's transaction.
   */
  async revokeCredentials(tx: Db, usersId: number, keep?: number): Promise<void> {
    await invalidateUserCodes(tx, usersId);
    await revokeUserSessions(tx, usersId, keep);
    await revokeUserApiKeys(tx, usersId);
  }

  async me(actor: Actor): Promise<MeResponse> {
    // The actor was read from the database for this very request: no need to read the user again.
    return { ...(await this.signedInUser(actor.user)), avatar: actor.user.avatar };
  }

  async signOut(actor: Actor, author: AuditAuthor): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await revokeSession(tx, actor.sessionId);
      await this.deps.audit.write(tx, author, {
        action: 'sign_out',
        entity: 'session',
        entity_id: actor.sessionId,
      });
    });
  }

  /**
   * Answers the same whether the email exists or not, after the same work: two counters and one
   * outbox row, never a look-up of the email. The outbox finds the user and mails the code after
   * the answer (otherwise an unknown email is answered measurably faster).
   */
  async recoverPassword(input: RecoverPassword, meta: RequestMeta): Promise<void> {
    const { limiter } = this.deps;
    const [perEmail, perIp] = await Promise.all([
      limiter.hit(`recover:email:${input.email}`),
      limiter.hit(`recover:ip:${meta.ip}`),
    ]);
    if (perEmail > RATE_LIMITS.recoverPerEmail || perIp > RATE_LIMITS.recoverPerIp)
      throw tooManyRequests();
    // The route kicks the outbox once the answer is sent: on PGlite (one in-process connection)
    // its queries would otherwise run before the answer leaves and delay a known email's answer.
    await this.recoveryOutbox.enqueue(input.email, meta.lang);
  }

  /**
   * Wrong codes are counted per address (check-code and reset-password together), before the
   * code is looked at, so concurrent guesses cannot overrun the budget; a right one is given back.
   */
  async checkCode(code: string, meta: Pick<RequestMeta, 'ip'>): Promise<void> {
    const key = await this.claimCodeAttempt(meta.ip);
    if (!(await isResetCodeUsable(this.deps.db, hashToken(code))))
      throw new AppError('code_invalid');
    await this.deps.limiter.release(key);
  }

  /**
   * Single use: the code is spent in the same transaction that sets the password, and that
   * writes its record (who, never the code or the password) in the user's selected client.
   */
  async resetPassword(
    input: ResetPassword,
    meta: Pick<RequestMeta, 'ip'>,
    author: AuditAuthor,
  ): Promise<void> {
    const { accounts, audit } = this.deps;
    const key = await this.claimCodeAttempt(meta.ip);
    const passwordHash = await hashPassword(input.password);
    await this.deps.db.transaction(async (tx) => {
      const usersId = await consumeResetCode(tx, hashToken(input.code));
      if (!usersId) throw new AppError('code_invalid');
      await accounts.setPassword(tx, usersId, passwordHash);
      await this.revokeCredentials(tx, usersId);
      const user = await accounts.withPassword(tx, usersId);
      await audit.write(tx, author, {
        action: 'password_change',
        entity: 'user',
        entity_id: usersId,
        clientId: user?.rota_clients_id_selected ?? null,
        ...(user
          ? { user: { users_id: usersId, name: user.name, last_name: user.last_name } }
          : {}),
      });
    });
    await this.deps.limiter.release(key);
  }

  private async claimCodeAttempt(ip: string): Promise<string> {
    const key = `reset-code:ip:${ip}`;
    if ((await this.deps.limiter.hit(key)) > RATE_LIMITS.resetCodeFailuresPerIp)
      throw tooManyRequests();
    return key;
  }

  async requestAccess(input: AccessRequestCreate, meta: RequestMeta): Promise<void> {
    const perIp = await this.deps.limiter.hit(`request-access:ip:${meta.ip}`);
    if (perIp > RATE_LIMITS.recoverPerEmail) throw tooManyRequests();
    await this.deps.accessRequests.create(input, meta.ip);
  }

  /** The signed-in user; repairs a selected client the user no longer belongs to. */
  private async signedInUser(user: UserRow): Promise<SignedInUser> {
    const { accounts, userClients } = this.deps;
    const usersId = user.users_id;
    // The second factor's flag is read beside the memberships, not after them.
    const mfaEnabled = this.deps.mfa?.isEnabled(usersId);
    mfaEnabled?.catch(() => undefined);
    const memberships = await userClients.listMemberships(usersId);
    let selected = memberships.find((m) => m.rota_clients_id === user.rota_clients_id_selected);
    if (!selected && (memberships[0] || user.rota_clients_id_selected !== null)) {
      selected = memberships[0];
      await accounts.setSelectedClient(usersId, selected?.rota_clients_id ?? null);
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
      ...preferencesOf(user),
      ...(mfaEnabled ? { mfa_enabled: await mfaEnabled } : {}),
    };
  }

  /**
   * The id of the device behind a cookie's token, when it is this user's and was used within
   * DEVICE_COOKIE_DAYS; otherwise undefined (an unknown, foreign or stale cookie counts as none).
   */
  async knownDevice(token: string | undefined, usersId: number): Promise<number | undefined> {
    if (!token) return undefined;
    const since = new Date(this.now().getTime() - DEVICE_COOKIE_DAYS * 86_400_000);
    return findDevice(this.deps.db, hashToken(token), usersId, since);
  }

  /**
   * After a completed sign-in: the browser's device token, the one it sent (its use stamped) or
   * a new one. Only the hash is stored.
   */
  async rememberDevice(usersId: number, token: string | undefined): Promise<string> {
    const now = this.now();
    const known = await this.knownDevice(token, usersId);
    if (token && known !== undefined) {
      await touchDevice(this.deps.db, known, now);
      return token;
    }
    const fresh = generateToken();
    await insertDevice(this.deps.db, usersId, hashToken(fresh), now);
    return fresh;
  }

  /** The budget a second-factor code is counted on: its known device's, else its address's. */
  async mfaAttemptKey(usersId: number, meta: RequestMeta): Promise<string> {
    const device = await this.knownDevice(meta.device, usersId);
    return device === undefined ? `mfa:ip:${meta.ip}` : `mfa:device:${device}`;
  }

  private now(): Date {
    return (this.deps.clock ?? systemClock).now();
  }

  /** Drops devices unused for DEVICE_COOKIE_DAYS and throttle rows no longer barring or remembered. */
  async prune(): Promise<void> {
    try {
      await pruneDevices(
        this.deps.db,
        new Date(this.now().getTime() - DEVICE_COOKIE_DAYS * 86_400_000),
      );
      await this.throttle.prune(
        Math.max(RATE_LIMITS.signInPairMemorySeconds, RATE_LIMITS.signInAccountMemorySeconds),
      );
      await this.deps.limiter.prune();
    } catch (err) {
      this.deps.logger.warn({ err }, 'could not prune the sign-in throttles');
    }
  }

  /** Stops the outbox and waits for the mail being sent (shutdown). */
  async drain(): Promise<void> {
    clearInterval(this.housekeeping);
    await this.recoveryOutbox.close();
  }
}
