import type { ExecutionStatus } from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import {
  countsPerDay,
  latestStatusCounts,
  mostFailing,
  stalledCount,
  type QueuedRange,
} from './execution-stats-repository.js';

/** What the dashboard counts of executions, for the robots the scope sees. */
export class ExecutionStatsService {
  constructor(private readonly db: Db) {}

  latestStatusCounts(scope: TenantScope, range: QueuedRange) {
    return latestStatusCounts(this.db, scope, range);
  }

  countsPerDay(scope: TenantScope, range: QueuedRange, timeZone: string) {
    return countsPerDay(this.db, scope, range, timeZone);
  }

  mostFailing(scope: TenantScope, range: QueuedRange, failures: readonly ExecutionStatus[]) {
    return mostFailing(this.db, scope, range, failures);
  }

  /** Processing runs flagged stalled now, whatever the range. */
  stalledCount(scope: TenantScope) {
    return stalledCount(this.db, scope);
  }
}
