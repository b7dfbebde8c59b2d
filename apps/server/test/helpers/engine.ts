import { expect } from 'vitest';
import type { ClaimedRun } from '@rota/contract';
import type { App } from '../../src/http/app.js';
import { client } from './test-app.js';

export const AGENT = '/api/rota/agent/api/v1';
export const RUN_API = '/api/rota/run/api/v1';
export const ACTIVITY = '/api/rota/activity/api/v1';
export const ROBOT = '/api/rota/robot/api/v1';

/** Speaks the agent protocol as `apps/agent` does, through app.inject. */
export function simulatedAgent(app: App, token: string) {
  const as = client(app, { token });
  return {
    hello: () =>
      as.post(`${AGENT}/hello`, { hostname: 'sim.lan', version: 'test', os: 'linux test' }),
    heartbeat: (running: { execution_id: number; attempt: number }[] = []) =>
      as.post(`${AGENT}/heartbeat`, { running }),
    async claim(wait_seconds = 0) {
      const res = await as.post(`${AGENT}/claim`, { wait_seconds });
      expect(res.status).toBe(200);
      return res.body.data as null | {
        execution_id: number;
        attempt: number;
        timeout_minutes: number;
        robot: { rota_robots_id: number; executor: string };
        package: null | { sha256: string; download_path: string };
        environment: Record<string, string>;
      };
    },
    logs: (execution_id: number, attempt: number, lines: string[], from = 1) =>
      as.post(`${AGENT}/logs`, {
        execution_id,
        attempt,
        lines: lines.map((line, i) => ({
          seq: from + i,
          stream: 'stdout',
          line,
          at: new Date().toISOString(),
        })),
      }),
    finish: (
      execution_id: number,
      attempt: number,
      status: string,
      exit_code: number | null = null,
      message: string | null = null,
    ) => as.post(`${AGENT}/finish`, { execution_id, attempt, status, exit_code, message }),
    /** Up to `max` runs at once (`claim-batch`). */
    async claimBatch(max: number, wait_seconds = 0) {
      const res = await as.post(`${AGENT}/claim-batch`, { wait_seconds, max });
      expect(res.status).toBe(200);
      return res.body.data.runs as ClaimedRun[];
    },
    /** A successful result; with `claim`, the same request asks for the next runs. */
    finishRun: (run: { execution_id: number; attempt: number }, claim?: object) =>
      as.post(`${AGENT}/finish`, {
        execution_id: run.execution_id,
        attempt: run.attempt,
        status: 'success',
        exit_code: 0,
        message: null,
        ...(claim ? { claim } : {}),
      }),
    get: (url: string) => as.get(url),
    post: (url: string, body: object) => as.post(url, body),
  };
}

export async function runNow(
  as: ReturnType<typeof client>,
  body: { id: number } & Record<string, unknown>,
): Promise<number> {
  const res = await as.post(`${ROBOT}/run`, body);
  expect(res.status).toBe(201);
  return res.body.data.execution_id as number;
}

export async function executionOf(as: ReturnType<typeof client>, id: number) {
  const res = await as.post(`${ACTIVITY}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as {
    status: string;
    attempts: number;
    exit_code: number | null;
    message: string | null;
    rota_executor_name: string | null;
    connection_lost_at: string | null;
    attempt_list: {
      attempt: number;
      status: string;
      message: string | null;
      start_date: string;
      end_date: string | null;
    }[];
  };
}
