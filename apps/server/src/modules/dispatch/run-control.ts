import type { Db } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { cancelQueued, requestCancel, requestStop } from '../executions/run-statements.js';
import {
  lockExecution,
  settleAttempt,
  type AttemptResult,
} from '../executions/settle-statements.js';
import type { EnginePublisher } from './live-events.js';
import type { Settlements } from './settlements.js';

/**
 * What an operator does to a run from the console: cancel or stop it, or mark it failed. Each
 * is one transaction on the locked execution row, with the caller's audit record in it.
 */
export class RunControl {
  constructor(
    private readonly db: Db,
    private readonly publish: EnginePublisher,
    private readonly settlements: Settlements,
  ) {}

  /**
   * Cancel from the console: a queued run ends now; a running one is marked and its agent
   * stops it (it learns on its next log batch or heartbeat) and reports `cancelled`.
   */
  async cancel(
    clientId: number,
    id: number,
    /** Writes the cancel's audit record in its transaction. */
    record: (tx: Db, outcome: 'cancelled' | 'requested') => Promise<void>,
    /** A graceful stop: SIGTERM, then the tree killed after this many seconds (0: kill now). */
    graceSeconds = 0,
  ): Promise<'cancelled' | 'requested'> {
    const outcome = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const execution = await lockExecution(tx, clientId, id);
      if (!execution) throw notFound();
      let result: 'cancelled' | 'requested';
      if (execution.status === 'queued') {
        await cancelQueued(tx, id);
        result = 'cancelled';
      } else if (execution.status === 'processing') {
        if (graceSeconds > 0) await requestStop(tx, id, graceSeconds);
        else await requestCancel(tx, id);
        result = 'requested';
      } else {
        throw new AppError('conflict', [{ field: 'id', message: 'execution_finished' }]);
      }
      await record(tx, result);
      return { execution, result };
    });
    this.publish.live(clientId, {
      type: 'execution',
      execution_id: id,
      rota_robots_id: outcome.execution.rota_robots_id,
      status: outcome.result === 'cancelled' ? 'cancelled' : 'processing',
    });
    return outcome.result;
  }

  /**
   * "Mark as failed": an operator ends a processing run whose agent is gone, now, as an
   * application error with `message`, without waiting for its lease and without a retry. The
   * attempt is ended by the server, so its agent is fenced as for a reaped run: the run token is
   * refused, a later result is kept as late, its log batches are told to stop; tasks it held go
   * back to pending.
   */
  async markFailed(
    clientId: number,
    id: number,
    /** The English text and its run-message code and values. */
    message: Pick<AttemptResult, 'message' | 'code' | 'params'>,
    /** Writes the audit record in its transaction. */
    record: (tx: Db) => Promise<void>,
  ): Promise<void> {
    const settled = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const execution = await lockExecution(tx, clientId, id);
      if (!execution) throw notFound();
      if (execution.status !== 'processing') {
        throw new AppError('conflict', [{ field: 'id', message: 'execution_not_processing' }]);
      }
      // Final and an error, whatever a retry count or an earlier cancel would have made of it.
      const out = await settleAttempt(
        tx,
        { ...execution, retries: 0, cancel_requested_at: null },
        { status: 'application_error', exit_code: null, ...message },
      );
      await record(tx);
      return out;
    });
    this.settlements.announce(settled);
  }
}
