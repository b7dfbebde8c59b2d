import type { Db } from '../../db/client.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { pruneAlertHistory } from '../alerts/statements.js';
import { pruneAuditRecords } from '../audit/statements.js';
import { pruneSpentCredentials } from '../auth/statements.js';
import { clientRetentions } from '../clients/statements.js';
import { pruneEndedExecutions } from '../executions/statements.js';
import { claimDuty } from '../scheduler/statements.js';

const DUTY_KEY = 'retention';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Alert events and deliveries (the bell, the delivery log) are kept this long. */
const ALERT_RETENTION_DAYS = 30;
/** A little under a day, so the pass does not drift later by a check interval every night. */
const INTERVAL_SECONDS = 23.5 * 60 * 60;
/** How often an instance asks whether the nightly pass is due (a single upsert). */
const CHECK_MS = 5 * 60 * 1000;

export interface RetentionOptions {
  clock?: Clock;
  log: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
  /** Drops sign-in throttles and rate-limit windows no longer needed (AuthService.prune). */
  pruneThrottles: () => Promise<void>;
  /** Executions per delete statement (each its own short transaction). */
  executionBatch?: number;
  /** Audit records per delete statement. */
  auditBatch?: number;
}

/** What one pass removed. */
export interface RetentionReport {
  executions: number;
  audit_records: number;
  sessions: number;
  reset_codes: number;
  alert_events: number;
  alert_deliveries: number;
}

/**
 * The nightly retention: per client, executions ended more than `retention_days`
 * ago (their attempts, logs and artifacts go with them) and audit records older than
 * `audit_retention_days`; then spent sessions, reset codes, throttles and rate-limit windows.
 * Once per cluster: whichever instance stamps the duty first runs it. Deletes go in batches,
 * each statement its own transaction, so no lock is held for long and claims keep flowing.
 */
export class RetentionService {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly options: RetentionOptions,
  ) {}

  private now(): Date {
    return (this.options.clock ?? systemClock).now();
  }

  /** Runs the pass when no instance ran it in the last ~day; null when it was not due. */
  async runIfDue(): Promise<RetentionReport | null> {
    if (!(await claimDuty(this.db, DUTY_KEY, this.now(), INTERVAL_SECONDS))) return null;
    const report = await this.prune();
    this.options.log.info(report, 'retention: pruned');
    return report;
  }

  /** One pass, without the duty (runIfDue takes it); tests and the bench call it directly. */
  async prune(): Promise<RetentionReport> {
    const now = this.now().getTime();
    const executionBatch = this.options.executionBatch ?? 500;
    const auditBatch = this.options.auditBatch ?? 5000;
    const report: RetentionReport = {
      executions: 0,
      audit_records: 0,
      sessions: 0,
      reset_codes: 0,
      alert_events: 0,
      alert_deliveries: 0,
    };
    for (const client of await clientRetentions(this.db)) {
      const runsBefore = new Date(now - client.retention_days * DAY_MS);
      report.executions += await this.drain(
        (n) => pruneEndedExecutions(this.db, client.rota_clients_id, runsBefore, n),
        executionBatch,
      );
      const auditBefore = new Date(now - client.audit_retention_days * DAY_MS);
      try {
        report.audit_records += await this.drain(
          (n) => pruneAuditRecords(this.db, client.rota_clients_id, auditBefore, n),
          auditBatch,
        );
      } catch (err) {
        // An audit prune that fails (its trigger, migration 0017) must not keep the
        // executions and credentials from going.
        this.options.log.error(
          { err, client: client.rota_clients_id },
          'retention: audit prune failed',
        );
      }
    }
    const alertsBefore = new Date(now - ALERT_RETENTION_DAYS * DAY_MS);
    for (;;) {
      const gone = await pruneAlertHistory(this.db, alertsBefore, auditBatch);
      report.alert_events += gone.events;
      report.alert_deliveries += gone.deliveries;
      if (this.stopped || (gone.events < auditBatch && gone.deliveries < auditBatch)) break;
    }
    const spent = await pruneSpentCredentials(this.db);
    report.sessions = spent.sessions;
    report.reset_codes = spent.reset_codes;
    await this.options.pruneThrottles();
    return report;
  }

  start() {
    const check = () => {
      this.running = this.runIfDue()
        .catch((err: unknown) => this.options.log.error({ err }, 'retention pass failed'))
        .finally(() => {
          this.running = null;
        });
    };
    this.timer = setInterval(check, CHECK_MS);
    this.timer.unref();
    check();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /**
   * Repeats a batched delete until a batch comes back short (or the server stops: the next
   * night goes on from there); answers the rows removed.
   */
  private async drain(step: (batch: number) => Promise<number>, batch: number): Promise<number> {
    let total = 0;
    while (!this.stopped) {
      const n = await step(batch);
      total += n;
      if (n < batch) break;
    }
    return total;
  }
}
