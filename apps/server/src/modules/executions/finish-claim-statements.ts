import { sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { rotaExecutions } from '../../db/schema/executions.js';
import { tableAs } from '../../lib/sql-refs.js';
import { hotStatement } from '../../lib/sql-rows.js';
import type { AttemptResult, FinishedRow, Settled } from './settle-statements.js';
import { codeOf, finishCtes, finishValues, settleCur, settledOf } from './settle-statements.js';
import type { ClaimedWithToken } from './row-statements.js';
import { e } from './row-statements.js';
import {
  claimCtes,
  claimLimits,
  claimPicks,
  claimable,
  labelsLiteral,
  queueOrder,
  type ClaimingAgent,
} from './claim-statements.js';

/**
 * A result and the agent's next claim in one statement (one round trip, one commit): the
 * runs taken are other queued rows (a run this result sends back to the queue is not among
 * them: the statement sees the queue as it was).
 */
const finishClaimSql = (limit: SQL) => sql`with ${finishCtes()}, ${claimCtes(limit)}
        select (select row_to_json(f) from fin f) as finished,
               (select coalesce(json_agg(p), '[]'::json) from picked p) as claimed`;
const finishClaimStatements = {
  one: hotStatement<{ finished: unknown; claimed: unknown }>('rota_finish_claim_one', () =>
    finishClaimSql(claimLimits.one),
  ),
  many: hotStatement<{ finished: unknown; claimed: unknown }>('rota_finish_claim', () =>
    finishClaimSql(claimLimits.many),
  ),
};

/**
 * `finishCurrentAttempt`, then `claimRuns` for the same agent, in one statement: answers what
 * each would (`settled` null when the result was not counted).
 */
export async function finishAndClaimRuns(
  db: Db,
  agent: ClaimingAgent,
  result: AttemptResult & { execution_id: number; attempt: number },
  runTokenHashes: readonly string[],
  leaseSeconds: number,
): Promise<{ settled: Settled | null; claimed: ClaimedWithToken[] }> {
  const statement = finishClaimStatements[runTokenHashes.length === 1 ? 'one' : 'many'];
  const [row] = await statement(db, {
    ...finishValues(agent, result),
    vm: agent.rota_vms_id,
    labels: labelsLiteral(agent.labels),
    attended: agent.attended_users_id ?? null,
    lease: leaseSeconds,
    max: runTokenHashes.length,
    tokens: `{${runTokenHashes.join(',')}}`,
  });
  // json columns: parsed by node-postgres; PGlite may hand the text.
  const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
  const finished = parse(row?.finished) as FinishedRow | null;
  const claimed = (parse(row?.claimed) ?? []) as ClaimedWithToken[];
  return { settled: finished ? settledOf(finished) : null, claimed };
}

/* ---------- Results and next claims of several agents in one statement ---------- */

/** One agent's result and the one run it asks for next, as `finishAndClaimRuns` takes them. */
export interface FinishClaimAsk {
  agent: ClaimingAgent;
  result: AttemptResult & { execution_id: number; attempt: number };
  /** The run token's hash for the run it may be handed. */
  tokenHash: string;
}

const f = alias(rotaExecutions, 'f');

/**
 * The result CTEs of `finishCtes` for every row of `input` (one per agent, distinct
 * executions): the same decisions, the same row locks, in one pass.
 */
const batchFinishCtes = () => sql`input as (
          select * from jsonb_to_recordset(${sql.placeholder('finishes')}::jsonb)
                   as i(execution integer, client integer, attempt integer, agent integer,
                        status text, exit_code integer, message text, code text, params jsonb)
        ),
        cur as (
          select ${f.rota_executions_id} as id, ${f.attempts} as attempts, ${f.retries} as retries,
                 ${f.cancel_requested_at} as cancel_requested_at, i.status, i.exit_code,
                 i.message, i.code, i.params
            from input i
            join ${tableAs(f)} on ${f.rota_executions_id} = i.execution
                             and ${f.rota_clients_id} = i.client and ${f.status} = 'processing'
                             and ${f.attempts} = i.attempt and ${f.rota_nodes_id} = i.agent
           for update of ${sql.identifier('f')}
        ),
        ${settleCur()}`;

/**
 * A text as node-postgres sends a text parameter (a lone surrogate as U+FFFD): inside the JSON
 * parameter PostgreSQL would refuse the escaped surrogate and fail every agent's result with it.
 */
const wellFormed = (text: string | null) =>
  text === null ? null : (text as unknown as { toWellFormed(): string }).toWellFormed();

/** The k-th agent's value of an integer array placeholder (`k` a constant or a column). */
const nth = (name: string, k: number | SQL) =>
  sql`(${sql.placeholder(name)}::integer[])[${typeof k === 'number' ? sql.raw(String(k)) : k}]`;

/**
 * The k-th agent's labels: each agent's list joined with commas (labels hold none), one text of
 * the `labels` placeholder each, as a text[] cannot hold lists of different lengths.
 */
const labelsOf = (k: number) =>
  sql`string_to_array((${sql.placeholder('labels')}::text[])[${sql.raw(String(k))}], ',')`;

/**
 * `picks` (id, k): one run for each of `count` agents, the claim of `claimCtes` once per agent
 * (its client, its VM, its scheduling gaps), each passing over the runs the agents before it
 * took. SKIP LOCKED skips what other statements hold, not this statement's own locks, hence the
 * exclusions.
 */
const eachAgentPicks = (count: number) => {
  const ctes: SQL[] = [];
  for (let k = 1; k <= count; k += 1) {
    // taken_k: the runs next_1 … next_k took, so each claim looks past one list only.
    const taken =
      k === 1
        ? sql``
        : sql` and not exists (select 1 from ${sql.identifier(`taken_${k - 1}`)} t
                                where t.id = ${e.rota_executions_id})`;
    ctes.push(sql`${sql.identifier(`next_${k}`)} as (
          select ${e.rota_executions_id} as id, ${sql.raw(String(k))} as k
            from ${tableAs(e)}
           where ${claimable(nth('clients', k), nth('vms', k), labelsOf(k), nth('attended', k))}${taken}
           order by ${queueOrder}
           limit 1
           for update skip locked
        )`);
    if (k < count)
      ctes.push(
        k === 1
          ? sql`taken_1 as (select id from next_1)`
          : sql`${sql.identifier(`taken_${k}`)} as (
          select id from ${sql.identifier(`taken_${k - 1}`)}
          union all select id from ${sql.identifier(`next_${k}`)})`,
      );
  }
  const union = sql.join(
    Array.from(
      { length: count },
      (_, j) => sql`select id, k from ${sql.identifier(`next_${j + 1}`)}`,
    ),
    sql` union all `,
  );
  return sql`${sql.join(ctes, sql`, `)}, picks as (${union})`;
};

/**
 * `picks` for the usual group: agents of one client, and the first `count` runs of its queue
 * free to run on any VM with no scheduling gap to keep (as the statement's snapshot shows them,
 * locks aside). Then one scan takes the first free runs no one else holds, in queue order, as one
 * claim after another would. `fast` says whether it applied; when not, nothing is picked, and
 * `eachAgentPicks` runs in a statement of its own. Neither locks a run it does not take (another
 * agent's claim would have passed it over).
 */
const queueOrderPicks = (count: number) => {
  // An attended run is never free: only its user's attended agent may take it.
  const freeRun = sql`${e.vm_ids} is null and cardinality(${e.labels}) = 0
                 and ${e.attended_by} is null
                 and (${e.sleep_seconds} = 0 or ${e.rota_schedulings_id} is null)`;
  const first = sql`order by ${queueOrder} limit ${sql.raw(String(count))}`;
  return sql`peek as (
          select ${freeRun} as free
            from ${tableAs(e)}
           where ${e.rota_clients_id} = ${sql.placeholder('solo_client')}
             and ${e.status} = 'queued'
           ${first}
        ),
        fast as (
          select ${sql.placeholder('solo_client')}::integer <> 0
                 and coalesce(bool_and(free), true) as ok
            from peek
        ),
        cand as (
          select ${e.rota_executions_id} as id, ${e.priority} as priority,
                 ${e.queued_at} as queued_at
            from ${tableAs(e)}
           where ${e.rota_clients_id} = ${sql.placeholder('solo_client')}
             and ${e.status} = 'queued' and ${freeRun}
           ${first}
           for update skip locked
        ),
        picks as (
          select id, row_number() over (order by priority desc nulls last, queued_at, id) as k
            from cand
           where (select ok from fast)
        )`;
};

/** The picks claimed for the k-th agent of the group (`claimed` … `picked`). */
const groupClaimPicks = () =>
  claimPicks(
    (k) => nth('agents', k),
    (k) => nth('vms', k),
  );

/**
 * The most agents one statement answers; more wait for the next. Statements are written per
 * group size (their claims and LIMITs are constants, so each keeps a generic plan).
 */
export const FINISH_CLAIM_BATCH_MAX = 16;

type GroupRow = { finished?: unknown; claimed: unknown; fast?: boolean };
const groupStatements = new Map<string, ReturnType<typeof hotStatement<GroupRow>>>();
function groupStatement(kind: 'finish' | 'claim', count: number) {
  const key = `${kind}${count}`;
  let statement = groupStatements.get(key);
  if (!statement) {
    statement = hotStatement<GroupRow>(
      kind === 'finish' ? `rota_finish_claim_x${count}` : `rota_claim_each_x${count}`,
      () =>
        kind === 'finish'
          ? sql`with ${batchFinishCtes()}, ${queueOrderPicks(count)}, ${groupClaimPicks()}
        select (select coalesce(json_agg(f), '[]'::json) from fin f) as finished,
               (select coalesce(json_agg(p), '[]'::json) from picked p) as claimed,
               (select ok from fast) as fast`
          : sql`with ${eachAgentPicks(count)}, ${groupClaimPicks()}
        select coalesce(json_agg(p), '[]'::json) as claimed from picked p`,
    );
    groupStatements.set(key, statement);
  }
  return statement;
}

/**
 * `finishAndClaimRuns` with one run asked for, for several agents in one statement (one round
 * trip and one commit for all): each answer as that function would give it. The results must
 * name distinct executions (a repeat of one waits for a statement of its own).
 */
export async function finishAndClaimEach(
  db: Db,
  asks: readonly FinishClaimAsk[],
  leaseSeconds: number,
): Promise<{ settled: Settled | null; claimed: ClaimedWithToken[] }[]> {
  if (asks.length > FINISH_CLAIM_BATCH_MAX)
    throw new Error(`at most ${FINISH_CLAIM_BATCH_MAX} results a statement`);
  const finishes = asks.map(({ agent, result }) => {
    const coded = codeOf(result);
    return {
      execution: result.execution_id,
      client: agent.rota_clients_id,
      attempt: result.attempt,
      agent: agent.rota_nodes_id,
      status: result.status,
      exit_code: result.exit_code,
      message: wellFormed(result.message),
      code: coded.code,
      params: result.code ? (result.params ?? {}) : null,
    };
  });
  const ints = (values: number[]) => `{${values.map((n) => Math.trunc(n)).join(',')}}`;
  const values = {
    finishes: JSON.stringify(finishes),
    clients: ints(asks.map((ask) => ask.agent.rota_clients_id)),
    vms: ints(asks.map((ask) => ask.agent.rota_vms_id)),
    agents: ints(asks.map((ask) => ask.agent.rota_nodes_id)),
    // Every element quoted: an agent without labels is an empty text, not a missing one.
    labels: `{${asks.map((ask) => `"${(ask.agent.labels ?? []).join(',')}"`).join(',')}}`,
    attended: `{${asks.map((ask) => ask.agent.attended_users_id ?? 'NULL').join(',')}}`,
    tokens: `{${asks.map((ask) => ask.tokenHash).join(',')}}`,
    // The queue order's fast path hands runs to unattended agents only: an attended agent
    // takes nothing but its user's attended runs, which it never hands out.
    solo_client:
      asks.every((ask) => ask.agent.rota_clients_id === asks[0]!.agent.rota_clients_id) &&
      asks.every((ask) => !ask.agent.attended_users_id)
        ? asks[0]!.agent.rota_clients_id
        : 0,
    lease: leaseSeconds,
  };
  const [row] = await groupStatement('finish', asks.length)(db, values);
  // json columns: parsed by node-postgres; PGlite may hand the text.
  const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
  const finished = (parse(row?.finished) ?? []) as FinishedRow[];
  let claimed = (parse(row?.claimed) ?? []) as (ClaimedWithToken & { k: number })[];
  if (row && !row.fast) {
    // Runs the queue order cannot hand out blindly (VM limits, scheduling gaps, several
    // clients): each agent's own claim, the results being recorded already.
    // Should it fail, the agents get no run now and ask again (their results stand).
    const [each] = await groupStatement('claim', asks.length)(db, values).catch(() => []);
    claimed = (parse(each?.claimed) ?? []) as (ClaimedWithToken & { k: number })[];
  }
  const settledById = new Map(finished.map((r) => [r.rota_executions_id, settledOf(r)]));
  return asks.map((ask, i) => ({
    settled: settledById.get(ask.result.execution_id) ?? null,
    claimed: claimed
      .filter((c) => c.k === i + 1)
      .map(({ k: _k, ...run }) => run as ClaimedWithToken),
  }));
}
