import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** A table owned by a client: it has the tenant column. */
export interface TenantTable {
  rota_clients_id: AnyPgColumn;
}

/**
 * The one way services reach tenant-owned rows. It is built only from the selected client of
 * an authenticated request (see http/auth.ts), and repositories of tenant-owned tables take it
 * as a required argument, so a query without the client cannot be written by accident: a row
 * of another client is simply not found (404).
 */
export interface TenantScope {
  readonly clientId: number;
  /**
   * The robots the user may see through their teams: null when every robot of the client is
   * visible (the user is in no team of it, or the caller is not a user: agents, the engine).
   */
  readonly robotIds: readonly number[] | null;
  /** The team condition on a column holding a robot id; undefined when every robot is visible. */
  robots(column: AnyPgColumn): SQL | undefined;
  /** Whether one robot is visible. */
  seesRobot(robotId: number): boolean;
  /** The tenant condition, and-ed with any others. */
  where(table: TenantTable, ...conditions: (SQL | undefined)[]): SQL;
  /** Stamps a row about to be inserted with the client, overriding whatever it carried. */
  stamp<T extends object>(values: T): T & { rota_clients_id: number };
  /** The tenant condition on a column of a raw statement (`e.rota_clients_id` of an alias). */
  owns(column: AnyPgColumn | SQL): SQL;
  /** The same scope once one more robot is visible (a team member created it). */
  withRobot(robotId: number): TenantScope;
}

/**
 * A user's scope in their selected client, limited to their teams' robots. Built by the auth
 * hook only (http/auth.ts; a lint rule keeps it so): everything else receives it.
 */
export function userScope(clientId: number, robotIds: readonly number[] | null): TenantScope {
  return buildScope(clientId, robotIds);
}

/**
 * Work nobody is signed in for (the engine, agents, a run's robot API), on one client's rows:
 * every robot of the client is visible. The client comes from a row already scoped to it (the
 * agent's, the run's), never from a request's body.
 */
export function systemScope(clientId: number): TenantScope {
  return buildScope(clientId, null);
}

function buildScope(clientId: number, robotIds: readonly number[] | null): TenantScope {
  const visible = robotIds ? new Set(robotIds) : null;
  return {
    clientId,
    robotIds,
    robots(column) {
      if (!robotIds) return undefined;
      return robotIds.length === 0 ? sql`false` : inArray(column, [...robotIds]);
    },
    seesRobot(robotId) {
      return !visible || visible.has(robotId);
    },
    where(table, ...conditions) {
      return and(eq(table.rota_clients_id, clientId), ...conditions) as SQL;
    },
    stamp(values) {
      return { ...values, rota_clients_id: clientId };
    },
    owns(column) {
      return sql`${column} = ${clientId}`;
    },
    withRobot(robotId) {
      return robotIds ? buildScope(clientId, [...robotIds, robotId]) : this;
    },
  };
}
