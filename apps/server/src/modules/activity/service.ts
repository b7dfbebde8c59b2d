import {
  type ActivityExportQuery,
  type ActivityListQuery,
  type Execution,
  type ExecutionDetail,
  type ExecutionLogQuery,
  type ExecutionLogResponse,
  type ExecutionStatus,
  type ListResponse,
  type LogStream,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import type { DispatchService } from '../engine/dispatch-service.js';
import { assertDateRange } from '../../lib/date-range.js';
import {
  exportExecutions,
  findExecution,
  listAttempts,
  listExecutions,
  listLogLines,
  type ExecutionListRow,
} from './repository.js';

export const toExecution = (row: ExecutionListRow): Execution => ({
  ...row,
  status: row.status as ExecutionStatus,
  trigger: row.trigger as Execution['trigger'],
  queued_at: iso(row.queued_at),
  start_date: isoOrNull(row.start_date),
  end_date: isoOrNull(row.end_date),
  duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
});

const CSV_COLUMNS = [
  'execution_id',
  'rota_robots_name',
  'rota_executor_name',
  'rota_schedulings_name',
  'rota_vms_name',
  'status',
  'trigger',
  'attempts',
  'queued_at',
  'start_date',
  'end_date',
  'duration_ms',
  'exit_code',
  'message',
] as const satisfies readonly (keyof Execution)[];

/** RFC 4180 field; a leading =, +, - or @ is defused so a spreadsheet never runs it. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The activity history (HISTORIC): executions, their attempts and logs, cancel, export. */
export class ActivityService {
  constructor(
    private readonly db: Db,
    private readonly dispatch: DispatchService,
  ) {}

  list(scope: TenantScope, query: ActivityListQuery): Promise<ListResponse<Execution>> {
    assertDateRange(query);
    return listExecutions(this.db, scope, query, toExecution);
  }

  async show(scope: TenantScope, id: number): Promise<ExecutionDetail> {
    const row = await findExecution(this.db, scope, id);
    if (!row) throw notFound();
    const attempts = await listAttempts(this.db, scope, id);
    return {
      ...toExecution(row),
      attempt_list: attempts.map((a) => ({
        ...a,
        status: a.status as ExecutionStatus,
        start_date: iso(a.start_date),
        end_date: isoOrNull(a.end_date),
      })),
    };
  }

  async logs(scope: TenantScope, query: ExecutionLogQuery): Promise<ExecutionLogResponse> {
    if (!(await findExecution(this.db, scope, query.id))) throw notFound();
    const lines = await listLogLines(this.db, scope, query.id, query.after, query.limit);
    const data = lines.map((l) => ({
      seq: Number(l.seq),
      attempt: l.attempt,
      stream: l.stream as LogStream,
      line: l.line,
      at: iso(l.at),
    }));
    return { data, meta: { last_seq: data.at(-1)?.seq ?? query.after } };
  }

  async cancel(scope: TenantScope, id: number) {
    // The dispatcher knows clients, not teams: a run of a robot the caller cannot see is absent.
    if (scope.robotIds && !(await findExecution(this.db, scope, id))) throw notFound();
    return this.dispatch.cancel(scope.clientId, id);
  }

  /** CSV lines (header first) of the whole filtered range, produced page by page. */
  async *exportCsv(scope: TenantScope, query: ActivityExportQuery): AsyncGenerator<string> {
    assertDateRange(query);
    yield `${CSV_COLUMNS.join(',')}\r\n`;
    for await (const rows of exportExecutions(this.db, scope, query)) {
      yield rows
        .map((row) => {
          const execution = toExecution(row);
          return `${CSV_COLUMNS.map((c) => csvField(execution[c])).join(',')}\r\n`;
        })
        .join('');
    }
  }
}
