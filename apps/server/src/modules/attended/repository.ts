import { and, asc, eq, sql } from 'drizzle-orm';
import type { Permission } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { likePattern } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { agentIsActive } from '../agents/connectivity.js';
import { agentSummaries } from '../agents/views.js';
import { profileGrants } from '../profiles/views.js';
import { robotSummaries } from '../robots/views.js';
import { teamRobotIdsOf } from '../teams/views.js';
import { memberships } from '../user-clients/views.js';
import { userAccounts } from '../users/views.js';
import { vmNames } from '../vms/views.js';

const a = agentSummaries;
const r = robotSummaries;

/** One of a user's attended agents, with every label it carries. */
export interface AttendedAgentRow {
  rota_nodes_id: number;
  name: string;
  rota_vms_id: number;
  vm_name: string;
  active: boolean;
  labels: string[];
}

/** The agents of the client attended by `userId`, by name. */
export function attendedAgentsOf(
  db: Db,
  scope: TenantScope,
  userId: number,
): Promise<AttendedAgentRow[]> {
  return db
    .select({
      rota_nodes_id: a.rota_nodes_id,
      name: a.name,
      rota_vms_id: a.rota_vms_id,
      vm_name: vmNames.name,
      active: agentIsActive(a.last_seen_at),
      labels: sql<string[]>`(${a.labels} || ${a.hello_labels})`,
    })
    .from(a)
    .innerJoin(vmNames, eq(vmNames.rota_vms_id, a.rota_vms_id))
    .where(and(scope.owns(a.rota_clients_id), eq(a.attended_users_id, userId)))
    .orderBy(asc(a.name), asc(a.rota_nodes_id));
}

/**
 * Active robots the scope sees whose required labels some agent of `labelSets` carries, by
 * name; one more than `limit` so the caller knows there were more.
 */
export function runnableRobots(
  db: Db,
  scope: TenantScope,
  labelSets: readonly (readonly string[])[],
  search: string | undefined,
  limit: number,
) {
  if (labelSets.length === 0) return Promise.resolve([]);
  const carried = sql.join(
    // Labels are normalized (lower-case letters, digits and -_.), so the literal needs no quoting.
    labelSets.map((labels) => sql`${r.required_labels} <@ ${`{${labels.join(',')}}`}::text[]`),
    sql` or `,
  );
  return db
    .select({
      rota_robots_id: r.rota_robots_id,
      name: r.name,
      description: r.description,
      required_labels: r.required_labels,
    })
    .from(r)
    .where(
      and(
        scope.owns(r.rota_clients_id),
        scope.robots(r.rota_robots_id),
        eq(r.active, true),
        sql`(${carried})`,
        search ? sql`${r.name} ilike ${likePattern(search)}` : undefined,
      ),
    )
    .orderBy(asc(r.name), asc(r.rota_robots_id))
    .limit(limit + 1);
}

/** The active robot of the client named `name` (any case), or with this id. */
export async function robotNamed(db: Db, scope: TenantScope, name: string) {
  const byId = /^\d{1,9}$/.test(name) ? sql` or ${r.rota_robots_id} = ${Number(name)}` : sql``;
  const [row] = await db
    .select({ rota_robots_id: r.rota_robots_id })
    .from(r)
    .where(
      and(scope.owns(r.rota_clients_id), sql`(lower(${r.name}) = ${name.toLowerCase()}${byId})`),
    )
    // A robot named with the digits wins over the one with that id.
    .orderBy(sql`lower(${r.name}) = ${name.toLowerCase()} desc`)
    .limit(1);
  return row?.rota_robots_id;
}

/** What a user may do in a client: their name (for the audit), permissions and team robots. */
export async function grantsOf(db: Db, clientId: number, userId: number) {
  const u = userAccounts;
  const m = memberships;
  const [row] = await db
    .select({
      user: { users_id: u.users_id, name: u.name, last_name: u.last_name },
      permissions: sql<Permission[]>`${profileGrants.permissions}`,
      team_robot_ids: teamRobotIdsOf(u.users_id, m.rota_clients_id),
    })
    .from(u)
    .innerJoin(m, and(eq(m.users_id, u.users_id), eq(m.rota_clients_id, clientId)))
    .innerJoin(profileGrants, eq(profileGrants.profiles_id, m.profiles_id))
    .where(eq(u.users_id, userId))
    .limit(1);
  return row;
}
