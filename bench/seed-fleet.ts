/**
 * A migrated, seeded bench database with one VM and `agents` agents of the first client, their
 * tokens kept to speak for them (bench/scale.ts's dispatch race and bench/agents-fleet.ts).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { generateToken, hashToken } from '../apps/server/src/lib/tokens.js';

export async function seedFleet(
  database: Database,
  { agents, name }: { agents: number; name: string },
): Promise<{ clientId: number; vmId: number; tokens: string[] }> {
  const { db } = database;
  const rows = async <T>(statement: ReturnType<typeof sql>) =>
    ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
  await database.migrate();
  await seedDatabase(db, {
    adminAccess: 'admin',
    adminEmail: 'admin@localhost',
    adminPassword: 'bench-password-1',
  });
  const [client] = await rows<{ id: number }>(
    sql`select rota_clients_id as id from rota_clients order by rota_clients_id limit 1`,
  );
  const [vm] = await rows<{ id: number }>(
    sql`insert into rota_vms (rota_clients_id, name, hostname)
        values (${client!.id}, ${`${name} VM`}, 'bench.lan') returning rota_vms_id as id`,
  );
  const tokens = Array.from({ length: agents }, () => generateToken());
  for (let i = 0; i < tokens.length; i += 2000) {
    await db.execute(
      sql`insert into rota_nodes (rota_clients_id, name, rota_vms_id, token_hash) values ${sql.join(
        tokens
          .slice(i, i + 2000)
          .map(
            (token, j) =>
              sql`(${client!.id}, ${`${name} agent ${i + j}`}, ${vm!.id}, ${hashToken(token)})`,
          ),
        sql`, `,
      )}`,
    );
  }
  return { clientId: client!.id, vmId: vm!.id, tokens };
}
