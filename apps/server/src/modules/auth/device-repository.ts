import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { signInDevices } from '../../db/schema/auth.js';

const D = signInDevices;

/** The device behind a cookie's hash, if it is this user's and was used after `since`. */
export async function findDevice(
  db: Db,
  tokenHash: string,
  usersId: number,
  since: Date,
): Promise<number | undefined> {
  const [row] = await db
    .select({ id: D.sign_in_devices_id })
    .from(D)
    .where(and(eq(D.token_hash, tokenHash), eq(D.users_id, usersId), gt(D.last_used_at, since)));
  return row?.id;
}

export async function insertDevice(
  db: Db,
  usersId: number,
  tokenHash: string,
  now: Date,
): Promise<void> {
  await db.insert(D).values({ users_id: usersId, token_hash: tokenHash, last_used_at: now });
}

export async function touchDevice(db: Db, id: number, now: Date): Promise<void> {
  await db.update(D).set({ last_used_at: now }).where(eq(D.sign_in_devices_id, id));
}

/** Devices unused since `before` let no one past anything: they go. */
export async function pruneDevices(db: Db, before: Date): Promise<void> {
  await db.delete(D).where(lt(D.last_used_at, before));
}
