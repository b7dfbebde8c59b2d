import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { hotStatement } from '../../lib/sql-rows.js';
import { mfaChallenges, userMfa, userMfaRecoveryCodes } from '../../db/schema/mfa.js';
import { clientMfaPolicies } from '../clients/views.js';
import { memberships } from '../user-clients/views.js';

/** Whether a client the user belongs to requires a second factor. */
export async function isRequiredFor(db: Db, usersId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: memberships.user_clients_id })
    .from(memberships)
    .innerJoin(
      clientMfaPolicies,
      eq(clientMfaPolicies.rota_clients_id, memberships.rota_clients_id),
    )
    .where(and(eq(memberships.users_id, usersId), eq(clientMfaPolicies.require_mfa, true)))
    .limit(1);
  return Boolean(row);
}

/** Whether the user's factor is on (confirmed by a first code). */
/** `me` and every sign-in ask it: rendered once and prepared (see hotStatement). */
const enabledStatement = hotStatement<{ id: number }>('rota_mfa_enabled', () =>
  new QueryBuilder()
    .select({ id: userMfa.users_id })
    .from(userMfa)
    .where(and(eq(userMfa.users_id, sql.placeholder('user')), isNotNull(userMfa.enabled_at)))
    .getSQL(),
);

export async function isEnabledFor(db: Db, usersId: number): Promise<boolean> {
  const [row] = await enabledStatement(db, { user: usersId });
  return Boolean(row);
}

export async function findFactor(db: Db, usersId: number) {
  const [row] = await db.select().from(userMfa).where(eq(userMfa.users_id, usersId));
  return row;
}

/**
 * A new secret waiting for its first code, replacing a pending one; undefined when a factor is
 * already on (the statement does not touch it).
 */
export async function savePendingFactor(db: Db, usersId: number, secretSealed: string) {
  const [row] = await db
    .insert(userMfa)
    .values({ users_id: usersId, secret_sealed: secretSealed })
    .onConflictDoUpdate({
      target: userMfa.users_id,
      set: { secret_sealed: secretSealed, last_step: null, created_at: sql`now()` },
      setWhere: isNull(userMfa.enabled_at),
    })
    .returning({ users_id: userMfa.users_id });
  return row;
}

/**
 * Accepts a TOTP time step once: later than the last accepted one, atomically, so a replayed
 * or concurrently reused code loses. `enable` turns a pending factor on with its first code.
 */
export async function claimStep(
  db: Db,
  usersId: number,
  step: number,
  options: { enable: boolean; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(userMfa)
    .set({ last_step: step, ...(options.enable ? { enabled_at: options.now } : {}) })
    .where(
      and(
        eq(userMfa.users_id, usersId),
        options.enable ? isNull(userMfa.enabled_at) : isNotNull(userMfa.enabled_at),
        or(isNull(userMfa.last_step), lt(userMfa.last_step, step)),
      ),
    )
    .returning({ users_id: userMfa.users_id });
  return rows.length > 0;
}

/** The factor and its recovery codes go (disable, administrator reset). */
export async function deleteFactor(db: Db, usersId: number): Promise<boolean> {
  await db.delete(userMfaRecoveryCodes).where(eq(userMfaRecoveryCodes.users_id, usersId));
  const rows = await db
    .delete(userMfa)
    .where(eq(userMfa.users_id, usersId))
    .returning({ users_id: userMfa.users_id });
  return rows.length > 0;
}

/** The user's recovery codes become these (hashes); the old ones stop working. */
export async function replaceRecoveryCodes(db: Db, usersId: number, hashes: string[]) {
  await db.delete(userMfaRecoveryCodes).where(eq(userMfaRecoveryCodes.users_id, usersId));
  await db
    .insert(userMfaRecoveryCodes)
    .values(hashes.map((code_hash) => ({ users_id: usersId, code_hash })));
}

/** Spends a recovery code: of two concurrent uses exactly one gets true. */
export async function useRecoveryCode(
  db: Db,
  usersId: number,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(userMfaRecoveryCodes)
    .set({ used_at: now })
    .where(
      and(
        eq(userMfaRecoveryCodes.users_id, usersId),
        eq(userMfaRecoveryCodes.code_hash, codeHash),
        isNull(userMfaRecoveryCodes.used_at),
      ),
    )
    .returning({ id: userMfaRecoveryCodes.user_mfa_recovery_codes_id });
  return rows.length > 0;
}

export async function countRecoveryCodesLeft(db: Db, usersId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(userMfaRecoveryCodes)
    .where(and(eq(userMfaRecoveryCodes.users_id, usersId), isNull(userMfaRecoveryCodes.used_at)));
  return Number(row?.n ?? 0);
}

/* ---------- Sign-in challenges ---------- */

export async function insertChallenge(
  db: Db,
  values: {
    users_id: number;
    challenge_hash: string;
    expires_at: Date;
    ip: string | null;
    user_agent: string | null;
  },
) {
  await db.insert(mfaChallenges).values(values);
}

/** A challenge still usable at `now`: not spent, not expired. */
export async function findLiveChallenge(db: Db, challengeHash: string, now: Date) {
  const [row] = await db
    .select({
      mfa_challenges_id: mfaChallenges.mfa_challenges_id,
      users_id: mfaChallenges.users_id,
    })
    .from(mfaChallenges)
    .where(
      and(
        eq(mfaChallenges.challenge_hash, challengeHash),
        isNull(mfaChallenges.used_at),
        gt(mfaChallenges.expires_at, now),
      ),
    );
  return row;
}

/** Counts a wrong code in one statement; the failure that reaches `max` spends the challenge. */
export async function failChallenge(db: Db, id: number, max: number, now: Date) {
  await db
    .update(mfaChallenges)
    .set({
      failures: sql`${mfaChallenges.failures} + 1`,
      used_at: sql`case when ${mfaChallenges.failures} + 1 >= ${max} then ${now.toISOString()}::timestamptz else null end`,
    })
    .where(and(eq(mfaChallenges.mfa_challenges_id, id), isNull(mfaChallenges.used_at)));
}

/** Spends a challenge on success: of two concurrent successes exactly one gets true. */
export async function spendChallenge(db: Db, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(mfaChallenges)
    .set({ used_at: now })
    .where(
      and(
        eq(mfaChallenges.mfa_challenges_id, id),
        isNull(mfaChallenges.used_at),
        gt(mfaChallenges.expires_at, now),
      ),
    )
    .returning({ id: mfaChallenges.mfa_challenges_id });
  return rows.length > 0;
}

/** Challenges over a day past their end go (retention-free housekeeping at each new one). */
export async function pruneChallenges(db: Db, before: Date) {
  await db.delete(mfaChallenges).where(lt(mfaChallenges.expires_at, before));
}

/** Whether the user belongs to the client (an administrator resets members only). */
export async function isMemberOf(db: Db, usersId: number, clientId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: memberships.user_clients_id })
    .from(memberships)
    .where(and(eq(memberships.users_id, usersId), eq(memberships.rota_clients_id, clientId)))
    .limit(1);
  return Boolean(row);
}
