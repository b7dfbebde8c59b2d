import { and, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { col, tableAs } from '../../lib/sql-refs.js';
import { hotStatement } from '../../lib/sql-rows.js';
import { rotaNodes } from '../../db/schema/agents.js';

const n = rotaNodes;

/** What the agent protocol knows an agent by, once its token is checked. */
export type AgentIdentity = Pick<
  typeof rotaNodes.$inferSelect,
  | 'rota_nodes_id'
  | 'rota_clients_id'
  | 'rota_vms_id'
  | 'name'
  | 'hello_labels'
  | 'attended_users_id'
> & {
  /** Every label it carries (the console's and its hello's): a run needing others is not its. */
  labels: string[];
  /**
   * The token was replaced ("Generate new token"): it still serves the runs the agent already
   * holds (heartbeats, logs, results) but never says hello or claims again.
   */
  retired: boolean;
};

type IdentityRow = Omit<AgentIdentity, 'retired'> & { hash: string; retired: boolean };

const identityColumns = sql`${n.rota_nodes_id} as rota_nodes_id, ${n.rota_clients_id} as rota_clients_id,
       ${n.rota_vms_id} as rota_vms_id, ${n.name} as name,
       array(select l from (select distinct unnest(${n.labels} || ${n.hello_labels}) as l) d
                order by l collate "C") as labels,
       ${n.hello_labels} as hello_labels, ${n.attended_users_id} as attended_users_id`;

/**
 * The agents holding any of these token hashes, current or retired, each row with the hash it
 * matched. Two branches rather than an `or`, so each walks its unique index (the retired one is
 * partial: `is not null` lets the planner use it with a parameter array).
 */
const identitiesStatement = hotStatement<IdentityRow>(
  'rota_agent_identities',
  () => sql`select ${identityColumns}, ${n.token_hash} as hash, false as retired
              from ${n} where ${n.token_hash} = any(${sql.placeholder('hashes')}::text[])
            union all
            select ${identityColumns}, ${n.retired_token_hash} as hash, true as retired
              from ${n} where ${n.retired_token_hash} = any(${sql.placeholder('hashes')}::text[])
               and ${n.retired_token_hash} is not null`,
);

/** Who each token hash is, in one statement: hash → identity, unknown hashes left out. */
export async function findAgentsByTokenHashes(
  db: Db,
  tokenHashes: readonly string[],
): Promise<Map<string, AgentIdentity>> {
  // Hashes are hex (hashToken): an array literal needs no quoting.
  const rows = await identitiesStatement(db, { hashes: `{${tokenHashes.join(',')}}` });
  return new Map(rows.map(({ hash, ...identity }) => [hash, identity]));
}

/**
 * What a hello says of the agent: its columns, and `facts` (the machine's other facts, written
 * whole on every hello so none outlives the agent that said it).
 */
export type AgentFacts = Partial<
  Pick<
    typeof rotaNodes.$inferInsert,
    'hostname' | 'version' | 'os' | 'facts' | 'hello_labels' | 'attended_users_id'
  >
>;

const prev = alias(rotaNodes, 'prev');

/** Every heartbeat runs it: rendered once (see hotStatement). */
const seenStatement = hotStatement<{ was_online: boolean; was_lost: boolean }>(
  'rota_agent_seen',
  () => sql`update ${n} set ${col(n.last_seen_at)} = now(), ${col(n.online)} = true,
                            ${col(n.connection_lost_at)} = null
              from ${tableAs(prev)}
             where ${n.rota_nodes_id} = ${sql.placeholder('agent')}
               and ${prev.rota_nodes_id} = ${sql.placeholder('agent')}
            returning ${prev.online} as was_online,
                      ${prev.connection_lost_at} is not null as was_lost`,
);

/**
 * Every agent heard since the last flush, in one statement: last seen now and online. Answers
 * how many rows it wrote and, of those, the agents that were offline until now (they came
 * back). An agent signed off since `since` (when this flush's heartbeats began to be gathered)
 * is left alone: the heartbeat it holds may be older than the goodbye, on this instance or
 * another; its hello, if it started again, wrote it online already. A goodbye that commits
 * while this statement waits for the row is seen too (the row is checked again once unlocked).
 * Row locks are taken in primary-key order (the index walks `any(...)` sorted), so two
 * instances flushing overlapping agents never deadlock each other. A lost connection is
 * cleared by the same rule: only by what was heard after it was lost (`reconnected`).
 */
const flushStatement = hotStatement<{
  id: number;
  client: number;
  was_online: boolean;
  reconnected: boolean;
}>(
  'rota_agents_seen',
  () => sql`update ${n} set ${col(n.last_seen_at)} = now(), ${col(n.online)} = true,
                            ${col(n.connection_lost_at)} =
                              case when ${n.connection_lost_at} < ${sql.placeholder('since')}::timestamptz
                                   then null else ${n.connection_lost_at} end
              from ${tableAs(prev)}
             where ${n.rota_nodes_id} = any(${sql.placeholder('agents')}::integer[])
               and ${prev.rota_nodes_id} = ${n.rota_nodes_id}
               and (${n.signed_off_at} is null
                    or ${n.signed_off_at} < ${sql.placeholder('since')}::timestamptz)
            returning ${n.rota_nodes_id} as id, ${n.rota_clients_id} as client,
                      ${prev.online} as was_online,
                      coalesce(${prev.connection_lost_at} < ${sql.placeholder('since')}::timestamptz,
                               false) as reconnected`,
);

export async function markSeenMany(db: Db, agentIds: readonly number[], since: Date) {
  const rows = await flushStatement(db, {
    agents: `{${agentIds.join(',')}}`,
    since: since.toISOString(),
  });
  const pick = (r: { id: number; client: number }) => ({ id: r.id, client: r.client });
  return {
    written: rows.length,
    back: rows.filter((r) => !r.was_online).map(pick),
    reconnected: rows.filter((r) => r.reconnected).map(pick),
  };
}

/**
 * The agent was heard from now: whether it was online before and whether its connection had
 * been lost (undefined: unknown agent).
 */
export async function markSeen(
  db: Db,
  agentId: number,
  facts: AgentFacts = {},
): Promise<{ was_online: boolean; was_lost: boolean } | undefined> {
  if (Object.keys(facts).length === 0) {
    const [row] = await seenStatement(db, { agent: agentId });
    return row;
  }
  // A hello (rare) also says what the agent runs on.
  const [row] = await db
    .update(n)
    .set({ last_seen_at: sql`now()`, online: true, connection_lost_at: null, ...facts })
    .from(prev)
    .where(and(eq(n.rota_nodes_id, agentId), eq(prev.rota_nodes_id, agentId)))
    .returning({
      was_online: prev.online,
      was_lost: sql<boolean>`${prev.connection_lost_at} is not null`,
    });
  return row;
}

/**
 * The agent's stream closed without a goodbye: its connection is lost as of `at` (this
 * instance's clock, as the flushes compare it). Only an online agent: one that signed off or
 * went quiet is not lost again. Answers whether it was marked.
 */
export async function markConnectionLost(db: Db, agentId: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(n)
    .set({ connection_lost_at: at })
    .where(and(eq(n.rota_nodes_id, agentId), eq(n.online, true)))
    .returning({ id: n.rota_nodes_id });
  return rows.length > 0;
}

/**
 * A clean stop: inactive now. Last seen moves to the active window's edge at the latest, so
 * "last seen" stays truthful enough while "inactive" shows at once. `at`: now, by this
 * instance's clock, as the flushes compare it (markSeenMany).
 */
export async function markSignedOff(
  db: Db,
  agentId: number,
  activeWindowSeconds: number,
  at: Date,
) {
  await db
    .update(n)
    .set({
      online: false,
      signed_off_at: at,
      last_seen_at: sql`least(${n.last_seen_at}, now() - make_interval(secs => ${activeWindowSeconds}))`,
    })
    .where(eq(n.rota_nodes_id, agentId));
}

/** Agents not heard from within the window go offline; answers which did. */
export async function markQuietOffline(db: Db, activeWindowSeconds: number) {
  const quiet: SQL = or(
    isNull(n.last_seen_at),
    lt(n.last_seen_at, sql`now() - make_interval(secs => ${activeWindowSeconds})`),
  )!;
  return db
    .update(n)
    .set({ online: false })
    .where(and(eq(n.online, true), quiet))
    .returning({ id: n.rota_nodes_id, client: n.rota_clients_id });
}
