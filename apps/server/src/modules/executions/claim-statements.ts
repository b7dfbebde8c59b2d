import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { col, tableAs } from '../../lib/sql-refs.js';
import { hotStatement, rowsOf } from '../../lib/sql-rows.js';
import type { ClaimedWithToken } from './row-statements.js';
import { packageKeyNames as keys } from '../packages/views.js';
import { A, E, a, e, executionColumns, p, r, v } from './row-statements.js';

/**
 * What a claim by an agent on VM `vm` of client `client`, carrying `labels` (a text[]) and
 * attended by `attended` (a user id, null for an unattended agent), may take of the executions
 * `e`: its client's queued runs that may go to that VM, need no label it lacks and are attended
 * by the same user (an attended agent takes only its user's attended runs, an unattended one
 * none), but a scheduling's run that would start on a VM its last run left less than `sleep`
 * seconds ago.
 */
export const claimable = (
  client: SQL,
  vm: SQL,
  labels: SQL,
  attended: SQL,
) => sql`${e.rota_clients_id} = ${client}
             and ${e.status} = 'queued'
             and (${e.vm_ids} is null or ${vm} = any(${e.vm_ids}))
             and ${e.labels} <@ ${labels}
             and ${e.attended_by} is not distinct from ${attended}
             and (${e.sleep_seconds} = 0 or ${e.rota_schedulings_id} is null or not exists (
                   select 1 from ${tableAs(p)}
                    where ${p.rota_schedulings_id} = ${e.rota_schedulings_id}
                      and ${p.rota_vms_id} = ${vm}
                      and ${p.ended_at} > now() - make_interval(secs => ${e.sleep_seconds})))`;

/** The claim's order: the highest priority, then the oldest. */
export const queueOrder = sql`${e.priority} desc nulls last, ${e.queued_at}, ${e.rota_executions_id}`;

/**
 * The runs of `picks` (id, k) claimed for the k-th taker (`agent(k)` on `vm(k)`, with the k-th
 * hash of `tokens`): `claimed`, their attempt rows, and `picked`, what the agent needs of the
 * robot and its current version.
 */
export const claimPicks = (agent: (k: SQL) => SQL, vm: (k: SQL) => SQL) => sql`claimed as (
          update ${E}
             set ${col(E.status)} = 'processing',
                 ${col(E.attempts)} = ${E.attempts} + 1,
                 ${col(E.rota_nodes_id)} = ${agent(sql`picks.k`)},
                 ${col(E.rota_vms_id)} = ${vm(sql`picks.k`)},
                 ${col(E.started_at)} = coalesce(${E.started_at}, now()),
                 ${col(E.lease_expires_at)} = now() + make_interval(secs => ${sql.placeholder('lease')}),
                 ${col(E.run_token_hash)} = (${sql.placeholder('tokens')}::text[])[picks.k],
                 ${col(E.last_activity_at)} = now(), ${col(E.stalled)} = false,
                 ${col(E.connection_lost_at)} = null,
                 ${col(E.progress_percent)} = null, ${col(E.progress_message)} = null,
                 ${col(E.rota_robot_versions_id)} = (select ${r.current_version_id} from ${r}
                                                      where ${r.rota_robots_id} = ${E.rota_robots_id})
            from picks
           where ${E.rota_executions_id} = picks.id
          returning ${executionColumns(E)}, ${E.rota_robot_versions_id} as rota_robot_versions_id,
                    ${E.run_token_hash} as token_hash, picks.k as k,
                    extract(epoch from now() - ${E.queued_at})::float8 as waited_seconds
        ),
        attempt as (
          insert into ${A}
                 (${col(A.rota_clients_id)}, ${col(A.rota_executions_id)}, ${col(A.attempt)},
                  ${col(A.rota_nodes_id)}, ${col(A.rota_vms_id)}, ${col(A.run_token_hash)})
          select rota_clients_id, rota_executions_id, attempts, ${agent(sql`k`)}, ${vm(sql`k`)},
                 token_hash
            from claimed
          on conflict do nothing
        ),
        picked as (
        select c.*, ${r.name} as robot_name, ${r.executor} as executor,
               ${r.remote_root} as remote_root, ${v.version} as version, ${v.sha256} as sha256,
               ${v.size_bytes} as size_bytes, ${v.format} as format,
               ${v.signature} as signature,
               (select ${keys.public_key} from ${keys}
                 where ${keys.rota_package_keys_id} = ${v.rota_package_keys_id}) as signer_key
          from claimed c
          join ${r} on ${r.rota_robots_id} = c.rota_robots_id
          left join ${v} on ${v.rota_robot_versions_id} = c.rota_robot_versions_id
        )`;

/**
 * Takes the next executions (up to `max`) this agent's VM may run, in queue order. SKIP LOCKED
 * lets every instance claim at once without two taking the same row. One statement (atomic on
 * its own): the claims, their attempt rows, and what the agent needs of the robot and its
 * current version. Each run gets its own run token: the n-th row taken the n-th hash of
 * `tokens`. These are the claim's CTEs (`next` … `picked`), also run after a result in
 * `finishAndClaimRuns`.
 */
export const claimCtes = (limit: SQL) => sql`next as (
          select ${e.rota_executions_id} as id
            from ${tableAs(e)}
           where ${claimable(
             sql`${sql.placeholder('client')}`,
             sql`${sql.placeholder('vm')}`,
             sql`${sql.placeholder('labels')}::text[]`,
             sql`${sql.placeholder('attended')}::integer`,
           )}
           order by ${queueOrder}
           limit ${limit}
           for update skip locked
        ),
        picks as (select id, row_number() over (order by id) as k from next),
        ${claimPicks(
          () => sql`${sql.placeholder('agent')}`,
          () => sql`${sql.placeholder('vm')}`,
        )}`;

/**
 * A LIMIT of one as a constant, not a parameter: with `limit $max` PostgreSQL's generic plan
 * looks dearer than the custom ones and every execution is planned again (about as long as it
 * runs); the usual claim of one run keeps a cached plan.
 */
export const claimLimits = { one: sql`1`, many: sql`${sql.placeholder('max')}` };

const claimStatements = {
  one: hotStatement<ClaimedWithToken>(
    'rota_claim_one',
    () => sql`with ${claimCtes(claimLimits.one)} select * from picked`,
  ),
  many: hotStatement<ClaimedWithToken>(
    'rota_claim_runs',
    () => sql`with ${claimCtes(claimLimits.many)} select * from picked`,
  ),
};

/** The agent a claim is for: who, where, and what it carries. */
export interface ClaimingAgent {
  rota_clients_id: number;
  rota_nodes_id: number;
  rota_vms_id: number;
  /** Every label it carries (the contract's syntax: no quote, comma or brace); none if absent. */
  labels?: readonly string[];
  /** The user it serves as an attended agent; null or absent: unattended. */
  attended_users_id?: number | null;
}

/** Labels as a text[] literal (their syntax needs no quoting). */
export const labelsLiteral = (labels: readonly string[] = []) => `{${labels.join(',')}}`;

/**
 * Claims up to `runTokenHashes.length` runs for this agent, the n-th taken with the n-th hash
 * (`token_hash` says which each row got).
 */
export async function claimRuns(
  db: Db,
  agent: ClaimingAgent,
  runTokenHashes: readonly string[],
  leaseSeconds: number,
): Promise<ClaimedWithToken[]> {
  if (runTokenHashes.length === 0) return [];
  return claimStatements[runTokenHashes.length === 1 ? 'one' : 'many'](db, {
    client: agent.rota_clients_id,
    vm: agent.rota_vms_id,
    agent: agent.rota_nodes_id,
    labels: labelsLiteral(agent.labels),
    attended: agent.attended_users_id ?? null,
    lease: leaseSeconds,
    max: runTokenHashes.length,
    tokens: `{${runTokenHashes.join(',')}}`,
  });
}

/**
 * A claim whose answer never reached its agent (the long poll's connection was gone): the run
 * goes back to the queue as if never claimed, its attempt forgotten. Only while nothing of the
 * attempt happened: it is still processing on that agent with that attempt number.
 */
export async function releaseClaim(
  db: Db,
  agentId: number,
  executionId: number,
  attempt: number,
): Promise<boolean> {
  const released = await rowsOf<{ id: number }>(
    db,
    sql`with released as (
          update ${E}
             set ${col(E.status)} = 'queued', ${col(E.attempts)} = ${E.attempts} - 1,
                 ${col(E.rota_nodes_id)} = null, ${col(E.rota_vms_id)} = null,
                 ${col(E.lease_expires_at)} = null, ${col(E.run_token_hash)} = null,
                 ${col(E.started_at)} = case when ${E.attempts} = 1 then null else ${E.started_at} end
           where ${E.rota_executions_id} = ${executionId} and ${E.attempts} = ${attempt}
             and ${E.status} = 'processing' and ${E.rota_nodes_id} = ${agentId}
          returning ${E.rota_executions_id} as id
        ),
        forgotten as (
          delete from ${tableAs(a)} using released
           where ${a.rota_executions_id} = released.id and ${a.attempt} = ${attempt}
        )
        select id from released`,
  );
  return released.length > 0;
}

/** Whether the client has any queued run at all, whatever VM or time it waits for. */
export async function hasQueuedRuns(db: Db, clientId: number): Promise<boolean> {
  const [row] = await rowsOf<{ queued: boolean }>(
    db,
    sql`select exists (select 1 from ${E}
                        where ${E.rota_clients_id} = ${clientId} and ${E.status} = 'queued'
                      ) as queued`,
  );
  return row?.queued === true;
}
