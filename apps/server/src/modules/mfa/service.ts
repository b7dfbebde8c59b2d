import {
  MFA_CHALLENGE_MAX_FAILURES,
  RATE_LIMITS,
  type MfaEnrolment,
  type MfaEnrolSessionResponse,
  type MfaRecoveryCodes,
  type MfaStatus,
  type MfaVerify,
  type SessionMethod,
  type SessionResponse,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../http/types.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { hashToken } from '../../lib/tokens.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { AuthService, RequestMeta } from '../auth/service.js';
import type { AccountService } from '../users/account-service.js';
import {
  claimStep,
  countRecoveryCodesLeft,
  deleteFactor,
  failChallenge,
  findFactor,
  findLiveChallenge,
  isEnabledFor,
  isMemberOf,
  isRequiredFor,
  replaceRecoveryCodes,
  savePendingFactor,
  spendChallenge,
  useRecoveryCode,
} from './repository.js';
import {
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  qrCodeOf,
  readCode,
} from './totp.js';

export interface MfaServiceDeps {
  db: Db;
  secretBox: SecretBox;
  clock: Clock;
  limiter: RateLimiter;
  audit: AuditService;
  accounts: AccountService;
  /** Sessions belong to module auth (which asks the gate, not this service, at sign-in). */
  sessions: Pick<AuthService, 'openSessionFor' | 'endSessions' | 'mfaAttemptKey'>;
}

const invalidCode = () =>
  new AppError('invalid_mfa_code', [{ field: 'code', message: 'invalid_mfa_code' }]);
const challengeExpired = () => new AppError('mfa_challenge_expired');

/**
 * The TOTP second factor of local accounts: enrolment, sign-in challenges, recovery
 * codes and an administrator's reset. Secrets are sealed at rest; challenges and recovery codes
 * are kept as SHA-256 only. Every "once" (a time step, a recovery code, a challenge) is a
 * conditional UPDATE, so concurrent attempts get one success.
 */
export class MfaService {
  constructor(private readonly deps: MfaServiceDeps) {}

  /* ---------- Sign-in (public: the challenge authenticates) ---------- */

  /** Completes a challenge with a TOTP or recovery code: the session a password sign-in answers. */
  async verify(input: MfaVerify, meta: RequestMeta, author: AuditAuthor): Promise<SessionResponse> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const challenge = await findLiveChallenge(db, hashToken(input.challenge), now);
    if (!challenge) {
      // Guessed challenges are counted on the address, like codes without a known device.
      await this.claimAttempt(`mfa:ip:${meta.ip}`);
      throw challengeExpired();
    }
    const usersId = challenge.users_id;
    // The owner's known browser has its own budget: codes guessed elsewhere do not lock it out.
    const key = await this.claimAttempt(await this.deps.sessions.mfaAttemptKey(usersId, meta));
    const code = readCode(input.code);
    const factor = await findFactor(db, usersId);
    const enabled = Boolean(factor?.enabled_at);
    const step =
      enabled && code?.kind === 'totp'
        ? await matchingStep(this.open(factor!.secret_sealed), code.value, now, factor!.last_step)
        : null;
    const method = await this.spendOrCount(
      challenge.mfa_challenges_id,
      now,
      async (tx): Promise<SessionMethod> => {
        if (step !== null && (await claimStep(tx, usersId, step, { enable: false, now })))
          return 'password_totp';
        if (
          enabled &&
          code?.kind === 'recovery' &&
          (await useRecoveryCode(tx, usersId, hashToken(code.value), now))
        )
          return 'recovery_code';
        throw invalidCode();
      },
    );
    await this.deps.limiter.release(key);
    return this.deps.sessions.openSessionFor(usersId, meta, author, method);
  }

  /** Enrolment during sign-in (a client requires a factor the user has not set up). */
  async signInEnrolStart(challengeToken: string): Promise<MfaEnrolment> {
    const { db, clock } = this.deps;
    const challenge = await findLiveChallenge(db, hashToken(challengeToken), clock.now());
    if (!challenge) throw challengeExpired();
    const account = await this.deps.accounts.find(db, challenge.users_id);
    if (!account) throw challengeExpired();
    return this.startEnrolment(account.users_id, account.email);
  }

  /** The first code turns the factor on and opens the session, with the recovery codes. */
  async signInEnrolConfirm(
    input: MfaVerify,
    meta: RequestMeta,
    author: AuditAuthor,
  ): Promise<MfaEnrolSessionResponse> {
    const { db, clock, audit } = this.deps;
    const key = await this.claimAttempt(`mfa:ip:${meta.ip}`);
    const now = clock.now();
    const challenge = await findLiveChallenge(db, hashToken(input.challenge), now);
    if (!challenge) throw challengeExpired();
    const usersId = challenge.users_id;
    const [factor, account] = [
      await findFactor(db, usersId),
      await this.deps.accounts.withPassword(db, usersId),
    ];
    if (!factor || !account) throw new AppError('mfa_not_enabled');
    if (factor.enabled_at) throw new AppError('mfa_already_enabled');
    const step = await this.pendingStep(factor, input.code, now);
    const codes = newRecoveryCodes();
    await this.spendOrCount(challenge.mfa_challenges_id, now, async (tx) => {
      if (step === null || !(await claimStep(tx, usersId, step, { enable: true, now })))
        throw invalidCode();
      await replaceRecoveryCodes(tx, usersId, codes.normalized.map(hashToken));
      await audit.write(tx, author, {
        action: 'mfa_enable',
        entity: 'user',
        entity_id: usersId,
        clientId: account.rota_clients_id_selected,
        user: { users_id: usersId, name: account.name, last_name: account.last_name },
      });
    });
    await this.deps.limiter.release(key);
    const session = await this.deps.sessions.openSessionFor(usersId, meta, author, 'password_totp');
    return { ...session, recovery_codes: codes.shown };
  }

  /* ---------- Signed in (a session, never an API key) ---------- */

  async status(actor: Actor): Promise<MfaStatus> {
    const { db } = this.deps;
    const usersId = actor.user.users_id;
    const factor = await findFactor(db, usersId);
    const enabled = Boolean(factor?.enabled_at);
    return {
      enabled,
      enabled_at: enabled ? factor!.enabled_at!.toISOString() : null,
      recovery_codes_left: enabled ? await countRecoveryCodesLeft(db, usersId) : 0,
      required: await isRequiredFor(db, usersId),
    };
  }

  enrolStart(actor: Actor): Promise<MfaEnrolment> {
    return this.startEnrolment(actor.user.users_id, actor.user.email);
  }

  async enrolConfirm(actor: Actor, code: string, author: AuditAuthor): Promise<MfaRecoveryCodes> {
    const { db, clock, audit } = this.deps;
    const usersId = actor.user.users_id;
    const key = await this.claimAttempt(`mfa:user:${usersId}`);
    const now = clock.now();
    const factor = await findFactor(db, usersId);
    if (!factor) throw new AppError('mfa_not_enabled');
    if (factor.enabled_at) throw new AppError('mfa_already_enabled');
    const step = await this.pendingStep(factor, code, now);
    const codes = newRecoveryCodes();
    await db.transaction(async (tx) => {
      if (step === null || !(await claimStep(tx, usersId, step, { enable: true, now })))
        throw invalidCode();
      await replaceRecoveryCodes(tx, usersId, codes.normalized.map(hashToken));
      await audit.write(tx, author, { action: 'mfa_enable', entity: 'user', entity_id: usersId });
    });
    await this.deps.limiter.release(key);
    return { recovery_codes: codes.shown };
  }

  /** New recovery codes for a current code; the old ones stop working. */
  async regenerateRecoveryCodes(
    actor: Actor,
    code: string,
    author: AuditAuthor,
  ): Promise<MfaRecoveryCodes> {
    const usersId = actor.user.users_id;
    const codes = newRecoveryCodes();
    await this.withCurrentCode(usersId, code, async (tx) => {
      await replaceRecoveryCodes(tx, usersId, codes.normalized.map(hashToken));
      await this.deps.audit.write(tx, author, {
        action: 'mfa_recovery_codes',
        entity: 'user',
        entity_id: usersId,
      });
    });
    return { recovery_codes: codes.shown };
  }

  /** Turns the factor off for a current code, unless a client of the user requires it. */
  async disable(actor: Actor, code: string, author: AuditAuthor): Promise<void> {
    const usersId = actor.user.users_id;
    if (await isRequiredFor(this.deps.db, usersId)) throw new AppError('mfa_setup_required');
    await this.withCurrentCode(usersId, code, async (tx) => {
      await deleteFactor(tx, usersId);
      await this.deps.audit.write(tx, author, {
        action: 'mfa_disable',
        entity: 'user',
        entity_id: usersId,
      });
    });
  }

  /**
   * An administrator (USUARIOS.UPDATE in the selected client) resets a member's factor: it
   * goes, and so do the member's sessions; the member enrols again if a client requires it.
   */
  async reset(actor: Actor, usersId: number, author: AuditAuthor): Promise<void> {
    const { db, audit } = this.deps;
    if (!actor.scope) throw forbidden();
    const clientId = actor.scope.clientId;
    await db.transaction(async (tx) => {
      if (!(await isMemberOf(tx, usersId, clientId))) throw notFound();
      const had = await deleteFactor(tx, usersId);
      await this.deps.sessions.endSessions(tx, usersId);
      await audit.write(tx, author, {
        action: 'mfa_reset',
        entity: 'user',
        entity_id: usersId,
        before: { mfa_enabled: had },
        after: { mfa_enabled: false },
      });
    });
  }

  /* ---------- Internals ---------- */

  private async startEnrolment(usersId: number, email: string): Promise<MfaEnrolment> {
    if (await isEnabledFor(this.deps.db, usersId)) throw new AppError('mfa_already_enabled');
    const secret = await newTotpSecret();
    const saved = await savePendingFactor(this.deps.db, usersId, this.deps.secretBox.seal(secret));
    if (!saved) throw new AppError('mfa_already_enabled');
    const url = await otpauthUrl(secret, email);
    return { secret, otpauth_url: url, qr_code: await qrCodeOf(url) };
  }

  /** The step a code matches on a factor still waiting for its first code. */
  private async pendingStep(
    factor: { secret_sealed: string; last_step: number | null },
    input: string,
    now: Date,
  ): Promise<number | null> {
    const code = readCode(input);
    if (code?.kind !== 'totp') return null;
    return matchingStep(this.open(factor.secret_sealed), code.value, now, factor.last_step);
  }

  /**
   * Runs `change` once a current TOTP or unused recovery code of the user is accepted, in the
   * transaction that spends the code. Wrong codes count towards the user's limit.
   */
  private async withCurrentCode(
    usersId: number,
    input: string,
    change: (tx: Db) => Promise<void>,
  ): Promise<void> {
    const { db, clock } = this.deps;
    const key = await this.claimAttempt(`mfa:user:${usersId}`);
    const now = clock.now();
    const factor = await findFactor(db, usersId);
    if (!factor?.enabled_at) throw new AppError('mfa_not_enabled');
    const code = readCode(input);
    const step =
      code?.kind === 'totp'
        ? await matchingStep(this.open(factor.secret_sealed), code.value, now, factor.last_step)
        : null;
    await db.transaction(async (tx) => {
      const accepted =
        step !== null
          ? await claimStep(tx, usersId, step, { enable: false, now })
          : code?.kind === 'recovery' &&
            (await useRecoveryCode(tx, usersId, hashToken(code.value), now));
      if (!accepted) throw invalidCode();
      await change(tx);
    });
    await this.deps.limiter.release(key);
  }

  /**
   * Spends the challenge and runs `accept` in one transaction: a wrong code rolls the spending
   * back and counts a failure instead (the failure that reaches the maximum spends it).
   */
  private async spendOrCount<T>(
    challengeId: number,
    now: Date,
    accept: (tx: Db) => Promise<T>,
  ): Promise<T> {
    const { db } = this.deps;
    try {
      return await db.transaction(async (tx) => {
        if (!(await spendChallenge(tx, challengeId, now))) throw challengeExpired();
        return accept(tx);
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'invalid_mfa_code')
        await failChallenge(db, challengeId, MFA_CHALLENGE_MAX_FAILURES, now);
      throw err;
    }
  }

  /** Counted before the code is looked at; a right code gives it back. */
  private async claimAttempt(key: string): Promise<string> {
    if ((await this.deps.limiter.hit(key)) > RATE_LIMITS.mfaFailuresPerIp)
      throw new AppError('too_many_requests', undefined, RATE_LIMITS.windowSeconds);
    return key;
  }

  private open(sealed: string): string {
    return this.deps.secretBox.open(sealed);
  }
}
