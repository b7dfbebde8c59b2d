import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaLogStreamOutbox } from '../../db/schema/log-streams.js';
import { col } from '../../lib/sql-refs.js';
import { rowsOf } from '../../lib/sql-rows.js';

const O = rotaLogStreamOutbox;

/**
 * A message is due when never tried (it is sent at once, whatever the app's clock says) or when
 * its retry time has come; a stream waiting for a retry holds its newer messages back too, so a
 * receiver that is down is not knocked on by every new event and the order is kept.
 */
const due = (at: string) =>
  sql`${O.status} = 'pending' and (${O.attempts} = 0 or ${O.next_attempt_at} <= ${at}::timestamptz)
      and (${O.locked_until} is null or ${O.locked_until} < ${at}::timestamptz)`;

const backingOff = (at: string, stream: SQL) =>
  sql`exists (select 1 from ${O} w
               where w.rota_log_streams_id = ${stream} and w.status = 'pending'
                 and w.attempts > 0 and w.next_attempt_at > ${at}::timestamptz)`;

/** The streams with messages due now (and not locked by another pass). */
export async function streamsWithDueMessages(db: Db, now: Date): Promise<number[]> {
  const at = now.toISOString();
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`select distinct ${O.rota_log_streams_id} as id from ${O}
         where ${due(at)} and not ${backingOff(at, sql`${O.rota_log_streams_id}`)}`,
  );
  return rows.map((r) => Number(r.id));
}

export interface LockedMessage {
  id: number;
  event_uid: string;
  client: number;
  kind: string;
  data: Record<string, unknown>;
  occurred_at: Date | string;
  attempts: number;
  first_attempt_at: Date | string | null;
}

/**
 * Locks a stream's due messages, oldest first, for a minute: sent outside any transaction
 * after this commits; a crash mid-send leaves the lock to expire, then another pass sends again
 * (at least once: the receiver tells repeats by `event_uid`).
 */
export async function lockDueMessages(
  db: Db,
  stream: number,
  now: Date,
  batch: number,
): Promise<LockedMessage[]> {
  const at = now.toISOString();
  const rows = await rowsOf<LockedMessage & { id: string | number }>(
    db,
    sql`update ${O} set ${col(O.locked_until)} = ${at}::timestamptz + interval '60 seconds'
         where ${O.rota_log_stream_outbox_id} in (
           select ${O.rota_log_stream_outbox_id} from ${O}
            where ${O.rota_log_streams_id} = ${stream} and ${due(at)}
            order by ${O.rota_log_stream_outbox_id}
            limit ${batch}
            for update skip locked)
        returning ${O.rota_log_stream_outbox_id} as id, ${O.event_uid} as event_uid,
                  ${O.rota_clients_id} as client, ${O.kind} as kind, ${O.data} as data,
                  ${O.occurred_at} as occurred_at, ${O.attempts} as attempts,
                  ${O.first_attempt_at} as first_attempt_at`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) })).sort((a, b) => a.id - b.id);
}

/** Delivered messages leave the outbox: the receiver keeps them now. */
export async function removeDelivered(db: Db, ids: number[]) {
  if (ids.length === 0) return;
  await db.delete(O).where(inArray(O.rota_log_stream_outbox_id, ids));
}

/** A failed send: each message's attempt counted, due again at `next` (given up when null). */
export async function recordFailure(
  db: Db,
  messages: { id: number; first_attempt_at: Date; next: Date | null }[],
  error: string,
) {
  for (const m of messages) {
    await db
      .update(O)
      .set({
        status: m.next ? 'pending' : 'failed',
        attempts: sql`${O.attempts} + 1`,
        first_attempt_at: m.first_attempt_at,
        next_attempt_at: m.next ?? sql`${O.next_attempt_at}`,
        last_error: error,
        locked_until: null,
      })
      .where(and(eq(O.rota_log_stream_outbox_id, m.id), eq(O.status, 'pending')));
  }
}
