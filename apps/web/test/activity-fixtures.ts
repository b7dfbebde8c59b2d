import {
  EXECUTION_STATUSES,
  type Dashboard,
  type Execution,
  type ExecutionDetail,
  type ExecutionLogLine,
  type LiveEvent,
} from '@rota/contract';
import type { MockReply } from './http-mock';

/** Fixtures for executions, logs and the dashboard, and a fake live-events stream. */

export function makeExecution(overrides: Partial<Execution> = {}): Execution {
  return {
    execution_id: 42,
    rota_robots_id: 1,
    rota_robots_name: 'Faturas',
    rota_schedulings_id: 3,
    rota_schedulings_name: 'Faturas de hora em hora',
    rota_vms_id: 1,
    rota_vms_name: 'vm-financeiro',
    rota_nodes_id: 5,
    rota_executor_name: 'agente-01',
    rota_robot_versions_id: 10,
    version: '1.2.0',
    status: 'success',
    trigger: 'schedule',
    priority: 50,
    timeout_minutes: 60,
    retries: 2,
    attempts: 1,
    exit_code: 0,
    message: null,
    queued_at: '2026-11-20T09:59:00.000Z',
    start_date: '2026-11-20T10:00:00.000Z',
    end_date: '2026-11-20T10:01:05.000Z',
    duration_ms: 65_000,
    cancel_requested: false,
    pending_reason: null,
    missing_labels: [],
    labels: [],
    progress_percent: null,
    progress_message: null,
    last_activity_at: null,
    stalled: false,
    connection_lost_at: null,
    attended_by: null,
    attended_by_name: null,
    ...overrides,
  };
}

export function makeExecutionDetail(overrides: Partial<ExecutionDetail> = {}): ExecutionDetail {
  return {
    ...makeExecution(),
    attempt_list: [
      {
        attempt: 1,
        rota_nodes_id: 5,
        rota_executor_name: 'agente-01',
        status: 'success',
        exit_code: 0,
        message: null,
        start_date: '2026-11-20T10:00:00.000Z',
        end_date: '2026-11-20T10:01:05.000Z',
        late_result: null,
        refused_calls: 0,
      },
    ],
    ...overrides,
  };
}

export function makeLogLine(
  seq: number,
  overrides: Partial<ExecutionLogLine> = {},
): ExecutionLogLine {
  return {
    seq,
    attempt: 1,
    stream: 'stdout',
    line: `linha ${seq}`,
    at: '2026-11-20T10:00:01.000Z',
    ...overrides,
  };
}

const zeroCounts = () =>
  Object.fromEntries(EXECUTION_STATUSES.map((status) => [status, 0])) as Record<
    (typeof EXECUTION_STATUSES)[number],
    number
  >;

export function makeDashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    categories: { process: 2, failure: 3, others: 7, idle: 11 },
    per_day: [
      { day: '2026-11-19', counts: { ...zeroCounts(), success: 4, application_error: 1 } },
      { day: '2026-11-20', counts: { ...zeroCounts(), success: 2, timeout: 1, processing: 1 } },
    ],
    agents: { active: 4, inactive: 1 },
    vms: { total: 3, active: 2, inactive: 1 },
    failing_robots: [
      { rota_robots_id: 1, rota_robots_name: 'Faturas', failures: 2, executions: 6 },
      { rota_robots_id: 2, rota_robots_name: 'Boletos', failures: 1, executions: 3 },
    ],
    totals: { executions: 9, robots: 23 },
    task_sla: [],
    stalled: 0,
    ...overrides,
  };
}

/**
 * A fake `GET …/events/api/v1/stream`: each call gets a new open event stream; `send` writes an
 * event to every stream opened so far, split in two chunks mid-line as a network would.
 */
export function createLiveServer() {
  const encoder = new TextEncoder();
  const controllers: ReadableStreamDefaultController<Uint8Array>[] = [];
  return {
    get connections() {
      return controllers.length;
    },
    reply(): MockReply {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controllers.push(controller);
          controller.enqueue(encoder.encode(': connected\n\n'));
        },
      });
      return { status: 200, raw: stream, headers: { 'Content-Type': 'text/event-stream' } };
    },
    send(event: LiveEvent) {
      const text = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
      const middle = Math.floor(text.length / 2);
      for (const controller of controllers) {
        try {
          controller.enqueue(encoder.encode(text.slice(0, middle)));
          controller.enqueue(encoder.encode(text.slice(middle)));
        } catch {
          // A stream the console closed.
        }
      }
    },
  };
}
