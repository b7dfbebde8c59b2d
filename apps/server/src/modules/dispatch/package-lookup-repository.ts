import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { packageSummaries } from '../robot-versions/views.js';

/** Whether a package with this SHA-256 belongs to a version of the client's robots. */
export async function clientHasPackage(db: Db, clientId: number, sha256: string) {
  const v = packageSummaries;
  const [row] = await db
    .select({ id: v.rota_robot_versions_id })
    .from(v)
    .where(and(eq(v.sha256, sha256), eq(v.rota_clients_id, clientId)))
    .limit(1);
  return row !== undefined;
}
