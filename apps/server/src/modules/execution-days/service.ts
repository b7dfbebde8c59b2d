import type { ExecutionStatus } from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import {
  adoptZone,
  countsPerDay,
  mergeDays,
  mostFailing,
  recordedZone,
  total,
  type DayFilter,
  type DayRange,
} from './repository.js';

/** The server's time zone (TZ): the days of the dashboard and of the activity filters. */
export const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Changes folded per merge statement; a merge pass repeats while batches come back full. */
const MERGE_BATCH = 50_000;
/** How often each server offers to merge (one at a time merges; the others skip at once). */
const MERGE_INTERVAL_MS = 5_000;

export interface ExecutionDaysOptions {
  /** The zone this server reads days in (SERVER_TIME_ZONE). */
  zone?: string;
  intervalMs?: number;
  log?: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
}

/**
 * Executions counted per client, robot, day and status (`rota_execution_days`), for the reads
 * that would otherwise count every execution of their range: the dashboard's days and failing
 * robots, the activity list's total. Each read answers null when the days are not counted in
 * this server's zone (no server recorded one yet, or another server's TZ differs): the caller
 * then counts the executions, as exact and slower.
 */
export class ExecutionDaysService {
  private recorded: string | null = null;
  private warned = false;
  private timer: NodeJS.Timeout | null = null;
  private merging: Promise<unknown> | null = null;
  readonly zone: string;

  constructor(
    private readonly db: Db,
    private readonly options: ExecutionDaysOptions = {},
  ) {
    this.zone = options.zone ?? SERVER_TIME_ZONE;
  }

  /** Records this server's zone and fills the days when no server has (at start). */
  async adopt(): Promise<void> {
    this.recorded = await adoptZone(this.db, this.zone);
    this.warnOnOtherZone();
  }

  /** Whether the days are counted in this server's zone. */
  async counted(): Promise<boolean> {
    // Once recorded, a zone never changes: only a missing one is read again.
    this.recorded ??= await recordedZone(this.db);
    this.warnOnOtherZone();
    return this.recorded === this.zone;
  }

  private warnOnOtherZone() {
    if (this.warned || !this.recorded || this.recorded === this.zone) return;
    this.warned = true;
    this.options.log?.warn(
      { recorded: this.recorded, zone: this.zone },
      'execution days are counted in another time zone: the dashboard counts executions instead',
    );
  }

  async countsPerDay(scope: TenantScope, days: DayRange) {
    return (await this.counted()) ? countsPerDay(this.db, scope, days) : null;
  }

  async mostFailing(scope: TenantScope, days: DayRange, failures: readonly ExecutionStatus[]) {
    return (await this.counted()) ? mostFailing(this.db, scope, days, failures) : null;
  }

  /** The executions of the days matching the filter, as a list total takes it. */
  async total(scope: TenantScope, days: DayRange, filter: DayFilter) {
    return (await this.counted()) ? [{ total: await total(this.db, scope, days, filter) }] : null;
  }

  /** Folds every appended change into its day's row; answers how many it folded. */
  async merge(): Promise<number> {
    let folded = 0;
    for (;;) {
      const n = await mergeDays(this.db, MERGE_BATCH);
      folded += n;
      if (n < MERGE_BATCH) return folded;
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.merging) return;
      this.merging = this.merge()
        .catch((error: unknown) =>
          this.options.log?.error({ err: error }, 'could not merge the execution days'),
        )
        .finally(() => (this.merging = null));
    }, this.options.intervalMs ?? MERGE_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.merging;
  }
}
