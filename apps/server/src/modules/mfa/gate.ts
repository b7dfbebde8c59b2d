import { MFA_CHALLENGE_TTL_SECONDS, type MfaChallengeResponse } from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import type { RequestMeta, SecondFactorGate } from '../auth/service.js';
import { insertChallenge, isEnabledFor, isRequiredFor, pruneChallenges } from './repository.js';

const DAY_MS = 24 * 60 * 60_000;

/**
 * What a password sign-in asks of the second factor: whether the user has one, and the
 * challenge that stands in for the session when they have one on or a client requires it.
 * Apart from the rest of the factor (enrolment, verification, reset), which opens and ends
 * sessions through module auth: auth depends on the gate, the factor on auth, and nothing on
 * something built after it.
 */
export class MfaGate implements SecondFactorGate {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  isEnabled(usersId: number): Promise<boolean> {
    return isEnabledFor(this.deps.db, usersId);
  }

  /** After a right password: a challenge when a factor is on or a client requires one. */
  async challengeFor(usersId: number, meta: RequestMeta): Promise<MfaChallengeResponse | null> {
    const { db, clock } = this.deps;
    const enabled = await isEnabledFor(db, usersId);
    if (!enabled && !(await isRequiredFor(db, usersId))) return null;
    const now = clock.now();
    const challenge = generateToken();
    await pruneChallenges(db, new Date(now.getTime() - DAY_MS));
    await insertChallenge(db, {
      users_id: usersId,
      challenge_hash: hashToken(challenge),
      expires_at: new Date(now.getTime() + MFA_CHALLENGE_TTL_SECONDS * 1000),
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
    });
    return {
      mfa_required: true,
      challenge,
      enrolment_required: !enabled,
      expires_in: MFA_CHALLENGE_TTL_SECONDS,
    };
  }
}
