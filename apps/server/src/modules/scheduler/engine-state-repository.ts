import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { engineState } from '../../db/schema/scheduler.js';

/** Stamps a duty's last pass (`reaper`: some instance was alive at that time). */
export async function markDuty(db: Db, key: string) {
  await db
    .insert(engineState)
    .values({ key, at: sql`now()` })
    .onConflictDoUpdate({ target: engineState.key, set: { at: sql`excluded.at` } });
}

/** Whether the duty's last pass is older than `seconds` (true when it never ran). */
export async function dutyOlderThan(db: Db, key: string, seconds: number): Promise<boolean> {
  const [row] = await db
    .select({ stale: sql<boolean>`${engineState.at} < now() - make_interval(secs => ${seconds})` })
    .from(engineState)
    .where(eq(engineState.key, key));
  return row ? row.stale : true;
}
