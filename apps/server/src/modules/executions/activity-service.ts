import {
  type ActivityExportQuery,
  type ActivityListQuery,
  type Execution,
  type ExecutionDetail,
  type ExecutionLogQuery,
  type ExecutionLogResponse,
  type ExecutionStatus,
  type Language,
  type ListResponse,
  type LogStream,
  runMessageText,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { RunControl } from '../dispatch/run-control.js';
import type { ExecutionDaysService } from '../execution-days/service.js';
import { assertDateRange } from '../../lib/date-range.js';
import { csvWriter } from './activity-csv.js';
import {
  exportExecutions,
  findExecution,
  listAttempts,
  listExecutions,
  listLogLines,
  allLogLines,
  pendingReasonsOf,
  type ExecutionListRow,
} from './activity-repository.js';

export const toExecution = (row: ExecutionListRow): Execution => ({
  ...row,
  status: row.status as ExecutionStatus,
  trigger: row.trigger as Execution['trigger'],
  queued_at: iso(row.queued_at),
  start_date: isoOrNull(row.start_date),
  end_date: isoOrNull(row.end_date),
  last_activity_at: isoOrNull(row.last_activity_at),
  connection_lost_at: isoOrNull(row.connection_lost_at),
  duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
  attempt_start_date: isoOrNull(row.attempt_start_date),
  pending_reason: null,
  missing_labels: [],
});

/**
 * The last line of an export that failed after its first byte (the status was already 200):
 * visible in the file, in the first column, so nobody takes a cut export for a whole one.
 */
export const CSV_EXPORT_FAILED_LINE =
  '"#ERROR: the export stopped early; the rows above are complete, the rest are missing"\r\n';

/** The activity history (HISTORIC): executions, their attempts and logs, cancel, export. */
export class ActivityService {
  constructor(
    private readonly db: Db,
    private readonly control: RunControl,
    private readonly audit: AuditService,
    /** Rows per query of the CSV export. */
    private readonly exportBatch = 1000,
    /** The counted days, for totals a list's filters allow; none: every total is counted. */
    private readonly days: ExecutionDaysService | null = null,
  ) {}

  async list(scope: TenantScope, query: ActivityListQuery): Promise<ListResponse<Execution>> {
    assertDateRange(query);
    const page = await listExecutions(this.db, scope, query, toExecution, this.countedTotal(query));
    return { ...page, data: await this.withPendingReasons(scope, page.data) };
  }

  /**
   * The total from the counted days when the filters are theirs (days, status, robot) and the
   * days are counted in this server's zone; else undefined, and the list counts its rows.
   */
  private countedTotal(query: ActivityListQuery) {
    const days = this.days;
    const theirs =
      !query.search &&
      query.rota_schedulings_id === undefined &&
      query.rota_nodes_id === undefined &&
      query.stalled === undefined;
    if (!days || !theirs) return undefined;
    return (scope: TenantScope) =>
      days.total(
        scope,
        { startDate: query.startDate, endDate: query.endDate },
        { status: query.status, rota_robots_id: query.rota_robots_id },
      );
  }

  /** `pending_reason` of the queued ones, read at once for the page (one statement). */
  private async withPendingReasons(scope: TenantScope, executions: Execution[]) {
    const queued = executions.filter((x) => x.status === 'queued').map((x) => x.execution_id);
    if (queued.length === 0) return executions;
    const reasons = await pendingReasonsOf(this.db, scope.clientId, queued);
    return executions.map((x) => {
      const pending = reasons.get(x.execution_id);
      return {
        ...x,
        pending_reason: pending?.reason ?? null,
        missing_labels: pending?.missing_labels ?? [],
      };
    });
  }

  async show(scope: TenantScope, id: number): Promise<ExecutionDetail> {
    const row = await findExecution(this.db, scope, id);
    if (!row) throw notFound();
    const attempts = await listAttempts(this.db, scope, id);
    const [execution] = await this.withPendingReasons(scope, [toExecution(row)]);
    return {
      ...execution!,
      attempt_list: attempts.map(
        ({ late_status, late_exit_code, late_message, late_reported_at, ...a }) => ({
          ...a,
          status: a.status as ExecutionStatus,
          start_date: iso(a.start_date),
          end_date: isoOrNull(a.end_date),
          late_result:
            late_status !== null && late_reported_at !== null
              ? {
                  status: late_status as ExecutionStatus,
                  exit_code: late_exit_code,
                  message: late_message,
                  reported_at: iso(late_reported_at),
                }
              : null,
        }),
      ),
    };
  }

  async logs(scope: TenantScope, query: ExecutionLogQuery): Promise<ExecutionLogResponse> {
    if (!(await findExecution(this.db, scope, query.id))) throw notFound();
    const lines = await listLogLines(
      this.db,
      scope,
      query.id,
      query.after,
      query.limit,
      query.search,
    );
    const data = lines.map((l) => ({
      seq: Number(l.seq),
      attempt: l.attempt,
      stream: l.stream as LogStream,
      line: l.line,
      at: iso(l.at),
      code: l.code,
      params: l.params,
    }));
    return { data, meta: { last_seq: data.at(-1)?.seq ?? query.after } };
  }

  /**
   * The whole log as text lines (`<time> <stream> <line>`, a header where an attempt starts),
   * read in batches. The execution is checked before this resolves, so a refusal is a proper
   * answer; a later failure ends the file with a line saying so.
   */
  async logText(
    scope: TenantScope,
    id: number,
    onError: (error: unknown) => void,
  ): Promise<AsyncGenerator<string>> {
    if (!(await findExecution(this.db, scope, id))) throw notFound();
    const pages = allLogLines(this.db, scope, id, this.exportBatch);
    return (async function* text() {
      let attempt = 0;
      try {
        for await (const lines of pages) {
          let chunk = '';
          for (const l of lines) {
            if (l.attempt !== attempt) {
              attempt = l.attempt;
              chunk += `--- attempt ${attempt} ---\n`;
            }
            chunk += `${iso(l.at)} ${l.stream} ${l.line}\n`;
          }
          yield chunk;
        }
      } catch (error) {
        onError(error);
        yield '--- the download stopped early; the lines above are complete, the rest are missing ---\n';
      }
    })();
  }

  async cancel(scope: TenantScope, id: number, author: AuditAuthor) {
    // The dispatcher knows clients, not teams: a run of a robot the caller cannot see is absent.
    if (scope.robotIds && !(await findExecution(this.db, scope, id))) throw notFound();
    return this.control.cancel(scope.clientId, id, (tx, outcome) =>
      this.audit.write(tx, author, {
        action: 'cancel',
        entity: 'execution',
        entity_id: id,
        after: { outcome },
      }),
    );
  }

  /**
   * A graceful stop: a queued run is cancelled at once, a processing one's robot gets SIGTERM
   * and `graceSeconds` before its tree is killed (ends `cancelled`, "stopped" or "killed after
   * N s"). Guarded and audited like `cancel`.
   */
  async stop(scope: TenantScope, id: number, graceSeconds: number, author: AuditAuthor) {
    if (scope.robotIds && !(await findExecution(this.db, scope, id))) throw notFound();
    return this.control.cancel(
      scope.clientId,
      id,
      (tx, outcome) =>
        this.audit.write(tx, author, {
          action: 'stop',
          entity: 'execution',
          entity_id: id,
          after: { outcome, grace_seconds: graceSeconds },
        }),
      graceSeconds,
    );
  }

  /**
   * "Mark as failed": a processing run whose agent is gone ends now as an application error
   * "ended by <user>", audited in the same transaction; its agent is fenced.
   */
  async markFailed(scope: TenantScope, id: number, author: AuditAuthor) {
    if (scope.robotIds && !(await findExecution(this.db, scope, id))) throw notFound();
    const who = author.user
      ? [author.user.name, author.user.last_name].filter((x) => x.trim() !== '').join(' ')
      : 'the system';
    const message = runMessageText('ended_by', { who });
    const result = { message, code: 'ended_by', params: { who } };
    await this.control.markFailed(scope.clientId, id, result, (tx) =>
      this.audit.write(tx, author, {
        action: 'mark_failed',
        entity: 'execution',
        entity_id: id,
        after: { status: 'application_error', message },
      }),
    );
  }

  /**
   * CSV lines (header first) of the whole filtered range, produced page by page. Everything that
   * can refuse the request (the range, the first query) runs before this resolves, so it fails
   * as a proper error answer; a later page that fails ends the file with CSV_EXPORT_FAILED_LINE
   * (reported to `onError`) instead of a broken connection.
   */
  async exportCsv(
    scope: TenantScope,
    query: ActivityExportQuery,
    onError: (error: unknown) => void,
    lang: Language = 'en',
  ): Promise<AsyncGenerator<string>> {
    assertDateRange(query);
    const pages = exportExecutions(this.db, scope, query, this.exportBatch);
    const first = await pages.next();
    const csv = csvWriter({ lang, timeZone: query.timeZone ?? 'UTC' });
    const csvLine = (row: ExecutionListRow) => csv.line(toExecution(row));
    return (async function* lines() {
      yield csv.header();
      if (first.done) return;
      yield first.value.map(csvLine).join('');
      try {
        for await (const rows of pages) yield rows.map(csvLine).join('');
      } catch (error) {
        onError(error);
        yield CSV_EXPORT_FAILED_LINE;
      }
    })();
  }
}
