import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { insertMissedRunEvents } from '../alerts/statements.js';
import { insertScheduledRuns } from '../executions/statements.js';
import {
  planDueRuns,
  type DueCalendar,
  type DueMove,
  type DueRow,
} from '../schedulings/due-runs.js';
import { calendarsOf, lockDueSchedulings, moveDueSchedulings } from '../schedulings/statements.js';
import { schedulingSummaries } from '../schedulings/views.js';
import { rowsOf } from '../../lib/sql-rows.js';

/**
 * The scheduler, in one transaction of three statements: lock the interval and cron schedulings
 * due at `now` (SKIP LOCKED), decide each in JS (its next occurrence, its calendar, missed runs:
 * schedulings/due-runs.ts), then store every next run and insert the runs of those that run in
 * one statement: one run each, of an active robot, unless the scheduling's previous run still
 * waits in the queue.
 */
export async function queueDueSchedulings(db: Db, now: Date, batch: number) {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const due = await rowsOf<DueRow>(tx, lockDueSchedulings(now, batch));
    if (due.length === 0) return [];
    const calendarIds = [
      ...new Set(due.flatMap((row) => (row.calendar_id === null ? [] : [row.calendar_id]))),
    ];
    const calendars =
      calendarIds.length === 0 ? [] : await rowsOf<DueCalendar>(tx, calendarsOf(calendarIds));
    const moves = planDueRuns(due, calendars, now);
    const queued = await rowsOf<{
      id: number;
      client: number;
      robot: number;
      vm_ids: number[] | null;
      labels: string[];
      scheduling: number;
    }>(tx, insertScheduledRuns(moveDueSchedulings(moves)));
    await recordMissedRuns(tx, moves, queued, now);
    return queued.map(({ scheduling: _, ...run }) => run);
  });
}

/** One `scheduling.missed` alert event per occurrence found late, in the scheduler's transaction. */
async function recordMissedRuns(
  tx: Db,
  moves: readonly DueMove[],
  queued: readonly { scheduling: number }[],
  now: Date,
) {
  const missed = moves.filter((m) => m.missed);
  if (missed.length === 0) return;
  const ran = new Set(queued.map((q) => q.scheduling));
  const owners = await tx
    .select({
      id: schedulingSummaries.rota_schedulings_id,
      client: schedulingSummaries.rota_clients_id,
      robot: schedulingSummaries.rota_robots_id,
    })
    .from(schedulingSummaries)
    .where(
      inArray(
        schedulingSummaries.rota_schedulings_id,
        missed.map((m) => m.id),
      ),
    );
  const ownerOf = new Map(owners.map((o) => [o.id, o]));
  await tx.execute(
    insertMissedRunEvents(
      missed.flatMap((m) => {
        const owner = ownerOf.get(m.id);
        return owner
          ? [
              {
                rota_clients_id: owner.client,
                rota_robots_id: owner.robot,
                rota_schedulings_id: m.id,
                due_at: m.missed!.due_at,
                missed_runs: m.missed!.missed_runs,
                ran: ran.has(m.id),
              },
            ]
          : [];
      }),
      now,
    ),
  );
}
