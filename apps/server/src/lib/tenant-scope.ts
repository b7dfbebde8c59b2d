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
   * The robots the user may see (issue 5's teams): null when every robot of the client is
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
}

export function tenantScope(
  clientId: number,
  robotIds: readonly number[] | null = null,
): TenantScope {
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
  };
}
