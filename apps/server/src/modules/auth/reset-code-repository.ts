import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { passwordResetCodes } from '../../db/schema/auth.js';

const usable = (codeHash: string) =>
  and(
    eq(passwordResetCodes.code_hash, codeHash),
    isNull(passwordResetCodes.used_at),
    gt(passwordResetCodes.expires_at, sql`now()`),
  );

/** A new code replaces any the user had not used yet. */
export async function issueResetCode(db: Db, usersId: number, codeHash: string, expiresAt: Date) {
  await db.transaction(async (tx) => {
    await invalidateUserCodes(tx, usersId);
    await tx
      .insert(passwordResetCodes)
      .values({ users_id: usersId, code_hash: codeHash, expires_at: expiresAt });
  });
}

export async function isResetCodeUsable(db: Db, codeHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: passwordResetCodes.password_reset_codes_id })
    .from(passwordResetCodes)
    .where(usable(codeHash))
    .limit(1);
  return Boolean(row);
}

/** Marks the code used and answers its user; a single UPDATE, so two racing resets cannot both win. */
export async function consumeResetCode(db: Db, codeHash: string): Promise<number | undefined> {
  const [row] = await db
    .update(passwordResetCodes)
    .set({ used_at: sql`now()` })
    .where(usable(codeHash))
    .returning({ users_id: passwordResetCodes.users_id });
  return row?.users_id;
}

export async function invalidateUserCodes(db: Db, usersId: number) {
  await db
    .update(passwordResetCodes)
    .set({ used_at: sql`now()` })
    .where(and(eq(passwordResetCodes.users_id, usersId), isNull(passwordResetCodes.used_at)));
}
